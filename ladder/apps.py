from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LadderConfig(AppConfig):
    name = "ladder"
    verbose_name = _("Leagues and tournaments")

    def ready(self):
        from games.signals import game_finished
        from ladder.signals import on_game_finished

        game_finished.connect(on_game_finished, dispatch_uid="ladder.record_result")
