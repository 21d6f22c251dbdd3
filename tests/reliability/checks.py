"""What every drill checks once its game is over: nothing lost, nothing doubled."""

import collections
import json

from games import engine
from tests.games.test_background_work_live import assert_history_is_whole, game_row
from tests.live import LiveSite
from tests.reliability.players import Player

__all__ = ["assert_game_is_sound", "assert_history_is_whole", "game_row"]


def _key(action) -> str:
    return json.dumps(action if isinstance(action, dict) else json.loads(action), sort_keys=True)


def assert_game_is_sound(site: LiveSite, game_id: int, players: list[Player]) -> dict:
    """The game finished; its history is whole (events 0..version, the replay from the seed
    is the stored state and its log); every action a client saw applied is the event of the
    next version
    and every move of a client's seat is one it sent, at that version (none invented, none
    applied twice); every client ended on the final version. Returns a summary."""
    version, state_json, _seed, status = game_row(site, game_id)
    assert status == "finished", status
    assert_history_is_whole(site, game_id)
    events = {
        seq: (seat, _key(action), by_timeout)
        for seq, seat, action, by_timeout in site.sql(
            "SELECT seq, seat, action, by_timeout FROM games_gameevent "
            "WHERE game_id = %s AND seq > 0",
            (game_id,),
        )
    }
    state = engine.from_json(state_json)
    for player in players:
        assert player.version == version, (player.seat, player.version, version)
        # Bot-speed play never comes near the default rate limits.
        assert not player.errors["rate_limited"] + player.errors["chat_rate_limited"]
        if player.seat is None:
            continue
        for sent_at, action in player.acked:
            assert events[sent_at + 1][:2] == (player.seat, _key(action)), (sent_at, action)
        sent = {(v, _key(a)) for v, a in player.sent}
        for seq, (seat, action, by_timeout) in events.items():
            if seat == player.seat and not by_timeout:
                assert (seq - 1, action) in sent, (player.seat, seq, action)
        assert player.view == _final_view(state, player.seat)
    return {
        "version": version,
        "acked": sum(len(p.acked) for p in players),
        "reconnects": sum(p.connections - 1 for p in players),
        "gaps": sum(p.gaps for p in players),
        "errors": sum((p.errors for p in players), start=collections.Counter()),
    }


def _final_view(state, seat) -> dict:
    view = engine.view_for(state, seat, log_since=engine.log_length(state))
    view.pop("log")
    return view
