from django.apps import AppConfig


class TtrSiteConfig(AppConfig):
    """The project package as an app: site-wide pages and management commands."""

    name = "ttr_site"
    verbose_name = "ttr"
