# The two set-up commands: `make run` and `make test`. Everything else is optional.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
# The suite on three workers (pytest-xdist) on the 2-core machine: a file per worker at a
# time, slowest first (tests/suite_plan.py). Three, not two: most e2e tests wait (pages,
# timers, servers starting), so two workers kept the cores half idle (303 s against 260 s
# on the quiet machine); four added no speed and failed the flood tests' latency bounds
# (docs/testing.md, "Suite time", 2026-12-03). TEST_WORKERS=0: one process.
TEST_WORKERS ?= 3
PYTEST_WORKERS := -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder
# More pytest arguments, e.g. PYTEST_ARGS=--durations=0 (each test's time, to measure).
PYTEST_ARGS ?=
BENCHES := bench/solver.py bench/eventlog.py bench/server_load.py bench/burst.py bench/tournament.py bench/fair_touch.py bench/cluster.py

.PHONY: install test test-install run bench soak mutate lint format clean web

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

# lint-imports: the layers' contracts (pyproject.toml, docs/architecture.md "Layers, checked");
# no cache: the whole graph is read in about a second, and no cache folder is left behind.
# Every test but the install tests (marked `install`), which `make test-install` runs; the
# tests marked `alone` (latency bounds against an idle twin) after the others, on their own.
# Bytecode caches stay on for the run whatever the environment says (tests/conftest.py,
# `keep_bytecode`; docs/testing.md, "Suite time").
# The suite is collected once while mypy and lint-imports run (the other core): each worker
# then reads the test modules' rewritten bytecode instead of rewriting them all (about 10 s
# of CPU a worker on a fresh clone); its verdict is the workers' run's. Where the tests'
# rewritten bytecode is there already (any run but the first), the collection is skipped: it
# only cost the run 3 s of waiting before the workers start. The `alone` run names
# its files (ALONE_FILES, checked against the marks by tests/test_suite_plan.py): collecting
# the whole suite again for them cost 4 s of the run's serial end.
ALONE_FILES := tests/e2e/test_server_floods.py
test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	{ ls tests/unit/__pycache__/*-pytest-*.pyc || \
	  $(BIN)/python -m pytest -q --collect-only -p no:cacheprovider -m "not install"; } >/dev/null 2>&1 & \
	$(BIN)/mypy && $(BIN)/lint-imports --no-cache; checked=$$?; wait; exit $$checked
	$(BIN)/python -m pytest -q $(PYTEST_WORKERS) $(PYTEST_ARGS) -m "not install and not alone"
	$(BIN)/python -m pytest -q $(PYTEST_ARGS) -m "alone and not install" $(ALONE_FILES)

# The package built and installed as docs/operations.md says (issue 34): wheels, pip's and
# pipx's installs (pipx's downloads from PyPI), nginx in front. Minutes of pip's builds and
# downloads, so not in `make test`; .ci/run runs it after `make test`, with CI=true failing
# (never skipping) without nginx or an index.
test-install: $(STAMP)
	$(BIN)/python -m pytest -q $(PYTEST_WORKERS) $(PYTEST_ARGS) -m install

run: $(STAMP)
	$(BIN)/t24-server --demo

bench: $(STAMP)
	for b in $(BENCHES); do echo "== $$b"; $(BIN)/python $$b || exit 1; done

# 1,000 connections at tournament pace for 10 minutes with a join storm and a slow reader
# (issue 18): not in CI nor in `make bench`; writes the "Soak" section of docs/performance.md.
soak: $(STAMP)
	nice -n 10 $(BIN)/python bench/soak.py

# Mutation testing of the rules core (docs/testing.md): not in CI; mutmut is the optional
# `mutate` extra, installed here only. MUTATE_JOBS=1 on a busy machine; each property test runs
# at most 25 examples during the run (MUTATE_MAX_EXAMPLES=0: every example, as written).
mutate: $(STAMP)
	$(BIN)/python -m pip install -q -e '.[mutate]'
	nice -n 10 $(BIN)/python bench/mutate.py $(TARGETS)

# The web client's vendored msgpack library (docs/architecture.md, "The web client"): needs
# Node.js and npm; the result is committed, so `make run` needs neither.
web:
	cd clients/web && npm ci --ignore-scripts --no-audit --no-fund && node build.mjs

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache

format: $(STAMP)
	$(BIN)/ruff format .

clean:
	rm -rf $(VENV) .pytest_cache mutants
