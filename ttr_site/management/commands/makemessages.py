"""``manage.py makemessages``, also finding the browser strings our scripts mark with their
short aliases: ``t("...")`` for ``gettext`` and ``nt("one", "many", n)`` for ``ngettext``."""

from django.core.management.commands import makemessages

JS_KEYWORDS = ["--keyword=t", "--keyword=nt:1,2"]


class Command(makemessages.Command):
    def handle(self, *args, **options):
        if options.get("domain") == "djangojs":
            self.xgettext_options = [*self.xgettext_options, *JS_KEYWORDS]
        return super().handle(*args, **options)
