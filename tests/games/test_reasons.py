"""Engine refusals in the player's language: one translatable text per engine reason code."""

import string

from django.utils import translation

from games import engine
from games.reasons import REASON_MESSAGES, reason_message


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_engine_reason_code_has_a_text_and_no_other():
    assert set(REASON_MESSAGES) == set(engine.REASON_CODES)


def test_each_text_names_only_parameters_the_engine_gives():
    for code, template in REASON_MESSAGES.items():
        assert fields(str(template)) <= fields(engine.REASON_CODES[code]), code


def test_a_refusal_reads_well_with_its_parameters():
    message = reason_message("wrong_color", {"route": 3, "needed": "red", "color": "blue"})
    assert message == "This route takes red cards (or locomotives), not blue."
    cards = reason_message("insufficient_cards", {"cards": {"red": 2, "locomotive": 1}})
    assert cards == "You do not hold these cards: 2 × red, 1 × locomotive."
    assert reason_message("no_such_code", {}) == "no_such_code"


def test_every_refusal_the_engine_raises_can_be_told():
    """Refusals met while fuzzing random actions all format (in every language)."""
    import random

    rng = random.Random(3)
    state = engine.new_game(seats=3, seed=9)
    seen = set()
    for _ in range(50):
        seat = rng.randrange(3)
        action = rng.choice(
            [{"type": "claim_route", "route": rng.randrange(1, 105), "cards": {"red": 9}},
             {"type": "draw_card", "source": "faceup", "slot": rng.randrange(-1, 7)},
             {"type": "build_station", "city": "Atlantis", "cards": {}},
             {"type": "keep_tickets", "tickets": ["E999"]}, {"type": "dance"}]
        )  # fmt: skip
        try:
            engine.apply_action(state, seat, action)
        except engine.IllegalAction as exc:
            seen.add(exc.code)
            for language in ("en", "de", "nl"):
                with translation.override(language):
                    assert reason_message(exc.code, exc.params)
    assert len(seen) >= 3
