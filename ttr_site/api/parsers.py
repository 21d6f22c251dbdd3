"""The API's JSON parser: JSON, minus what no column can store and what no request needs.

JSON may spell a NUL character (``"\\u0000"``) or a lone surrogate (``"\\ud800"``); Python
decodes both, but PostgreSQL refuses the first and UTF-8 cannot encode the second, so either
reached the database as a 500 (found by tests/reliability/fuzz_http.py). A body holding one
is a malformed request (400) instead.

No request of the API nests deeper than a few levels; a body nested hundreds deep made
``json.loads`` or the recursive code after it raise ``RecursionError``, a 500 with a
traceback of thousands of lines. A body deeper than ``MAX_DEPTH`` is malformed too, and the
check walks the data without recursion.
"""

from django.utils.translation import gettext_lazy as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

MAX_DEPTH = 32


class StrictJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(_("The JSON is nested too deeply.")) from None
        problem = _problem(data)
        if problem:
            raise ParseError(problem)
        return data


def _problem(data):
    """Why ``data`` may not be stored (too deep, or an unencodable string), or None."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            if not _encodes(value):
                return _("The JSON holds a NUL character or a lone surrogate.")
            continue
        if not isinstance(value, dict | list):
            continue
        if depth > MAX_DEPTH:
            return _("The JSON is nested too deeply.")
        items = [*value.keys(), *value.values()] if isinstance(value, dict) else value
        stack.extend((item, depth + 1) for item in items)
    return None


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
