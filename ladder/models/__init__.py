"""Ladder models: leagues and their ladders (``leagues``), Swiss tournaments (``tournaments``).

Only ``ladder.services`` writes these rows.
"""

from ladder.models.leagues import (
    LADDER_INDEX,
    Challenge,
    League,
    Match,
    MatchPlayer,
    Membership,
    QueueEntry,
    Rating,
    RatingChange,
    all_time_controls,
    new_invite_token,
)
from ladder.models.tournaments import (
    Entry,
    Pairing,
    PairingSeat,
    Round,
    Tournament,
    TournamentInvitation,
    TournamentSnapshot,
)

__all__ = [
    "LADDER_INDEX",
    "Challenge",
    "Entry",
    "League",
    "Match",
    "MatchPlayer",
    "Membership",
    "Pairing",
    "PairingSeat",
    "QueueEntry",
    "Rating",
    "RatingChange",
    "Round",
    "Tournament",
    "TournamentInvitation",
    "TournamentSnapshot",
    "all_time_controls",
    "new_invite_token",
]
