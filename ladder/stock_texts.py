"""Texts the site writes into rows itself: the default leagues' descriptions (migration
0002) and the demo tournaments' (``ladder.demo``).

They are stored in English, as any description is, but while a row still holds the stock
text it is shown in the reader's language; once someone edits it, it is shown as written.
"""

from django.utils.translation import gettext, gettext_noop

EUROPE_LADDER = gettext_noop("The open ladder for Ticket to Ride: Europe with the classic tickets.")
NEW_YORK_LADDER = gettext_noop("The open ladder for Ticket to Ride: New York.")
DEMO_TOURNAMENT = gettext_noop(
    "A demo tournament: bots fill the field; log in as a demo player to join or watch."
)

STOCK = frozenset({EUROPE_LADDER, NEW_YORK_LADDER, DEMO_TOURNAMENT})


def shown(text: str) -> str:
    """``text`` as the reader sees it: a stock text in the active language, else as stored."""
    return gettext(text) if text in STOCK else text
