"""Live tables: a table with its seats, the game played at it, and the game's event log.

Terms: a *table* is the lobby object (rule set, seats, time control); a *seat* is one
position at it, held by a user or a bot; the *game* holds the engine state and its
*version*, bumped by every accepted action; a *game event* is one step of the game (its
set-up, or one accepted action) with the engine's log entries it made (append-only). The
stored state holds no log (``games.engine.detach_log``): a move's cost does not grow with the
game's length, and the whole log is the events' entries in order.
"""

import secrets

from django.apps import apps
from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from games import engine, seat_names


def new_invite_token() -> str:
    return secrets.token_urlsafe(12)


class Ruleset(models.TextChoices):
    EUROPE = "europe", _("Europe")
    NEW_YORK = "new_york", _("New York")


class Variant(models.TextChoices):
    CLASSIC = "classic", _("Classic")
    EUROPA_1912 = "europa_1912", _("Europa 1912")
    EUROPE_EXTENDED = "europe_extended", _("Europe Extended")
    MEGA_EUROPE = "mega_europe", _("Mega Europe")
    BIG_CITIES = "big_cities", _("Big Cities")
    NEW_YORK = "standard", _("Standard")


class TimeControl(models.TextChoices):
    REALTIME = "realtime", _("Real time")
    TURN_BASED = "turn_based", _("Turn-based (days)")


class BotLevel(models.TextChoices):
    EASY = "easy", _("Easy bot")
    MEDIUM = "medium", _("Medium bot")
    HARD = "hard", _("Hard bot")
    EXPERT = "expert", _("Expert bot")


class TableQuerySet(models.QuerySet):
    def open_public(self):
        """Open tables anyone may see and join (none of a private league)."""
        public = self.filter(status=Table.Status.OPEN, is_private=False)
        return public.exclude(league__is_private=True)

    def visible_to(self, user):
        """The tables ``user`` may see: the rule of ``Table.visible_to``, as a query."""
        leagues = apps.get_model("ladder", "League").objects.visible_to(user)
        public = models.Q(is_private=False) & (
            models.Q(league__isnull=True) | models.Q(league__in=leagues.values("pk"))
        )
        if getattr(user, "is_authenticated", False):
            return self.filter(public | models.Q(seats__user=user)).distinct()
        return self.filter(public)


class Table(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for players")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    ruleset = models.CharField(max_length=20, choices=Ruleset.choices, default=Ruleset.EUROPE)
    variant = models.CharField(max_length=20, choices=Variant.choices, default=Variant.CLASSIC)
    options = models.JSONField(default=dict, blank=True)
    seat_count = models.PositiveSmallIntegerField(default=4)
    time_control = models.CharField(
        max_length=12, choices=TimeControl.choices, default=TimeControl.REALTIME
    )
    move_seconds = models.PositiveIntegerField(default=90)
    bank_seconds = models.PositiveIntegerField(default=0)
    turn_hours = models.PositiveIntegerField(default=24)
    rated = models.BooleanField(default=False)
    league = models.ForeignKey(
        "ladder.League", on_delete=models.SET_NULL, null=True, blank=True, related_name="tables"
    )
    is_private = models.BooleanField(default=False)
    invite_token = models.CharField(max_length=32, default=new_invite_token, unique=True)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    ended_early = models.BooleanField(
        default=False, help_text="finished by an organizer before the game's end"
    )

    objects = TableQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["status", "is_private"])]

    def __str__(self):
        return f"Table {self.pk} ({self.get_ruleset_display()}, {self.seat_count} seats)"

    def get_absolute_url(self):
        return reverse("table", kwargs={"table_id": self.pk})

    def game_params(self, seed: int) -> dict:
        """``engine.new_game``'s arguments for this table's game dealt with ``seed`` (and
        ``engine.replay``'s, to replay it from its events, with ``edition=`` the stored game's
        ``engine.rules_edition``: a game replays under the rules it was dealt with)."""
        return {"ruleset": self.ruleset, "variant": self.variant, "seats": self.seat_count,
                "seed": seed, "options": self.options}  # fmt: skip

    @property
    def is_full(self) -> bool:
        return self.seats.count() >= self.seat_count

    def visible_to(self, user) -> bool:
        """Whether ``user`` may see this table, its game, chat and replay: the one rule every
        reader asks (page, REST, socket, chat, replay). A player seated here always may;
        otherwise a private table is hidden, and a table of a league (a ladder's, or its
        tournament's) is as visible as the league (``League.objects.visible_to``)."""
        if self.seat_of(user) is not None:
            return True
        if self.is_private:
            return False
        if self.league_id is None:
            return True
        leagues = apps.get_model("ladder", "League").objects.visible_to(user)
        return leagues.filter(pk=self.league_id).exists()

    def replay_visible_to(self, user) -> bool:
        """Whether ``user`` may see this table's replay and its analysis: the one check of the
        replay page, the analysis page and API, and the profile's accuracy figures."""
        return self.status == Table.Status.FINISHED and self.visible_to(user)

    def held_position(self, user) -> int | None:
        """The position of the seat ``user`` plays here now: whose secrets they may see
        (``None``: they watch, never seated or their seat handed to a bot)."""
        seat = self.seat_of(user)
        return seat.position if seat is not None and not seat.abandoned else None

    def seat_of(self, user) -> "Seat | None":
        if not getattr(user, "is_authenticated", False):
            return None
        return next((s for s in self.seats.all() if s.user_id == user.pk), None)


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="seats",
    )
    bot_level = models.CharField(max_length=10, choices=BotLevel.choices, blank=True)
    abandoned = models.BooleanField(default=False)
    conceded = models.BooleanField(
        default=False, help_text="given up by its player: a bot plays it on for good"
    )
    timeouts_in_row = models.PositiveSmallIntegerField(default=0)
    bank_left = models.FloatField(default=0.0, help_text="seconds left in the time bank")
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_unique"),
            models.UniqueConstraint(
                fields=["table", "user"],
                condition=models.Q(user__isnull=False),
                name="seat_user_unique",
            ),
        ]

    def __str__(self):
        return f"{self.table_id}:{self.position} {self.label}"

    @property
    def is_bot(self) -> bool:
        """Played by a bot now: a bot seat, or a player's seat handed to a bot."""
        return bool(self.bot_level) and (self.user_id is None or self.abandoned)

    @property
    def can_be_taken_back(self) -> bool:
        """A bot plays this player's seat after timeouts, and they may take it back while the
        game runs (not if they gave it up: docs/rules.md 1.7)."""
        return self.user_id is not None and self.abandoned and not self.conceded

    @property
    def label(self) -> str:
        """The seat's name on every page, push and list (``games.seat_names``)."""
        if self.user_id is not None:
            name = self.user.public_name
            return seat_names.covered_name(name) if self.abandoned else name
        if not self.bot_level:
            return "?"
        named = seat_names.tournament_bot_names(self.table).get(self.position)
        index = seat_names.table_bot_index(self.table_id, self.position)
        return named or seat_names.bot_name(self.bot_level, index)


class Game(models.Model):
    """The engine state of a table's game. Only ``games.services`` writes it."""

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="game")
    seed = models.BigIntegerField()
    state = models.TextField(help_text="games.engine.to_json of the current state")
    version = models.PositiveIntegerField(default=0)
    revision = models.PositiveIntegerField(
        default=0,
        help_text="bumped by every change to a running game that is not a move (a seat handed "
        "over or taken back, the game ended early, clocks shifted): a move read before it is "
        "not written (games.storage.store_move)",
    )
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    turn_started_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self):
        return f"Game {self.pk} v{self.version}"


class GameEvent(models.Model):
    """One step of a game (append-only): its set-up (``seq`` 0, no action: the deal) or one
    accepted action, with the log entries it made, hidden facts included: read them through
    ``entries_for``, the engine's redaction."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField(help_text="the game version this step produced")
    seat = models.PositiveSmallIntegerField(null=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    by_bot = models.BooleanField(default=False)
    by_timeout = models.BooleanField(default=False)
    action = models.JSONField(null=True, help_text="null for the set-up")
    entries = models.JSONField(
        default=list, help_text="the engine's raw log entries of this step (secrets included)"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="game_event_seq_unique")
        ]

    def __str__(self):
        kind = "setup" if self.action is None else self.action.get("type")
        return f"{self.game_id}#{self.seq} {kind}"

    def entries_for(self, seat: int | None) -> list:
        """The entries as ``seat`` (``None``: a spectator) may see them."""
        return engine.redact_entries(self.entries, seat)


class ChatMessage(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chat")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    text = models.CharField(max_length=300)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self):
        return self.text

    def as_message(self) -> dict:
        return {
            "id": self.pk,
            "user": self.user.public_name,
            "username": self.user.username,
            "text": self.text,
            "at": self.created_at.isoformat(),
        }


class ClockBeat(models.Model):
    """The deadline sweep's heartbeat: one row (pk 1), written by every sweep with a
    compare-and-set (``games.services.clock_outages``). A beat older than
    ``CLOCK_OUTAGE_SECONDS`` means no sweep ran: an outage, whose time the running games get
    back. ``web_down_since``: since when no web process has been alive (players cannot move);
    ``given_until``: the clocks have been given back up to here (never twice)."""

    beat_at = models.DateTimeField(null=True, blank=True)
    web_down_since = models.DateTimeField(null=True, blank=True)
    given_until = models.DateTimeField(null=True, blank=True)

    def __str__(self):
        return f"sweep beat {self.beat_at}"


class WebBeat(models.Model):
    """One web process's liveness beat (``games.web_beat``): alive while ``beat_at`` is recent
    and it has not stopped (a graceful shutdown sets ``stopped_at``)."""

    name = models.CharField(max_length=120, unique=True, help_text="host:pid")
    beat_at = models.DateTimeField()
    stopped_at = models.DateTimeField(null=True, blank=True)

    def __str__(self):
        return f"{self.name} {self.beat_at}"


class ClockOutage(models.Model):
    """Time the running games' clocks were given back: the platform could not serve them
    (``cause`` ``sweep``: no deadline sweep ran, i.e. the worker, beat, Redis or PostgreSQL
    was down; ``web``: no web process was alive)."""

    started_at = models.DateTimeField()
    ended_at = models.DateTimeField()
    seconds = models.FloatField()
    cause = models.CharField(max_length=10)
    games = models.PositiveIntegerField(default=0, help_text="running games given time back")

    class Meta:
        ordering = ["-ended_at"]

    def __str__(self):
        return f"{self.cause} outage of {self.seconds:.1f}s at {self.started_at}"


class GameAnalysis(models.Model):
    """The post-game analysis of a finished game (``games.services.analysis``): made once by
    a background job, then served to everyone who may see the replay. ``result`` is
    ``games.engine.bots.grading.analyse``'s output."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="analysis")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    progress = models.FloatField(default=0.0, help_text="0..1, steps analysed so far")
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    evaluator = models.CharField(max_length=20)
    budget = models.JSONField(default=dict, help_text="seconds and playouts per decision")
    result = models.JSONField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "game analyses"
        indexes = [models.Index(fields=["status", "finished"])]

    def __str__(self):
        return f"Analysis of game {self.game_id} ({self.status})"
