"""Tournaments (Swiss, arena, knockout): the event, its entrants, its rounds and the tables of
each round.

Terms: a *tournament* plays ``round_count`` rounds of one rule set at tables of
``table_size`` (and one smaller if ``allow_smaller``); an *entry* is one entrant, a user or
(in unrated tournaments) a bot the organizer added; a *round* is *paired* (its tables are
known, the games not started), *playing* or *finished*; a *pairing* is one table of a round,
or one bye, linked to its live ``games.Table`` once the round starts; a *pairing seat* is one
entrant at a pairing, in seat order (seat 0 moves first), with the result once known; an
*invitation* is an organizer's request that a player enter, which enters them only when they
accept it (it is never an entry: pairing and standings never see it).
Standings are derived: ``ladder.standings`` computes them from the pairing seats.
Formats (docs/tournaments.md): a *Swiss* plays ``round_count`` paired rounds; an *arena* is
one long round (number 1) whose tables open whenever enough entrants are free, until
``ends_at``; a *knockout* plays rounds in which the top ``advance_count`` of each table go
through, until a final table.
Only ``ladder.services`` writes these rows.
"""

import secrets
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models import BotLevel, Ruleset, TimeControl, Variant
from games.seat_names import entrant_bot_names
from ladder import standings as scoring
from ladder import stock_texts
from ladder.models.leagues import League
from ladder.pairing import knockout


def new_seed() -> int:
    return secrets.randbits(62)


def default_tiebreaks() -> list[str]:
    return list(scoring.DEFAULT_TIEBREAKS)


class TournamentQuerySet(models.QuerySet):
    def visible_to(self, user):
        """The tournaments ``user`` may see: those of no league or of a league they may see
        (``League.visible_to``), and those they organize. Pages, REST and the socket ask this."""
        leagues = League.objects.visible_to(user).values("pk")
        seen = models.Q(league__isnull=True) | models.Q(league__in=leagues)
        if not getattr(user, "is_authenticated", False):
            return self.filter(seen)
        return self.filter(seen | models.Q(organizer=user))


class Tournament(models.Model):
    class Status(models.TextChoices):
        REGISTRATION = "registration", _("Registration")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    class Format(models.TextChoices):
        SWISS = "swiss", _("Swiss")
        ARENA = "arena", _("Arena")
        KNOCKOUT = "knockout", _("Knockout")

    class PointsScheme(models.TextChoices):
        LINEAR = "linear", _("Linear: each place one step (4 players: 12, 8, 4, 0)")
        WINNER = "winner", _("Winner only (4 players: 24, 0, 0, 0)")

    name = models.CharField(_("name"), max_length=80)
    slug = models.SlugField(max_length=90, unique=True)
    description = models.TextField(_("description"), max_length=2000, blank=True)
    organizer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    league = models.ForeignKey(
        "ladder.League",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tournaments",
    )
    format = models.CharField(max_length=10, choices=Format.choices, default=Format.SWISS)
    ruleset = models.CharField(max_length=20, choices=Ruleset.choices, default=Ruleset.EUROPE)
    variant = models.CharField(max_length=20, choices=Variant.choices, default=Variant.CLASSIC)
    options = models.JSONField(default=dict, blank=True)
    table_size = models.PositiveSmallIntegerField(default=4)
    allow_smaller = models.BooleanField(default=True)
    round_count = models.PositiveSmallIntegerField(default=4)
    time_control = models.CharField(
        max_length=12, choices=TimeControl.choices, default=TimeControl.REALTIME
    )
    move_seconds = models.PositiveIntegerField(default=90)
    bank_seconds = models.PositiveIntegerField(default=0)
    turn_hours = models.PositiveIntegerField(default=24)
    registration_opens_at = models.DateTimeField(null=True, blank=True)
    registration_closes_at = models.DateTimeField(
        null=True, blank=True, help_text="empty: at the start"
    )
    starts_at = models.DateTimeField()
    checkin_minutes = models.PositiveSmallIntegerField(default=0, help_text="0: no check-in")
    rated = models.BooleanField(default=False)
    late_registration_rounds = models.PositiveSmallIntegerField(
        default=0, help_text="late entrants may join up to this round (0: no late entry)"
    )
    tiebreaks = models.JSONField(default=default_tiebreaks)
    points_scheme = models.CharField(
        max_length=10, choices=PointsScheme.choices, default=PointsScheme.LINEAR
    )
    round_break_seconds = models.PositiveIntegerField(default=60)
    max_players = models.PositiveIntegerField(null=True, blank=True)
    # Arena: how long it runs from the start; ``ends_at`` is set at the start (and brought
    # forward when the organizer ends it early). Bots fill a table for a player who has
    # waited ``bot_fill_seconds`` (0: never), at ``bot_fill_level``.
    duration_minutes = models.PositiveSmallIntegerField(default=60)
    ends_at = models.DateTimeField(null=True, blank=True)
    bot_fill_seconds = models.PositiveIntegerField(default=0, help_text="0: no bots fill in")
    bot_fill_level = models.CharField(
        max_length=10, choices=BotLevel.choices, default=BotLevel.MEDIUM
    )
    # Knockout: the top ``advance_count`` of each table go through to the next round.
    advance_count = models.PositiveSmallIntegerField(default=2)
    seed = models.BigIntegerField(default=new_seed)
    status = models.CharField(max_length=14, choices=Status.choices, default=Status.REGISTRATION)
    # Bumped in the transaction of every change the pages show (``services.announce``); the
    # stored standings snapshot (``TournamentSnapshot``) is current when it has this version.
    version = models.PositiveBigIntegerField(default=0)
    paused = models.BooleanField(default=False)
    checkin_announced = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    objects = TournamentQuerySet.as_manager()

    class Meta:
        ordering = ["-starts_at", "-id"]
        indexes = [models.Index(fields=["status", "starts_at"])]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("tournament", kwargs={"slug": self.slug})

    @property
    def display_description(self) -> str:
        """The description in the reader's language if it is still the site's stock text."""
        return stock_texts.shown(self.description)

    @property
    def min_table(self) -> int:
        """The smallest table a round may have."""
        return (
            self.table_size - 1 if self.allow_smaller and self.table_size > 2 else self.table_size
        )

    @property
    def registration_closes(self):
        return self.registration_closes_at or self.starts_at

    @property
    def checkin_opens(self):
        return self.starts_at - timedelta(minutes=self.checkin_minutes)

    def checkin_open(self, now=None) -> bool:
        now = now or timezone.now()
        return (
            self.status == self.Status.REGISTRATION
            and self.checkin_minutes > 0
            and self.checkin_opens <= now
        )

    def registration_open(self, now=None) -> bool:
        """Entry is open: in the registration window, or late while rounds remain to join (an
        arena: until its end)."""
        now = now or timezone.now()
        if self.status == self.Status.REGISTRATION:
            opens = self.registration_opens_at
            return (opens is None or opens <= now) and now < self.registration_closes
        if self.status == self.Status.RUNNING and self.format == self.Format.ARENA:
            return self.ends_at is not None and now < self.ends_at  # join any time until the end
        if self.status == self.Status.RUNNING:
            return self.next_round_number() <= min(self.late_registration_rounds, self.round_count)
        return False

    def next_round_number(self) -> int:
        """The first round not yet started: the one a late entrant would join."""
        started = self.rounds.exclude(status=Round.Status.PAIRED)
        return (started.aggregate(n=models.Max("number"))["n"] or 0) + 1

    def is_organizer(self, user) -> bool:
        if getattr(user, "is_staff", False):
            return True
        return getattr(user, "is_authenticated", False) and self.organizer_id == user.pk

    def entrants(self) -> list[scoring.Entrant]:
        """Everyone with results to rank (no-shows never played)."""
        entries = self.entries.exclude(status=Entry.Status.NO_SHOW)
        return [scoring.Entrant(e.pk, e.rating) for e in entries]

    def results(self) -> tuple[list[scoring.Seat], list[scoring.Bye]]:
        """Every known result: finished tables' seats, and byes."""
        rows = PairingSeat.objects.filter(pairing__round__tournament=self, place__isnull=False)
        seats, byes = [], []
        for s in rows.select_related("pairing__round"):
            pairing = s.pairing
            if pairing.is_bye:
                byes.append(scoring.Bye(pairing.round.number, s.entry_id))
            else:
                seats.append(scoring.Seat(pairing.round.number, pairing.pk, s.entry_id,
                                          s.place, s.score or 0, s.points, s.seat))  # fmt: skip
        return seats, byes

    def standings(self) -> list[scoring.Row]:
        """The current standings (ranked rows; see ``ladder.standings``)."""
        seats, byes = self.results()
        rows = scoring.standings(
            self.entrants(), seats, byes, tiebreaks=self.tiebreaks, seed=self.seed
        )
        if self.format == self.Format.KNOCKOUT:  # by the round reached, then the place
            reached = PairingSeat.objects.filter(pairing__round__tournament=self)
            rows = knockout.rerank(
                rows, reached.values_list("pairing__round__number", "entry_id", "place")
            )
        return rows

    def history(self) -> list[list[int]]:
        """Every table paired so far (entry ids in seat order); a bye is a table of one."""
        tables: dict[int, list[int]] = {}
        rows = PairingSeat.objects.filter(pairing__round__tournament=self).order_by(
            "pairing__round__number", "pairing__number", "seat"
        )
        for pairing_id, entry_id in rows.values_list("pairing_id", "entry_id"):
            tables.setdefault(pairing_id, []).append(entry_id)
        return list(tables.values())


class Entry(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("Playing")
        WITHDRAWN = "withdrawn", _("Withdrawn")
        REMOVED = "removed", _("Removed by the organizer")
        NO_SHOW = "no_show", _("Did not check in")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="tournament_entries",
    )
    bot_level = models.CharField(max_length=10, choices=BotLevel.choices, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    rating = models.FloatField(help_text="seeding rating, taken at entry and at the start")
    registered_at = models.DateTimeField(auto_now_add=True)
    checked_in_at = models.DateTimeField(null=True, blank=True)
    first_round = models.PositiveSmallIntegerField(default=1)
    # Arena: a paused entrant is not seated at new tables; ``free_since`` is when they last
    # became free to be seated (null while at a table); ``streak`` counts their wins in a row.
    paused = models.BooleanField(default=False)
    free_since = models.DateTimeField(null=True, blank=True)
    streak = models.PositiveSmallIntegerField(default=0)
    # Knockout: the round in which the entrant went out (null: still in, or never played).
    eliminated_in = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["registered_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user"],
                condition=models.Q(user__isnull=False),
                name="entry_user_unique",
            )
        ]

    def __str__(self):
        return f"{self.label} in {self.tournament_id}"

    @property
    def label(self) -> str:
        """The entrant's name: a bot's is the one its seats carry ("Ada (hard bot)",
        ``games.seat_names``), read once per entry unless a page gave it (``bot_names``)."""
        if self.user_id is not None:
            return self.user.public_name
        if getattr(self, "_bot_name", None) is None:
            bots = self.tournament.entries.filter(user__isnull=True).exclude(bot_level="")
            self._bot_name = entrant_bot_names(bots.only("pk", "bot_level")).get(self.pk, "")
        return self._bot_name or str(BotLevel(self.bot_level).label)

    @staticmethod
    def bot_names(entries) -> None:
        """Name the bots among ``entries`` (one tournament's) with one query."""
        entries = list(entries)
        if entries and any(e.user_id is None for e in entries):
            bots = Entry.objects.filter(tournament_id=entries[0].tournament_id, user__isnull=True)
            names = entrant_bot_names(bots.exclude(bot_level="").only("pk", "bot_level"))
            for e in entries:
                e._bot_name = names.get(e.pk, "")

    @property
    def is_active(self) -> bool:
        return self.status == self.Status.ACTIVE

    @property
    def url(self) -> str:
        """The player's profile (a bot has none)."""
        return self.user.get_absolute_url() if self.user_id is not None else ""


class TournamentInvitation(models.Model):
    """An organizer asks a player to enter; only the player's acceptance makes an entry
    (docs/security.md: nobody is entered in a tournament without their consent)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for an answer")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="invitations")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_invitations"
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="invitation_unique")
        ]

    def __str__(self):
        return f"{self.user} invited to {self.tournament_id} ({self.status})"


class Round(models.Model):
    class Status(models.TextChoices):
        PAIRED = "paired", _("Paired")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PAIRED)
    roster = models.JSONField(default=list, help_text="the active entry ids it was paired for")
    paired_at = models.DateTimeField(auto_now_add=True)
    starts_at = models.DateTimeField()
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique")
        ]

    def __str__(self):
        return f"{self.tournament} round {self.number}"


class Pairing(models.Model):
    """One table of a round, or one bye."""

    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting for the round to start")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        SET = "set", _("Result set by the organizer")
        ENDED = "ended", _("Ended by the organizer")
        BYE = "bye", _("Bye")

    DONE = (Status.FINISHED, Status.SET, Status.ENDED, Status.BYE)

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="pairings")
    number = models.PositiveSmallIntegerField(help_text="table number in the round")
    is_bye = models.BooleanField(default=False)
    table = models.OneToOneField(
        "games.Table",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tournament_pairing",
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="pairing_number_unique")
        ]

    def __str__(self):
        return f"{self.round} table {self.number}"

    @property
    def done(self) -> bool:
        return self.status in self.DONE


class PairingSeat(models.Model):
    pairing = models.ForeignKey(Pairing, on_delete=models.CASCADE, related_name="seats")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    score = models.IntegerField(null=True, blank=True, help_text="game points")
    place = models.PositiveSmallIntegerField(null=True, blank=True, help_text="1 = best")
    points = models.FloatField(null=True, blank=True, help_text="tournament points")
    abandoned = models.BooleanField(default=False)
    # Arena: the points of this game were doubled by a winning streak.
    doubled = models.BooleanField(default=False)

    class Meta:
        ordering = ["pairing", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["pairing", "seat"], name="pairing_seat_unique"),
            models.UniqueConstraint(fields=["pairing", "entry"], name="pairing_entry_unique"),
        ]

    def __str__(self):
        return f"{self.pairing} seat {self.seat}"


class TournamentSnapshot(models.Model):
    """The tournament's standings, rounds and entrants as computed at ``version`` (JSON text,
    ``ladder.tournament_snapshots``): the pages and exports read it instead of recomputing.
    Never older than what it replaces: it is written only with a higher version."""

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, primary_key=True, related_name="snapshot"
    )
    version = models.PositiveBigIntegerField()
    data = models.TextField(help_text="entrants, standings and rounds (JSON)")
    rows = models.TextField(help_text="the standings rows alone, as the live diff sends them")
    built_at = models.DateTimeField()
    build_ms = models.PositiveIntegerField(default=0, help_text="how long the build took")

    def __str__(self):
        return f"snapshot of {self.tournament_id} at version {self.version}"
