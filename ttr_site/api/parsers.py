"""The API's JSON parser: JSON, minus the strings no column can store.

JSON may spell a NUL character (``"\\u0000"``) or a lone surrogate (``"\\ud800"``); Python
decodes both, but PostgreSQL refuses the first and UTF-8 cannot encode the second, so either
reached the database as a 500 (found by tests/reliability/fuzz_http.py). A body holding one
is a malformed request (400) instead.
"""

from django.utils.translation import gettext_lazy as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser


class StrictJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        data = super().parse(stream, media_type, parser_context)
        if not _storable(data):
            raise ParseError(_("The JSON holds a NUL character or a lone surrogate."))
        return data


def _storable(value) -> bool:
    if isinstance(value, str):
        return _encodes(value)
    if isinstance(value, dict):
        return all(_storable(k) and _storable(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_storable(v) for v in value)
    return True


def _encodes(text: str) -> bool:
    if "\x00" in text:
        return False
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
