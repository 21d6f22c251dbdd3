"""The post-game analysis's pure part (games/engine/bots/grading.py): its marks and its win
chances, on constructed positions and whole recorded games (playout counts, no clock)."""

import pytest

from games.engine import apply_action, current_seats, legal_actions, new_game, phases, view_for
from games.engine.bots import choose_action, grading
from games.engine.bots.expert_world import known_cards
from games.engine.graph import components_of, find
from games.engine.scoring import own_edges

COUNT = grading.Budget(seconds=None, playouts=3)


def recorded_game(seed: int, seats: int = 2) -> list:
    """A whole game of medium bots as ``[seat, action]`` records."""
    state, records = new_game(seats=seats, seed=seed), []
    while state.phase != phases.OVER:
        for seat in current_seats(state):
            legal = legal_actions(state, seat)
            action = choose_action("medium", view_for(state, seat), legal, seed=len(records))
            apply_action(state, seat, action)
            records.append([seat, action])
            if state.phase != phases.SETUP:
                break
    return records


def final_turn_with_a_ticket_to_close(seed: int):
    """The game's last turn, its seat given one more ticket that a route it can claim now
    would complete: ``(state, seat, claim)``, or None if that turn offers no such claim."""
    state = new_game(seats=2, seed=seed)
    for seat, action in recorded_game(seed):
        if state.phase == phases.TURN and state.last_round >= 0 and state.turns_left == 1:
            found = _ticket_to_close(state, seat)
            if found is not None:
                return state, seat, found
        apply_action(state, seat, action)
    return None


def _ticket_to_close(state, seat):
    board = state.board
    by_id = {r.id: r for r in board.routes}
    held = {t for p in range(state.n) for t in state.tickets[p]}
    before = components_of(len(board.cities), own_edges(state, seat))
    for claim in legal_actions(state, seat):
        route = by_id.get(claim.get("route")) if claim["type"] == "claim_route" else None
        if route is None or route.tunnel:
            continue
        after = components_of(
            len(board.cities), [*own_edges(state, seat), (0, route.a, route.b, 0)]
        )
        for t in board.tickets:
            closes = find(after, t.a) == find(after, t.b)
            if t.index in held or t.points < 8 or not closes:
                continue
            if find(before, t.a) != find(before, t.b) and t.index in state.ticket_deck:
                state.ticket_deck.remove(t.index)
                state.tickets[seat].append(t.index)
                return claim
    return None


def test_drawing_a_card_instead_of_the_claim_completing_a_ticket_at_the_last_turn_is_a_mistake():
    found = next(f for seed in range(40) if (f := final_turn_with_a_ticket_to_close(seed)))
    state, seat, claim = found
    legal = legal_actions(state, seat)
    draw = next(a for a in legal if a["type"] == "draw_card" and a["source"] == "deck")

    bad = grading.playout_evaluator(state, seat, legal, draw, COUNT, seed=1)
    assert grading.grade(bad.loss) == "mistake", bad
    assert bad.best_action["type"] == "claim_route"
    good = grading.playout_evaluator(state, seat, legal, claim, COUNT, seed=1)
    assert bad.loss > good.loss
    assert grading.grade(good.loss) is None


def test_the_win_chances_of_every_step_sum_to_one_and_only_the_graded_seats_are_marked():
    records = recorded_game(seed=3)
    steps = []
    result = grading.analyse(
        {"seats": 2, "seed": 3}, records, {1}, budget=grading.Budget(None, 1), seed=7,
        progress=lambda done, total: steps.append((done, total)),
    )  # fmt: skip
    assert len(result["chances"]) == len(records) + 1
    for row in result["chances"]:
        assert len(row) == 2
        assert abs(sum(row) - 1) < 1e-3
    assert result["decisions"]
    assert {d["seat"] for d in result["decisions"]} == {1}
    assert steps[-1] == (len(records), len(records))
    # the last step is the game's end: its winner's chance is 1
    assert sorted(result["chances"][-1]) == [0.0, 1.0]
    assert [row["seat"] for row in result["seats"]] == [1]


def test_a_step_s_chances_pool_the_playouts_of_the_steps_before_it_less_each_step_back():
    pool = grading.ChancePool(2)
    assert pool.add([2.0, 0.0], 2) == [1.0, 0.0]
    # 2 more playouts, both won by seat 1: the step before counts 0.75 of its 2
    memory = grading.CHANCE_MEMORY
    chances = pool.add([0.0, 2.0], 2)
    assert chances == pytest.approx([2 * memory / (2 * memory + 2), 2 / (2 * memory + 2)])
    assert sum(chances) == pytest.approx(1)
    # ...and two steps back counts memory squared
    chances = pool.add([1.0, 0.0], 1)
    weight = 2 * memory**2 + 2 * memory + 1
    assert chances[0] == pytest.approx((2 * memory**2 + 1) / weight)


def test_a_seat_s_marks_do_not_depend_on_what_the_other_seats_hid():
    """Two positions that differ only in the other seat's hand and tickets grade alike."""
    records = recorded_game(seed=4)
    state = new_game(seats=2, seed=4)
    for seat, action in records[:40]:
        apply_action(state, seat, action)
    seat = current_seats(state)[0]
    other = 1 - seat
    twin = grading.clone(state)
    twin.hands[other], twin.deck = _swap_cards(twin.hands[other], twin.deck)
    legal = legal_actions(state, seat)
    played = legal[0]
    one = grading.playout_evaluator(state, seat, legal, played, COUNT, seed=5)
    two = grading.playout_evaluator(twin, seat, legal, played, COUNT, seed=5)
    assert (one.played, one.best, one.best_action) == (two.played, two.best, two.best_action)


def test_a_grading_world_leaves_each_seat_the_cards_the_log_shows_it_holds():
    """A card another seat took face up and has not played since is in its hand in every
    world the playouts grade a decision in (the evaluator reads the counts from the seat's
    view), and the world holds every card of the game once, as the state does."""
    seen, determinize = [], grading.determinize

    def spying(*args):
        seen.append((args[0], args[1], world := determinize(*args)))
        return world

    checked, one = 0, grading.Budget(seconds=None, playouts=1)
    for seed in (5, 6):
        state = new_game(seats=3, seed=seed)
        for step, (seat, action) in enumerate(recorded_game(seed, seats=3)):
            if state.phase == phases.TURN and step % 11 == 0:
                known = known_cards(view_for(state, seat))
                assert all(
                    k <= h
                    for p in range(state.n)
                    for k, h in zip(known[p], state.hands[p], strict=True)
                )
                legal = legal_actions(state, seat)
                with pytest.MonkeyPatch.context() as patch:
                    patch.setattr(grading, "determinize", spying)
                    grading.playout_evaluator(state, seat, legal, legal[0], one, seed=step)
                for base, me, world in seen:
                    assert base is state and me == seat
                    for p in range(state.n):
                        if p == seat:
                            assert world.hands[p] == state.hands[p]
                            continue
                        assert sum(world.hands[p]) == sum(state.hands[p])
                        assert all(w >= k for w, k in zip(world.hands[p], known[p], strict=True))
                        checked += sum(known[p])
                    assert _all_cards(world) == _all_cards(state)
                seen.clear()
            apply_action(state, seat, action)
    assert checked > 20


def _all_cards(state) -> list:
    counts = [0] * len(state.hands[0])
    places = (state.deck, state.discard, [c for c in state.faceup if c >= 0])
    for c in (*places[0], *places[1], *places[2], *(c for w in state.warehouses for c in w)):
        counts[c] += 1
    for hand in state.hands:
        counts = [a + b for a, b in zip(counts, hand, strict=True)]
    return counts


def _swap_cards(hand: list, deck: list) -> tuple[list, list]:
    """The hand with one card exchanged for a deck card of another colour."""
    hand, deck = hand[:], deck[:]
    give = next(c for c, k in enumerate(hand) if k)
    i = next(i for i, c in enumerate(deck) if c != give)
    hand[give] -= 1
    hand[deck[i]] += 1
    deck[i] = give
    return hand, deck


def test_the_expert_s_search_can_grade_too():
    """``expert_evaluator``: the expert bot's ``evaluate`` as the evaluator (its own choice
    against the move played), or no grade when it did not search the move played."""
    records = recorded_game(seed=6)
    state = new_game(seats=2, seed=6)
    graded = 0
    for seat, action in records[:60]:
        legal = legal_actions(state, seat)
        if state.phase == phases.TURN and len(legal) > 1:
            search = grading.Budget(seconds=None, playouts=24)
            found = grading.expert_evaluator(state, seat, legal, action, search, seed=2)
            if found is not None:
                graded += 1
                assert found.loss >= 0 and found.samples >= 1
                assert any(grading.action_key(found.best_action) == grading.action_key(a)
                           for a in legal)  # fmt: skip
        apply_action(state, seat, action)
    assert graded > 5


def test_set_up_ticket_keeps_are_graded_by_the_expert_s_search():
    """The expert searches every keep of a Europe set-up offer, so the one a player kept is
    among its candidates and graded by it (a ticket choice in play is left to the playouts)."""
    state = new_game(seats=2, seed=7)
    search = grading.Budget(seconds=None, playouts=44)
    for seat in (0, 1):
        legal = legal_actions(state, seat)
        for played in (legal[0], legal[-1]):
            found = grading.expert_evaluator(state, seat, legal, played, search, seed=3)
            assert found is not None and found.samples >= 1 and found.loss >= 0
            assert found.best_action in legal
    for seat, action in recorded_game(seed=7):  # to the first turn, then a ticket draw
        apply_action(state, seat, action)
        if state.phase == phases.TURN:
            break
    seat = current_seats(state)[0]
    apply_action(state, seat, {"type": "draw_tickets"})
    assert state.phase == phases.TICKETS
    legal = legal_actions(state, seat)  # a ticket choice in play: left to the playouts
    assert len(legal) > 1
    assert grading.expert_evaluator(state, seat, legal, legal[0], search, seed=3) is None
