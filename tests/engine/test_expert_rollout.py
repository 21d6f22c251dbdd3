"""The expert's rollout policy (``bots.rollout``): every action it plays is legal, in every
rule set and phase it meets, its plans stay right as routes are taken, and a playout ends
the game; and the worlds it plays in guess the other seats' tickets from their routes."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import games.engine as E
from games.engine.bots import expert, expert_world, planner, rollout
from games.engine.bots.hard import HARD, Hard
from games.engine.bots.knowledge import read
from games.engine.rules.cards import draw_actions
from tests.engine.test_expert_bot import RULESETS, play


def checked_play_out(state, rng) -> set:
    """``rollout.play_out`` step by step, each action checked against ``legal_actions`` and
    each plan against the board; returns the phases met."""
    plans = rollout.plans_for(state)
    met = set()
    steps = 0
    while not E.is_terminal(state):
        who = E.current_seats(state)[0]
        action = rollout.choose(state, who, plans[who], rng)
        assert action in E.legal_actions(state, who), (state.phase, action)
        _shortcuts_agree(state, who, plans[who])
        met.add(state.phase)
        E.apply_action(state, who, action)
        rollout.after(state, plans, who, action)
        for plan in plans:
            assert all(state.owner[r] == -1 for r in plan)
        steps += 1
        assert steps < rollout.MAX_STEPS
    return met


def _shortcuts_agree(state, who: int, plan: set) -> None:
    """The policy's shortcuts choose what it would choose from the listed actions: a draw
    built without ``draw_actions``, and the longest-first claim loop that skips the routes
    longer than the hand pays."""
    if state.phase not in ("turn", "draw2"):
        return
    second = state.phase == "draw2"
    draws = draw_actions(state, second)
    expected = rollout._draw(state, who, draws, plan) if draws else None
    assert rollout._draw_now(state, who, plan, second) == expected
    if draws:  # the hard bot's draw for the same routes
        legal = E.legal_actions(state, who)
        hard = Hard(E.view_for(state, who), legal, random.Random(0))
        assert expected == hard.draw(sorted(plan), second)
    if not second:
        order = rollout._by_length(state.board)
        quick = rollout._claim(state, who, order)
        assert quick == rollout._claim(state, who, list(order))  # a list: no skipping


@pytest.mark.parametrize(("ruleset", "variant", "options", "seats"), RULESETS)
def test_the_rollout_policy_plays_legal_moves_to_the_end(ruleset, variant, options, seats):
    met = set()
    for seed in range(3):
        state = E.new_game(
            ruleset=ruleset, variant=variant, seats=seats, seed=seed, options=options
        )
        rng = random.Random(seed)
        while state.phase in ("setup", "depots"):  # the set-up by random legal choices
            seat = E.current_seats(state)[0]
            E.apply_action(state, seat, rng.choice(E.legal_actions(state, seat)))
        met |= checked_play_out(state, rng)
    assert {"turn", "draw2"} <= met


def test_a_playout_from_mid_game_ends_it_as_the_unchecked_loop_does():
    view = next(
        v for s, seat, v, _, _ in play("europe", "classic", None, 3, 11)
        if s.phase == "turn" and s.turn >= 30 and seat == 0
    )  # fmt: skip
    world = expert_world.determinize(view, random.Random(2))
    copy = expert_world.clone(world)
    checked_play_out(world, random.Random(5))
    rollout.play_out(copy, rollout.plans_for(copy), random.Random(5))
    assert E.is_terminal(copy) and E.to_json(copy) == E.to_json(world)


def test_a_plan_taken_away_is_made_again_around_it():
    state = E.new_game(seats=2, seed=4)
    while state.phase == "setup":
        seat = E.current_seats(state)[0]
        E.apply_action(state, seat, E.legal_actions(state, seat)[0])
    plans = rollout.plans_for(state)
    other = 1 - state.current
    taken = min(plans[other], key=lambda r: state.board.routes[r].length)
    route = state.board.routes[taken]
    state.hands[state.current] = [route.length] * (state.wild + 1)  # enough of any colour
    claim = next(
        a for a in E.legal_actions(state, state.current)
        if a["type"] == "claim_route" and a["route"] == route.id
    )  # fmt: skip
    E.apply_action(state, state.current, claim)
    rollout.after(state, plans, 1 - other, claim)
    assert taken not in plans[other] and plans[other] == rollout.plan_for(state, other)


def _set_up(seed: int):
    state = E.new_game(seats=2, seed=seed)
    while state.phase == "setup":
        seat = E.current_seats(state)[0]
        E.apply_action(state, seat, E.legal_actions(state, seat)[0])
    return state


def test_a_seat_whose_tickets_are_joined_collects_cards_for_the_longest_open_routes():
    """With no route left to join its tickets, a seat's plan is its fillers: the longest
    routes still open to it within its cars. The policy draws their colours rather than
    claim whatever short route the hand pays, as it did with an empty plan (after a set-up
    keep of two short tickets, hard bots playing on scored about 12 route points a game more;
    docs/benchmarks.md, stop 52)."""
    state = _set_up(4)
    seat = state.current
    board = state.board
    state.tickets[seat] = []  # nothing to join
    plan = rollout.plan_for(state, seat)
    assert isinstance(plan, rollout.Fillers) and len(plan) == rollout.FILLERS
    shortest = min(board.routes[r].length for r in plan)
    rest = [r for r in board.routes if r.index not in plan]
    assert all(r.length <= shortest for r in rest)
    colors = planner.color_index(board, state.card_names)
    short = next(
        r.index for r in board.routes
        if r.length == 2 and colors[r.index] >= 0 and not r.tunnel and not r.ferry_locomotives
    )  # fmt: skip
    hand = [0] * len(state.hands[seat])
    hand[colors[short]] = 2  # pays that short route, and none of the fillers
    state.hands[seat] = hand
    assert rollout.choose(state, seat, set(), random.Random(0))["type"] == "claim_route"
    action = rollout.choose(state, seat, plan, random.Random(0))
    assert action["type"] == "draw_card" and action in E.legal_actions(state, seat)


def test_fillers_follow_the_plan_and_are_made_again_when_one_is_taken():
    """The plan's last route claimed, the seat's plan becomes its fillers; a filler another
    seat takes is replaced by the next longest open route, and the plan stays fillers."""
    state = _set_up(4)
    board = state.board
    me = state.current
    other = 1 - me
    plans = rollout.plans_for(state)
    plans[me] = {next(iter(plans[me]))}  # one route left to claim
    last = next(iter(plans[me]))
    state.hands[me] = [board.routes[last].length] * (state.wild + 1)
    claim = next(
        a for a in E.legal_actions(state, me)
        if a["type"] == "claim_route" and a["route"] == board.routes[last].id
    )  # fmt: skip
    E.apply_action(state, me, claim)
    rollout.after(state, plans, me, claim)
    assert isinstance(plans[me], rollout.Fillers) and plans[me] == rollout.fillers(state, me)
    assert state.phase == "turn" and state.current == other
    plans = rollout.copies(plans)  # as a playout copies them: fillers stay fillers
    taken = next(iter(plans[me]))
    state.hands[other] = [board.routes[taken].length] * (state.wild + 1)
    grab = next(
        a for a in E.legal_actions(state, other)
        if a["type"] == "claim_route" and a["route"] == board.routes[taken].id
    )  # fmt: skip
    E.apply_action(state, other, grab)
    rollout.after(state, plans, other, grab)
    assert isinstance(plans[me], rollout.Fillers) and taken not in plans[me]
    assert plans[me] == rollout.fillers(state, me) and len(plans[me]) == rollout.FILLERS


def _own(state, seat: int, routes) -> None:
    """Hand ``routes`` to ``seat`` as if it had claimed them (owner, its routes, its cars)."""
    for r in routes:
        state.owner[r] = seat
        state.routes_of[seat].append(r)
        state.trains[seat] -= state.board.routes[r].length


def _chain_with_a_long_end(board):
    """Two routes x-c, c-y and a route of at least 4 cars at x (not those two): a trail
    whose end x has a route worth more, with the trail's weight, than the longest routes."""
    for first in board.routes:
        for x, c in ((first.a, first.b), (first.b, first.a)):
            second = next(
                (r for r in board.routes
                 if c in (r.a, r.b) and r.index not in (first.index, first.twin)
                 and x not in (r.a, r.b)), None,
            )  # fmt: skip
            end = next(
                (r for r in board.routes
                 if x in (r.a, r.b) and r.length >= 4 and r.index != first.index
                 and r.index != first.twin and second is not None
                 and r.index not in (second.index, second.twin)), None,
            )  # fmt: skip
            if second is not None and end is not None:
                return first.index, second.index, end.index, x
    raise AssertionError("no such chain on the board")


def test_fillers_extend_the_longest_trail_while_its_bonus_is_within_reach():
    """With the longest-path bonus within reach, a seat whose tickets are joined collects for
    the routes at the ends of its longest trail, each worth its points plus the cars it adds
    times the hard bot's weight, over longer routes elsewhere (before stop 54 the rollouts'
    seats never played for the bonus: a claim that gave it away was rated above hard's
    draw). A claim at an end moves that end; with the bonus out of reach the fillers are
    the longest routes again."""
    state = _set_up(4)
    board = state.board
    me = state.current
    other = 1 - me
    state.tickets[me] = []
    first, second, end, x = _chain_with_a_long_end(board)
    _own(state, me, [first, second])
    weight, ends = rollout._trail_weight(state, me)
    assert weight == pytest.approx(10 / 3) and x in ends and len(ends) == 2  # no rival
    plan = rollout.plan_for(state, me)
    assert isinstance(plan, rollout.Fillers) and end in plan

    def score(r):
        route = board.routes[r]
        gain = route.length if route.a in ends or route.b in ends else 0
        return board.scoring[route.length] + weight * gain

    open_ = [r.index for r in board.routes if rollout._open(state, me, r.index)]
    best = sorted(open_, key=score, reverse=True)
    assert min(score(r) for r in plan) >= score(best[rollout.FILLERS - 1])
    longest = rollout.fillers(state, me, (0.0, ()))  # as without the bonus
    assert end not in longest

    # a claim at the end x moves it to the route's other city
    route = board.routes[end]
    far = route.b if route.a == x else route.a
    plans = [None, None]
    plans[me], plans[other] = plan, set(rollout.plan_for(state, other))
    state.hands[me] = [route.length] * (state.wild + 1)
    claim = next(
        a for a in E.legal_actions(state, me)
        if a["type"] == "claim_route" and a["route"] == route.id
    )  # fmt: skip
    E.apply_action(state, me, claim)
    rollout.after(state, plans, me, claim)
    assert isinstance(plans[me], rollout.Fillers) and end not in plans[me]
    assert far in plans[me].trail[1] and x not in plans[me].trail[1]
    assert rollout._trail(board, tuple(state.routes_of[me]))[1] in (
        plans[me].trail[1],
        plans[me].trail[1][::-1],
    )


def test_the_longest_trail_counts_only_while_its_bonus_is_within_reach():
    """The trail's weight is the bonus split over the gap to the best other seat's trail
    (at least 3 ways: ``Hard.path_weight``), and nothing once the gap reaches the seat's
    cars, or in a rule set without the bonus (New York)."""
    state = _set_up(4)
    board = state.board
    me = state.current
    other = 1 - me
    first, second, end, _x = _chain_with_a_long_end(board)
    _own(state, other, [first, second, end])
    length = rollout._trail(board, tuple(state.routes_of[other]))[0]
    assert length == sum(board.routes[r].length for r in (first, second, end))
    state.trains[me] = length + 1
    assert rollout._trail_weight(state, me) == (10 / (length + 1), ())
    state.trains[me] = length
    assert rollout._trail_weight(state, me) == (0.0, ())
    assert rollout.fillers(state, me) == rollout.fillers(state, me, (0.0, ()))
    york = E.new_game(ruleset="new_york", seats=2, seed=1)
    assert rollout._trail_weight(york, 0) == (0.0, ())


def _plain_route(board, colors, length: int, tunnel: bool = False, other_than=()) -> int:
    """A coloured route of ``length`` (a tunnel or not), no ferry, none of ``other_than``'s
    colours."""
    return next(
        r.index for r in board.routes
        if r.length == length and colors[r.index] >= 0 and r.tunnel == tunnel
        and not r.ferry_locomotives and colors[r.index] not in other_than
    )  # fmt: skip


def _paying(state, routes, colors) -> list:
    """A hand of exactly the cards that pay each of ``routes`` in its colour."""
    hand = [0] * len(state.hands[0])
    for r in routes:
        hand[colors[r]] += state.board.routes[r].length
    return hand


def test_near_the_end_a_seat_still_claims_for_its_tickets():
    """With few cars left, a seat with tickets to join claims its planned route, not the
    longest route its hand pays; in its last turn it claims the route that finishes its plan
    over a longer one. The policy used to claim the longest route it paid once a seat had 6
    cars or fewer or the last round was on, tickets unjoined or not: with three or four
    tickets kept its seats failed a quarter to four fifths of a ticket a game more than hard
    bots in their place (docs/benchmarks.md, stop 53)."""
    state = _set_up(4)
    board = state.board
    me = state.current
    colors = planner.color_index(board, state.card_names)
    planned = _plain_route(board, colors, 2)
    longer = _plain_route(board, colors, 4, other_than={colors[planned]})
    state.hands[me] = _paying(state, (planned, longer), colors)
    state.trains[me] = rollout.END_GAME_CARS
    plan = {planned}
    for last_round in (-1, 1 - me):  # a few cars left; then this seat's last turn
        state.last_round = last_round
        action = rollout.choose(state, me, plan, random.Random(0))
        assert action["route"] == board.routes[planned].id and action in E.legal_actions(state, me)
    # the last turn with two routes still to claim: the plan cannot be finished; the most points
    plan = {planned, _plain_route(board, colors, 3, other_than={colors[planned], colors[longer]})}
    assert rollout.choose(state, me, plan, random.Random(0))["route"] == board.routes[longer].id


def test_a_planned_tunnel_waits_for_a_spare_card():
    """A tunnel of the plan is claimed with a card to spare for the extra cards it may ask
    (as the hard bot keeps one); without it the seat draws, unless it is its last turn."""
    state = _set_up(4)
    board = state.board
    me = state.current
    colors = planner.color_index(board, state.card_names)
    tunnel = _plain_route(board, colors, 2, tunnel=True)
    state.hands[me] = _paying(state, (tunnel,), colors)
    action = rollout.choose(state, me, {tunnel}, random.Random(0))
    assert action["type"] == "draw_card" and action in E.legal_actions(state, me)
    state.last_round = 1 - me
    assert rollout.choose(state, me, {tunnel}, random.Random(0))["route"] == board.routes[tunnel].id
    state.last_round = -1
    state.hands[me][colors[tunnel]] += 1
    action = rollout.choose(state, me, {tunnel}, random.Random(0))
    assert action["route"] == board.routes[tunnel].id and action in E.legal_actions(state, me)


@pytest.mark.parametrize(("ruleset", "variant", "options", "seats"), RULESETS)
def test_plans_read_from_the_state_are_the_plans_read_from_the_seats_view(
    ruleset, variant, options, seats
):
    """``plan_for`` reads the public board and the seat's own tickets from the state, not
    from a view built for the seat; the costs of every route at once are ``usable``'s one by
    one. Random games, stations and closed double routes included."""
    checked = 0
    for seed in range(2):
        state = E.new_game(
            ruleset=ruleset, variant=variant, seats=seats, seed=seed, options=options
        )
        rng = random.Random(seed)
        while not E.is_terminal(state):
            seat = E.current_seats(state)[0]
            if state.phase == "turn" and state.turn % 7 == 0:
                for s in range(state.n):
                    seen = read(E.view_for(state, s))
                    costs = planner.route_costs(seen, HARD.weights)
                    assert costs == [
                        None if (u := planner.usable(seen, r.index)) is None
                        else 0.0 if u else planner.weight(r, HARD.weights, seen.board.scoring)
                        for r in seen.board.routes
                    ]  # fmt: skip
                    plan = planner.fit_plan(seen, seen.tickets, costs, seen.trains[s])[0]
                    # the plan, or the fillers of a seat whose tickets need no route more
                    expected = set(plan.routes) or rollout.fillers(state, s)
                    assert rollout.plan_for(state, s) == expected
                    checked += 1
            E.apply_action(state, seat, rng.choice(E.legal_actions(state, seat)))
    assert checked > 20


def test_the_worlds_favour_tickets_the_other_seats_routes_serve():
    """Over many worlds, the tickets another seat really holds come up more often than a
    uniform draw of its ticket count would give them."""
    hits = uniform = 0.0
    for seed in range(4):
        state, view = next(
            (s, v) for s, seat, v, _, _ in play("europe", "classic", None, 2, 20 + seed)
            if s.phase == "turn" and s.turn >= 24 and seat == 0
        )  # fmt: skip
        other = 1
        counts = Counter()
        worlds = 100
        for k in range(worlds):
            counts.update(expert_world.determinize(view, random.Random(k)).tickets[other])
        held = state.tickets[other]
        hits += sum(counts[t] for t in held) / worlds
        pool = len(state.board.tickets) - len(state.tickets[0])
        uniform += len(held) * len(held) / pool
    assert hits > 2 * uniform


def _turns_of_seat_one(seed: int):
    """States of a 2-player Classic game between hard bots where seat 1 is to take a turn."""
    for state, seat, _, _, _ in play("europe", "classic", None, 2, seed):
        if state.phase == "turn" and seat == 1:
            yield state


def test_a_seats_replies_are_legal_turns_the_policys_first_with_a_block_when_it_has_one():
    """The expert searches the next seat's reply among ``rollout.replies``: each is a legal
    turn of that seat, the policy's own comes first, and when that seat can pay for a route
    of the searching seat's plan, one reply claims such a route."""
    met = blocked = 0
    for state in _turns_of_seat_one(21):
        plans = rollout.plans_for(state)
        legal = E.legal_actions(state, 1)
        options = rollout.replies(state, 1, plans, 0, random.Random(3))
        first = rollout.choose(state, 1, plans[1], random.Random(3))
        assert next(iter(options.values())) == first
        assert all(a in legal for a in options.values()), options
        assert all(rollout.reply_key(a) == k for k, a in options.items())
        can_block = {a["route"] for a in legal if a["type"] == "claim_route"} & {
            state.board.routes[r].id for r in plans[0]
        }
        if can_block:
            blocked += 1
            assert any(a["type"] == "claim_route" and a["route"] in can_block
                       for a in options.values())  # fmt: skip
        met += 1
    assert met > 10 and blocked  # the game met both kinds of turn


def test_the_search_tries_each_reply_once_then_the_one_best_for_the_replying_seat():
    """``expert._reply`` (UCB1 over the replying seat's own reward): a reply not yet tried
    comes first; once all were, the one with the clearly best mean for that seat."""
    state = next(s for s in _turns_of_seat_one(22) if s.turn >= 10)
    plans = rollout.plans_for(state)
    options = rollout.replies(state, 1, plans, 0, random.Random(4))
    assert len(options) >= 2
    keys = list(options)

    def reply(node: dict, seat: int = 0, copy=None):
        copy = E.clone(state) if copy is None else copy
        return expert._reply(copy, [set(p) for p in plans], seat, node, random.Random(4))

    # all but the last tried, each at a mean of 0.5 for seat 1: the last comes next
    assert reply({k: [5, 2.5] for k in keys[:-1]}) == (1, keys[-1])
    best = keys[-1]
    node = {k: [50, 10.0] for k in keys} | {best: [50, 45.0]}  # 0.2 each, the last 0.9
    copy = E.clone(state)
    assert reply(node, copy=copy) == (1, best)
    assert E.to_json(copy) != E.to_json(state)  # the reply was played in the copy
    # no reply when the searching seat itself moves next (its second card, say)
    assert reply(node, seat=1) is None


def test_at_four_players_the_replies_are_rolled_out():
    """At 4 players the next seat is one of three others: searching its reply lost head to
    head (docs/benchmarks.md, stop 41), so ``_reply`` leaves that turn to the rollout."""
    state = E.new_game(seats=4, seed=6)
    while state.phase == "setup":
        seat = E.current_seats(state)[0]
        E.apply_action(state, seat, E.legal_actions(state, seat)[0])
    other = (E.current_seats(state)[0] + 1) % 4  # a seat that is not the one to move
    plans = [set(p) for p in rollout.plans_for(state)]
    before = E.to_json(state)
    assert expert._reply(state, plans, other, {}, random.Random(1)) is None
    assert E.to_json(state) == before
