from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LadderConfig(AppConfig):
    name = "ladder"
    verbose_name = _("Leagues and tournaments")
