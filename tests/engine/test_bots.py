"""Bots: only legal actions, in every phase; blind to hidden facts; deterministic; they finish
games, and medium beats easy (loosely: the 200-game figures come from ``bot_arena``)."""

from __future__ import annotations

import math
import random
import statistics

import pytest

import games.engine as E
from games.engine.bots import LEVELS, choose_action, expert
from games.engine.bots.arena import (
    head_to_head,
    lineup_for,
    mean_interval,
    paired,
    play_game,
    play_rotated,
    score_margins,
    split_level,
    summarize,
    wilson,
)

# The expert searches for a budget of CPU time, so its decisions repeat only under a playout
# budget: tests/engine/test_expert_bot.py checks it the same ways with one.
ALL = tuple(lv for lv in LEVELS if lv != "expert")


def walk(seed: int, seats: int, rng_share: float = 0.5):
    """Yield (state, seat) at every decision of a game played half by random moves, half by
    bots (random moves reach stations, odd tunnels and ticket draws the bots avoid)."""
    rng = random.Random(seed)
    state = E.new_game(seats=seats, seed=seed)
    steps = 0
    while state.phase != "over" and steps < 3000:
        seat = rng.choice(E.current_seats(state))
        yield state, seat
        legal = E.legal_actions(state, seat)
        if rng.random() < rng_share:
            action = rng.choice(legal)
        else:
            level = ALL[steps % len(ALL)]
            action = choose_action(level, E.view_for(state, seat), legal, seed=steps)
        E.apply_action(state, seat, action)
        steps += 1


def test_every_level_picks_a_legal_action_in_every_phase():
    seen_phases = set()
    flags = set()
    for seed in range(6):
        for state, seat in walk(seed, seats=2 + seed % 4):
            legal = E.legal_actions(state, seat)
            view = E.view_for(state, seat)
            seen_phases.add(state.phase)
            if view["last_round"]["active"]:
                flags.add("last_round")
            if any(a["type"] == "build_station" for a in legal):
                flags.add("station")
            for level in ALL:
                action = choose_action(level, view, legal, seed=seed)
                assert action in legal, (level, state.phase, action)
    assert seen_phases >= {"setup", "turn", "draw2", "tunnel", "tickets"}
    assert flags == {"last_round", "station"}


def test_an_empty_legal_list_is_refused():
    state = E.new_game(seats=2, seed=1)
    with pytest.raises(ValueError):
        choose_action("medium", E.view_for(state, 0), [])


def _hide_differently(state, seat: int, rng):
    """A copy of ``state`` that differs only in what ``seat`` cannot see: other hands
    (colours, same counts), the order of the deck, other seats' tickets and offers."""
    other = E.from_json(E.to_json(state))
    rng.shuffle(other.deck)
    for s in range(other.n):
        if s == seat:
            continue
        hand = other.hands[s]
        for c in range(len(hand)):  # swap each card with a deck card of another colour
            for _ in range(hand[c]):
                j = next((i for i, d in enumerate(other.deck) if d != c), None)
                if j is None:
                    break
                hand[c] -= 1
                hand[other.deck[j]] += 1
                other.deck[j] = c
        if other.tickets[s] and other.ticket_deck:
            k = rng.randrange(len(other.ticket_deck))
            other.tickets[s][0], other.ticket_deck[k] = other.ticket_deck[k], other.tickets[s][0]
    return other


def test_bots_never_read_hidden_information():
    rng = random.Random(5)
    checked = 0
    for seed in (11, 12):
        for step, (state, seat) in enumerate(walk(seed, seats=3, rng_share=0.3)):
            if step % 7:
                continue
            other = _hide_differently(state, seat, rng)
            view = E.view_for(state, seat)
            assert E.view_for(other, seat) == view
            assert E.to_json(other) != E.to_json(state) or state.phase == "over"
            legal = E.legal_actions(state, seat)
            assert E.legal_actions(other, seat) == legal
            for level in ALL:
                mine = choose_action(level, view, legal, seed=step)
                theirs = choose_action(level, E.view_for(other, seat), legal, seed=step)
                assert mine == theirs
            checked += 1
    assert checked > 30


def test_decisions_are_deterministic_for_a_seed():
    first = play_game(["hard", "medium", "easy"], seed=21)
    again = play_game(["hard", "medium", "easy"], seed=21)
    strip = [{k: v for k, v in s.items() if k != "times"} for s in first["seats"]]
    assert strip == [{k: v for k, v in s.items() if k != "times"} for s in again["seats"]]


@pytest.mark.parametrize(
    "levels",
    [("easy", "easy"), ("medium", "hard"), ("hard", "hard", "medium", "easy", "medium")],
)
def test_bot_games_finish(levels):
    record = play_game(list(levels), seed=len(levels))
    assert record["winners"]
    assert all(s["held"] >= 2 for s in record["seats"])


def test_medium_beats_easy_in_a_small_sample():
    records = [play_rotated((["medium", "easy"], g, 300, "classic")) for g in range(30)]
    summary = summarize(records)
    assert summary["medium"]["wins"] >= 21, summary["medium"]


def test_seats_rotate_and_wilson_intervals_hold_the_rate():
    assert [lineup_for(("a", "b", "c"), g) for g in range(3)] == [
        ["a", "b", "c"],
        ["c", "a", "b"],
        ["b", "c", "a"],
    ]
    lo, hi = wilson(40, 100)
    assert lo < 0.4 < hi and round(lo, 3) == 0.309 and round(hi, 3) == 0.498
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0


def test_a_level_may_carry_the_experts_budget():
    assert split_level("hard") == ("hard", None)
    assert split_level("expert") == ("expert", None)
    assert split_level("expert@0.5") == ("expert", 0.5)
    for bad in ("wizard", "hard@1", "expert@", "expert@fast", "expert@0", "expert@11"):
        with pytest.raises(ValueError):
            split_level(bad)


def test_each_budgeted_expert_searches_with_its_own_budget(monkeypatch):
    """Two experts at one table, each with its budget; the process's budget is left alone."""
    asked = []
    real = expert.evaluate

    def spy(view, legal, budget=expert.DEFAULT_BUDGET, seed=0, playouts=None):
        asked.append((view["you"]["seat"], budget))
        return real(view, legal, budget=budget, seed=seed, playouts=playouts)

    monkeypatch.setattr(expert, "evaluate", spy)
    record = play_game(("expert@0.002", "expert@0.001"), seed=21)
    assert record["levels"] == ["expert@0.002", "expert@0.001"]
    assert {budget for seat, budget in asked if seat == 0} == {0.002}
    assert {budget for seat, budget in asked if seat == 1} == {0.001}
    assert expert._budget == [expert.DEFAULT_BUDGET]


def test_head_to_head_counts_the_games_one_level_finished_above_another():
    def game(**ranks):
        return {"seats": [{"level": lv, "rank": r} for lv, r in ranks.items()]}

    records = [
        game(a=1, b=2, hard=3),
        game(a=3, b=1, hard=2),
        game(a=1, b=1, hard=3),  # a shared first place: level
        game(a=2, hard=1),  # no seat of b: left out
    ]
    assert head_to_head(records, "a", "b") == (1, 1, 1)
    assert head_to_head(records, "b", "a") == (1, 1, 1)
    assert head_to_head(records, "a", "hard") == (2, 2, 0)


def test_score_margins_pair_the_two_levels_scores_game_by_game():
    def game(**scores):
        return {"seats": [{"level": lv, "score": s} for lv, s in scores.items()]}

    records = [game(a=100, b=90, hard=80), game(a=70, b=95, hard=99), game(a=50, hard=60)]
    assert score_margins(records, "a", "b") == [10, -25]
    assert score_margins(records, "b", "a") == [-10, 25]
    assert score_margins(records, "a", "c") == []


def test_two_runs_are_paired_game_by_game_for_the_line_ups_first_level():
    def game(number, *seats):  # seats in seat order: (level, score, rank)
        return {"game": number, "seats": [
            {"level": lv, "score": score, "rank": rank} for lv, score, rank in seats
        ]}  # fmt: skip

    # The line-up (expert, hard, hard) seats the expert at game % 3: seat 0, 1, 2, then 0.
    now = [
        game(0, ("expert", 100, 1), ("hard", 80, 2), ("hard", 60, 3)),  # +30, won
        game(1, ("hard", 90, 1), ("expert", 70, 2), ("hard", 70, 2)),  # -10
        game(2, ("hard", 50, 2), ("hard", 50, 2), ("expert", 90, 1)),  # +40, won
        game(5, ("expert", 10, 3), ("hard", 20, 1), ("hard", 20, 1)),  # not in the other run
    ]
    before = [
        game(0, ("expert", 70, 2), ("hard", 80, 1), ("hard", 60, 3)),  # 0
        game(1, ("hard", 60, 2), ("expert", 80, 1), ("hard", 40, 3)),  # +30, won
        game(2, ("hard", 50, 2), ("hard", 30, 3), ("expert", 80, 1)),  # +40, won
        game(3, ("hard", 50, 1), ("expert", 40, 2), ("hard", 30, 3)),  # not in this run
    ]
    p = paired(now, before)
    assert p["games"] == 3
    assert p["wins"] == (2, 2) and (p["only_now"], p["only_before"]) == (1, 1)
    assert p["margins"] == (pytest.approx(60 / 3), pytest.approx(70 / 3))
    assert p["difference"] == mean_interval([30, -40, 0])
    empty = paired(now[3:], before[3:])
    assert empty["games"] == 0 and empty["wins"] == (0, 0)


def test_mean_interval_is_students_t():
    # Five values: mean 3, standard deviation sqrt(2.5); t(0.975, 4) = 2.7764 from the table.
    mean, lo, hi = mean_interval([1, 2, 3, 4, 5])
    half = 2.7764 * math.sqrt(2.5) / math.sqrt(5)
    assert mean == 3 and hi - mean == pytest.approx(half, rel=0.004)
    assert mean - lo == pytest.approx(hi - mean)
    # 50 values: t(0.975, 49) = 2.0096.
    values = [(-1) ** k * k for k in range(50)]
    mean, lo, hi = mean_interval(values)
    sd = statistics.stdev(values)
    assert hi - mean == pytest.approx(2.0096 * sd / math.sqrt(50), rel=1e-4)
    assert mean_interval([]) == (0.0, -math.inf, math.inf)
    assert mean_interval([7]) == (7.0, -math.inf, math.inf)


@pytest.mark.parametrize("level", ALL)
def test_a_bot_reads_no_log(level):
    # The site hands these bots their view without the log (games.services.moves._bot_view):
    # a log of hundreds of entries cost more to redact than the bot's choice. The expert
    # reads it (expert_world.known_cards), and gets it.
    for step, (state, seat) in enumerate(walk(seed=5, seats=3)):
        if step % 7:
            continue
        legal = E.legal_actions(state, seat)
        whole = E.view_for(state, seat)
        without = E.view_for(state, seat, log_since=len(state.log))
        assert without["log"] == [] and whole["log"]
        assert choose_action(level, without, legal, seed=step) == choose_action(
            level, whole, legal, seed=step
        )
