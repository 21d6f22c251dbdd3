"""ttr_site.client_address: X-Forwarded-For is believed only from the proxies named in
TRUSTED_PROXIES, read from the right; garbage never picks the address."""

from pathlib import Path

import pytest
from django.test import RequestFactory

from ttr_site.client_address import UNKNOWN, client_address, rate_limit_ident

ROOT = Path(__file__).resolve().parent.parent


def request(peer, forwarded=None):
    extra = {"REMOTE_ADDR": peer}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return RequestFactory().get("/", **extra)


def scope(peer, *forwarded: bytes):
    headers = [(b"host", b"example.org"), *((b"x-forwarded-for", v) for v in forwarded)]
    return {"type": "websocket", "client": (peer, 50000) if peer else None, "headers": headers}


def test_without_trusted_proxies_the_header_is_ignored(settings):
    settings.TRUSTED_PROXIES = []
    assert client_address(request("192.0.2.7", "203.0.113.1")) == "192.0.2.7"
    assert client_address(scope("192.0.2.7", b"203.0.113.1")) == "192.0.2.7"


def test_a_trusted_proxy_is_believed_and_only_the_part_it_wrote(settings):
    settings.TRUSTED_PROXIES = ["10.0.0.0/8", "::1"]
    assert client_address(request("10.1.2.3", "203.0.113.1")) == "203.0.113.1"
    # What the client wrote itself lies left of what the proxies appended.
    assert client_address(request("10.1.2.3", "6.6.6.6, 203.0.113.1")) == "203.0.113.1"
    # Two proxies in a row: the first untrusted address from the right.
    assert client_address(request("::1", "6.6.6.6, 203.0.113.1, 10.9.9.9")) == "203.0.113.1"
    assert client_address(scope("10.1.2.3", b"6.6.6.6", b"203.0.113.1")) == "203.0.113.1"
    assert client_address(request("10.1.2.3")) == "10.1.2.3"  # no header: the proxy itself
    assert client_address(request("192.0.2.7", "203.0.113.1")) == "192.0.2.7"  # not a proxy


@pytest.mark.parametrize(
    ("forwarded", "expected"),
    [
        ("", "10.0.0.1"),
        (",,,", "10.0.0.1"),
        ("not-an-ip", "10.0.0.1"),
        ("203.0.113.1, unknown", "10.0.0.1"),  # garbage ends the walk at the proxy
        ("unknown, 203.0.113.1", "203.0.113.1"),
        ("203.0.113.1:4711", "203.0.113.1"),
        ("[2001:db8::1]:4711", "2001:db8::1"),
        ("[2001:db8::1", "10.0.0.1"),
        ("::ffff:203.0.113.1", "203.0.113.1"),
        ("fe80::1%eth0", "fe80::1"),
        ("999.1.1.1", "10.0.0.1"),
        ("1.1.1.1, " * 5000 + "203.0.113.1", "203.0.113.1"),
        ("10.0.0.2, " * 5000 + "10.0.0.3", "10.0.0.2"),  # only proxies: the farthest
        ("\x00\xff\u00e9", "10.0.0.1"),
    ],
)
def test_garbage_and_odd_forms_never_pick_an_address(settings, forwarded, expected):
    settings.TRUSTED_PROXIES = ["10.0.0.0/8"]
    assert client_address(request("10.0.0.1", forwarded)) == expected


def test_a_peer_without_an_ip_address_counts_as_unknown(settings):
    settings.TRUSTED_PROXIES = ["10.0.0.0/8"]
    assert client_address(scope(None, b"203.0.113.1")) == UNKNOWN
    assert client_address(request("", "203.0.113.1")) == UNKNOWN


def test_an_ipv6_client_is_limited_by_its_64():
    assert rate_limit_ident("2001:db8:1:2:aaaa::1") == rate_limit_ident("2001:db8:1:2::ffff")
    assert rate_limit_ident("2001:db8:1:3::1") != rate_limit_ident("2001:db8:1:2::1")
    assert rate_limit_ident("203.0.113.1") == "203.0.113.1"


def test_the_docker_web_server_leaves_x_forwarded_for_to_the_site():
    """uvicorn with --forwarded-allow-ips='*' believed anyone's header; the entrypoint must not
    hand it that choice again (manage.py serve, which the live tests run, does the same)."""
    entrypoint = (ROOT / "docker" / "entrypoint.sh").read_text()
    assert "--no-proxy-headers" in entrypoint
    assert "forwarded-allow-ips" not in entrypoint
