"""The optional compiled engine: the engine's hot modules built by mypyc, used only on request.

Terms:
- *native build*: a directory holding the modules of ``MODULES`` compiled by mypyc (an
  extension module each and their shared library) and ``stamp.json``, the digest of the
  sources they were compiled from. ``make engine-native`` builds one (``main``); it needs a
  C compiler and Python's headers (mypyc comes with mypy, a dev dependency).
- ``TTR_NATIVE_ENGINE``: the environment variable that asks for it, naming the build
  directory (``1``: ``DEFAULT_DIR``, ``build/native-engine`` in the repository, which git
  ignores). Unset, nothing here runs: the engine is pure Python, as ``make run``, the site
  and ``make test`` use it, and no install ever needs a compiler.

When asked, importing this module (the first thing ``games.engine`` does) checks the build's
stamp against the sources as they are now and, if they match, puts the build's directories in
front of the engine packages' ``__path__``, so ``games.engine.state`` and the others load
compiled while every module not in ``MODULES`` stays Python. A build that is missing, stale
(a source edited since: old compiled code must never stand in for it) or made by another
Python is not used: a ``RuntimeWarning`` says why and the engine stays pure. ``KIND`` says
which engine this process runs ("native" or "pure").

Compiled, ``GameState`` is a native class (its attributes are declared in ``state``) and the
functions taking a ``state: GameState`` read its fields directly. It plays exactly the games
the pure modules play: ``tests/engine/test_native_engine.py`` builds it, compares the final
states of games of every rule set, and runs the engine's tests against it. The speed is in
``docs/benchmarks.md`` (*Engine speed*). Not compiled: the bots, the views and redaction, the
map data and rule-set tables (read once), and this module.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import warnings
from pathlib import Path

ENGINE = Path(__file__).resolve().parent  # games/engine
REPOSITORY = ENGINE.parents[1]
DEFAULT_DIR = REPOSITORY / "build" / "native-engine"
ENV = "TTR_NATIVE_ENGINE"

# the modules compiled, relative to games/engine (a native GameState pays off only with the
# functions that read it: everything a playout runs)
MODULES = (
    "state.py",
    "phases.py",
    "rng.py",
    "graph.py",
    "scoring.py",
    "setup.py",
    "actions.py",
    "counting.py",
    "search.py",
    "playout.py",
    "rules/cards.py",
    "rules/depots.py",
    "rules/opening.py",
    "rules/payment.py",
    "rules/routes.py",
    "rules/stations.py",
    "rules/tickets.py",
    "rules/turns.py",
)


def digest() -> str:
    """The digest of what a build depends on: the compiled sources, every other engine module
    they are type-checked against, and the Python version (its extension modules fit no
    other)."""
    h = hashlib.sha256(sys.version.encode())
    for path in sorted(ENGINE.rglob("*.py")):
        if "bots" in path.relative_to(ENGINE).parts:
            continue
        h.update(str(path.relative_to(ENGINE)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def build(target: Path) -> None:
    """Compile ``MODULES`` into ``target`` (replacing a build there): the engine's sources are
    copied to a scratch tree, mypyc compiles them there, and only its output is kept, so no
    compiled module ever sits beside the sources it would shadow."""
    if target.exists() and any(target.iterdir()) and not (target / "stamp.json").exists():
        raise RuntimeError(f"{target} is not empty and holds no native build: not replaced")
    source_digest = digest()
    with tempfile.TemporaryDirectory(prefix="ttr-native-") as scratch:
        root = Path(scratch)
        shutil.copy(ENGINE.parent / "__init__.py", _mkdir(root / "games") / "__init__.py")
        shutil.copytree(ENGINE, root / "games" / "engine", ignore=_not_sources)
        if digest() != source_digest:  # the stamp must name exactly what was compiled
            raise RuntimeError("the engine's sources changed during the build: build again")
        command = [sys.executable, "-m", "mypyc", *(f"games/engine/{m}" for m in MODULES)]
        done = subprocess.run(command, cwd=root, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"mypyc failed:\n{done.stdout[-4000:]}{done.stderr[-4000:]}")
        if target.exists():
            shutil.rmtree(target)
        suffix = sysconfig.get_config_var("EXT_SUFFIX")
        for built in root.rglob(f"*{suffix}"):
            if "build" in built.relative_to(root).parts:
                continue  # mypyc's intermediate tree; the modules are copied out of it
            out = target / built.relative_to(root)
            _mkdir(out.parent)
            shutil.copy(built, out)
    stamp = {"digest": source_digest, "python": sys.version, "modules": list(MODULES)}
    (target / "stamp.json").write_text(json.dumps(stamp, indent=1))


def _mkdir(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    return path


def _not_sources(directory: str, names: list) -> list:
    return [n for n in names if n == "__pycache__" or n == "bots" or n.endswith((".so", ".pyc"))]


def _requested() -> Path | None:
    value = os.environ.get(ENV, "").strip()
    if not value or value == "0":
        return None
    return DEFAULT_DIR if value == "1" else Path(value).resolve()


def _refusal(target: Path) -> str | None:
    """Why the build in ``target`` may not be used, or None."""
    try:
        stamp = json.loads((target / "stamp.json").read_text())
    except (OSError, ValueError):
        return f"no native engine build in {target} (make engine-native)"
    if stamp.get("python") != sys.version:
        return f"the native engine in {target} was built by another Python"
    if stamp.get("digest") != digest():
        return f"the native engine in {target} is stale: the sources changed since its build"
    return None


def _activate() -> Path | None:
    """Put a current build in front of the engine's package; return its engine directory
    (``None``: the engine stays pure)."""
    target = _requested()
    if target is None:
        return None
    reason = _refusal(target)
    if reason is not None:
        warnings.warn(f"{reason}; running the pure engine", RuntimeWarning, stacklevel=2)
        return None
    compiled = target / "games" / "engine"
    engine = sys.modules["games.engine"]  # being imported: its __path__ is set
    engine.__path__.insert(0, str(compiled))
    # mypyc's shared library is a top-level module the compiled modules import by name
    sys.path.insert(0, str(target))
    return compiled


_COMPILED = _activate()
KIND = "pure" if _COMPILED is None else "native"


def extend_rules_path(path: list) -> None:
    """Called by ``games.engine.rules``: its compiled modules too, when the engine is native."""
    if _COMPILED is not None:
        path.insert(0, str(_COMPILED / "rules"))


def main(target: str | None = None) -> None:
    """``make engine-native``: build into ``target`` (default ``DEFAULT_DIR``)."""
    path = Path(target).resolve() if target else DEFAULT_DIR
    build(path)
    print(f"native engine built in {path} ({len(MODULES)} modules); use it with {ENV}={path}")
