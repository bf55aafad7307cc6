"""Pytest hooks for the whole suite.

`make mutate` (docs/testing.md) runs each mutant's tests in a forked child, thousands of
times. During such a run (bench/mutate.py sets `T24_MUTATING`), each property test:
- does not shrink a failing example, nor explain it: the first failing example already kills
  the mutant, and shrinking it costs up to hundreds of further examples per kill;
- keeps no example database: each mutant's verdict depends on its own tests and the fixed
  seed only, not on which mutants ran before it in the other worker;
- runs at most `T24_MUTATE_MAX_EXAMPLES` examples when that is set above 0 (bench/mutate.py
  sets 25; `MUTATE_MAX_EXAMPLES=0 make mutate` runs every example; docs/testing.md, "Wall
  time", compares the verdicts).
Outside a mutation run every property test runs as written.

And each test starts with the solver's memo tables empty (`_solver_memo_per_test`).

On several workers (`make test`: `pytest -n 2`), the order and grouping of the tests and the
controller's start of the whole-tournament run are tests/suite_plan.py's.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator

import pytest
import suite_plan

MUTATING = "T24_MUTATING"  # bench/mutate.py sets it for mutmut's runs
MUTATE_MAX_EXAMPLES = "T24_MUTATE_MAX_EXAMPLES"  # and this one (0: no cap)


def pytest_configure(config: pytest.Config) -> None:
    """On `-n`, the controller's part of tests/suite_plan.py (xdist calls its hooks); and the
    child processes' bytecode kept (`keep_bytecode`)."""
    keep_bytecode(config)
    controller = not hasattr(config, "workerinput") and config.pluginmanager.hasplugin("xdist")
    if controller and config.getoption("dist", "no") != "no" and config.getoption("tx", None):
        config.pluginmanager.register(suite_plan.ControllerPlan(config), "t24-suite-plan")


def keep_bytecode(config: pytest.Config) -> None:
    """Where PYTHONDONTWRITEBYTECODE is set (this machine's shells set it), every child
    process (a server, a `t24` client, a pytest run in a copy of the tree: hundreds a run)
    compiled the project's modules from source again: a server's start took 0.51 s of CPU,
    0.36 s with its bytecode kept (2026-12-03). So the run drops the setting: the workers and
    every child write and read `__pycache__` as Python does by default (git ignores it; a
    copied tree or a test's venv keeps its own, removed with it), each file checked against
    its source's time and size before it is used. Not PYTHONPYCACHEPREFIX: with a prefix
    Python reads no `__pycache__` at all, and a cold one compiled the standard library and
    the dependencies again (1.3 s of CPU for a server's start). Set by the first process (the
    xdist controller, or the only one); workers and children inherit it. The first process
    writes its own too (its test modules' rewritten bytecode): `make test` collects the suite
    once before the workers start, so that they read it and do not each rewrite every test
    module (Makefile, `test`)."""
    setting = os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    if setting is None:
        return
    writing = sys.dont_write_bytecode
    sys.dont_write_bytecode = False

    def put_back() -> None:
        os.environ["PYTHONDONTWRITEBYTECODE"] = setting
        sys.dont_write_bytecode = writing

    config.add_cleanup(put_back)


@pytest.hookimpl(tryfirst=True)  # before xdist's own, which reads the groups set here
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On a worker, tests/suite_plan.py's order and groups; during a mutation run, each
    property test's settings (see the module's docstring)."""
    if hasattr(config, "workerinput"):
        suite_plan.plan_order(items, config.rootpath)
    if not os.environ.get(MUTATING):
        return
    from hypothesis import Phase, settings

    cap = int(os.environ.get(MUTATE_MAX_EXAMPLES) or 0)
    for item in items:
        test = getattr(item, "obj", None)
        test = getattr(test, "__func__", test)  # a method's function holds the settings
        current = getattr(test, "_hypothesis_internal_use_settings", None)
        if current is None:
            continue
        phases = tuple(p for p in current.phases if p not in (Phase.shrink, Phase.explain))
        changes: dict[str, object] = {"database": None, "phases": phases}
        if cap and current.max_examples > cap:
            changes["max_examples"] = cap
        test._hypothesis_internal_use_settings = settings(current, **changes)  # type: ignore[arg-type]


@pytest.fixture(autouse=True)
def _solver_memo_per_test() -> Iterator[None]:
    """During a mutation run, each test starts with `server.puzzles.solver`'s memo tables
    (`@cache`: reachable values, needs, forms) empty.

    Why: mutmut learns which tests reach a function from one run of every guarding test in
    one process, then runs only those on its mutants. With the memo kept from earlier tests,
    `test_counts_of_solvable_cards` found every small card's values already known and never
    reached `_results`, so `_results`'s mutants ran only tests that compare a deck with
    another drawn by the same mutant, and `a + b` made `a - b` survived. Clearing costs a few
    milliseconds per test that uses the solver (455 triples of 1..13)."""
    if os.environ.get(MUTATING):
        from server.puzzles import solver

        for memo in (solver._values, solver._needs, solver._forms, solver._solvable):
            memo.cache_clear()
    yield
