"""Pushes to open tournament pages (group ``tournament-<id>``). Call only from ``on_commit``."""

from games.broadcast import send


def tournament_group(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


def tournament_changed(tournament_id: int) -> None:
    """Standings, rounds or entrants changed: open pages refresh what they show."""
    frame = {"type": "tournament_changed", "tournament": tournament_id}
    send(tournament_group(tournament_id), {"type": "frame", "frame": frame})
