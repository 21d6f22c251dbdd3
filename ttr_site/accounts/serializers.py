"""API shapes of players: the public profile, and the caller's own account."""

from rest_framework import serializers

from .models import User


class ProfileSerializer(serializers.ModelSerializer):
    """What anyone may see of a player."""

    country = serializers.CharField(source="country.code", help_text="ISO 3166 code, or empty")
    public_name = serializers.CharField()

    class Meta:
        model = User
        fields = ["id", "username", "display_name", "public_name", "country", "bio",
                  "date_joined"]  # fmt: skip
        read_only_fields = fields


class MeSerializer(ProfileSerializer):
    """The caller's own account (adds what only they see)."""

    language = serializers.CharField(help_text="a language code; empty: follow the browser")

    class Meta(ProfileSerializer.Meta):
        fields = [*ProfileSerializer.Meta.fields, "email", "language", "is_staff"]
        read_only_fields = fields
