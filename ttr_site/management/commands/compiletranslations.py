"""``manage.py compiletranslations``: compile our message catalogues (``locale/*/LC_MESSAGES/
*.po``) to the ``.mo`` files Django reads, in pure Python.

Django's ``compilemessages`` needs GNU gettext's ``msgfmt``; set-up must work with Python
alone, so this uses polib, which, like ``msgfmt``, leaves out fuzzy and untranslated
entries. Only catalogues newer than their ``.mo`` are compiled (``--force`` for all).
"""

from pathlib import Path

import polib
from django.conf import settings
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Compile the project's .po catalogues to .mo files (no GNU gettext needed)."

    def add_arguments(self, parser):
        parser.add_argument("--force", action="store_true", help="compile even if up to date")

    def handle(self, *args, force=False, **options):
        for po_path in sorted(
            p for base in settings.LOCALE_PATHS for p in Path(base).rglob("*.po")
        ):
            mo_path = po_path.with_suffix(".mo")
            if (
                not force
                and mo_path.exists()
                and mo_path.stat().st_mtime >= po_path.stat().st_mtime
            ):
                continue
            catalogue = polib.pofile(str(po_path))
            catalogue.save_as_mofile(str(mo_path))
            done = len(catalogue.translated_entries())
            self.stdout.write(
                f"{po_path.relative_to(settings.BASE_DIR)}: {done} of {len(catalogue)} translated"
            )
