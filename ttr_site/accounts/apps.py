from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "ttr_site.accounts"
    label = "accounts"
    verbose_name = _("Accounts")

    def ready(self):
        from . import signals  # noqa: F401  (connects the allauth signal handlers)
