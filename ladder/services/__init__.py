"""Use cases of leagues and ranked play: the only code that writes ladder rows.

Every write locks its league row (one writer per league: its members, queue and ladders),
checks the caller's right to act, and schedules tasks and pushes with
``transaction.on_commit``.
"""

from ladder.services.challenges import challenge_accept, challenge_create, challenge_decline
from ladder.services.leagues import (
    league_create,
    league_join,
    league_leave,
    membership_remove,
    membership_set_role,
)
from ladder.services.queue import queue_join, queue_leave, queue_match, rated_table_start
from ladder.services.recalculate import RebuildReport, ladder_recalculate
from ladder.services.results import match_annul, match_record

__all__ = [
    "RebuildReport",
    "challenge_accept",
    "challenge_create",
    "challenge_decline",
    "ladder_recalculate",
    "league_create",
    "league_join",
    "league_leave",
    "match_annul",
    "match_record",
    "membership_remove",
    "membership_set_role",
    "queue_join",
    "queue_leave",
    "queue_match",
    "rated_table_start",
]
