import orjson
from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self):
        # The engine imports only the standard library; the site gives it orjson for the
        # state's JSON form (games/engine/serialization.py: same text, several times faster).
        from games.engine import serialization

        serialization.set_json_codec(dumps=_sorted_dumps, loads=orjson.loads)
        # Wiring (the one place that knows both sides): a bot move this web process schedules
        # is played by the use case (games.bot_turns imports no services).
        from games import bot_turns, services

        bot_turns.set_player(services.game_bot_move)


def _sorted_dumps(data) -> str:
    return orjson.dumps(data, option=orjson.OPT_SORT_KEYS).decode()
