"""The optional compiled engine (``games/engine/native.py``) plays exactly the pure engine's
games, passes the engine's own tests, and is never used once its sources have changed.

One build per run (mypyc, about 16 s of CPU) into a scratch directory; each check runs in a
child process started with ``TTR_NATIVE_ENGINE`` naming it. Without a C compiler the module
is skipped, except with ``CI=true``, where that is a failure.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from games.engine import VARIANTS, native

REPOSITORY = Path(__file__).resolve().parents[2]

# every rule set, both ways (the checked list and the playout loop); prints what ran and a
# digest of each final state, log and rng state included
GAMES = r"""
import hashlib, json, random, sys
import games.engine as E
from games.engine import state as state_module
from games.engine.search import playout

RULE_SETS = [
    {"ruleset": "europe", "variant": v, "seats": n, "options": o}
    for v in E.VARIANTS["europe"] for n, o in ((4, {}), (3, {"warehouses": True}))
] + [{"ruleset": "new_york", "variant": "standard", "seats": n} for n in (2, 4)]

def listed(seed, params):
    rng = random.Random(seed)
    state = E.new_game(seed=seed, **params)
    while state.phase != "over":
        seats = E.current_seats(state)
        seat = seats[0] if len(seats) == 1 else rng.choice(seats)
        E.apply_action(state, seat, rng.choice(E.legal_actions(state, seat)))
    return state

def looped(seed, params):
    state = E.new_game(seed=seed, **params)
    playout(state, random.Random(seed))
    return state

digests = []
for params in RULE_SETS:
    for seed in (3, 4):
        for way in (listed, looped):
            text = E.to_json(way(seed, params))
            digests.append(hashlib.sha256(text.encode()).hexdigest())
print(json.dumps({"kind": E.native.KIND, "state": state_module.__file__, "games": digests}))
"""


def _run(code_or_args: list, build: Path | None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.pop(native.ENV, None)
    if build is not None:
        env[native.ENV] = str(build)
    return subprocess.run(
        [sys.executable, *code_or_args], cwd=REPOSITORY, env=env, capture_output=True, text=True
    )


@pytest.fixture(scope="module")
def build(tmp_path_factory) -> Path:
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI needs a C compiler ({compiler}) to build the native engine")
        pytest.skip(f"no C compiler ({compiler}): the native engine cannot be built")
    target = tmp_path_factory.mktemp("native") / "engine"
    native.build(target)
    return target


def test_the_compiled_engine_plays_the_pure_engines_games(build):
    pure = _run(["-c", GAMES], None)
    compiled = _run(["-c", GAMES], build)
    assert pure.returncode == 0, pure.stderr
    assert compiled.returncode == 0, compiled.stderr
    pure_out, compiled_out = json.loads(pure.stdout), json.loads(compiled.stdout)
    assert pure_out["kind"] == "pure" and pure_out["state"].endswith(".py")
    assert compiled_out["kind"] == "native"
    assert compiled_out["state"].endswith(sysconfig.get_config_var("EXT_SUFFIX"))
    assert str(build) in compiled_out["state"]
    rule_sets = 2 * len(VARIANTS["europe"]) + 2
    assert len(pure_out["games"]) == rule_sets * 2 * 2  # 2 seeds, 2 ways
    assert len(set(pure_out["games"])) == rule_sets * 2  # the two ways: the same games
    assert compiled_out["games"] == pure_out["games"]


# the engine suite in a child process: about 1.5 min alone, and make test runs it beside the
# tests that wait on servers (once, beside the whole suite, it ran past the default 300 s)
@pytest.mark.timeout(900)
def test_the_engine_tests_pass_compiled(build):
    # the engine's own tests, against the compiled modules (the bots' are left out: they take
    # minutes and test no engine module the others do not); this module too, but not itself
    done = _run(
        [
            "-m",
            "pytest",
            "tests/engine",
            "-q",
            "-p",
            "no:cacheprovider",
            "--ignore=tests/engine/test_expert_bot.py",
            "--ignore=tests/engine/test_expert_rollout.py",
            "--ignore=tests/engine/test_grading.py",
            "--ignore=tests/engine/test_bots.py",
            "--ignore=tests/engine/test_native_engine.py",
            "-W",
            "error::RuntimeWarning",
        ],
        build,
    )
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    assert " passed" in done.stdout and " failed" not in done.stdout


def test_a_stale_or_missing_build_is_refused_and_the_engine_stays_pure(build, tmp_path):
    probe = ["-c", "import games.engine as E; print(E.native.KIND)"]
    stale = tmp_path / "stale"
    shutil.copytree(build, stale)
    stamp = json.loads((stale / "stamp.json").read_text())
    (stale / "stamp.json").write_text(json.dumps(dict(stamp, digest="0" * 64)))
    for target, why in ((stale, "is stale"), (tmp_path / "none", "no native engine build")):
        done = _run(probe, target)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == "pure"
        assert why in done.stderr and "RuntimeWarning" in done.stderr
    assert _run(probe, build).stdout.strip() == "native"
