from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LadderConfig(AppConfig):
    name = "ladder"
    verbose_name = _("Leagues and tournaments")

    def ready(self):
        from games.signals import game_finished
        from ladder.signals import on_game_finished

        game_finished.connect(on_game_finished, dispatch_uid="ladder.record_result")
        # A rated table's page shows its ladder (games imports nothing of the ladder: it is
        # handed the reader), and hears when its match is recorded or annulled.
        from django.db.models.signals import post_save

        from games import presenters
        from ladder.models import Match
        from ladder.table_ratings import match_saved, table_ratings

        presenters.set_ratings_reader(table_ratings)
        post_save.connect(match_saved, sender=Match, dispatch_uid="ladder.table_ratings")
