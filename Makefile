# ttr — the two commands: `make run` and `make test`. Both create and use .venv.
SHELL := /bin/bash
.SHELLFLAGS := -eo pipefail -c
PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000
# Local runs default to DEBUG on (a built-in development secret key); production sets its own.
RUN_ENV := DEBUG=$(or $(DEBUG),true)

.PHONY: install run test lint format bench bench-load migrate locale clean fuzz engine-native

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e ".[dev]" 2>&1 | { grep -v "^WARNING: Location" || true; }
	$(BIN)/python -c "import django, channels, celery, allauth, playwright"
	touch $(STAMP)

install: $(STAMP)

migrate: install
	$(RUN_ENV) $(BIN)/python manage.py migrate --noinput

# The German and Dutch catalogues, compiled in pure Python (no GNU gettext needed).
locale: install
	$(RUN_ENV) $(BIN)/python manage.py compiletranslations

run: migrate locale
	$(RUN_ENV) $(BIN)/python manage.py seed_demo
	$(RUN_ENV) $(BIN)/python manage.py serve --host $(HOST) --port $(PORT)

# ruff (style, complexity), import-linter (who may import whom), mypy (the pure packages):
# their settings are in pyproject.toml.
lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-cache
	$(BIN)/mypy

# Four pytest processes side by side, their reports one after the other: the pure engine
# tests (no database, no server: all CPU); the tests that wait on servers of their own
# (browsers, live sites, fault drills), in two halves (TESTS=live1, live2), each on a database
# and Redis number of its own; and the rest (TESTS=rest). Once the rest is done, the compiled
# engine's conformance run (tests/engine/test_native_engine.py: a mypyc build and the engine
# suite again) starts beside the halves: they spend much of their time waiting on their
# servers (the CPU idled 27-82% in that stretch, measured 2026-11-26), where it used to run
# alone after them. Three parts instead of two halves were tried: the CPU was then busy
# throughout, the rest took 12:48 instead of 8:32 and the parts as long as the halves.
# With PYTEST_ARGS (a path, -k, -x ...) one plain pytest runs instead.
test: lint locale
	@if [ -n "$(PYTEST_ARGS)" ]; then exec $(BIN)/python -m pytest $(PYTEST_ARGS); fi; \
	mkdir -p var; \
	$(BIN)/python -m pytest tests/engine -p no:cacheprovider \
	  --ignore=tests/engine/test_native_engine.py > var/engine-tests.log 2>&1 & \
	engine=$$!; \
	redis_db=$${REDIS_URL##*/}; pids=""; \
	for shard in 1 2; do \
	  live_db=$${DATABASE_URL:+$${DATABASE_URL%%\?*}_live$$shard}; live_redis=$$REDIS_URL; \
	  case "$$redis_db" in ''|*[!0-9]*) ;; *) live_redis=$${REDIS_URL%/*}/$$(( (redis_db + shard) % 16 ));; esac; \
	  env TESTS=live$$shard $${live_db:+DATABASE_URL=$$live_db} $${live_redis:+REDIS_URL=$$live_redis} \
	    $(BIN)/python -m pytest --ignore=tests/engine -p no:cacheprovider > var/live$$shard-tests.log 2>&1 & \
	  pids="$$pids $$!"; \
	done; status=0; \
	TESTS=rest $(BIN)/python -m pytest --ignore=tests/engine || status=$$?; \
	$(BIN)/python -m pytest tests/engine/test_native_engine.py -p no:cacheprovider \
	  > var/native-tests.log 2>&1 & \
	native=$$!; \
	shard=0; for pid in $$pids; do \
	  shard=$$((shard + 1)); wait $$pid || status=$$?; \
	  echo "--- tests that wait on servers, half $$shard (run beside the rest):"; cat var/live$$shard-tests.log; \
	done; \
	wait $$engine || status=$$?; \
	echo "--- tests/engine (run beside the rest):"; cat var/engine-tests.log; \
	wait $$native || status=$$?; \
	echo "--- the compiled engine against the pure one (after the rest, beside the halves):"; \
	cat var/native-tests.log; \
	exit $$status

format: install
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# The optional compiled engine (games/engine/native.py): mypyc output in build/native-engine,
# used only by a process started with TTR_NATIVE_ENGINE=1 (and only while the sources match).
engine-native: install
	$(BIN)/python -c "from games.engine.native import main; main()"

bench: install
	$(BIN)/python benchmarks/engine.py
	@if $(BIN)/python -c "from games.engine.native import main; main()" > /dev/null 2>&1; then \
	  TTR_NATIVE_ENGINE=1 $(BIN)/python benchmarks/engine.py --check-games 2; \
	else \
	  echo "compiled engine skipped: mypyc could not build it (no C compiler?)"; \
	fi
	$(BIN)/python benchmarks/bots.py
	$(BIN)/python benchmarks/expert_chart.py
	@if [ -n "$$DATABASE_URL" ] && [ -n "$$REDIS_URL" ]; then \
	  $(BIN)/python benchmarks/timeouts.py; \
	else \
	  echo "benchmarks/timeouts.py skipped: it needs DATABASE_URL (PostgreSQL) and REDIS_URL"; \
	fi

# The load benchmark (benchmarks/load.py): starts its own production stack on this machine.
# Options through BENCH_LOAD_ARGS, e.g. make bench-load BENCH_LOAD_ARGS="--tables 50 --only game".
bench-load: install
	@if [ -z "$$DATABASE_URL" ] || [ -z "$$REDIS_URL" ]; then \
	  echo "make bench-load needs DATABASE_URL (PostgreSQL) and REDIS_URL, e.g." >&2; \
	  echo "  DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379/3 make bench-load" >&2; \
	  exit 2; \
	fi
	$(BIN)/python benchmarks/load.py $(BENCH_LOAD_ARGS)

# Hostile input at length (tests/reliability/fuzz.py, fuzz_http.py): 100,000 socket frames and
# 5,000 form and API requests; prints the seed and the figures. FUZZ_SEED=n replays a run.
fuzz: install
	FUZZ_FRAMES=$${FUZZ_FRAMES:-100000} FUZZ_REQUESTS=$${FUZZ_REQUESTS:-5000} \
	  $(BIN)/python -m pytest tests/reliability/test_fuzz.py -s -q --timeout=0 $(PYTEST_ARGS)

clean:
	rm -rf $(VENV) var staticfiles .pytest_cache .ruff_cache .mypy_cache .import_linter_cache build/native-engine
