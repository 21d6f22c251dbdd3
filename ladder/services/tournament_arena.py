"""Arenas: one long round whose tables open as soon as enough entrants are free, until the
arena's end (docs/tournaments.md "Arena"). Called by ``tournament_rounds`` under the
tournament lock."""

from ladder.models import Pairing, PairingSeat, Tournament


def begin(t: Tournament, now) -> None:
    """The arena starts: its one round, and the first tables."""
    raise NotImplementedError


def step(t: Tournament, now) -> bool:
    """Whatever is due in a running arena now; whether anything happened."""
    raise NotImplementedError


def table_done(t: Tournament, table: Pairing, seats: list[PairingSeat]) -> None:
    """A table's places and points are set on ``seats`` (not yet saved): add the streak bonus
    and free the players."""
    raise NotImplementedError
