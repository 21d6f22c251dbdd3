"""The site's one date and time format per language (``FORMAT_MODULE_PATH``).

Every page shows a day as ``DATE_FORMAT`` and a moment as ``DATETIME_FORMAT`` (English:
"25 Nov 2026" and "25 Nov 2026, 14:05"; a 24-hour clock in every language). The short
variants are the same, so a template that asks for one still matches the rest of the site.
Only the display formats are set here: what forms accept stays Django's per language.
"""
