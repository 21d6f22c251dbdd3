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

.PHONY: install run test lint format bench migrate clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e ".[dev]" 2>&1 | { grep -v "^WARNING: Location" || true; }
	$(BIN)/python -c "import django, channels, celery, allauth, playwright"
	touch $(STAMP)

install: $(STAMP)

migrate: install
	$(RUN_ENV) $(BIN)/python manage.py migrate --noinput

run: migrate
	$(RUN_ENV) $(BIN)/python manage.py seed_demo
	$(RUN_ENV) $(BIN)/python manage.py serve --host $(HOST) --port $(PORT)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

test: lint
	$(BIN)/python -m pytest $(PYTEST_ARGS)

format: install
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

bench: install
	$(BIN)/python benchmarks/engine.py
	$(BIN)/python benchmarks/bots.py
	@if [ -n "$$DATABASE_URL" ] && [ -n "$$REDIS_URL" ]; then \
	  $(BIN)/python benchmarks/timeouts.py; \
	else \
	  echo "benchmarks/timeouts.py skipped: it needs DATABASE_URL (PostgreSQL) and REDIS_URL"; \
	fi

clean:
	rm -rf $(VENV) var staticfiles .pytest_cache .ruff_cache
