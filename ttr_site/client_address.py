"""The client's address: the one every per-IP limit counts (log-in, sign-up, the API).

The *peer* is the other end of the TCP connection (the ASGI scope's ``client``, Django's
``REMOTE_ADDR``). Only when the peer is a proxy named in ``settings.TRUSTED_PROXIES`` is the
client further back: each trusted proxy appends the address it saw to ``X-Forwarded-For``,
so the header is read from the right, past trusted proxies, and the first address that is not
one is the client's. What lies left of it was written by the client and is ignored, and so is
the whole header from any other peer: anyone can send one. An entry that is not an IP address
ends the walk at the last address a trusted proxy vouched for, so garbage never picks a key.

The web server passes ``X-Forwarded-For`` through untouched (uvicorn runs without
``--proxy-headers``): this module is the only reader, one setting its only configuration.
"""

import ipaddress
from collections.abc import Mapping
from functools import lru_cache

from django.conf import settings

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
# A peer without an IP address (a Unix socket): all of them share one budget.
UNKNOWN = "unknown"


def client_address(source) -> str:
    """The client's IP address of a Django request or an ASGI scope (see the module)."""
    if isinstance(source, Mapping):  # an ASGI scope: headers are (bytes, bytes) pairs
        peer = (source.get("client") or (None,))[0]
        headers = source.get("headers") or ()
        forwarded = b",".join(v for k, v in headers if k == b"x-forwarded-for").decode("latin-1")
    else:  # Django joins repeated headers with commas
        peer = source.META.get("REMOTE_ADDR")
        forwarded = source.META.get("HTTP_X_FORWARDED_FOR", "")
    address = _parse(peer or "")
    if address is None:
        return UNKNOWN
    trusted = _networks(tuple(settings.TRUSTED_PROXIES))
    hops = forwarded.split(",") if forwarded else []
    while hops and any(address in network for network in trusted):
        previous = _parse(hops.pop())
        if previous is None:
            break
        address = previous
    return str(address)


def _parse(text: str) -> Address | None:
    """An IP address, with or without a port or brackets, IPv4-mapped IPv6 as IPv4."""
    text = text.strip()
    if text.startswith("["):  # [v6] or [v6]:port
        text = text[1 : text.find("]")] if "]" in text else ""
    elif text.count(":") == 1:  # v4:port
        text = text.partition(":")[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped:
            return address.ipv4_mapped
        if address.scope_id:  # fe80::1%eth0: the zone would give one host many keys
            return ipaddress.IPv6Address(text.partition("%")[0])
    return address


@lru_cache(maxsize=8)
def _networks(entries: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(entry.strip(), strict=False) for entry in entries)


def rate_limit_ident(address: str) -> str:
    """The key a per-IP limit counts ``address`` under: an IPv6 address by its /64, as allauth
    does (``ALLAUTH_RATE_LIMIT_IPV6_PREFIX``), since one subscriber holds a whole /64."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network(f"{parsed}/64", strict=False).network_address)
    return address
