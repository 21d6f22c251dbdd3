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
