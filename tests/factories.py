"""factory-boy factories for the models tests need."""

import factory
from allauth.account.models import EmailAddress

from ttr_site.accounts.models import User

PASSWORD = "correct-horse-battery"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"player{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.com")
    display_name = factory.LazyAttribute(lambda u: u.username.capitalize())

    @factory.post_generation
    def password(self, create, extracted, **kwargs):
        self.set_password(extracted or PASSWORD)
        if create:
            self.save(update_fields=["password"])
            EmailAddress.objects.get_or_create(
                user=self, email=self.email, defaults={"verified": True, "primary": True}
            )
