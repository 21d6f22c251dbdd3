"""Hostile input for the site's forms and the REST API, in-process (Django's test client).

Forms are found the way a person finds them: every page of a small world (a league, a
tournament, an open and a running table, the account pages) is fetched as the user who sees
the most forms there, and every ``<form method="post">`` on it is parsed. Each submission
fills the form's fields with their own values, random choices, or hostile ones (empty, huge,
negative, NUL, lone surrogates, markup, dates that do not exist), drops, repeats or adds
fields, and sends a valid, missing or forged CSRF token. Every URL that takes POST but has
no form on a page is posted to directly. API bodies follow the OpenAPI schema of every write
endpoint, mutated the same way, or are random JSON.

Invariant: never a 5xx (an exception or a 500; the client raises the view's exception, so a
failure shows it). API errors must be the one error format (``code`` and ``message``).
"""

import json
import random
import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import timedelta
from html.parser import HTMLParser
from urllib.parse import urlencode

from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone
from rest_framework.test import APIClient

from tests.reliability.fuzz import NASTY_NUMBERS, NASTY_STRINGS, random_json

NASTY_FIELD_VALUES = NASTY_STRINGS + [str(n) for n in NASTY_NUMBERS] + [
    "2026-13-45T99:99", "0000-00-00T00:00", "9999-12-31T23:59", "2026-02-30", "yesterday",
    "on", "off", "true", "[]", "{}", "1,2,3", "e" * 200_000,
]  # fmt: skip


@dataclass
class HttpReport:
    seed: int
    requests: int = 0
    statuses: Counter = field(default_factory=Counter)
    targets: Counter = field(default_factory=Counter)
    failures: list = field(default_factory=list)

    def fail(self, detail: str) -> None:
        if len(self.failures) < 50:
            self.failures.append(detail[:800])

    def summary(self, what: str) -> str:
        lines = [
            f"{what} fuzz: seed {self.seed}, {self.requests} requests to {len(self.targets)} "
            f"targets, {len(self.failures)} failures",
            "  statuses: "
            + ", ".join(f"{k} {v}" for k, v in sorted(self.statuses.items(), key=str)),
        ]
        return "\n".join(lines + [f"  FAILURE {f}" for f in self.failures])


def _sorted(counts: Counter) -> list:
    return sorted(counts.items(), key=str)


# --- forms --------------------------------------------------------------------------------------


class _Forms(HTMLParser):
    """The POST forms of a page: ``[{"action", "fields": {name: [values]}, "choices": {...}}]``."""

    def __init__(self):
        super().__init__()
        self.forms: list[dict] = []
        self._form = None
        self._select = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and (a.get("method") or "").lower() == "post":
            self._form = {"action": a.get("action"), "fields": {}, "choices": {}}
            self.forms.append(self._form)
        elif self._form is None or not a.get("name") and tag != "option":
            return
        elif tag in ("input", "textarea"):
            if a.get("type") in ("checkbox", "radio") and "checked" not in a:
                self._form["choices"].setdefault(a["name"], []).append(a.get("value", "on"))
                return
            self._form["fields"].setdefault(a["name"], []).append(a.get("value") or "")
        elif tag == "select":
            self._select = a["name"]
            self._form["fields"].setdefault(self._select, [])
        elif tag == "option" and self._select:
            self._form["choices"].setdefault(self._select, []).append(a.get("value", ""))
            if "selected" in a or not self._form["fields"][self._select]:
                self._form["fields"][self._select] = [a.get("value", "")]

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None
        elif tag == "select":
            self._select = None


def forms_on(html: str, page: str) -> list[dict]:
    parser = _Forms()
    parser.feed(html)
    for form in parser.forms:
        form["action"] = form["action"] or page
    return [f for f in parser.forms if f["action"].startswith("/")]


def mutate_form(rng: random.Random, form: dict) -> dict:
    data = {name: list(values) for name, values in form["fields"].items()}
    for name, choices in form["choices"].items():
        if rng.random() < 0.5:
            data[name] = [rng.choice(choices)]
    for name in list(data):
        if name == "csrfmiddlewaretoken":
            continue
        roll = rng.random()
        if roll < 0.35:
            data[name] = [rng.choice(NASTY_FIELD_VALUES)]
        elif roll < 0.45:
            del data[name]
        elif roll < 0.5:
            data[name] = [rng.choice(NASTY_FIELD_VALUES) for _ in range(rng.randint(2, 4))]
    if rng.random() < 0.2:
        data[rng.choice(NASTY_STRINGS) or "extra"] = [rng.choice(NASTY_FIELD_VALUES)]
    roll = rng.random()
    if roll < 0.07:
        data.pop("csrfmiddlewaretoken", None)
    elif roll < 0.14:
        data["csrfmiddlewaretoken"] = [rng.choice(["forged", "a" * 64, "\x00", ""])]
    return data


def post_targets() -> list[str]:
    """Every URL pattern whose view is a function (the form handlers), as a regex source."""
    out = []

    def walk(patterns, prefix):
        for p in patterns:
            if isinstance(p, URLResolver):
                walk(p.url_patterns, prefix + str(p.pattern))
            elif isinstance(p, URLPattern) and not str(p.pattern).startswith("^"):
                out.append(prefix + str(p.pattern))

    walk(get_resolver().url_patterns, "")
    return [t for t in out if not t.startswith(("admin/", "api/", "jsi18n", "i18n/js"))]


def fill_route(rng: random.Random, route: str, ids: dict) -> str:
    """A concrete path for a ``<conv:name>`` route: a real object's id or a hostile one."""

    def value(match):
        converter, name = match.group(1) or "str", match.group(2)
        before = route[: match.start()].rstrip("/").rsplit("/", 1)[-1]
        known = ids.get(f"{before}:{name}") or ids.get(name)  # "tournaments:slug" first
        if known and rng.random() < 0.8:
            return str(rng.choice(known))
        if converter == "int":
            return str(rng.choice([0, 1, 2, 7, 10**6, 2**31, 2**63, 10**30]))
        return rng.choice(["x", "europe", "none", "a" * 300, "%00", "..", "-"])

    return "/" + re.sub(r"<(?:(\w+):)?(\w+)>", value, route)


def fuzz_forms(*, seed: int, requests: int, pages: dict, users: dict, ids: dict) -> HttpReport:
    """``pages``: user name (None: anonymous) -> paths to crawl; ``users``: name -> user."""
    rng, report = random.Random(seed), HttpReport(seed=seed)
    # One client per user: a form's CSRF token belongs to the cookie of the client it was
    # fetched with (the forged tokens are the mutations').
    clients = {name: _client(user) for name, user in [*users.items(), (None, None)]}
    forms = []
    for name, paths in pages.items():
        for path in paths:
            response = _request(report, clients[name], "get", path)
            if response is not None and response.status_code == 200:
                forms += [(name, f) for f in forms_on(response.content.decode(), path)]
    routes = post_targets()
    while report.requests < requests:
        if forms and rng.random() < 0.75:
            name, form = rng.choice(forms)
            path, data = form["action"], mutate_form(rng, form)
        else:
            name = rng.choice(list(clients))
            path = fill_route(rng, rng.choice(routes), ids)
            data = {rng.choice(["level", "position", "text", "name", "role", "result", "x"]):
                    rng.choice(NASTY_FIELD_VALUES) for _ in range(rng.randint(0, 3))}  # fmt: skip
            cookie = clients[name].cookies.get("csrftoken")
            data["csrfmiddlewaretoken"] = cookie.value if cookie and rng.random() < 0.8 else "x"
        if users.get(name) is not None:
            clients[name].force_login(users[name])  # a form may have logged it out
        report.targets[path] += 1
        _request(report, clients[name], "post", path, data=form_body(data),
                 content_type="application/x-www-form-urlencoded")  # fmt: skip
    return report


def form_body(data: dict) -> bytes:
    """The urlencoded body, as a browser would send it, except that a lone surrogate becomes
    the invalid UTF-8 bytes it stands for (a test client cannot encode it otherwise)."""
    pairs = [(k, v) for k, values in data.items() for v in (values if isinstance(values, list)
             else [values])]  # fmt: skip
    return urlencode(pairs, encoding="utf-8", errors="surrogatepass").encode("ascii")


def _client(user) -> Client:
    client = Client(enforce_csrf_checks=True)
    if user is not None:
        client.force_login(user)
    client.get("/accounts/login/")  # a page with a form: the CSRF cookie
    return client


def _request(report: HttpReport, client, method: str, path: str, **kwargs):
    report.requests += 1
    try:
        response = getattr(client, method)(path, **kwargs)
    except Exception as exc:  # the view's own exception: a 500 the client raised for us
        report.statuses["exception"] += 1
        data = kwargs.get("data")
        report.fail(f"{method.upper()} {path} {str(data)[:300]!r}: {type(exc).__name__}: {exc}")
        return None
    report.statuses[response.status_code] += 1
    if response.status_code >= 500:
        report.fail(f"{method.upper()} {path}: {response.status_code}")
    return response


# --- the API ------------------------------------------------------------------------------------


def write_operations() -> list[tuple[str, str, dict | None]]:
    """``(method, path template, request body schema)`` of every write endpoint."""
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    components = schema.get("components", {}).get("schemas", {})
    out = []
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            if method not in ("post", "put", "patch", "delete"):
                continue
            body = operation.get("requestBody", {}).get("content", {}).get("application/json")
            ref = (body or {}).get("schema", {}).get("$ref", "")
            out.append((method, path, components.get(ref.rsplit("/", 1)[-1]) if ref else None))
    return out


def body_from_schema(rng: random.Random, schema: dict | None):
    if schema is None or rng.random() < 0.15:
        return random_json(rng)
    body = {}
    for name, prop in schema.get("properties", {}).items():
        if rng.random() < 0.15:
            continue  # missing
        body[name] = _value(rng, prop)
    if rng.random() < 0.2:
        body[rng.choice(NASTY_STRINGS) or "extra"] = random_json(rng)
    return body


def _value(rng: random.Random, prop: dict):
    roll = rng.random()
    if roll < 0.4:
        return rng.choice(NASTY_NUMBERS + NASTY_STRINGS + [None, [], {}])
    if "enum" in prop:
        return rng.choice(prop["enum"])
    kind = prop.get("type")
    if kind == "integer":
        return rng.randint(prop.get("minimum", 0) or 0, prop.get("maximum", 10) or 10)
    if kind == "boolean":
        return rng.random() < 0.5
    if kind == "array":
        return [rng.choice(NASTY_STRINGS) for _ in range(rng.randint(0, 3))]
    if prop.get("format") == "date-time":
        return (timezone.now() + timedelta(hours=rng.randint(-100, 100))).isoformat()
    return rng.choice(["europe", "classic", "realtime", "Fuzz Cup", "x"])


def fuzz_api(*, seed: int, requests: int, tokens: dict, ids: dict) -> HttpReport:
    """``tokens``: name -> API token secret (None: anonymous)."""
    rng, report = random.Random(seed), HttpReport(seed=seed)
    operations = write_operations()
    while report.requests < requests:
        method, template, schema = rng.choice(operations)
        path = re.sub(r"\{(\w+)\}", lambda m: "<" + m.group(1) + ">", template)
        path = fill_route(rng, path.lstrip("/"), ids)
        client = APIClient()
        secret = tokens[rng.choice(list(tokens))]
        if secret:
            client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
        body = body_from_schema(rng, schema)
        report.targets[f"{method.upper()} {template}"] += 1
        report.requests += 1
        try:
            raw = json.dumps(body) if rng.random() < 0.95 else rng.choice(["{", "nul", "\x00"])
            response = getattr(client, method)(path, raw, content_type="application/json")
        except Exception as exc:
            report.statuses["exception"] += 1
            report.fail(f"{method.upper()} {path} {str(body)[:300]}: {type(exc).__name__}: {exc}")
            continue
        report.statuses[response.status_code] += 1
        if response.status_code >= 500:
            report.fail(f"{method.upper()} {path} {str(body)[:300]}: {response.status_code}")
        elif response.status_code >= 400 and not _error_format(response):
            report.fail(f"{method.upper()} {path}: {response.status_code} not the error format")
    return report


def _error_format(response) -> bool:
    try:
        body = response.json()
    except ValueError:
        return False
    return isinstance(body.get("code"), str) and isinstance(body.get("message"), str)
