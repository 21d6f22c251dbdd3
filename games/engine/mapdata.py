"""Immutable board data: cities, routes and destination tickets, loaded once per map.

Terms:
- *city index* / *route index* / *ticket index*: 0-based positions in ``Board.cities``,
  ``Board.routes``, ``Board.tickets``. The engine's state uses these ints internally.
- *route id*: the ``id`` from the map JSON (Europe: 1..101). Views and actions use route ids.
- *ticket id*: a string unique across every ticket set of a map: ``"E<n>"`` for the base
  Europe tickets (``tickets_base``), ``"X<n>"`` for the Europa 1912 tickets
  (``tickets_1912``), ``"O<n>"`` for Orient Express and ``"M<n>"`` for the "with Max" bonus
  tickets (when their data exists), ``"T<n>"`` for a map with a single ``tickets`` list
  (New York). ``<n>`` is the ticket's ``id`` within its set.
- *twin*: the other route of a double route (same ``double_group``); ``-1`` if none.
- *tourist attraction*: a New York location flagged ``tourist_attraction`` (``Board.attractions``
  holds their city indexes).
- *ticket kind*: ``long``, ``regular`` or ``big_city`` (docs/rules.md 1.1, 1.8); ``big_city``
  also marks base tickets that carry the Big Cities logo (``big_logo``).
- *logos*: the set logos printed on a ticket (``europe``, ``1912``, ``big_cities``), by which
  the anniversary rulebook sorts tickets into variants (docs/rules.md 1.8). Base tickets have
  ``europe``, Europa 1912 tickets ``1912``, each with ``big_cities`` if they carry that logo.
  *Bonus tickets* (``tickets_orient_express``: a list, ``ticket_max``: one object) must say
  theirs in the data, with the usual ticket keys: ``{"id": 1, "a": "Wien", "b": "Angora",
  "points": 9, "long": false, "logos": ["europe", "big_cities"]}`` (``"long": true`` for a
  blue-backed one); a bonus ticket without ``logos`` is a data error (``ValueError``).
  ``null`` data (today's, docs/rules.md 1.8): no bonus tickets.

Map JSON lives in ``games/engine/maps/`` (a checked copy of the shared data); nothing here
reads outside the package.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import cast

MAPS_DIR = Path(__file__).resolve().parent / "maps"


@dataclass(frozen=True, slots=True)
class City:
    index: int
    name: str
    display_name: str
    lat: float
    lon: float
    big_city: bool
    tourist_attraction: bool = False  # New York: scores ``attraction_points`` when touched


@dataclass(frozen=True, slots=True)
class Route:
    index: int
    id: int
    a: int  # city index
    b: int  # city index
    length: int
    color: str  # a card colour or "gray"
    tunnel: bool
    ferry_locomotives: int
    double_group: int | None
    twin: int  # route index of the twin, -1 if single


@dataclass(frozen=True, slots=True)
class Ticket:
    index: int
    id: str
    a: int  # city index
    b: int  # city index
    points: int
    source: str  # "base", "1912", "orient_express", "max", "tickets"
    kind: str  # "long", "regular" or "big_city"
    big_logo: bool  # carries the Big Cities logo (used by the Big Cities variant)
    logos: tuple[str, ...] = ()  # set logos: "europe", "1912", "big_cities" (Europe only)


@dataclass(frozen=True, slots=True, eq=False)  # identity hash: one Board per map
class Board:
    name: str
    cities: tuple[City, ...]
    routes: tuple[Route, ...]
    tickets: tuple[Ticket, ...]
    city_index: MappingProxyType  # name -> city index
    route_index: MappingProxyType  # route id -> route index
    ticket_index: MappingProxyType  # ticket id -> ticket index
    city_routes: tuple[tuple[int, ...], ...]  # city index -> route indexes touching it
    scoring: MappingProxyType  # route length -> points
    attractions: frozenset[int]  # city indexes of tourist attractions (New York)

    def to_dict(self) -> dict:
        """The JSON-ready map (``games.engine.board()`` returns it)."""
        names = [c.name for c in self.cities]
        return {
            "name": self.name,
            "cities": [
                {
                    "name": c.name,
                    "display_name": c.display_name,
                    "lat": c.lat,
                    "lon": c.lon,
                    "big_city": c.big_city,
                    "tourist_attraction": c.tourist_attraction,
                }
                for c in self.cities
            ],
            "routes": [
                {
                    "id": r.id,
                    "a": names[r.a],
                    "b": names[r.b],
                    "length": r.length,
                    "color": r.color,
                    "tunnel": r.tunnel,
                    "ferry_locomotives": r.ferry_locomotives,
                    "double_group": r.double_group,
                }
                for r in self.routes
            ],
            "tickets": [
                {
                    "id": t.id,
                    "a": names[t.a],
                    "b": names[t.b],
                    "points": t.points,
                    "kind": t.kind,
                    "source": t.source,
                    "big_cities_logo": t.big_logo,
                }
                for t in self.tickets
            ],
            "scoring": {str(k): v for k, v in self.scoring.items()},
        }


# (JSON key, id prefix, source name, the set's logos) of every ticket list a map may carry;
# None: a bonus set, whose data names each ticket's logos
_TICKET_SETS: tuple[tuple[str, str, str, tuple[str, ...] | None], ...] = (
    ("tickets_base", "E", "base", ("europe",)),
    ("tickets_1912", "X", "1912", ("1912",)),
    ("tickets_orient_express", "O", "orient_express", None),
    ("ticket_max", "M", "max", None),
    ("tickets", "T", "tickets", ()),
)
BONUS_SOURCES = ("orient_express", "max")
LOGOS = ("europe", "1912", "big_cities")


def _ticket_kind(raw: dict) -> tuple[str, bool]:
    if "kind" in raw:
        return raw["kind"], raw["kind"] == "big_city"
    if raw.get("long"):
        return "long", False
    return "regular", bool(raw.get("big_cities_logo"))


def _load_cities(data: dict) -> tuple[City, ...]:
    raw_cities = cast(list, data.get("cities") or data.get("locations"))
    return tuple(
        City(
            index=i,
            name=c["name"],
            display_name=c.get("display_name", c["name"]),
            lat=c["lat"],
            lon=c["lon"],
            big_city=bool(c.get("big_city", False)),
            tourist_attraction=bool(c.get("tourist_attraction", False)),
        )
        for i, c in enumerate(raw_cities)
    )


def _load_routes(data: dict, city_index: dict) -> tuple[Route, ...]:
    raw = data["routes"]
    groups: dict[int, list[int]] = {}
    for i, r in enumerate(raw):
        if r.get("double_group") is not None:
            groups.setdefault(r["double_group"], []).append(i)
    routes = []
    for i, r in enumerate(raw):
        group = r.get("double_group")
        twin = -1
        if group is not None:
            twin = next(j for j in groups[group] if j != i)
        routes.append(
            Route(
                index=i,
                id=r["id"],
                a=city_index[r["a"]],
                b=city_index[r["b"]],
                length=r["length"],
                color=r["color"],
                tunnel=bool(r.get("tunnel", False)),
                ferry_locomotives=int(r.get("ferry_locomotives", 0)),
                double_group=group,
                twin=twin,
            )
        )
    return tuple(routes)


def _ticket_logos(raw: dict, own: tuple[str, ...] | None, big_logo: bool) -> tuple[str, ...]:
    """A ticket's logos: its set's (+ ``big_cities``), or, for a bonus ticket, the data's."""
    if own is not None:
        return own + ("big_cities",) if own and big_logo else own
    logos = raw.get("logos")
    if not isinstance(logos, list) or not logos or not set(logos) <= set(LOGOS):
        raise ValueError(f"bonus ticket {raw.get('id')!r} needs a list of logos from {LOGOS}")
    return tuple(logo for logo in LOGOS if logo in logos)


def _load_tickets(data: dict, city_index: dict) -> tuple[Ticket, ...]:
    tickets: list[Ticket] = []
    for key, prefix, source, own in _TICKET_SETS:
        raw_list = data.get(key)
        if raw_list is None:  # e.g. Orient Express: data not available (docs/rules.md 1.8)
            continue
        if isinstance(raw_list, dict):
            raw_list = [raw_list]
        for raw in raw_list:
            kind, big_logo = _ticket_kind(raw)
            logos = _ticket_logos(raw, own, big_logo)
            big_logo = big_logo or "big_cities" in logos
            tickets.append(
                Ticket(
                    index=len(tickets),
                    id=f"{prefix}{raw['id']}",
                    a=city_index[raw["a"]],
                    b=city_index[raw["b"]],
                    points=raw["points"],
                    source=source,
                    kind=kind,
                    big_logo=big_logo,
                    logos=logos,
                )
            )
    return tuple(tickets)


def board_from_data(name: str, data: dict) -> Board:
    """Build an immutable ``Board`` from a map dict in the ``maps/`` format."""
    cities = _load_cities(data)
    city_index = {c.name: c.index for c in cities}
    routes = _load_routes(data, city_index)
    tickets = _load_tickets(data, city_index)
    touching: list[list[int]] = [[] for _ in cities]
    for r in routes:
        touching[r.a].append(r.index)
        touching[r.b].append(r.index)
    attractions = frozenset(c.index for c in cities if c.tourist_attraction)
    return Board(
        name=name,
        cities=cities,
        routes=routes,
        tickets=tickets,
        city_index=MappingProxyType(city_index),
        route_index=MappingProxyType({r.id: r.index for r in routes}),
        ticket_index=MappingProxyType({t.id: t.index for t in tickets}),
        city_routes=tuple(tuple(t) for t in touching),
        scoring=MappingProxyType({int(k): v for k, v in data["scoring"].items()}),
        attractions=attractions,
    )


@cache
def load_map(map_name: str) -> Board:
    """The board of ``maps/<map_name>.json``, loaded once per process."""
    with open(MAPS_DIR / f"{map_name}.json", encoding="utf-8") as f:
        return board_from_data(map_name, json.load(f))
