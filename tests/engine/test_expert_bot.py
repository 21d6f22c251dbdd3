"""The expert bot (issue 26): legal in every phase of every rule set, blind to hidden facts,
reproducible under a playout budget, and its search's report (``evaluate``)."""

from __future__ import annotations

import random

import pytest

import games.engine as E
from games.engine.bots import choose_action, expert, expert_world
from games.engine.bots.hard import Hard
from tests.engine.test_bots import _hide_differently

PLAYOUTS = 6  # small: these tests check behaviour, not strength (that is bot_arena's job)

RULESETS = [
    ("europe", "classic", None, 2),
    ("europe", "europa_1912", None, 3),
    ("europe", "europe_extended", None, 4),
    ("europe", "mega_europe", None, 3),
    ("europe", "big_cities", None, 2),
    ("europe", "classic", {"warehouses": True}, 3),
    ("europe", "europa_1912", {"warehouses": True}, 2),
    ("new_york", "standard", None, 2),
    ("new_york", "standard", None, 4),
]


def expert_choice(view, legal, seed):
    return expert.choose(view, legal, random.Random(seed), budget=None, playouts=PLAYOUTS)


def play(ruleset, variant, options, seats, seed, expert_seat=0):
    """Yield (state, seat, view, legal, action) along a game where ``expert_seat`` is the
    expert and the others the hard bot; a random move is played instead now and then, to
    reach the phases the bots avoid (ticket draws, odd tunnels)."""
    state = E.new_game(ruleset=ruleset, variant=variant, seats=seats, seed=seed, options=options)
    rng = random.Random(seed)
    step = 0
    while not E.is_terminal(state) and step < 3000:
        seat = rng.choice(E.current_seats(state))
        legal = E.legal_actions(state, seat)
        view = E.view_for(state, seat, log_since=E.log_length(state))
        if seat == expert_seat:
            action = expert_choice(view, legal, step)
        else:
            action = choose_action("hard", view, legal, seed=step)
        yield state, seat, view, legal, action
        if rng.random() < 0.15:  # a random kind of move, then a random one of that kind
            kind = rng.choice(sorted({a["type"] for a in legal}))
            action = rng.choice([a for a in legal if a["type"] == kind])
        E.apply_action(state, seat, action)
        step += 1
    assert E.is_terminal(state)


@pytest.mark.parametrize(("ruleset", "variant", "options", "seats"), RULESETS)
def test_the_expert_only_returns_legal_actions_in_every_phase(ruleset, variant, options, seats):
    phases = set()
    for state, seat, _, legal, action in play(ruleset, variant, options, seats, seed=seats):
        if seat == 0:
            assert action in legal, (state.phase, action)
            phases.add(state.phase)
    assert {"setup", "turn", "draw2"} <= phases
    if options:
        assert "depots" in phases


def test_the_expert_meets_tunnels_tickets_and_the_last_round():
    phases, last_round = set(), False
    for seed in range(3):
        for state, seat, view, legal, action in play("europe", "classic", None, 2, 40 + seed):
            if seat == 0:
                assert action in legal
                phases.add(state.phase)
                last_round |= view["last_round"]["active"]
    assert {"tunnel", "tickets"} <= phases and last_round


def test_the_expert_decides_the_same_whatever_is_hidden():
    rng = random.Random(3)
    checked = 0
    for step, (state, seat, view, legal, _) in enumerate(play("europe", "classic", None, 3, 8)):
        if step % 9 or state.phase == "over" or len(legal) < 2:
            continue
        other = _hide_differently(state, seat, rng)
        assert E.to_json(other) != E.to_json(state)
        hidden_view = E.view_for(other, seat, log_since=E.log_length(other))
        assert hidden_view == view and E.legal_actions(other, seat) == legal
        mine = expert.evaluate(view, legal, budget=None, playouts=12, seed=step)
        theirs = expert.evaluate(hidden_view, legal, budget=None, playouts=12, seed=step)
        assert mine == theirs
        assert expert_choice(view, legal, step) == expert_choice(hidden_view, legal, step)
        # with the whole log, as the site and the arena hand it over (the known cards read)
        whole, hidden_whole = E.view_for(state, seat), E.view_for(other, seat)
        assert whole == hidden_whole and whole["log"]
        assert expert_choice(whole, legal, step) == expert_choice(hidden_whole, legal, step)
        checked += 1
    assert checked >= 8


def test_a_world_agrees_with_the_view_it_was_sampled_from():
    for state, seat, view, legal, _ in play("europe", "classic", {"warehouses": True}, 3, 5):
        if state.phase in ("setup", "over") or seat != 0:
            continue
        world = expert_world.determinize(view, random.Random(1))
        assert E.view_for(world, seat, log_since=0) | {"log": []} == view | {"log": []}
        key = sorted(map(repr, legal))
        assert sorted(map(repr, E.legal_actions(world, seat))) == key


@pytest.mark.parametrize(("ruleset", "variant", "options", "seats"), RULESETS[::2])
def test_cards_known_from_the_log_are_held_and_dealt_to_their_seat(
    ruleset, variant, options, seats
):
    """A card another seat took face up (or got back from a declined tunnel) and has not
    played since is in its hand in every world; the counts never exceed the true hand,
    whether read from the whole log or from the last stretch of it."""
    known_somewhere = 0
    for step, (state, seat, _, _, _) in enumerate(play(ruleset, variant, options, seats, 7)):
        if state.phase in ("setup", "over") or step % 3:
            continue
        whole = E.view_for(state, seat)
        tail = E.view_for(state, seat, log_since=max(0, E.log_length(state) - 25))
        for view in (whole, tail):
            known = expert_world.known_cards(view)
            for other in range(state.n):
                assert all(k <= h for k, h in zip(known[other], state.hands[other], strict=True))
        known = expert_world.known_cards(whole)
        if state.phase in ("turn", "draw2", "tunnel"):
            world = expert_world.determinize(whole, random.Random(step))
            for other in range(state.n):
                if other != seat:
                    assert all(
                        w >= k for w, k in zip(world.hands[other], known[other], strict=True)
                    )
                    assert sum(world.hands[other]) == sum(state.hands[other])
                    known_somewhere += sum(known[other])
    assert known_somewhere > 20
    assert expert_world.known_cards(E.view_for(state, 0, log_since=E.log_length(state))) is None


def test_evaluate_reports_every_candidate_with_its_visits():
    state = next(
        s for s, seat, _, legal, _ in play("europe", "classic", None, 2, 9)
        if s.phase == "turn" and seat == 0 and len(legal) > 20
    )  # fmt: skip
    view = E.view_for(state, 0)
    legal = E.legal_actions(state, 0)
    report = expert.evaluate(view, legal, budget=None, playouts=40, seed=1)
    assert 2 <= len(report) <= expert.MAX_CANDIDATES
    visits = [r["visits"] for r in report]
    assert 30 < sum(visits) <= 40 and visits[0] == max(visits)  # the best: a survivor
    assert all(r["action"] in legal and 0 <= r["value"] <= 1 for r in report)
    assert sum(r["prior"] for r in report) == 1
    a = [r["action"] for r in report]
    kinds = {(x["type"], x.get("route"), x.get("color"), x.get("source")) for x in a}
    assert len(kinds) == len(report)  # one payment per route, one draw per colour
    assert expert_choice(view, legal, 1) == expert.choose(
        view, legal, random.Random(1), budget=None, playouts=PLAYOUTS
    )


def test_a_larger_budget_judges_the_candidates_it_drops_on_more_worlds():
    """The halving's cuts come after rounds 4, 8, ... up to ``CUT_BUDGET`` (and for a playout
    count alone), k times later at k times that budget at 2 players and for the set-up ticket
    choice at any table; at 4 players' turns always after rounds 4, 8, ...: the dropped
    candidates' visits say when they were dropped."""
    budgets = (None, 0.1, 0.25, 0.4, 0.5, 1, 2)
    assert [expert.first_cut(b) for b in budgets] == [4, 4, 4, 4, 8, 16, 32]
    assert [expert.first_cut(b, 2) for b in budgets] == [4, 4, 4, 4, 8, 16, 32]
    assert [expert.first_cut(b, s) for b in budgets for s in (3, 4, 5)] == [4] * 21
    for s in (2, 3, 4, 5):
        assert [expert.first_cut(b, s, setup=True) for b in budgets] == [4, 4, 4, 4, 8, 16, 32]
    playouts = 8 * 16 + 4 * 16 + 2 * 8  # to a few rounds past the second cut at 1 s

    def halving(n: int, first: int) -> list:  # the visits of the candidates dropped, in order
        out, at = [], first
        while n > 2:
            out += [at] * (n - (n + 1) // 2)
            n, at = (n + 1) // 2, 2 * at
        return out

    # 1 s of CPU is far more than these playouts take
    for seats, budget, first in ((2, None, 4), (2, 1.0, 16), (4, 1.0, 4)):
        for state, seat, _, legal, _ in play("europe", "classic", None, seats, 9):
            if state.phase == "turn" and seat == 0 and len(legal) > 20:
                view = E.view_for(state, 0)
                report = expert.evaluate(view, legal, budget=budget, playouts=playouts, seed=3)
                if len(report) > 4:  # two cuts at least
                    break
        else:
            pytest.fail(f"no {seats}-player position with more than 4 candidates")
        top = max(r["visits"] for r in report)
        assert sum(r["visits"] == top for r in report) == 2  # the hard bot's move and one other
        dropped = sorted(r["visits"] for r in report if r["visits"] < top)
        assert dropped == halving(len(report), first), (seats, budget)


def test_a_four_player_set_up_choice_keeps_every_keep_past_the_turns_first_cut():
    """At 4 players a turn's halving first cuts after round 4 at any budget; the set-up
    ticket choice at 2 s does not until round 32, so 6 rounds leave all its keeps searched
    alike."""
    state = E.new_game(seats=4, seed=7)
    view, legal = E.view_for(state, 0), E.legal_actions(state, 0)
    assert view["phase"] == "setup" and len(legal) > 8
    report = expert.evaluate(view, legal, budget=2.0, playouts=6 * expert.TICKET_CANDIDATES, seed=1)
    assert len(report) > 8
    assert {r["visits"] for r in report} == {6}


def test_a_single_legal_action_is_returned_without_search():
    state = E.new_game(seats=2, seed=1)
    view = E.view_for(state, 0)
    only = [E.legal_actions(state, 0)[0]]
    # playouts=0 would leave a search nothing to compare: the one action comes back as is
    assert expert.choose(view, only, random.Random(1), budget=None, playouts=0) is only[0]


def test_the_expert_is_a_level():
    state = E.new_game(seats=2, seed=2)
    legal = E.legal_actions(state, 0)
    assert choose_action("expert", E.view_for(state, 0), legal, seed=1) in legal


def test_the_hard_bots_move_is_kept_unless_another_clearly_beats_it():
    """The search's choice is the hard bot's move unless a survivor's edge over it in the
    same worlds is more than ``CONFIDENCE`` standard errors above ``PRIOR_EDGE``."""
    kept = replaced = 0
    for step, (state, seat, view, legal, _) in enumerate(play("europe", "classic", None, 2, 12)):
        if seat != 0 or state.phase != "turn" or step % 3:
            continue
        report = expert.evaluate(view, legal, budget=None, playouts=60, seed=step)
        prior = next(r for r in report if r["prior"])
        assert prior["edge"] == 0 and prior["edge_se"] == 0
        best = report[0]
        if best["prior"]:
            kept += 1
            top = max(r["visits"] for r in report)
            assert not any(
                r["visits"] == top
                and r["visits"] > 1
                and r["edge"] > expert.CONFIDENCE * r["edge_se"] + expert.PRIOR_EDGE
                for r in report
            )
        else:
            replaced += 1
            assert best["visits"] > 1
            assert best["edge"] > expert.CONFIDENCE * best["edge_se"] + expert.PRIOR_EDGE
        if kept + replaced >= 12:
            break
    assert kept and replaced  # both happen in a dozen decisions


def test_set_up_tickets_are_searched_among_the_hard_bots_best_keeps():
    """At set-up the candidates are the hard bot's best keeps by its own valuation (its choice
    first); in play a ticket choice stays the hard bot's."""
    state = E.new_game(ruleset="europe", seats=3, seed=21)
    view = E.view_for(state, 0)
    legal = E.legal_actions(state, 0)
    ranked = Hard(view, legal, random.Random(0)).ranked_keeps()
    assert ranked[0] == choose_action("hard", view, legal, seed=0)
    report = expert.evaluate(view, legal, budget=None, playouts=40, seed=1)
    assert len(legal) > 4 and len(report) == min(len(legal), expert.TICKET_CANDIDATES)
    assert [r["action"] for r in report if r["prior"]] == [ranked[0]]
    assert sorted(map(repr, (r["action"] for r in report))) == sorted(
        map(repr, ranked[: expert.TICKET_CANDIDATES])
    )
    assert all(r["visits"] >= 1 for r in report)
    for step, (state, seat, view, legal, action) in enumerate(
        play("europe", "classic", None, 2, 40)
    ):
        if seat == 0 and state.phase == "tickets":
            assert action == Hard(view, legal, random.Random(step)).choose()  # same seed
            break
    else:
        raise AssertionError("no ticket choice in play")


def test_the_set_up_search_is_blind_to_the_other_seats_offers_and_the_deck():
    state = E.new_game(ruleset="europe", seats=3, seed=22)
    other = E.from_json(E.to_json(state))
    rng = random.Random(4)
    for seat in (1, 2):  # the other seats' offers swapped with hidden tickets
        offer = other.offers[seat]
        for i in range(len(offer)):
            k = rng.randrange(len(other.ticket_deck))
            offer[i], other.ticket_deck[k] = other.ticket_deck[k], offer[i]
    rng.shuffle(other.deck)
    assert E.to_json(other) != E.to_json(state)
    view, hidden = E.view_for(state, 0), E.view_for(other, 0)
    assert view == hidden
    legal = E.legal_actions(state, 0)
    mine = expert.evaluate(view, legal, budget=None, playouts=30, seed=5)
    assert mine == expert.evaluate(hidden, legal, budget=None, playouts=30, seed=5)
