"""Multiplayer Elo for Ticket to Ride tables: PURE (no Django), see ``docs/ratings.md``.

Terms:

- *rating*: a number on the familiar Elo scale; every player starts at ``START``.
- *place*: a player's finishing position at a table, 1 = best; equal places are shared.
  An *abandoned* seat (handed to a bot, docs/rules.md 1.7) is placed after every seat that was
  played to the end, whatever the bot scored for it; several abandoned seats share last place.
- *pairwise result*: a table of n players is scored as the n-1 two-player games each player
  "played" against every other: 1 for finishing ahead, 1/2 for a shared place, 0 for behind.
- *provisional*: fewer than ``PROVISIONAL_GAMES`` rated games played before this one; the
  rating moves faster (``K_PROVISIONAL``) and is shown with a "?".

One table moves player i by ``K_i / (n - 1) * (S_i - E_i)`` where ``S_i`` is the sum of i's
pairwise results and ``E_i`` the sum of the classic Elo expectations against each opponent.
Dividing by n - 1 makes a table worth one game whatever its size: winning a table of equals
gains ``K / 2`` at any size, just as winning a two-player game does.
"""

from collections.abc import Iterable, Sequence

START = 1500.0
K = 32.0
K_PROVISIONAL = 64.0
PROVISIONAL_GAMES = 20
SCALE = 400.0  # a 400-point gap means 10:1 odds, as in chess Elo


def is_provisional(games: int) -> bool:
    """Shown with a "?": fewer than ``PROVISIONAL_GAMES`` rated games so far."""
    return games < PROVISIONAL_GAMES


def expected(rating: float, opponent: float) -> float:
    """The Elo expectation of ``rating`` against ``opponent`` (1/2 for equals)."""
    return 1.0 / (1.0 + 10.0 ** ((opponent - rating) / SCALE))


def k_factor(games: int, table_size: int) -> float:
    """K for one player at a table: higher while provisional, shared over the n-1 pairings."""
    base = K_PROVISIONAL if games < PROVISIONAL_GAMES else K
    return base / (table_size - 1)


def effective_places(ranks: Sequence[int], abandoned: Sequence[bool]) -> list[int]:
    """Places for rating: engine ranks, but abandoned seats last (sharing last place)."""
    keys = [(True, 0) if a else (False, r) for r, a in zip(ranks, abandoned, strict=True)]
    return [1 + sum(1 for other in keys if other < key) for key in keys]


def pairwise_scores(places: Sequence[int]) -> list[float]:
    """Each player's sum of pairwise results: 1 per player behind, 1/2 per shared place."""
    return [
        sum(1.0 if p < q else 0.5 if p == q else 0.0 for j, q in enumerate(places) if j != i)
        for i, p in enumerate(places)
    ]


def rate_table(
    ratings: Sequence[float], games: Sequence[int], places: Sequence[int]
) -> list[float]:
    """The rating change of each player of one table (same order as the inputs).

    ``games`` is each player's count of rated games before this one (for provisional K).
    """
    n = len(ratings)
    if n < 2:
        return [0.0] * n
    score = [0.0] * n
    expect = [0.0] * n
    # expected(ri, rj) = 1 / (1 + 10^((rj - ri)/400)) = qi / (qi + qj) with q = 10^(r/400):
    # one power per player instead of one per pair (a ladder rebuild replays millions).
    q = [10.0 ** (r / SCALE) for r in ratings]
    for i in range(n):
        qi, pi = q[i], places[i]
        for j in range(i + 1, n):
            e = qi / (qi + q[j])
            expect[i] += e
            expect[j] += 1.0 - e
            pj = places[j]
            if pi < pj:
                score[i] += 1.0
            elif pi > pj:
                score[j] += 1.0
            else:
                score[i] += 0.5
                score[j] += 0.5
    return [k_factor(games[i], n) * (score[i] - expect[i]) for i in range(n)]


class Ladder:
    """Running ratings of one ladder: ``player -> [rating, games, wins]``.

    ``play`` applies one table in finishing order; a rebuild is ``play`` over the history,
    which is why the incremental updates and a recalculation give the same numbers.
    """

    __slots__ = ("players",)

    def __init__(self, players: dict | None = None):
        self.players: dict = players if players is not None else {}

    def state(self, player) -> list:
        entry = self.players.get(player)
        if entry is None:
            entry = self.players[player] = [START, 0, 0]
        return entry

    def play(self, players: Sequence, places: Sequence[int]) -> list[tuple]:
        """Apply one table; return ``(player, before, after, games_before)`` for each seat."""
        states = [self.state(p) for p in players]
        deltas = rate_table([s[0] for s in states], [s[1] for s in states], places)
        changes = []
        for player, state, delta, place in zip(players, states, deltas, places, strict=True):
            before, games = state[0], state[1]
            state[0] = after = before + delta
            state[1] = games + 1
            if place == 1:
                state[2] += 1
            changes.append((player, before, after, games))
        return changes


def replay(tables: Iterable[tuple[Sequence, Sequence[int]]]) -> Ladder:
    """A ladder rebuilt from ``(players, places)`` tables in finishing order."""
    ladder = Ladder()
    for players, places in tables:
        ladder.play(players, places)
    return ladder


class Accuracy:
    """How well ratings before a game predicted it, pair by pair.

    A pair of players at one table with different places is *decided*; the prediction is that
    the higher-rated one finishes ahead. ``brier`` is the mean squared error of the Elo
    expectation against the pairwise result (shared places count 1/2), over all pairs.
    """

    BANDS = (0, 50, 100, 200, 300, 10**9)

    def __init__(self):
        self.decided = 0
        self.correct = 0
        self.equal_ratings = 0
        self.pairs = 0
        self.squared_error = 0.0
        # per band of rating gap: [decided pairs, higher-rated ahead, sum of expectations]
        self.bands = [[0, 0, 0.0] for _ in self.BANDS[:-1]]

    def add(self, ratings: Sequence[float], places: Sequence[int]) -> None:
        """Count one table, with the ratings the players had before it."""
        n = len(ratings)
        for i in range(n):
            for j in range(i + 1, n):
                self._pair(ratings[i], ratings[j], places[i], places[j])

    def _pair(self, ri: float, rj: float, pi: int, pj: int) -> None:
        e = expected(ri, rj)
        actual = 1.0 if pi < pj else 0.0 if pi > pj else 0.5
        self.pairs += 1
        self.squared_error += (e - actual) ** 2
        if pi == pj:
            return
        if ri == rj:
            self.equal_ratings += 1
            return
        self.decided += 1
        higher_ahead = (ri > rj) == (pi < pj)
        self.correct += higher_ahead
        band = self.bands[self._band(abs(ri - rj))]
        band[0] += 1
        band[1] += higher_ahead
        band[2] += max(e, 1.0 - e)

    def _band(self, gap: float) -> int:
        return next(b for b in range(len(self.BANDS) - 1) if gap < self.BANDS[b + 1])

    @property
    def share_correct(self) -> float | None:
        return self.correct / self.decided if self.decided else None

    @property
    def brier(self) -> float | None:
        return self.squared_error / self.pairs if self.pairs else None

    def band_rows(self) -> list[dict]:
        """Per gap band: pairs, observed share of higher-rated ahead, mean Elo expectation."""
        rows = []
        for b, (count, ahead, expect) in enumerate(self.bands):
            rows.append(
                {
                    "low": self.BANDS[b],
                    "high": self.BANDS[b + 1] if b + 2 < len(self.BANDS) else None,
                    "pairs": count,
                    "observed": ahead / count if count else None,
                    "expected": expect / count if count else None,
                }
            )
        return rows
