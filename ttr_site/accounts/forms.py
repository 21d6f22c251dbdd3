from django import forms

from .models import User


class SettingsForm(forms.ModelForm):
    """What a player may change about their public profile and preferences."""

    class Meta:
        model = User
        fields = ["display_name", "country", "bio", "language"]
