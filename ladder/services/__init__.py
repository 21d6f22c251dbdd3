"""Use cases of leagues and ranked play: the only code that writes ladder rows.

Every write locks its league row (one writer per league: its members, queue and ladders),
checks the caller's right to act, and schedules tasks and pushes with
``transaction.on_commit``.
"""

from ladder.services.challenges import challenge_accept, challenge_create, challenge_decline
from ladder.services.leagues import (
    league_create,
    league_invite_rotate,
    league_join,
    league_leave,
    membership_remove,
    membership_set_role,
)
from ladder.services.queue import queue_join, queue_leave, queue_match, rated_table_start
from ladder.services.recalculate import RebuildReport, ladder_recalculate
from ladder.services.results import match_annul, match_record
from ladder.services.tournament_arena import arena_pause, arena_resume, tournament_end_now
from ladder.services.tournament_entries import (
    entry_add_bot,
    entry_invite,
    entry_remove,
    invitation_accept,
    invitation_decline,
    tournament_check_in,
    tournament_register,
    tournament_withdraw,
)
from ladder.services.tournament_rounds import (
    pairing_end,
    pairing_set_result,
    round_repair,
    tournament_advance,
    tournament_game_finished,
    tournament_rate,
    tournament_start_now,
)
from ladder.services.tournament_snapshots import (
    snapshot_current,
    snapshot_rebuild,
    snapshot_refresh,
    snapshot_refresh_stale,
)
from ladder.services.tournaments import (
    tournament_cancel,
    tournament_create,
    tournament_pause,
    tournament_resume,
)

__all__ = [
    "RebuildReport",
    "arena_pause",
    "arena_resume",
    "challenge_accept",
    "challenge_create",
    "challenge_decline",
    "entry_add_bot",
    "entry_invite",
    "entry_remove",
    "invitation_accept",
    "invitation_decline",
    "ladder_recalculate",
    "league_create",
    "league_invite_rotate",
    "league_join",
    "league_leave",
    "match_annul",
    "match_record",
    "pairing_end",
    "pairing_set_result",
    "membership_remove",
    "membership_set_role",
    "queue_join",
    "queue_leave",
    "queue_match",
    "rated_table_start",
    "round_repair",
    "snapshot_current",
    "snapshot_rebuild",
    "snapshot_refresh",
    "snapshot_refresh_stale",
    "tournament_advance",
    "tournament_cancel",
    "tournament_check_in",
    "tournament_create",
    "tournament_end_now",
    "tournament_game_finished",
    "tournament_pause",
    "tournament_rate",
    "tournament_register",
    "tournament_resume",
    "tournament_start_now",
    "tournament_withdraw",
]
