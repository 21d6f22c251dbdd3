"""API shapes of the live tables: request bodies parsed here, responses documented here.

Responses are built from the same plain data the pages and sockets use
(``games.presenters.table_summary``, ``games.services.game_view_for_user``); a serializer
only names and documents those fields, so the schema and the wire cannot drift apart.
"""

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from games import engine
from games.models import BotLevel, Ruleset, Table, TimeControl, Variant

RULESETS = Ruleset.values  # every rule set the engine plays (a test keeps them equal)


class SeatSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    name = serializers.CharField(
        help_text="display name: the player's, a bot's own with its level (\"Ada (medium bot)\"),"
        " or the player's marked as played by a bot"
    )
    username = serializers.CharField(allow_null=True)
    user_id = serializers.IntegerField(allow_null=True)
    bot_level = serializers.ChoiceField(BotLevel.choices, allow_null=True)
    is_bot = serializers.BooleanField(help_text="played by a bot now (a bot or a handed-over seat)")
    abandoned = serializers.BooleanField(help_text="a bot plays this player's seat now")
    conceded = serializers.BooleanField(help_text="its player gave it up: it stays the bot's")
    color = serializers.CharField()
    symbol = serializers.CharField()


class TableSerializer(serializers.Serializer):
    """A table as ``games.presenters.table_summary`` describes it (no hidden information)."""

    id = serializers.IntegerField()
    status = serializers.ChoiceField(Table.Status.choices)
    status_label = serializers.CharField()
    ruleset = serializers.ChoiceField(Ruleset.choices)
    variant = serializers.CharField()
    options = serializers.DictField(child=serializers.BooleanField())
    seat_count = serializers.IntegerField()
    time_control = serializers.ChoiceField(TimeControl.choices)
    move_seconds = serializers.IntegerField()
    turn_hours = serializers.IntegerField()
    rated = serializers.BooleanField()
    ended_early = serializers.BooleanField()
    is_private = serializers.BooleanField()
    owner_id = serializers.IntegerField(allow_null=True)
    is_owner = serializers.BooleanField()
    your_seat = serializers.IntegerField(allow_null=True, help_text="the caller's seat, if any")
    can_take_back = serializers.BooleanField(
        help_text="a bot plays the caller's seat after timeouts: POST take-back/ to play again"
    )
    seats = SeatSerializer(many=True)
    invite_url = serializers.CharField(
        required=False, help_text="private tables, for seated players: the link to share"
    )


class TableOptionsSerializer(serializers.Serializer):
    warehouses = serializers.BooleanField(required=False, help_text="Warehouses & Depots")
    bonus_tickets = serializers.BooleanField(required=False)


class TableCreateSerializer(serializers.Serializer):
    """A new table, with the caller in seat 0. The engine has the last word on combinations."""

    ruleset = serializers.ChoiceField(Ruleset.choices, default=Ruleset.EUROPE)
    variant = serializers.ChoiceField(Variant.choices, default="classic")
    seat_count = serializers.IntegerField(min_value=2, max_value=5, default=4)
    options = TableOptionsSerializer(required=False)
    time_control = serializers.ChoiceField(TimeControl.choices, default=TimeControl.REALTIME)
    move_seconds = serializers.IntegerField(min_value=10, max_value=600, default=90)
    bank_seconds = serializers.IntegerField(min_value=0, max_value=3600, default=0)
    turn_hours = serializers.IntegerField(min_value=1, max_value=72, default=24)
    is_private = serializers.BooleanField(default=False)

    def validate(self, data):
        if data["variant"] not in engine.VARIANTS.get(data["ruleset"], ()):
            raise serializers.ValidationError(
                {"variant": _("This ticket variant does not exist for that map.")}
            )
        return data


class JoinSerializer(serializers.Serializer):
    invite_token = serializers.CharField(
        required=False, max_length=64, help_text="needed for a private table or league"
    )


class AddBotSerializer(serializers.Serializer):
    level = serializers.ChoiceField(BotLevel.choices, default=BotLevel.EASY)


class ActionSerializer(serializers.Serializer):
    """One action, exactly as listed in ``legal``, with the version of the view it came from."""

    action = serializers.DictField(
        help_text="an action in the engine's wire format (pick one from `legal`)"
    )
    version = serializers.IntegerField(min_value=0, help_text="the `version` of your view")


class GameFrameSerializer(serializers.Serializer):
    """The caller's view of a game: the same frame as the table socket's ``view`` frame."""

    type = serializers.ChoiceField(["view"])
    version = serializers.IntegerField(help_text="bumped by every accepted action")
    seat = serializers.IntegerField(allow_null=True, help_text="the caller's seat; null: spectator")
    view = serializers.DictField(help_text="the redacted game view (described at /api/protocol/)")
    log_start = serializers.IntegerField(help_text="index of the first entry of `log`")
    log = serializers.ListField(child=serializers.DictField())
    legal = serializers.ListField(
        child=serializers.DictField(), help_text="the caller's legal actions now"
    )
    clock = serializers.DictField(help_text="deadlines and banks of the deciding seats")


class GameEventSerializer(serializers.Serializer):
    """One step of the game as the caller may see it (its log entries, redacted): the set-up
    (``seq`` 0, ``seat`` null) or an accepted action."""

    seq = serializers.IntegerField(help_text="the game version this step produced (0: set-up)")
    seat = serializers.IntegerField(allow_null=True, help_text="the seat that acted; null: set-up")
    username = serializers.CharField(allow_null=True, help_text="the player who moved, if a person")
    by_bot = serializers.BooleanField()
    by_timeout = serializers.BooleanField()
    created_at = serializers.DateTimeField()
    entries = serializers.ListField(child=serializers.DictField())


class AnalysisSerializer(serializers.Serializer):
    """A finished game's post-game analysis (``games.engine.bots.grading``), the same for
    everyone who may see the replay."""

    status = serializers.ChoiceField(
        ["none", "queued", "running", "done", "failed"],
        help_text="none: nobody asked yet (POST to ask)",
    )
    progress = serializers.FloatField(help_text="0..1: the share of the game analysed so far")
    evaluator = serializers.CharField(required=False, help_text="expert or playouts")
    budget = serializers.DictField(required=False, help_text="seconds and playouts per decision")
    created = serializers.DateTimeField(required=False)
    finished = serializers.DateTimeField(required=False, allow_null=True)
    result = serializers.DictField(
        allow_null=True,
        help_text=(
            "once done: chances (per step, each seat's chance to win, summing to 1; step 0 "
            "is the deal), decisions (step, seat, loss in points of margin, kind "
            "inaccuracy|mistake|null, best: the preferred action when it differs), seats "
            "(per graded seat: decisions, average_loss, inaccuracies, mistakes), thresholds"
        ),
    )
