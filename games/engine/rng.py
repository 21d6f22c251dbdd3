"""Deterministic randomness whose whole state is one integer stored in the game state.

Terms:
- *rng state*: a 64-bit unsigned int; SplitMix64 (Steele, Lea, Flood 2014) advances it.
  Because it is a plain int it round-trips through JSON exactly, so seed + actions replays a
  game byte for byte (ARCHITECTURE example 3). No global ``random``, no clock.
- ``below(n)``: an unbiased integer in ``[0, n)`` (Lemire's multiply-shift with rejection).

Functions take and return the rng state instead of hiding it, so callers write it back into
the game state explicitly.
"""

from __future__ import annotations

MASK64 = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


def seed_state(seed: int) -> int:
    """The rng state for a user seed (any int; reduced modulo 2**64)."""
    return seed & MASK64


def next64(state: int) -> tuple[int, int]:
    """Advance the state; return (new_state, 64 random bits)."""
    state = (state + _GAMMA) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """Return (new_state, r) with r uniform in [0, n); n >= 1."""
    state, x = next64(state)
    m = x * n
    low = m & MASK64
    if low < n:
        threshold = (-n) % n  # == 2**64 mod n
        while low < threshold:
            state, x = next64(state)
            m = x * n
            low = m & MASK64
    return state, m >> 64


def shuffle(state: int, items: list) -> int:
    """Fisher-Yates shuffle ``items`` in place; return the new rng state."""
    mask = MASK64
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        # inline next64 + below: this is the hottest random path (deck reshuffles)
        state = (state + _GAMMA) & mask
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        m = (z ^ (z >> 31)) * n
        if (m & mask) < n:
            threshold = (-n) % n
            while (m & mask) < threshold:
                state, x = next64(state)
                m = x * n
        j = m >> 64
        items[i], items[j] = items[j], items[i]
    return state
