"""Forms of the tournament pages (parsing only: ``ladder.services`` decides what is allowed)."""

from datetime import timedelta

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import engine
from games.forms import RULESET_LABELS, AttrSelect
from games.models import BotLevel, TimeControl
from ladder.forms import game_choices
from ladder.models import League, Tournament

TIEBREAK_LABELS = {
    "buchholz": _("Buchholz (average of the opponents' points)"),
    "buchholz_cut1": _("Cut-1 Buchholz (without the weakest round)"),
    "game_points": _("Total game points"),
    "opponent_rating": _("Average opponent rating"),
    "later_seat": _("Seat rule (a later starting seat wins the tie)"),
}
TIEBREAK_CHOICES = [("", _("— none —")), *TIEBREAK_LABELS.items()]
FORMAT_FIELDS = ("format", "duration_minutes", "bot_fill_seconds", "bot_fill_level",
                 "advance_count")  # fmt: skip
TIEBREAK_FIELDS = ("tiebreak_1", "tiebreak_2", "tiebreak_3", "tiebreak_4", "tiebreak_5")


class LocalDateTimeInput(forms.DateTimeInput):
    """The browser's date-and-time picker (times in the viewer's own time zone)."""

    input_type = "datetime-local"

    def __init__(self, **kwargs):
        super().__init__(format="%Y-%m-%dT%H:%M", **kwargs)


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=80)
    description = forms.CharField(
        label=_("Description"), max_length=2000, required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
    )  # fmt: skip
    league = forms.ModelChoiceField(
        label=_("League"), queryset=League.objects.none(), required=False,
        empty_label=_("No league (open to everyone)"),
        help_text=_("A league tournament is for its members; only a league's admins run one."),
    )  # fmt: skip
    format = forms.ChoiceField(
        label=_("Format"), choices=Tournament.Format.choices, initial=Tournament.Format.SWISS,
        required=False,
        help_text=_("Swiss: rounds paired by the standings. Arena: a timed event where free "
                    "players are seated at once. Knockout: the best of each table go through."),
    )  # fmt: skip
    duration_minutes = forms.IntegerField(
        label=_("Arena length (minutes)"), min_value=10, max_value=600, initial=60,
        required=False,
        help_text=_("No new table starts after this; games in progress still count."),
    )  # fmt: skip
    bot_fill_seconds = forms.IntegerField(
        label=_("Bots fill a table after (seconds)"), min_value=0, max_value=600, initial=0,
        required=False,
        help_text=_("0: never. Otherwise a player who has waited this long plays with bots "
                    "(unrated arenas only)."),
    )  # fmt: skip
    bot_fill_level = forms.ChoiceField(
        label=_("Level of those bots"), choices=BotLevel.choices, initial=BotLevel.MEDIUM,
        required=False,
    )  # fmt: skip
    advance_count = forms.TypedChoiceField(
        label=_("Players who go through from each table"), coerce=int, initial=2,
        choices=[(n, n) for n in range(1, 5)], required=False, empty_value=None,
    )  # fmt: skip
    game = forms.ChoiceField(label=_("Map and tickets"), choices=[], widget=AttrSelect)
    # Only for a map that plays it, as on the New table form (games/forms.py).
    warehouses = forms.BooleanField(label=_("Warehouses & Depots"), required=False)
    table_size = forms.TypedChoiceField(
        label=_("Players per table"), coerce=int, initial=4,
        choices=[(n, n) for n in range(2, 6)],
    )  # fmt: skip
    allow_smaller = forms.BooleanField(
        label=_("Allow tables of one player fewer to fit the numbers"), required=False,
        initial=True,
    )  # fmt: skip
    round_count = forms.IntegerField(label=_("Rounds"), min_value=1, max_value=15, initial=4)
    time_control = forms.ChoiceField(
        label=_("Time control"), choices=TimeControl.choices, initial=TimeControl.REALTIME
    )
    move_seconds = forms.IntegerField(
        label=_("Seconds per move"), min_value=10, max_value=600, initial=90
    )
    bank_seconds = forms.IntegerField(
        label=_("Time bank (seconds)"), min_value=0, max_value=3600, initial=120,
        help_text=_("Extra time each player may use over the whole game."),
    )  # fmt: skip
    turn_hours = forms.IntegerField(
        label=_("Hours per move (turn-based)"), min_value=1, max_value=72, initial=24
    )
    starts_at = forms.DateTimeField(label=_("Start"), widget=LocalDateTimeInput())
    registration_opens_at = forms.DateTimeField(
        label=_("Registration opens"), required=False, widget=LocalDateTimeInput(),
        help_text=_("Empty: at once."),
    )  # fmt: skip
    registration_closes_at = forms.DateTimeField(
        label=_("Registration closes"), required=False, widget=LocalDateTimeInput(),
        help_text=_("Empty: at the start."),
    )  # fmt: skip
    checkin_minutes = forms.IntegerField(
        label=_("Check-in (minutes before the start)"), min_value=0, max_value=1440, initial=0,
        help_text=_("0: no check-in. Otherwise players who have not checked in are dropped."),
    )  # fmt: skip
    rated = forms.BooleanField(
        label=_("Rated: the games count on the league's ladder when the tournament ends"),
        required=False,
    )
    late_registration_rounds = forms.IntegerField(
        label=_("Late registration until round"), min_value=0, max_value=15, initial=0,
        help_text=_("0: no late entries. Late entrants start from zero points."),
    )  # fmt: skip
    points_scheme = forms.ChoiceField(
        label=_("Placement points"), choices=Tournament.PointsScheme.choices,
        initial=Tournament.PointsScheme.LINEAR,
    )  # fmt: skip
    tiebreak_1 = forms.ChoiceField(label=_("First tie-break"), choices=TIEBREAK_CHOICES,
                                   required=False, initial="buchholz")  # fmt: skip
    tiebreak_2 = forms.ChoiceField(label=_("Second tie-break"), choices=TIEBREAK_CHOICES,
                                   required=False, initial="buchholz_cut1")  # fmt: skip
    tiebreak_3 = forms.ChoiceField(label=_("Third tie-break"), choices=TIEBREAK_CHOICES,
                                   required=False, initial="game_points")  # fmt: skip
    tiebreak_4 = forms.ChoiceField(label=_("Fourth tie-break"), choices=TIEBREAK_CHOICES,
                                   required=False, initial="opponent_rating")  # fmt: skip
    tiebreak_5 = forms.ChoiceField(label=_("Fifth tie-break"), choices=TIEBREAK_CHOICES,
                                   required=False, initial="")  # fmt: skip
    round_break_seconds = forms.IntegerField(
        label=_("Break between rounds (seconds)"), min_value=0, max_value=3600, initial=60
    )
    max_players = forms.IntegerField(
        label=_("Player limit"), min_value=2, max_value=10_000, required=False,
        help_text=_("Empty: no limit."),
    )  # fmt: skip

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        game = self.fields["game"]
        game.choices = game_choices()
        # Which games offer Warehouses & Depots (ladder/static/ladder/tournament_form.js).
        game.widget.option_attrs = {
            value: {"data-warehouses": "true" if _warehouses_allowed(value) else "false"}
            for value, _label in game.choices
        }
        leagues = League.objects.all()
        if not user.is_staff:
            leagues = leagues.filter(memberships__user=user, memberships__role="admin")
        self.fields["league"].queryset = leagues
        if not self.is_bound:
            start = timezone.localtime() + timedelta(hours=1)
            self.initial.setdefault("starts_at", start.replace(minute=0, second=0, microsecond=0))

    def clean(self):
        data = super().clean()
        chosen = [data.get(name) for name in TIEBREAK_FIELDS if data.get(name)]
        if len(set(chosen)) != len(chosen):
            self.add_error("tiebreak_2", _("Each tie-break can be used once."))
        data["tiebreaks"] = chosen
        game = data.get("game")
        if data.get("warehouses") and game and not _warehouses_allowed(game):
            ruleset = game.split(":")[0]
            self.add_error(
                "warehouses",
                _("Warehouses & Depots are not played on the %(map)s map.")
                % {"map": RULESET_LABELS.get(ruleset, ruleset)},
            )
        return data

    def settings(self) -> dict:
        """The keyword arguments of ``services.tournament_create``."""
        data = dict(self.cleaned_data)
        ruleset, variant = data.pop("game").split(":")
        for name in TIEBREAK_FIELDS:
            data.pop(name)
        for name in FORMAT_FIELDS:  # a form without a format's settings: the defaults
            if data.get(name) in (None, ""):
                data.pop(name, None)
        options = {"warehouses": True} if data.pop("warehouses", False) else {}
        return data | {"ruleset": ruleset, "variant": variant, "options": options}


def _warehouses_allowed(game: str) -> bool:
    """Whether the map of ``game`` (``ruleset:variant``) plays Warehouses & Depots."""
    cfg = engine.RULESETS.get(game.split(":")[0])
    return bool(cfg and cfg.warehouses_allowed)


class AddPlayerForm(forms.Form):
    username = forms.CharField(label=_("Username"), max_length=150)


class AddBotForm(forms.Form):
    level = forms.ChoiceField(label=_("Bot"), choices=BotLevel.choices, initial=BotLevel.MEDIUM)
