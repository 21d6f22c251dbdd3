"""The knockout bracket tab: each round's tables as columns, who went through and who went
out, byes, and the final table (read from the standings snapshot).

A round paired is shown as it is; the rounds still to come as empty slots with the number
of players the plan gives them (``ladder.pairing.knockout.plan``) from the last round paired.
"""

from ladder import standings
from ladder.pairing import knockout


def _seeds(view, t) -> dict[int, int]:
    """Entrant id -> seed number (1 = best): the seeding rating, the coin for ties, as the
    rounds are seated (``services.tournament_knockout.seeds``)."""
    if view.rounds:
        ids = [s.entry.pk for table in view.rounds[0].tables for s in table.seats]
    else:
        ids = [e.pk for e in view.entries.values() if e.is_active]
    entries = sorted((view.entries[pk] for pk in ids),
                     key=lambda e: (-e.rating, -standings.coin(t.seed, e.pk), e.pk))  # fmt: skip
    return {e.pk: i for i, e in enumerate(entries, 1)}


def _player(seat, seed: dict, me, mark: str, winner: bool) -> dict:
    e = seat.entry
    return {"entry": e, "name": e.label, "url": e.url, "seed": seed.get(e.pk),
            "place": seat.place, "score": seat.score, "mark": mark, "winner": winner,
            "me": me is not None and e.pk == me.pk}  # fmt: skip


def _column(round_, nxt, seed: dict, me, final: bool, finished: bool) -> dict:
    going = {s.entry.pk for table in nxt.tables for s in table.seats} if nxt else set()
    done = round_.status == "finished"
    tables, byes = [], []
    for table in round_.tables:
        seats = sorted(table.seats, key=lambda s: (s.place is None, s.place or 0, s.seat))
        players = []
        for s in seats if table.done else table.seats:
            mark = ""
            if done and not final:
                mark = "through" if s.entry.pk in going else "out"
            players.append(_player(s, seed, me, mark, final and finished and s.place == 1))
        if table.is_bye:
            byes += players
        else:
            tables.append({"table": table, "players": players, "url": table.url,
                           "mine": any(p["me"] for p in players)})  # fmt: skip
    count = sum(len(t["players"]) for t in tables) + len(byes)
    return {"number": round_.number, "final": final, "planned": False, "status": round_,
            "tables": tables, "byes": byes, "players": count}  # fmt: skip


def bracket_tab(view, t, me) -> dict:
    """The template context of the bracket tab."""
    size, k = t.table_size, t.advance_count
    seed = _seeds(view, t)
    finished = t.status == "finished"
    columns = []
    for i, round_ in enumerate(view.rounds):
        nxt = view.rounds[i + 1] if i + 1 < len(view.rounds) else None
        players = sum(len(table.seats) for table in round_.tables)
        final = players <= size
        columns.append(_column(round_, nxt, seed, me, final, finished))
    if finished or t.status == "cancelled":
        return {"columns": columns, "bracket_size": size, "bracket_k": k}
    last = columns[-1]["players"] if columns else len(seed)
    if last >= 2 and not (columns and columns[-1]["final"]):
        stages = knockout.plan(last, size, k)[1 if columns else 0 :]
        first = (columns[-1]["number"] + 1) if columns else 1
        for number, stage in enumerate(stages, first):
            columns.append({"number": number, "final": stage.final, "planned": True,
                            "players": stage.players, "tables": [], "byes": []})  # fmt: skip
    return {"columns": columns, "bracket_size": size, "bracket_k": k}
