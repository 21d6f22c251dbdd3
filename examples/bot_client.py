#!/usr/bin/env python3
"""A bot that plays a whole ttr game through the public API only.

It uses nothing but what docs/protocol.md and the OpenAPI schema (/api/docs/) document:
the REST API to find or open a table, the table WebSocket to receive its views, and either
the socket or the REST action endpoint to play. Standard library plus ``websockets``.

    python examples/bot_client.py --url http://127.0.0.1:8000 --token ttr_... --create --bots 3
    python examples/bot_client.py --url http://127.0.0.1:8000 --token ttr_... --table 42

Policy (simple and sensible): keep the fewest, cheapest tickets offered; claim the longest
route it can pay for (fewest locomotives); pay a tunnel's extra cards when it can; otherwise
draw from the deck. Each action is sent with the ``version`` of the view it was chosen from;
a ``stale_version`` answer means another view is on its way (or is fetched): it resyncs.
"""

import argparse
import json
import sys
import time
import urllib.error
import urllib.request
from urllib.parse import urlsplit, urlunsplit

from websockets.sync.client import connect

PREFERENCE = ["keep_tickets", "place_depot", "claim_route", "pay_tunnel", "draw_card",
              "build_station", "draw_tickets", "decline_tunnel", "pass"]  # fmt: skip


class ApiError(Exception):
    def __init__(self, status: int, body: dict):
        self.status, self.code = status, body.get("code", "?")
        super().__init__(f"{status} {self.code}: {body.get('message', '')}")


class Api:
    """The REST API with a personal token (``Authorization: Bearer``)."""

    def __init__(self, url: str, token: str):
        self.base, self.token = url.rstrip("/") + "/api/v1", token

    def call(self, method: str, path: str, body=None) -> dict:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Authorization", f"Bearer {self.token}")
        request.add_header("Accept", "application/json")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                raw = response.read()
        except urllib.error.HTTPError as exc:
            raise ApiError(exc.code, json.loads(exc.read() or b"{}")) from None
        return json.loads(raw) if raw else {}


def open_table(api: Api, args) -> dict:
    """Create a table and fill it with bots, or join the given one; the table summary."""
    if args.table is None:
        table = api.call("POST", "/tables/", {"seat_count": args.bots + 1, "move_seconds": 60})
        for _ in range(args.bots):
            table = api.call("POST", f"/tables/{table['id']}/bots/", {"level": args.level})
        return table
    table = api.call("GET", f"/tables/{args.table}/")
    if table["your_seat"] is None:
        table = api.call("POST", f"/tables/{args.table}/join/", {})
    return table


def choose(frame: dict) -> dict:
    """One of the frame's legal actions, by the policy above."""
    legal = frame["legal"]
    by_type = {}
    for action in legal:
        by_type.setdefault(action["type"], []).append(action)
    kind = next((k for k in PREFERENCE if k in by_type), legal[0]["type"])
    options = by_type[kind]
    if kind == "keep_tickets":
        points = {t["id"]: t["points"] for t in frame["view"]["you"]["offered_tickets"] or []}
        return min(
            options, key=lambda a: (len(a["tickets"]), sum(points.get(t, 0) for t in a["tickets"]))
        )  # noqa: E501
    if kind == "claim_route":
        return max(
            options, key=lambda a: (sum(a["cards"].values()), -a["cards"].get("locomotive", 0))
        )  # noqa: E501
    if kind == "draw_card":
        deck = [a for a in options if a["source"] == "deck"]
        return (deck or options)[0]
    return options[0]


class Player:
    """Follows the table socket's view frames and plays the seat's decisions."""

    def __init__(self, api: Api, socket, table_id: int, via: str):
        self.api, self.socket, self.table_id, self.via = api, socket, table_id, via
        self.latest = None
        self.acted_on = -1
        self.sent = self.stale = 0

    def run(self, deadline: float) -> dict:
        while time.monotonic() < deadline:
            frame = json.loads(self.socket.recv(timeout=max(1.0, deadline - time.monotonic())))
            self.handle(frame)
            if self.latest and self.latest["view"]["phase"] == "over":
                return self.latest
        raise TimeoutError("the game did not end in time")

    def handle(self, frame: dict) -> None:
        if frame["type"] == "view":
            self.on_view(frame)
        elif frame["type"] == "error":
            self.on_error(frame["code"], frame["message"])
        elif frame["type"] == "table" and frame["status"] == "cancelled":
            raise SystemExit("the table was cancelled")

    def on_view(self, frame: dict) -> None:
        if self.latest is not None and frame["version"] < self.latest["version"]:
            return  # an older view arriving late: the newest one counts
        self.latest = frame
        if frame["legal"] and frame["version"] != self.acted_on:
            self.act(frame)

    def act(self, frame: dict) -> None:
        action, version = choose(frame), frame["version"]
        self.acted_on, self.sent = version, self.sent + 1
        if self.via == "socket":
            self.socket.send(json.dumps({"type": "action", "action": action, "version": version}))
            return
        try:
            self.on_view(self.api.call("POST", f"/tables/{self.table_id}/game/actions/",
                                       {"action": action, "version": version}))  # fmt: skip
        except ApiError as exc:
            self.on_error(exc.code, str(exc))

    def on_error(self, code: str, message: str) -> None:
        if code == "stale_version":
            self.stale += 1  # the socket sends the current view after this error
            if self.via == "rest":
                self.resync()
            return
        print(f"refused: {message}", file=sys.stderr)
        self.resync()

    def resync(self) -> None:
        """Fetch the current view and decide again from it."""
        self.acted_on = -1
        self.on_view(self.api.call("GET", f"/tables/{self.table_id}/game/"))


def socket_url(base: str, table_id: int) -> str:
    parts = urlsplit(base)
    scheme = "wss" if parts.scheme == "https" else "ws"
    return urlunsplit((scheme, parts.netloc, f"/ws/table/{table_id}/", "", ""))


def score_line(frame: dict, seat: int, player: Player, seconds: float) -> str:
    final = {p["seat"]: p for p in frame["view"]["final"]["players"]}
    me = final[seat]
    scores = " ".join(f"{s}={p['score']}" for s, p in sorted(final.items()))
    return (f"final: seat {seat} scored {me['score']} (rank {me['rank']} of {len(final)}); "
            f"scores {scores}; {player.sent} actions sent, {player.stale} stale, "
            f"{seconds:.1f}s")  # fmt: skip


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--token", required=True, help="a personal API token")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--table", type=int, help="join (or rejoin) this table")
    where.add_argument("--create", action="store_true", help="open a table and add bots")
    parser.add_argument("--bots", type=int, default=3, help="bots to add with --create")
    parser.add_argument("--level", default="easy", choices=["easy", "medium", "hard"])
    parser.add_argument("--via", default="socket", choices=["socket", "rest"],
                        help="send actions over the socket or the REST endpoint")  # fmt: skip
    parser.add_argument("--timeout", type=float, default=900, help="seconds for the whole game")
    args = parser.parse_args(argv)

    started = time.monotonic()
    api = Api(args.url, args.token)
    me = api.call("GET", "/me/")
    table = open_table(api, args)
    print(f"{me['username']} plays table {table['id']} in seat {table['your_seat']}", flush=True)
    headers = {"Authorization": f"Bearer {args.token}"}
    with connect(socket_url(args.url, table["id"]), additional_headers=headers) as socket:
        player = Player(api, socket, table["id"], args.via)
        final = player.run(started + args.timeout)
    print(score_line(final, final["seat"], player, time.monotonic() - started), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
