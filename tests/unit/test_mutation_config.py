"""`make mutate`'s configuration (docs/testing.md): every unit test file of the pure core's
games is among mutmut's guarding tests (pyproject.toml, `pytest_add_cli_args_test_selection`).

Why a test: mutmut runs only the listed files; a new test file left out of the list kills no
mutant, and the scores drop with nobody noticing why (it happened once, issue 20).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _bench_mutate():
    spec = importlib.util.spec_from_file_location("bench_mutate", ROOT / "bench" / "mutate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def test_every_core_test_file_of_a_game_guards_the_mutation_run():
    assert _bench_mutate().unguarded_test_files() == []


def test_the_guard_check_tells_the_core_from_the_shell():
    mutate = _bench_mutate()
    unit = ROOT / "tests" / "unit"
    assert mutate.tests_only_the_core(unit / "test_challenge_rules.py")
    assert mutate.tests_only_the_core(unit / "test_tournament_advancement.py")  # via a helper
    assert not mutate.tests_only_the_core(unit / "test_tournament_actor.py")  # server.runtime
    assert not mutate.tests_only_the_core(unit / "test_tjugoett_cli.py")  # the client
    assert not mutate.tests_only_the_core(unit / "test_casual_view_pushes.py")  # twisted


def test_every_game_and_the_tournament_are_targets():
    targets = {path for path, _glob in _bench_mutate().TARGETS}
    for package in ("challenge", "pocket", "deck40", "tjugoett"):
        assert f"server/games/{package}/__init__.py" in targets
    assert "server/games/base.py" in targets
    assert "server/tournament/__init__.py" in targets
    assert "server/puzzles/expressions.py" in targets
