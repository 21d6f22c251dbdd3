"""API shapes of leagues, ladders, the matchmaking queue and tournaments.

Request bodies are parsed here; responses are built from the models and from the read
models the pages use (``ladder.tournament_presenters``), named and documented here.
"""

import json

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from games.models import BotLevel, Ruleset, TimeControl, Variant
from ladder import standings
from ladder.models import Entry, League, Membership, Tournament, TournamentInvitation


class BlankAsNull(serializers.CharField):
    """A text column where empty means "none": shown as null."""

    def to_representation(self, value):
        return value or None


class LeagueSerializer(serializers.ModelSerializer):
    member_count = serializers.IntegerField()
    is_member = serializers.BooleanField(help_text="the caller is a member")
    time_controls = serializers.ListField(child=serializers.ChoiceField(TimeControl.choices))

    class Meta:
        model = League
        fields = ["id", "slug", "name", "description", "ruleset", "variant", "time_controls",
                  "is_private", "is_default", "created_at", "member_count",
                  "is_member"]  # fmt: skip
        read_only_fields = fields


class MemberSerializer(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username")
    public_name = serializers.CharField(source="user.public_name")

    class Meta:
        model = Membership
        fields = ["username", "public_name", "role", "joined_at"]
        read_only_fields = fields


class LadderRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    username = serializers.CharField()
    public_name = serializers.CharField()
    rating = serializers.FloatField()
    provisional = serializers.BooleanField(help_text="too few games for a settled rating")
    games = serializers.IntegerField()
    wins = serializers.IntegerField()


class RatingSerializer(serializers.Serializer):
    """One of a player's ladders: a league in one time control."""

    league = serializers.CharField(help_text="the league's slug")
    league_name = serializers.CharField()
    time_control = serializers.ChoiceField(TimeControl.choices)
    rating = serializers.FloatField()
    provisional = serializers.BooleanField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()


class RatingChangeSerializer(serializers.Serializer):
    """One counted match in a player's rating history, oldest first."""

    seq = serializers.IntegerField(help_text="the match's number in its league")
    match = serializers.IntegerField()
    table_id = serializers.IntegerField()
    finished_at = serializers.DateTimeField()
    before = serializers.FloatField()
    after = serializers.FloatField()
    delta = serializers.FloatField()
    place = serializers.IntegerField()
    size = serializers.IntegerField()


class MatchPlayerSerializer(serializers.Serializer):
    username = serializers.CharField()
    seat = serializers.IntegerField()
    score = serializers.IntegerField()
    rank = serializers.IntegerField(help_text="the game's rank")
    place = serializers.IntegerField(help_text="the rank rated (abandoned seats last)")
    abandoned = serializers.BooleanField()
    delta = serializers.FloatField(allow_null=True, help_text="rating change (null: not rated)")


class MatchSerializer(serializers.Serializer):
    """One finished rated table of a league (a result to export)."""

    id = serializers.IntegerField()
    seq = serializers.IntegerField()
    table_id = serializers.IntegerField()
    time_control = serializers.ChoiceField(TimeControl.choices)
    size = serializers.IntegerField()
    finished_at = serializers.DateTimeField()
    annulled = serializers.BooleanField()
    players = MatchPlayerSerializer(many=True)


class InviteSerializer(serializers.Serializer):
    invite_token = serializers.CharField(
        required=False, max_length=64, help_text="needed for a private league"
    )


class QueueJoinSerializer(serializers.Serializer):
    league = serializers.SlugField(max_length=70, help_text="the league's slug")
    time_control = serializers.ChoiceField(TimeControl.choices)
    min_size = serializers.IntegerField(min_value=2, max_value=5, default=2)
    max_size = serializers.IntegerField(min_value=2, max_value=5, default=4)


class QueueSerializer(serializers.Serializer):
    """The caller's place in the matchmaking queue (``queued`` false: not waiting)."""

    queued = serializers.BooleanField()
    league = serializers.CharField(required=False)
    time_control = serializers.ChoiceField(TimeControl.choices, required=False)
    min_size = serializers.IntegerField(required=False)
    max_size = serializers.IntegerField(required=False)
    rating = serializers.FloatField(required=False)
    joined_at = serializers.DateTimeField(required=False)


class TournamentSerializer(serializers.ModelSerializer):
    organizer = serializers.CharField(source="organizer.username", allow_null=True)
    league = serializers.CharField(source="league.slug", allow_null=True)
    options = serializers.DictField(
        child=serializers.BooleanField(),
        help_text='the game options of its tables: {"warehouses": true} for Warehouses & Depots',
    )
    tiebreaks = serializers.ListField(child=serializers.CharField())
    registration_closes_at = serializers.DateTimeField(source="registration_closes")

    class Meta:
        model = Tournament
        fields = ["id", "slug", "name", "description", "organizer", "league", "ruleset",
                  "variant", "options", "table_size", "allow_smaller", "round_count",
                  "time_control", "move_seconds", "bank_seconds", "turn_hours",
                  "registration_opens_at", "registration_closes_at", "starts_at",
                  "checkin_minutes", "rated", "late_registration_rounds", "tiebreaks",
                  "points_scheme", "round_break_seconds", "max_players", "status", "paused",
                  "started_at", "finished_at", "format", "duration_minutes", "ends_at",
                  "bot_fill_seconds", "bot_fill_level", "advance_count"]  # fmt: skip
        read_only_fields = fields
        extra_kwargs = {
            "format": {"help_text": "swiss, arena or knockout (the tournament page explains each)"},
            "duration_minutes": {"help_text": "arena: how long it runs from the start"},
            "ends_at": {"help_text": "arena: when it stops seating new tables (set at the start)"},
            "bot_fill_seconds": {
                "help_text": "arena: bots fill a table for a player who waited this long (0: never)"
            },
            "bot_fill_level": {"help_text": "arena: the level of those bots"},
            "advance_count": {"help_text": "knockout: how many of each table go through"},
        }


class EntrySerializer(serializers.ModelSerializer):
    label = serializers.CharField()
    username = serializers.CharField(source="user.username", allow_null=True)
    bot_level = BlankAsNull(allow_null=True, help_text=f"a bot entrant's level: {BotLevel.values}")

    class Meta:
        model = Entry
        fields = ["id", "label", "username", "bot_level", "status", "rating", "registered_at",
                  "checked_in_at", "first_round", "paused", "streak",
                  "eliminated_in"]  # fmt: skip
        read_only_fields = fields
        extra_kwargs = {
            "paused": {"help_text": "arena: not seated at new tables until they resume"},
            "streak": {"help_text": "arena: wins in a row"},
            "eliminated_in": {"help_text": "knockout: the round they went out in (null: still in)"},
        }


class InvitationSerializer(serializers.ModelSerializer):
    """An organizer's invitation: the player is entered only if they accept it."""

    username = serializers.CharField(source="user.username")
    invited_by = serializers.CharField(source="invited_by.username", allow_null=True)

    class Meta:
        model = TournamentInvitation
        fields = ["id", "username", "invited_by", "status", "created_at", "answered_at"]
        read_only_fields = fields


class TournamentDetailSerializer(TournamentSerializer):
    """A tournament with what the caller may do in it now (built by the view)."""

    registration_open = serializers.BooleanField()
    checkin_open = serializers.BooleanField()
    is_organizer = serializers.BooleanField(help_text="the caller runs this tournament")
    active_count = serializers.IntegerField(help_text="entrants still playing")
    your_entry = EntrySerializer(allow_null=True, help_text="the caller's entry, if any")
    your_invitation = InvitationSerializer(
        allow_null=True, help_text="the caller's invitation waiting for an answer, if any"
    )

    class Meta(TournamentSerializer.Meta):
        fields = [*TournamentSerializer.Meta.fields, "registration_open", "checkin_open",
                  "is_organizer", "active_count", "your_entry", "your_invitation"]  # fmt: skip
        read_only_fields = fields


def _default(name: str) -> str:
    """The model's default of a tournament setting, as JSON spells it (shown in the schema;
    a setting left out of a request takes it)."""
    value = Tournament._meta.get_field(name).default
    return str(value) if isinstance(value, str) else json.dumps(value)


def _helped(name: str, help_text: str) -> str:
    return f"{help_text} (default {_default(name)})"


def _number(name: str, low: int, high: int, help_text: str):
    return serializers.IntegerField(
        min_value=low, max_value=high, required=False, help_text=_helped(name, help_text)
    )


def _choice(name: str, choices, help_text: str):
    return serializers.ChoiceField(choices, required=False, help_text=_helped(name, help_text))


def _flag(name: str, help_text: str):
    return serializers.BooleanField(required=False, help_text=_helped(name, help_text))


# Fields of a tournament the site sets, never the organizer: named in the refusal.
SET_BY_THE_SITE = {"id", "slug", "organizer", "status", "paused", "started_at", "finished_at",
                   "ends_at", "seed", "version", "created_at"}  # fmt: skip


class TournamentCreateSerializer(serializers.Serializer):
    """A new tournament, organized by the caller: the settings of the page's form. Only
    ``name`` and ``starts_at`` are required; a setting left out takes its default. The
    service has the last word (``invalid_tournament`` with ``detail``): a league's
    tournaments are run by its admins and play its map and time controls, a rated one
    belongs to a league, bots fill only unrated arenas, a knockout sends 1 to table size - 1
    players through. Unknown keys are refused."""

    name = serializers.CharField(max_length=80)
    description = serializers.CharField(max_length=2000, required=False, allow_blank=True)
    league = serializers.SlugField(
        max_length=70, required=False, allow_null=True,
        help_text="the league's slug (null: no league, open to everyone)",
    )  # fmt: skip
    format = _choice(
        "format",
        Tournament.Format.choices,
        "swiss: rounds paired by the standings; arena: free players are seated at once until "
        "it ends; knockout: the best of each table go through",
    )
    ruleset = _choice("ruleset", Ruleset.choices, "the map")
    variant = _choice("variant", Variant.choices, "the tickets (one the map has)")
    options = serializers.DictField(
        child=serializers.BooleanField(), required=False,
        help_text='game options: {"warehouses": true} for Warehouses & Depots (maps that '
                  'have them), {"bonus_tickets": true}',
    )  # fmt: skip
    table_size = _number("table_size", 2, 5, "players per table")
    allow_smaller = _flag("allow_smaller", "tables of one player fewer may fit the numbers")
    round_count = _number("round_count", 1, 15, "Swiss: rounds")
    time_control = _choice("time_control", TimeControl.choices, "the clock")
    move_seconds = _number("move_seconds", 10, 600, "real-time: seconds per move")
    bank_seconds = _number("bank_seconds", 0, 3600, "real-time: a time bank for the game")
    turn_hours = _number("turn_hours", 1, 72, "turn-based: hours per move")
    starts_at = serializers.DateTimeField(help_text="in the future")
    registration_opens_at = serializers.DateTimeField(
        required=False, allow_null=True, help_text="null: at once"
    )
    registration_closes_at = serializers.DateTimeField(
        required=False, allow_null=True, help_text="null: at the start"
    )
    checkin_minutes = _number(
        "checkin_minutes", 0, 1440, "check-in opens this long before the start (0: none)"
    )
    rated = _flag("rated", "the games count on the league's ladder")
    late_registration_rounds = _number(
        "late_registration_rounds", 0, 15, "Swiss: late entrants may join up to this round"
    )
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(standings.TIEBREAKS), max_length=len(standings.TIEBREAKS),
        required=False,
        help_text=f"in order, each once (default {json.dumps(standings.DEFAULT_TIEBREAKS)})",
    )  # fmt: skip
    points_scheme = _choice("points_scheme", Tournament.PointsScheme.choices, "placement points")
    round_break_seconds = _number("round_break_seconds", 0, 3600, "the break between rounds")
    max_players = serializers.IntegerField(
        min_value=2, max_value=10_000, required=False, allow_null=True,
        help_text="null: no limit (default null)",
    )  # fmt: skip
    duration_minutes = _number("duration_minutes", 10, 600, "arena: how long it runs")
    bot_fill_seconds = _number(
        "bot_fill_seconds", 0, 600, "arena: bots fill a table after this wait (0: never)"
    )
    bot_fill_level = _choice("bot_fill_level", BotLevel.choices, "arena: the level of those bots")
    advance_count = _number("advance_count", 1, 4, "knockout: players who go through per table")

    def validate_league(self, slug):
        if slug is None:
            return None
        league = League.objects.filter(slug=slug).first()
        if league is None or not league.visible_to(self.context.get("user")):
            raise serializers.ValidationError(_("There is no such league."))
        return league

    def validate(self, data):
        unknown = sorted(set(self.initial_data) - set(self.fields))
        if unknown:
            raise serializers.ValidationError({
                key: [_("The site sets this, not the organizer.") if key in SET_BY_THE_SITE
                      else _("Unknown setting.")]
                for key in unknown
            })  # fmt: skip
        return data


class EntryAddSerializer(serializers.Serializer):
    """A bot (``bot_level``, unrated tournaments only). Players are not entered by the
    organizer: invite them (``POST .../invitations/``) and they enter by accepting."""

    bot_level = serializers.ChoiceField(BotLevel.choices)
    username = serializers.CharField(
        required=False, max_length=150, help_text="refused: invite players instead"
    )

    def validate_username(self, value):
        raise serializers.ValidationError(
            _("Players are not entered directly: invite them (POST …/invitations/).")
        )


class TournamentInviteSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150, help_text="the player to invite")


class StandingSerializer(serializers.Serializer):
    """A standings row; an arena's and a knockout's rows carry their format's fields too."""

    rank = serializers.IntegerField()
    entry = serializers.IntegerField(help_text="the entry's id")
    player = serializers.CharField()
    username = serializers.CharField(allow_null=True)
    bot = serializers.CharField(allow_null=True)
    status = serializers.ChoiceField(Entry.Status.choices)
    points = serializers.FloatField()
    games = serializers.IntegerField()
    byes = serializers.IntegerField()
    buchholz = serializers.FloatField()
    buchholz_cut1 = serializers.FloatField()
    game_points = serializers.IntegerField()
    opponent_rating = serializers.FloatField()
    later_seat = serializers.FloatField(help_text="the seat rule: mean seat / (table size - 1)")
    rating = serializers.FloatField()
    streak = serializers.IntegerField(
        required=False, allow_null=True, help_text="arena only: wins in a row"
    )
    paused = serializers.BooleanField(
        required=False, allow_null=True, help_text="arena only: not seated at new tables"
    )
    round_reached = serializers.IntegerField(
        required=False, allow_null=True,
        help_text="knockout only: the last round they sat at a table in",
    )  # fmt: skip
    eliminated_in = serializers.IntegerField(
        required=False, allow_null=True,
        help_text="knockout only: the round they went out in (null: still in)",
    )  # fmt: skip

    def to_representation(self, row):
        data = super().to_representation(row)
        return {key: value for key, value in data.items() if key in row}  # its format's only


class PairingSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    entry = serializers.IntegerField()
    player = serializers.CharField()
    place = serializers.IntegerField(allow_null=True)
    score = serializers.IntegerField(allow_null=True)
    points = serializers.FloatField(allow_null=True)
    abandoned = serializers.BooleanField()


class PairingSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="the pairing's id (organizer actions)")
    number = serializers.IntegerField()
    bye = serializers.BooleanField()
    status = serializers.CharField()
    table_id = serializers.IntegerField(allow_null=True, help_text="the live table, once started")
    seats = PairingSeatSerializer(many=True)


class RoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    status = serializers.CharField()
    tables = PairingSerializer(many=True)


class ResultSerializer(serializers.Serializer):
    """A table's result by entry id: ``places`` ({"12": 1, "15": 2}), optional ``scores``."""

    places = serializers.DictField(child=serializers.IntegerField(min_value=1, max_value=5))
    scores = serializers.DictField(
        child=serializers.IntegerField(min_value=-10_000, max_value=10_000), required=False
    )
