"""The names of the seats a bot plays: one name for a seat everywhere it is shown.

Terms: a *bot seat* is a seat with no player, played by a bot of its *level*; a *covered
seat* is a player's seat a bot plays on for them (docs/rules.md 1.7). A bot seat is named
like a person with its level beside it ("Ada (medium bot)"): the name is fixed by the table
and the position, so it stays the same on every page and push, and no two bots at a table
share one. A tournament's bot keeps one name in all its games and in the standings: it is
named by its entry (the how-manieth bot entered in the tournament), and its seats at the
tournament's tables carry that name. A covered seat keeps its player's name, marked as played
by a bot ("Bob (bot playing)").
"""

from django.utils.translation import gettext_lazy as _

# Short, easy to tell apart, from many languages; not translated (they are names).
BOT_NAMES = (
    "Ada", "Bram", "Cleo", "Dara", "Emil", "Femke", "Gus", "Hana", "Ivo", "Juno", "Kai",
    "Lotte", "Milo", "Nia", "Otto", "Pia", "Quin", "Rosa", "Sami", "Tove", "Umar", "Vera",
    "Wim", "Xena", "Yuki", "Zeno",
)  # fmt: skip

LEVELS = {
    "easy": _("easy bot"),
    "medium": _("medium bot"),
    "hard": _("hard bot"),
    "expert": _("expert bot"),
}


def bot_name(level: str, index: int) -> str:
    """The ``index``-th bot name with its level: "Ada (medium bot)" (past the list's end,
    numbered: "Ada 2 (medium bot)")."""
    name = BOT_NAMES[index % len(BOT_NAMES)]
    if index >= len(BOT_NAMES):
        name = f"{name} {index // len(BOT_NAMES) + 1}"
    level_label = LEVELS.get(level, level)
    return str(_("%(name)s (%(level)s)") % {"name": name, "level": level_label})


def table_bot_index(table_id: int, position: int) -> int:
    """The name of the bot in seat ``position`` at table ``table_id``: consecutive names from
    a start fixed by the table (7 and the 26 names share no factor, so the start moves on
    from table to table), hence no two positions of a table share one."""
    return ((table_id or 0) * 7 + position) % len(BOT_NAMES)


def covered_name(player_name: str) -> str:
    """A player's seat a bot plays on for them (docs/rules.md 1.7)."""
    return str(_("%(name)s (bot playing)") % {"name": player_name})


def entrant_bot_names(bot_entries) -> dict[int, str]:
    """A tournament's bots by entry id: each named by its order of entry (``bot_entries``: the
    tournament's bot entries, any order; each with ``pk`` and ``bot_level``)."""
    ordered = sorted(bot_entries, key=lambda e: e.pk)
    return {e.pk: bot_name(e.bot_level, i) for i, e in enumerate(ordered)}


def tournament_bot_names(table) -> dict[int, str]:
    """The names a tournament gave the bots at its ``table``, by position (empty for any other
    table). games imports nothing of the ladder: the table's pairing is read through its
    reverse relation (``tournament_pairing``), as the table page does; only an ownerless
    table with a bot seat can be a tournament's, so no other table pays a query for it."""
    cache = getattr(table, "_tournament_bot_names", None)
    if cache is not None:
        return cache
    names: dict[int, str] = {}
    seats = list(table.seats.all())
    if table.owner_id is None and any(s.user_id is None and s.bot_level for s in seats):
        pairing = getattr(table, "tournament_pairing", None)
        if pairing is not None:
            names = _pairing_bot_names(pairing)
    table._tournament_bot_names = names
    return names


def _pairing_bot_names(pairing) -> dict[int, str]:
    places = list(pairing.seats.select_related("entry"))
    if not places:
        return {}
    entry_model = type(places[0].entry)
    tournament_id = places[0].entry.tournament_id
    bots = entry_model.objects.filter(tournament_id=tournament_id, user__isnull=True)
    by_entry = entrant_bot_names(bots.exclude(bot_level="").only("pk", "bot_level"))
    return {p.seat: by_entry[p.entry_id] for p in places if p.entry_id in by_entry}
