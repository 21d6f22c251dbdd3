"""Leagues, their members, rated matches and the ladders built from them.

Terms: a *league* plays one rule set and variant and allows some time controls; a *ladder*
is the ratings of one league in one time control (each time control is rated apart); a
*match* is one finished rated table of a league, numbered by ``seq`` in the order results
were recorded (the finishing order the ladder is built in); a *rating change* is derived
data, one row per player per counted match, rebuilt by a recalculation.
Only ``ladder.services`` writes these rows.
"""

import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from games.models import Ruleset, TimeControl, Variant
from ladder import rating, stock_texts


def new_invite_token() -> str:
    return secrets.token_urlsafe(12)


def all_time_controls() -> list[str]:
    return list(TimeControl.values)


class LeagueQuerySet(models.QuerySet):
    def visible_to(self, user):
        """Public leagues, and private ones the user belongs to: ``League.visible_to`` for a
        member (lists show staff no more than that: the rule lets staff open any league)."""
        if not getattr(user, "is_authenticated", False):
            return self.filter(is_private=False)
        return self.filter(models.Q(is_private=False) | models.Q(memberships__user=user)).distinct()


class League(models.Model):
    name = models.CharField(_("name"), max_length=60)
    slug = models.SlugField(max_length=70, unique=True)
    description = models.TextField(_("description"), max_length=1000, blank=True)
    ruleset = models.CharField(
        _("map"), max_length=20, choices=Ruleset.choices, default=Ruleset.EUROPE
    )
    variant = models.CharField(
        _("tickets"), max_length=20, choices=Variant.choices, default=Variant.CLASSIC
    )
    time_controls = models.JSONField(_("time controls"), default=all_time_controls)
    is_private = models.BooleanField(_("private"), default=False)
    invite_token = models.CharField(max_length=32, default=new_invite_token, unique=True)
    is_default = models.BooleanField(default=False, help_text="the public league of a rule set")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # The next match number; taken under this row's lock (one writer per league).
    next_seq = models.BigIntegerField(default=1)

    objects = LeagueQuerySet.as_manager()

    class Meta:
        ordering = ["-is_default", "name", "id"]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("league", kwargs={"slug": self.slug})

    @property
    def display_description(self) -> str:
        """The description in the reader's language if it is still the site's stock text."""
        return stock_texts.shown(self.description)

    def time_control_choices(self) -> list[tuple[str, str]]:
        return [(v, label) for v, label in TimeControl.choices if v in self.time_controls]

    def visible_to(self, user) -> bool:
        """Whether ``user`` may see this league, its members, matches, tournaments and tables:
        the one rule every reader asks (pages, REST, and through them the league's tables,
        ``games.Table.visible_to``). A public league: anyone; a private one: its members and
        staff."""
        if not self.is_private:
            return True
        return getattr(user, "is_staff", False) or self.membership_of(user) is not None

    def membership_of(self, user) -> "Membership | None":
        if not getattr(user, "is_authenticated", False):
            return None
        return self.memberships.filter(user=user).first()

    def is_admin(self, user) -> bool:
        if getattr(user, "is_staff", False):
            return True
        member = self.membership_of(user)
        return member is not None and member.role == Membership.Role.ADMIN


class Membership(models.Model):
    class Role(models.TextChoices):
        MEMBER = "member", _("Member")
        ADMIN = "admin", _("Admin")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="league_memberships"
    )
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.MEMBER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["joined_at", "id"]
        constraints = [models.UniqueConstraint(fields=["league", "user"], name="membership_unique")]

    def __str__(self):
        return f"{self.user} in {self.league}"


class Rating(models.Model):
    """A player's current standing on one ladder (derived: rebuilt by a recalculation)."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="ratings")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    time_control = models.CharField(max_length=12, choices=TimeControl.choices)
    rating = models.FloatField(default=rating.START)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    last_seq = models.BigIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["league", "user", "time_control"], name="rating_unique")
        ]
        indexes = [models.Index(fields=["league", "time_control", "-rating"])]

    def __str__(self):
        return f"{self.user} {self.display}"

    @property
    def provisional(self) -> bool:
        return rating.is_provisional(self.games)

    @property
    def display(self) -> str:
        return f"{round(self.rating)}{'?' if self.provisional else ''}"


class Match(models.Model):
    """One finished rated table of a league (at most one per table: recording is idempotent)."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="matches")
    table = models.OneToOneField(
        "games.Table", on_delete=models.CASCADE, related_name="ladder_match"
    )
    time_control = models.CharField(max_length=12, choices=TimeControl.choices)
    seq = models.BigIntegerField(help_text="recording order within the league")
    size = models.PositiveSmallIntegerField()
    finished_at = models.DateTimeField()
    annulled = models.BooleanField(default=False)
    annulled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    annulled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-seq"]
        constraints = [models.UniqueConstraint(fields=["league", "seq"], name="match_seq_unique")]

    def __str__(self):
        return f"{self.league} #{self.seq}"


class MatchPlayer(models.Model):
    """A player's result in a match (the fact a ladder is built from; never rewritten)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="players")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField()
    score = models.IntegerField()
    rank = models.PositiveSmallIntegerField(help_text="the engine's rank")
    place = models.PositiveSmallIntegerField(help_text="rank for rating: abandoned seats last")
    abandoned = models.BooleanField(default=False)

    class Meta:
        ordering = ["match", "place", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["match", "user"], name="match_player_unique")
        ]

    def __str__(self):
        return f"{self.match_id}: {self.user_id} place {self.place}"


LADDER_INDEX = "rating_change_ladder_idx"


class RatingChange(models.Model):
    """One player's rating before and after one counted match (derived data).

    Its foreign keys have no database constraint: the rows are written only by copying what
    ``MatchPlayer`` (constrained) already holds, and a ladder rebuild writes millions of them
    at once, where the constraint triggers checked at commit cost more than the copy itself.
    Django still cascades deletions.
    """

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="+", db_index=False, db_constraint=False
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="rating_changes",
        db_index=False,
        db_constraint=False,
    )
    league = models.ForeignKey(
        League, on_delete=models.CASCADE, related_name="+", db_index=False, db_constraint=False
    )
    time_control = models.CharField(max_length=12, choices=TimeControl.choices)
    seq = models.BigIntegerField()
    before = models.FloatField()
    after = models.FloatField()
    delta = models.FloatField()
    games_before = models.PositiveIntegerField()
    place = models.PositiveSmallIntegerField()
    size = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["seq"]
        constraints = [
            models.UniqueConstraint(fields=["match", "user"], name="rating_change_unique")
        ]
        # One index serves the ladder's form column, a profile's history and the accuracy
        # page; fewer indexes keep a rebuild's COPY fast.
        indexes = [
            models.Index(fields=["league", "time_control", "user", "seq"], name=LADDER_INDEX)
        ]

    def __str__(self):
        return f"{self.match_id}: {self.user_id} {self.before:.0f} -> {self.after:.0f}"

    @property
    def provisional(self) -> bool:
        return rating.is_provisional(self.games_before)


class QueueEntry(models.Model):
    """A player waiting for a ranked table (one queue at a time)."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="queue")
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="queue_entry"
    )
    time_control = models.CharField(max_length=12, choices=TimeControl.choices)
    min_size = models.PositiveSmallIntegerField()
    max_size = models.PositiveSmallIntegerField()
    rating = models.FloatField()
    joined_at = models.DateTimeField()

    class Meta:
        ordering = ["joined_at", "id"]

    def __str__(self):
        return f"{self.user} waits in {self.league}"


class Challenge(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for an answer")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")
        CANCELLED = "cancelled", _("Withdrawn")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="challenges")
    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    challenged = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    time_control = models.CharField(max_length=12, choices=TimeControl.choices)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    table = models.ForeignKey(
        "games.Table", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return f"{self.challenger} challenges {self.challenged} ({self.status})"
