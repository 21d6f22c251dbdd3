"""Request rates per client, counted in the cache (LocMem when embedded, Redis otherwise).

Scopes: ``anon`` (per IP), ``user`` (per user, every request), ``writes`` (per user, unsafe
methods) and ``actions`` (per user, game actions; replaces ``writes`` there). Rates come from
``settings.API_THROTTLE_RATES`` and are read on each request, so tests and deployments can
change them without a restart of the class attributes DRF caches at import.

"Per IP" is per ``client_address``, the address every per-IP limit uses: DRF's own
``get_ident`` believes any ``X-Forwarded-For`` (unless ``NUM_PROXIES`` is set), so a client
rotating the header got a fresh budget per request.
"""

from rest_framework import permissions, throttling
from rest_framework.settings import api_settings

from ttr_site.client_address import client_address, rate_limit_ident


class _LiveRate:
    def get_rate(self):
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    def get_ident(self, request):
        return rate_limit_ident(client_address(request))

    def allow_request(self, request, view):
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return super().allow_request(request, view)


class AnonThrottle(_LiveRate, throttling.AnonRateThrottle):
    scope = "anon"


class UserThrottle(_LiveRate, throttling.UserRateThrottle):
    scope = "user"


class WriteThrottle(_LiveRate, throttling.UserRateThrottle):
    """Unsafe methods of signed-in users (creating tables, joining, registering...)."""

    scope = "writes"

    def allow_request(self, request, view):
        if request.method in permissions.SAFE_METHODS or not request.user.is_authenticated:
            return True
        return super().allow_request(request, view)


class ActionThrottle(_LiveRate, throttling.UserRateThrottle):
    """Game actions (the action endpoint uses it in place of ``WriteThrottle``): a bot plays
    faster than a person, and far slower than a flood."""

    scope = "actions"
