"""Graph algorithms on a player's routes: connectivity and the longest trail.

Terms:
- *edge*: ``(route index, city a, city b, length)``.
- *union-find*: a parent list over city indexes; ``find`` with path halving. Two cities are
  *connected* when they share a root (docs/rules.md 1.5.2 ticket completion).
- *trail*: a walk that uses each edge at most once; cities may repeat (docs/rules.md 1.5.4).
  Its length is the sum of its edges' lengths (cars, not routes).

Longest trail: NP-hard in general, small here (a player owns at most 45 cars of routes).
Facts used to prune:
- a longest trail that is closed uses every edge of its component (otherwise an unused edge
  at one of its cities would extend it), so a component with only even-degree cities is an
  Euler circuit: its total length;
- a longest open trail cannot be extended at its ends, so both ends have odd degree: search
  only from odd-degree cities.
The search is a DFS over (city, used-edge bitmask) with memoisation.
"""

from __future__ import annotations


def find(parent: list, x: int) -> int:
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


def union(parent: list, a: int, b: int) -> None:
    ra, rb = find(parent, a), find(parent, b)
    if ra != rb:
        parent[ra] = rb


def components_of(n: int, edges) -> list:
    """A union-find parent list with every edge joined."""
    parent = list(range(n))
    for _, a, b, _ in edges:
        union(parent, a, b)
    return parent


def longest_trail(edges) -> tuple[int, list]:
    """(length, route indexes in trail order) of one longest trail; (0, []) if no edges."""
    edges = list(edges)
    if not edges:
        return 0, []
    adj: dict[int, list] = {}
    for bit, (route, a, b, length) in enumerate(edges):
        adj.setdefault(a, []).append((1 << bit, b, length, route))
        adj.setdefault(b, []).append((1 << bit, a, length, route))
    best_len, best_path = 0, []
    for comp, total in _components(adj):
        if total <= best_len:
            continue
        odd = [v for v in comp if len(adj[v]) % 2]
        starts = odd or comp[:1]
        memo: dict = {}
        for v in starts:
            length = _extend(adj, v, 0, memo)
            if length > best_len:
                best_len, best_path = length, _trace(adj, v, memo)
            if best_len == total:
                break
    return best_len, best_path


def _components(adj: dict) -> list:
    """``(sorted cities, total length)`` per connected component, by smallest city."""
    seen: set = set()
    out = []
    for v in sorted(adj):
        if v in seen:
            continue
        seen.add(v)
        stack = [v]
        comp = []
        twice = 0  # every edge is met from both ends
        while stack:
            x = stack.pop()
            comp.append(x)
            for _, w, length, _ in adj[x]:
                twice += length
                if w not in seen:
                    seen.add(w)
                    stack.append(w)
        comp.sort()
        out.append((comp, twice // 2))
    return out


def _extend(adj: dict, v: int, used: int, memo: dict) -> int:
    """Longest extension (in cars) of a trail at city v having used edges ``used``."""
    key = (v, used)
    found = memo.get(key)
    if found is not None:
        return found
    best = 0
    for bit, w, length, _ in adj[v]:
        if not used & bit:
            got = length + _extend(adj, w, used | bit, memo)
            if got > best:
                best = got
    memo[key] = best
    return best


def _trace(adj: dict, v: int, memo: dict) -> list:
    """Rebuild the trail found by ``_extend`` from city v."""
    path: list = []
    used = 0
    while True:
        remaining = memo.get((v, used), 0)
        if remaining == 0:
            return path
        for bit, w, length, route in adj[v]:
            # _extend memoised every state it visited from here, so the lookups hit
            if not used & bit and length + memo.get((w, used | bit), 0) == remaining:
                path.append(route)
                used |= bit
                v = w
                break
        else:  # pragma: no cover - memo is always consistent
            return path
