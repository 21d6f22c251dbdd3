"""Compact diffs between two standings tables: PURE (no Django), the wire format of live
standings (``ladder/live_standings.py``, ``ladder/static/ladder/standings_model.js``).

Terms:

- *rows*: a standings table as a list of dicts, best first; each has an id under ``key``
  (the player) and any other JSON values (place, points, tie-breaks, games, status ...).
- *order*: the ids of the rows, best first.
- *stable rows*: the largest set of rows present before and after whose relative order is
  unchanged (a longest increasing subsequence of their old positions, taken in the new
  order). Every other row present after is *moved* (or new).
- *diff*: ``{"del": [ids], "mv": [[id, new_index], ...], "set": [[id, {field: value}], ...]}``
  (empty lists are left out). Applying it: drop the ``del`` and ``mv`` ids from the old
  order, insert each ``mv`` id at its index in ascending index order, then, when a ``rank``
  field is named, set it to index + 1 in every row; last, merge each ``set``. A new row is a
  ``mv`` plus a ``set`` carrying all its fields.

Why this shape: one table's result moves its 2-5 players, maybe hundreds of places, and
changes the Buchholz of their opponents; every row in between only shifts by one, which the
client derives from the order. A diff is a few hundred bytes whatever the table's size.
"""

from bisect import bisect_left
from collections.abc import Sequence
from typing import Any

Row = dict[str, Any]


def stable_ids(old: Sequence[Any], new: Sequence[Any]) -> set[Any]:
    """Ids of the rows that keep their relative order from ``old`` to ``new`` (a longest
    increasing subsequence of old positions in new order, O(n log n))."""
    where = {row_id: i for i, row_id in enumerate(old)}
    common = [row_id for row_id in new if row_id in where]
    tails: list[int] = []  # tails[k]: smallest old position ending an increasing run of k+1
    tail_at: list[int] = []  # index into ``common`` of that tail
    back: list[int] = [-1] * len(common)
    for i, row_id in enumerate(common):
        pos = where[row_id]
        k = bisect_left(tails, pos)
        if k == len(tails):
            tails.append(pos)
            tail_at.append(i)
        else:
            tails[k] = pos
            tail_at[k] = i
        back[i] = tail_at[k - 1] if k else -1
    kept: set[Any] = set()
    i = tail_at[-1] if tail_at else -1
    while i >= 0:
        kept.add(common[i])
        i = back[i]
    return kept


def reorder(order: Sequence[Any], deleted: Sequence[Any], moves: Sequence[Sequence]) -> list:
    """The new order: ``order`` without the deleted and moved ids, then each move inserted
    at its index, lowest index first."""
    gone = set(deleted) | {row_id for row_id, _ in moves}
    result = [row_id for row_id in order if row_id not in gone]
    for row_id, index in sorted(moves, key=lambda move: move[1]):
        result.insert(index, row_id)
    return result


def diff(before: Sequence[Row], after: Sequence[Row], *, key: str, rank: str | None) -> dict:
    """The diff that turns ``before`` into ``after`` (see the module docstring)."""
    old = [row[key] for row in before]
    new = [row[key] for row in after]
    kept = stable_ids(old, new)
    new_ids = set(new)
    frame: dict[str, list] = {
        "del": [row_id for row_id in old if row_id not in new_ids],
        "mv": [[row_id, i] for i, row_id in enumerate(new) if row_id not in kept],
        "set": [],
    }
    was = {row[key]: row for row in before}
    for i, row in enumerate(after):
        prior = dict(was.get(row[key], {key: row[key]}))
        if rank is not None:
            prior[rank] = i + 1  # what the client derives from the order
        changed = {f: v for f, v in row.items() if f not in prior or prior[f] != v}
        gone = [f for f in prior if f not in row]
        if gone:
            raise ValueError(f"row {row[key]!r} lost fields {gone}: send the whole table")
        if changed:
            frame["set"].append([row[key], changed])
    return {name: items for name, items in frame.items() if items}


def apply(rows: Sequence[Row], change: dict, *, key: str, rank: str | None) -> list[Row]:
    """``rows`` with ``change`` applied (the client's algorithm, in Python)."""
    by_id = {row[key]: dict(row) for row in rows}
    order = reorder([row[key] for row in rows], change.get("del", []), change.get("mv", []))
    result = [by_id.get(row_id, {key: row_id}) for row_id in order]
    if rank is not None:
        for i, row in enumerate(result):
            row[rank] = i + 1
    updates = dict(change.get("set", []))
    for row in result:
        row.update(updates.get(row[key], {}))
    return result
