"""Use cases of the live tables: the only code that changes a table, a seat or a game.

Every write locks its aggregate (the table row, or the game row for moves: one writer per
table), checks the caller's right to act, and schedules pushes and tasks with
``transaction.on_commit`` so nothing is announced that was rolled back.
"""

from games.services.chat import CHAT_BURST, CHAT_LIMIT, chat_post
from games.services.clock_outages import (
    clock_sweep_beat,
    clock_sweep_touch,
    web_beat,
    web_stopped,
)
from games.services.moves import (
    game_bot_move,
    game_frame,
    game_handle_timeout,
    game_submit_action,
    game_sweep_deadlines,
    game_view_for_user,
)
from games.services.notices import game_notify_turn
from games.services.tables import (
    table_add_bot,
    table_create,
    table_end_early,
    table_invite_rotate,
    table_join,
    table_leave,
    table_open_full,
    table_remove_seat,
    table_start,
    table_take_back,
)
from games.storage import game_state

__all__ = [
    "CHAT_BURST",
    "CHAT_LIMIT",
    "chat_post",
    "clock_sweep_beat",
    "clock_sweep_touch",
    "game_bot_move",
    "game_frame",
    "game_handle_timeout",
    "game_state",
    "game_notify_turn",
    "game_submit_action",
    "game_sweep_deadlines",
    "game_view_for_user",
    "table_add_bot",
    "table_create",
    "table_end_early",
    "table_invite_rotate",
    "table_join",
    "table_leave",
    "table_open_full",
    "table_remove_seat",
    "table_start",
    "table_take_back",
    "web_beat",
    "web_stopped",
]
