from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games import engine
from games.models import BotLevel, Ruleset, TimeControl

VARIANT_LABELS = {
    "classic": _("Classic"),
    "europa_1912": _("Europa 1912"),
    "europe_extended": _("Europe Extended"),
    "mega_europe": _("Mega Europe"),
    "big_cities": _("Big Cities"),
}


def variant_choices():
    return [
        (name, VARIANT_LABELS.get(name, name.replace("_", " ").title()))
        for names in engine.VARIANTS.values()
        for name in names
    ]


class TableForm(forms.Form):
    """Create a table. The engine has the last word on which combinations are playable."""

    ruleset = forms.ChoiceField(label=_("Map"), choices=[])
    variant = forms.ChoiceField(label=pgettext_lazy("ticket set", "Tickets"), choices=[])
    seat_count = forms.TypedChoiceField(
        label=_("Seats"), coerce=int, choices=[(n, n) for n in range(2, 6)], initial=4
    )
    time_control = forms.ChoiceField(
        label=_("Time control"), choices=TimeControl.choices, initial=TimeControl.REALTIME
    )
    move_seconds = forms.IntegerField(
        label=_("Seconds per move"), min_value=10, max_value=600, initial=90
    )
    turn_hours = forms.IntegerField(
        label=_("Hours per move"), min_value=1, max_value=72, initial=24
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
        self.fields["ruleset"].choices = [
            (r, label) for r, label in Ruleset.choices if r in engine.RULESETS
        ]
        self.fields["variant"].choices = variant_choices()

    def clean(self):
        data = super().clean()
        ruleset, variant = data.get("ruleset"), data.get("variant")
        if ruleset and variant and variant not in engine.VARIANTS.get(ruleset, ()):
            self.add_error("variant", _("This ticket variant does not exist for that map."))
        return data
