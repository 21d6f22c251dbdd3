"""Forms of the league pages (parsing only: the services decide what is allowed)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from games import engine
from games.forms import VARIANT_LABELS
from games.models import Ruleset, TimeControl

# Table sizes a player may ask for: one size, or a range (issue 7: "2-5, or any of 3-4").
SIZE_CHOICES = [
    ("2-2", _("2 players")),
    ("3-3", _("3 players")),
    ("4-4", _("4 players")),
    ("5-5", _("5 players")),
    ("3-4", _("Any of 3-4 players")),
    ("2-5", _("Any size (2-5)")),
]


def game_choices():
    """(ruleset:variant, label) for every playable map and ticket set."""
    labels = dict(Ruleset.choices)
    return [
        (
            f"{ruleset}:{variant}",
            f"{labels.get(ruleset, ruleset)} — {VARIANT_LABELS.get(variant, _('Standard'))}",
        )
        for ruleset, variants in engine.VARIANTS.items()
        for variant in variants
    ]


class LeagueForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=60)
    description = forms.CharField(
        label=_("Description"),
        max_length=1000,
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    game = forms.ChoiceField(label=_("Map and tickets"), choices=[])
    time_controls = forms.MultipleChoiceField(
        label=_("Time controls allowed"),
        choices=TimeControl.choices,
        initial=TimeControl.values,
        widget=forms.CheckboxSelectMultiple,
    )
    is_private = forms.BooleanField(
        label=_("Private (people join with the invite link)"), required=False
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = game_choices()


class QueueForm(forms.Form):
    time_control = forms.ChoiceField(label=_("Time control"), choices=[])
    size = forms.ChoiceField(label=_("Table size"), choices=SIZE_CHOICES, initial="3-4")

    def __init__(self, *args, league, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["time_control"].choices = league.time_control_choices()

    def sizes(self) -> tuple[int, int]:
        low, high = self.cleaned_data["size"].split("-")
        return int(low), int(high)


class ChallengeForm(forms.Form):
    opponent = forms.ChoiceField(label=_("Opponent"), choices=[])
    time_control = forms.ChoiceField(label=_("Time control"), choices=[])

    def __init__(self, *args, league, members, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["opponent"].choices = [(u.pk, u.public_name) for u in members]
        self.fields["time_control"].choices = league.time_control_choices()
