"""`make mutate`'s configuration (docs/testing.md): every unit test file of the pure core's
games is among mutmut's guarding tests (pyproject.toml, `pytest_add_cli_args_test_selection`).

Why a test: mutmut runs only the listed files; a new test file left out of the list kills no
mutant, and the scores drop with nobody noticing why (it happened once, issue 20).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import SimpleNamespace

from server.games import games

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
    mutate = _bench_mutate()
    targets = {path for path, _glob in mutate.TARGETS}
    assert set(mutate.GAME_FOLDERS) >= set(games())  # every game, found by its folder
    for package in games():
        assert f"server/games/{package}/__init__.py" in targets
        assert f"test_{package}_" in mutate.GUARD_PREFIXES
    assert "server/games/base.py" in targets
    assert "server/tournament/__init__.py" in targets
    assert "server/puzzles/expressions.py" in targets


def test_the_solver_is_guarded_by_its_own_tests_only():
    mutate = _bench_mutate()
    guards = mutate.mutation_guards()
    assert guards == {
        "server/puzzles/solver.py": [
            "tests/unit/test_solver.py",
            "tests/unit/test_solver_golden.py",
        ]
    }
    assert mutate.guard_problems(guards) == []


def test_the_guard_table_refuses_what_would_narrow_nothing_or_to_nothing():
    mutate = _bench_mutate()
    assert mutate.guard_problems(
        {
            "server/puzzles/editions.py": ["tests/unit/test_solver.py"],  # not mutated
            "server/puzzles/solver.py": ["tests/unit/test_editions.py"],  # not a guard
            "server/puzzles/notation.py": [],
        }
    ) == [
        "server/puzzles/editions.py: not a target",
        "server/puzzles/solver.py: tests/unit/test_editions.py is not a guarding test file",
        "server/puzzles/notation.py: no test file",
    ]


def test_narrowing_keeps_a_guarded_targets_own_tests_and_every_other_functions():
    mutate = _bench_mutate()
    own = "tests/unit/test_solver.py::test_counts_of_solvable_cards"
    golden = "tests/unit/test_solver_golden.py::test_3_3_8_8_whole_solution"
    deck = "tests/unit/test_round_decks.py::test_a_deck_of_solvable_cards"
    judge = "tests/unit/test_expressions.py::test_a_step"
    stats = {
        "server.puzzles.solver.x__canonical": {own, golden, deck},
        "server.puzzles.solver.xǁSolutionǁas_dict": {golden, deck},
        "server.puzzles.solver.x_solvable": {deck},  # only a deck test reached it
        "server.puzzles.round_decks.x_deck": {own, deck},  # not narrowed
        "server.puzzles.solver_extra.x_f": {deck},  # another module whose name starts alike
        "server.games.challenge.x_decide": {judge, deck},
    }
    guards = {
        "server/puzzles/solver.py": [
            "tests/unit/test_solver.py",
            "tests/unit/test_solver_golden.py",
        ]
    }
    assert mutate.narrowed_tests(stats, guards) == {
        "server.puzzles.solver.x__canonical": {own, golden},
        "server.puzzles.solver.xǁSolutionǁas_dict": {golden},
        "server.puzzles.solver.x_solvable": set(),
        "server.puzzles.round_decks.x_deck": {own, deck},
        "server.puzzles.solver_extra.x_f": {deck},
        "server.games.challenge.x_decide": {judge, deck},
    }
    # a package's __init__.py: its own functions, not its submodules'
    package = {"server/games/challenge/__init__.py": ["tests/unit/test_challenge_rules.py"]}
    rules = "tests/unit/test_challenge_rules.py::test_x"
    assert mutate.narrowed_tests(
        {
            "server.games.challenge.x_decide": {rules, judge},
            "server.games.challenge.state.x_evolve": {rules, judge},
        },
        package,
    ) == {
        "server.games.challenge.x_decide": {rules},
        "server.games.challenge.state.x_evolve": {rules, judge},
    }


def test_the_stats_shares_run_every_guarding_test_once_between_them():
    """bench/mutmut_fast.py splits mutmut's stats run over two processes: each keeps every
    other collected test, and deselects (so pytest reports) the rest; the union is the whole
    run, so which test reaches which function is recorded for every test, exactly once."""
    mutate = _bench_mutate()
    deselected: list[str] = []

    class Hooks:  # pytest's hook relay, as far as a share calls it
        def pytest_deselected(self, items):
            deselected.extend(items)

    config = SimpleNamespace(hook=Hooks())
    collected = [f"tests/unit/test_x.py::test_{n}" for n in range(7)]
    shares = []
    for index in range(2):
        items = list(collected)
        mutate.ShareOfTests(index, 2).pytest_collection_modifyitems(config, items)
        shares.append(items)
    assert shares == [collected[0::2], collected[1::2]]
    assert sorted(deselected) == sorted(collected)  # each by the share that does not run it


def test_results_are_written_at_most_every_few_seconds_while_mutants_run_and_all_at_the_end():
    mutate = _bench_mutate()
    now = [100.0]
    written: list[str] = []
    saves = mutate.DeferredSaves(written.append, clock=lambda: now[0])
    saves.save("notation")  # making the mutants, in mutmut's pool: written at once
    assert written == ["notation"]
    saves.deferring = True  # the mutants' loop
    for name in ("notation", "solver", "notation"):
        saves.save(name)
    assert written == ["notation"]
    now[0] += saves.EVERY_S
    saves.save("rounds")
    assert written == ["notation", "notation", "solver", "rounds"]  # each file once, as it is
    saves.save("solver")
    saves.flush()  # the run's end (or a stop)
    assert written == ["notation", "notation", "solver", "rounds", "solver"]
