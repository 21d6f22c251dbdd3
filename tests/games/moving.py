"""A player's move as a test makes it: the bot ``level``'s choice from the player's own view,
submitted through the service at the game's current version."""

from games import engine, services
from games.engine.bots import choose_action


def player_moves(game, user, *, seat: int = 0, level: str = "easy", seed: int = 1) -> None:
    game.refresh_from_db()
    state = engine.from_json(game.state)
    legal = engine.legal_actions(state, seat)
    action = choose_action(level, engine.view_for(state, seat), legal, seed=seed)
    services.game_submit_action(
        game_id=game.pk, action=action, expected_version=game.version, user=user
    )


def play_against_bot(game, user, moves: int, capture) -> list[int]:
    """``user`` (seat 0) and the bot (seat 1) move in turn, each move's after-commit work run
    (``capture``: pytest-django's ``django_capture_on_commit_callbacks``). Returns the stored
    state's length after each move."""
    lengths = []
    for _ in range(moves):
        game.refresh_from_db()
        with capture(execute=True):
            if 1 in engine.current_seats(engine.from_json(game.state)):
                services.game_bot_move(game_id=game.pk, expected_version=game.version)
            else:
                player_moves(game, user, level="medium", seed=game.version)
        game.refresh_from_db()
        lengths.append(len(game.state))
    return lengths


def replay_events(game):
    """The game replayed from its seed with its events' actions (the whole log held)."""
    from games.models import GameEvent

    events = GameEvent.objects.filter(game=game, seq__gt=0).order_by("seq")
    return engine.replay(game.table.game_params(game.seed), [(e.seat, e.action) for e in events])
