"""Knockouts: rounds in which the top ``advance_count`` of each table go through, seeded by
rating, with byes to the highest seeds, until a final table (docs/tournaments.md
"Knockout"). Called by ``tournament_rounds`` under the tournament lock."""

from ladder.models import Round, Tournament


def seat_round(t: Tournament, round_: Round, active: dict) -> None:
    """Seat the entrants still in (``active``: entry id -> entry) at the round's tables."""
    raise NotImplementedError


def eliminate(t: Tournament, round_: Round) -> bool:
    """The finished ``round_``: mark who went out; whether another round follows."""
    raise NotImplementedError
