"""REST adapters of accounts: the caller (``/api/v1/me/``) and public profiles."""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from .models import User
from .serializers import MeSerializer, ProfileSerializer

TAG = "players"


@extend_schema(tags=[TAG], responses=MeSerializer)
class MeApi(APIView):
    permission_classes = [IsAuthenticated]

    def get(self, request):
        """The signed-in caller (session or API token)."""
        return Response(MeSerializer(request.user).data)


@extend_schema(tags=[TAG], responses=ProfileSerializer)
class ProfileApi(APIView):
    permission_classes = [AllowAny]

    def get(self, request, username: str):
        """A player's public profile (their ladders: ``/users/{username}/ratings/``)."""
        player = get_object_or_404(User, username=username, is_active=True)
        return Response(ProfileSerializer(player).data)
