"""API shapes of leagues, ladders, the matchmaking queue and tournaments.

Request bodies are parsed here; responses are built from the models and from the read
models the pages use (``ladder.tournament_presenters``), named and documented here.
"""

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from games.models import BotLevel, TimeControl
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
                  "started_at", "finished_at"]  # fmt: skip
        read_only_fields = fields


class EntrySerializer(serializers.ModelSerializer):
    label = serializers.CharField()
    username = serializers.CharField(source="user.username", allow_null=True)
    bot_level = BlankAsNull(allow_null=True, help_text=f"a bot entrant's level: {BotLevel.values}")

    class Meta:
        model = Entry
        fields = ["id", "label", "username", "bot_level", "status", "rating", "registered_at",
                  "checked_in_at", "first_round"]  # fmt: skip
        read_only_fields = fields


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
