"""``manage.py seed_demo``: idempotent demo data, so a new user can log in at once."""

from allauth.account.models import EmailAddress
from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import transaction

from ladder.demo import seed_demo_tournaments, seed_rated_history
from ttr_site.accounts.models import User

DEMO_PASSWORD = "ticket-to-ride"
DEMO_USERS = [
    # username, display name, country
    ("alice", "Alice", "NL"),
    ("bob", "Bob", "DE"),
    ("carol", "Carol", "GB"),
    ("dave", "Dave", "BE"),
]


class Command(BaseCommand):
    help = f"Create demo players (password {DEMO_PASSWORD!r}); safe to run again."

    @transaction.atomic
    def handle(self, *args, **options):
        created = 0
        for username, display_name, country in DEMO_USERS:
            email = f"{username}@example.com"
            user, was_created = User.objects.get_or_create(
                username=username,
                defaults={"email": email, "display_name": display_name, "country": country},
            )
            if was_created:
                user.set_password(DEMO_PASSWORD)
                user.save(update_fields=["password"])
                created += 1
            EmailAddress.objects.update_or_create(
                user=user, email=email, defaults={"verified": True, "primary": True}
            )
        admin, was_created = User.objects.get_or_create(
            username="admin",
            defaults={"email": "admin@example.com", "is_staff": True, "is_superuser": True},
        )
        if was_created:
            admin.set_password(DEMO_PASSWORD)
            admin.save(update_fields=["password"])
            created += 1
        EmailAddress.objects.update_or_create(
            user=admin, email="admin@example.com", defaults={"verified": True, "primary": True}
        )
        players = {
            u.username: u for u in User.objects.filter(username__in=[u for u, *_ in DEMO_USERS])
        }
        rated = seed_rated_history(players)
        if rated:
            self.stdout.write(f"Added {rated} demo rated results to the Europe ladder.")
        bots_play = settings.DEMO_BOT_TOURNAMENTS
        for name in seed_demo_tournaments(players, admin, bots_play=bots_play):
            self.stdout.write(f"Added the demo tournament {name!r}.")
        names = ", ".join([u for u, *_ in DEMO_USERS] + ["admin"])
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo data ready ({created} new). Log in as {names} "
                f"with password {DEMO_PASSWORD!r}."
            )
        )
