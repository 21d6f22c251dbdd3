"""Rules editions: the version of the rules a game is played under, for its whole life.

Terms (docs/rules.md "Rules editions"):
- *edition*: an int in the state (``GameState.edition``), fixed when the game is dealt. A
  stored game, in play or replayed from its actions, goes on under the rules it started with,
  so a change to the rules never changes a game already dealt. ``new_game`` deals
  ``RULES_EDITION``, the newest, unless told otherwise; states stored before editions existed
  (state version 3 and older) are edition 1.
- ``EditionRules``: what differs between editions, one flag per behaviour, each read in the
  one place that behaviour lives. Edition 1 is the rules as first played; edition 2 follows
  the rulebooks on four points:

  - ``long_tickets_first`` (docs/rules.md 1.8): Mega Europe's set-up in two steps, 0 or 1 of
    the 2 long tickets, then 5 regular ones dealt from the ticket deck (``setup``,
    ``rules.tickets``). Edition 1: one choice over all 7.
  - ``faceup_checked_always`` (1.3.1): the face-up row is also checked after a blind draw
    (before the second card) and after every action (``rules.cards``, ``actions``).
    Edition 1: only when the row was dealt, a face-up card taken or the turn ended.
  - ``changed_row_refreshed`` (1.3.1, endless refresh): a row that has just changed and shows
    3 locomotives is refreshed at least once (``rules.cards.check_refresh``). Edition 1: only
    when a row with fewer could come.
  - ``depot_bonus_at_zero`` (2.7): when nobody has a depot left, every seat gets the depot
    bonus (``scoring``). Edition 1: nobody does.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType


@dataclass(frozen=True, slots=True)
class EditionRules:
    long_tickets_first: bool
    faceup_checked_always: bool
    changed_row_refreshed: bool
    depot_bonus_at_zero: bool


RULES_EDITION = 2  # the edition new games are dealt under

EDITIONS = MappingProxyType(
    {
        1: EditionRules(
            long_tickets_first=False,
            faceup_checked_always=False,
            changed_row_refreshed=False,
            depot_bonus_at_zero=False,
        ),
        2: EditionRules(
            long_tickets_first=True,
            faceup_checked_always=True,
            changed_row_refreshed=True,
            depot_bonus_at_zero=True,
        ),
    }
)
