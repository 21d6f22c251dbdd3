"""factory-boy factories for the models tests need."""

from functools import cache

import factory
from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth.hashers import make_password

from ttr_site.accounts.models import User

PASSWORD = "correct-horse-battery"


def hashed(password: str) -> str:
    """``password`` hashed once per test process with the hasher in force (the site's PBKDF2
    unless a test sets a faster one; PBKDF2 takes about 0.5 s here, and a fixture making four
    users paid two seconds before). Users share the salt, which no test looks at; a login
    still checks the password with that hasher."""
    return _hashed(password, settings.PASSWORD_HASHERS[0])


@cache
def _hashed(password: str, hasher_path: str) -> str:  # hasher_path: part of the cache key
    return make_password(password)


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
        self.password = hashed(extracted or PASSWORD)
        if create:
            self.save(update_fields=["password"])
            EmailAddress.objects.get_or_create(
                user=self, email=self.email, defaults={"verified": True, "primary": True}
            )
