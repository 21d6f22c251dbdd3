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


def _sorted_dumps(data) -> str:
    return orjson.dumps(data, option=orjson.OPT_SORT_KEYS).decode()
