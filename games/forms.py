from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games import engine
from games.models import BotLevel, Ruleset, TimeControl, Variant

VARIANT_LABELS = dict(Variant.choices)
RULESET_LABELS = dict(Ruleset.choices)


def variant_label(name):
    return VARIANT_LABELS.get(name, name.replace("_", " ").title())


def variant_choices():
    """The ticket variants, grouped by map (without script the select still says which
    variant belongs to which map; with it, games/static/games/table_form.js keeps only the
    chosen map's)."""
    return [
        (RULESET_LABELS.get(ruleset, ruleset), [(name, variant_label(name)) for name in names])
        for ruleset, names in engine.VARIANTS.items()
    ]


class AttrSelect(forms.Select):
    """A select whose options carry ``data-`` attributes: ``option_attrs`` maps an option's
    value to its extra attributes."""

    def __init__(self, *args, option_attrs=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.option_attrs = option_attrs or {}

    def create_option(self, name, value, *args, **kwargs):
        option = super().create_option(name, value, *args, **kwargs)
        option["attrs"].update(self.option_attrs.get(str(value), {}))
        return option


class TableForm(forms.Form):
    """Create a table. The engine has the last word on which combinations are playable; the
    form refuses what it can tell before (a variant or seat count of another map)."""

    ruleset = forms.ChoiceField(label=_("Map"), choices=[])
    variant = forms.ChoiceField(label=pgettext_lazy("ticket set", "Tickets"), choices=[])
    seat_count = forms.TypedChoiceField(label=_("Seats"), coerce=int, choices=[], initial=4)
    warehouses = forms.BooleanField(label=_("Warehouses & Depots"), required=False)
    time_control = forms.ChoiceField(
        label=_("Time control"), choices=TimeControl.choices, initial=TimeControl.REALTIME
    )
    move_seconds = forms.IntegerField(
        label=_("Seconds per move"), min_value=10, max_value=600, initial=90, required=False
    )
    # The tournament form's field (ladder/tournament_forms.py), same meaning and bounds: real
    # time only; empty counts as no bank (a client that does not send it gets none).
    bank_seconds = forms.IntegerField(
        label=_("Time bank (seconds)"), min_value=0, max_value=3600, initial=120,
        required=False, help_text=_("Extra time each player may use over the whole game."),
    )  # fmt: skip
    turn_hours = forms.IntegerField(
        label=_("Hours per move"), min_value=1, max_value=72, initial=24, required=False
    )
    is_private = forms.BooleanField(
        label=_("Private (only people with the invite link can join)"), required=False
    )
    bots = forms.TypedChoiceField(
        label=_("Fill the other seats with bots"),
        coerce=str,
        choices=[("", _("No, wait for players"))] + list(BotLevel.choices),
        required=False,
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        rulesets = {r: cfg for r, cfg in engine.RULESETS.items() if r in RULESET_LABELS}
        ruleset = self.fields["ruleset"]
        ruleset.choices = [(r, label) for r, label in Ruleset.choices if r in rulesets]
        ruleset.widget = AttrSelect(
            option_attrs={
                r: {
                    "data-min-seats": cfg.min_players,
                    "data-max-seats": cfg.max_players,
                    "data-warehouses": "true" if cfg.warehouses_allowed else "false",
                }
                for r, cfg in rulesets.items()
            }
        )
        variant = self.fields["variant"]
        variant.choices = variant_choices()
        variant.widget = AttrSelect(
            option_attrs={
                name: {"data-ruleset": r} for r, names in engine.VARIANTS.items() for name in names
            }
        )
        variant.widget.choices = variant.choices
        low = min(cfg.min_players for cfg in rulesets.values())
        high = max(cfg.max_players for cfg in rulesets.values())
        self.fields["seat_count"].choices = [(n, n) for n in range(low, high + 1)]
        ruleset.widget.choices = ruleset.choices

    def clean(self):
        data = super().clean()
        ruleset = data.get("ruleset")
        cfg = engine.RULESETS.get(ruleset)
        if cfg is None:
            return data  # the ruleset field has its own error
        map_name = RULESET_LABELS.get(ruleset, ruleset)
        variant = data.get("variant")
        if variant and variant not in engine.VARIANTS[ruleset]:
            self.add_error(
                "variant",
                _("%(variant)s tickets are not played on the %(map)s map.")
                % {"variant": variant_label(variant), "map": map_name},
            )
        seats = data.get("seat_count")
        if seats and not cfg.min_players <= seats <= cfg.max_players:
            self.add_error(
                "seat_count",
                _("The %(map)s map is played by %(min)d to %(max)d players.")
                % {"map": map_name, "min": cfg.min_players, "max": cfg.max_players},
            )
        if data.get("warehouses") and not cfg.warehouses_allowed:
            self.add_error(
                "warehouses",
                _("Warehouses & Depots are not played on the %(map)s map.") % {"map": map_name},
            )
        self._clean_clock(data)
        return data

    def _clean_clock(self, data) -> None:
        """Only the chosen time control's clock counts (the other one's fields are hidden):
        real time has seconds per move and a bank, turn-based hours per move and no bank."""
        clocks = {
            TimeControl.REALTIME: ("move_seconds", "bank_seconds"),
            TimeControl.TURN_BASED: ("turn_hours",),
        }
        used = clocks.get(data.get("time_control"))
        if not used:
            return
        for name in {n for names in clocks.values() for n in names} - set(used):
            self.errors.pop(name, None)
            data[name] = None
        if data.get(used[0]) is None and used[0] not in self.errors:
            self.add_error(used[0], forms.Field.default_error_messages["required"])
        if "bank_seconds" in used and data.get("bank_seconds") is None:
            data["bank_seconds"] = 0

    def clock(self) -> dict:
        """The clock arguments of ``table_create`` (the unused time control's at their default)."""
        data = self.cleaned_data
        return {
            "time_control": data["time_control"],
            "move_seconds": data.get("move_seconds") or 90,
            "bank_seconds": data.get("bank_seconds") or 0,
            "turn_hours": data.get("turn_hours") or 24,
        }

    def options(self) -> dict:
        """The engine options of the table to create (``engine.new_game``)."""
        return {"warehouses": True} if self.cleaned_data.get("warehouses") else {}
