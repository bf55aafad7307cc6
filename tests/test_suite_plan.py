"""tests/suite_plan.py, the order `make test`'s two workers take the files in, names real
files, and orders and groups as it says (a renamed slow file would otherwise drop silently to
the end of the order, where it would keep one worker busy alone)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import suite_plan

ROOT = Path(__file__).resolve().parents[1]


def test_every_slow_file_named_is_a_test_file_once():
    named = suite_plan.SLOWEST_FIRST
    assert [name for name in named if not (ROOT / name).is_file()] == []
    assert len(set(named)) == len(named)
    assert all(Path(name).name.startswith("test_") for name in named)


def test_the_files_that_read_the_tournament_run_come_after_the_first_ten():
    """The run, started with the session, is over by then (suite_plan.READ_THE_RUN)."""
    from e2e import tournament_run

    assert {Path(name).name for name in suite_plan.READ_THE_RUN} == set(tournament_run.MODULES)
    places = [suite_plan.SLOWEST_FIRST.index(name) for name in suite_plan.READ_THE_RUN]
    assert min(places) >= 10


@dataclass
class Item:
    """The two things of a pytest item `plan_order` reads and writes."""

    path: Path
    name: str
    marks: list = field(default_factory=list)

    def add_marker(self, mark) -> None:
        self.marks.append(mark)


def test_slow_files_go_first_in_their_order_each_file_whole_and_one_group():
    slow, slower = (ROOT / name for name in suite_plan.SLOWEST_FIRST[1::-1])
    quick = ROOT / "tests/unit/test_base.py"
    items = [Item(quick, "q1"), Item(slow, "s1"), Item(quick, "q2"), Item(slower, "t1")]
    items += [Item(slow, "s2")]
    suite_plan.plan_order(items, ROOT)  # type: ignore[arg-type]
    assert [item.name for item in items] == ["t1", "s1", "s2", "q1", "q2"]
    groups = [(item.name, [mark.args for mark in item.marks]) for item in items]
    assert groups == [
        ("t1", [(suite_plan.SLOWEST_FIRST[0],)]),
        ("s1", [(suite_plan.SLOWEST_FIRST[1],)]),
        ("s2", [(suite_plan.SLOWEST_FIRST[1],)]),
        ("q1", [("tests/unit/test_base.py",)]),
        ("q2", [("tests/unit/test_base.py",)]),
    ]
    assert all(mark.name == "xdist_group" for item in items for mark in item.marks)


INSTALL_TESTS = {
    "tests/e2e/test_installed_package.py",
    "tests/e2e/test_server_install.py",
    "tests/e2e/test_pipx_install.py",
}


def test_the_install_tests_are_marked_and_ci_runs_them_after_the_suite():
    """`make test` leaves out the tests marked `install` (wheels built, pip and pipx, nginx:
    docs/testing.md, "Suite time"); `make test-install` runs exactly those, and .ci/run runs
    it after `make test`, so no install test drops out of CI unseen."""
    marked = {
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "tests").rglob("test_*.py")
        if any(
            line.startswith("pytestmark") and "pytest.mark.install" in line
            for line in path.read_text(encoding="utf-8").splitlines()
        )
    }
    assert marked == INSTALL_TESTS
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    test_target = makefile.split("\ntest: ", 1)[1].split("\n\n", 1)[0]
    install_target = makefile.split("\ntest-install: ", 1)[1].split("\n\n", 1)[0]
    assert 'pytest -q $(PYTEST_WORKERS) -m "not install"' in test_target
    assert "pytest -q $(PYTEST_WORKERS) -m install" in install_target
    commands = [
        line.strip()
        for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
        if line.strip().startswith("make ")
    ]
    assert commands == ["make test", "make test-install"]
