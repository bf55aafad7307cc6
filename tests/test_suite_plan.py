"""tests/suite_plan.py, the order `make test`'s workers take the files in, names real
files, and orders and groups as it says (a renamed slow file would otherwise drop silently to
the end of the order, where it would keep one worker busy alone)."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

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
    """The one thing of a pytest item `plan_order` reads."""

    path: Path
    name: str


def test_slow_files_go_first_in_their_order_each_file_whole():
    slow, slower = (ROOT / name for name in suite_plan.SLOWEST_FIRST[1::-1])
    quick = ROOT / "tests/unit/test_base.py"
    items = [Item(quick, "q1"), Item(slow, "s1"), Item(quick, "q2"), Item(slower, "t1")]
    items += [Item(slow, "s2")]
    suite_plan.plan_order(items, ROOT)  # type: ignore[arg-type]
    assert [item.name for item in items] == ["t1", "s1", "s2", "q1", "q2"]


def test_the_waiting_files_are_spread_among_the_others_which_also_end_the_order():
    """After the slow files: the end-to-end files (mostly waiting) one every few in-process
    files (their CPU their own), each kind in collection order, and the in-process files'
    last fifth at the end."""
    waits = [ROOT / f"tests/e2e/test_w{n}.py" for n in range(4)]
    computes = [ROOT / f"tests/unit/test_c{n}.py" for n in range(10)]
    slow = ROOT / suite_plan.SLOWEST_FIRST[0]
    items = [Item(path, path.stem) for path in [*waits, *computes]] + [Item(slow, "slow")]
    suite_plan.plan_order(items, ROOT)  # type: ignore[arg-type]
    order = [item.name for item in items]
    assert order[0] == "slow"
    assert [name for name in order if name.startswith("test_w")] == [w.stem for w in waits]
    assert [name for name in order if name.startswith("test_c")] == [c.stem for c in computes]
    # 4 waiting files over the first 8 in-process ones: one every second
    assert order[1:] == [
        "test_w0", "test_c0", "test_c1", "test_w1", "test_c2", "test_c3", "test_w2",
        "test_c4", "test_c5", "test_w3", "test_c6", "test_c7", "test_c8", "test_c9",
    ]  # fmt: skip


def test_make_test_s_workers_run_each_file_whole_on_one_worker(tmp_path):
    """The Makefile's xdist flags, on two files of ten tests: each file's tests all on one
    worker (its module fixtures start once). `--dist loadgroup` with an `xdist_group` mark
    per file failed this with pytest 9.2: the groups were dropped and the tests dealt one
    by one to both workers (pytest-xdist issue 1386)."""
    line = next(
        line
        for line in (ROOT / "Makefile").read_text(encoding="utf-8").splitlines()
        if line.startswith("PYTEST_WORKERS :=")
    )
    flags = line.split(":=", 1)[1].replace("$(TEST_WORKERS)", "2").split()
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    for name in ("test_one.py", "test_two.py"):
        tests = "".join(f"def test_{n}():\n    assert {n} == {n}\n\n\n" for n in range(10))
        (tmp_path / name).write_text(tests, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-v", "-p", "no:cacheprovider", *flags]
        + ["--rootdir", str(tmp_path), "-c", str(tmp_path / "pytest.ini"), str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    ran = re.findall(r"\[(gw\d)\].* PASSED (test_\w+\.py)::test_\d", done.stdout)
    assert len(ran) == 20, done.stdout
    workers = {name: {worker for worker, file in ran if file == name} for _, name in ran}
    assert all(len(used) == 1 for used in workers.values()), workers


def files_marked(mark: str) -> set[str]:
    """The test files whose module-level `pytestmark` names `mark`."""
    return {
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "tests").rglob("test_*.py")
        if any(
            line.startswith("pytestmark") and f"pytest.mark.{mark}" in line
            for line in path.read_text(encoding="utf-8").splitlines()
        )
    }


INSTALL_TESTS = {
    "tests/e2e/test_installed_package.py",
    "tests/e2e/test_server_install.py",
    "tests/e2e/test_pipx_install.py",
}


def test_the_install_tests_are_marked_and_ci_runs_them_after_the_suite():
    """`make test` leaves out the tests marked `install` (wheels built, pip and pipx, nginx:
    docs/testing.md, "Suite time"); `make test-install` runs exactly those, and .ci/run runs
    it after `make test`, so no install test drops out of CI unseen."""
    assert files_marked("install") == INSTALL_TESTS
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    test_target = makefile.split("\ntest: ", 1)[1].split("\n\n", 1)[0]
    install_target = makefile.split("\ntest-install: ", 1)[1].split("\n\n", 1)[0]
    assert 'pytest -q $(PYTEST_WORKERS) $(PYTEST_ARGS) -m "not install and not alone"' in (
        test_target
    )
    assert "pytest -q $(PYTEST_WORKERS) $(PYTEST_ARGS) -m install" in install_target
    commands = [
        line.strip()
        for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
        if line.strip().startswith("make ")
    ]
    assert commands == ["make test", "make test-install"]


ALONE_TESTS = {"tests/e2e/test_server_floods.py"}


def test_the_latency_bounds_run_alone_after_the_workers():
    """The files marked `alone` (a flooded server's pings against an idle twin's) run after
    the workers, in one process of their own: beside the other workers and a busy core their
    bounds measured the machine (docs/testing.md, "Suite time"). Each test runs once: the
    workers' run leaves them out, the second run takes exactly them."""
    assert files_marked("alone") == ALONE_TESTS
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    alone_files = makefile.split("\nALONE_FILES := ", 1)[1].split("\n", 1)[0].split()
    assert set(alone_files) == ALONE_TESTS  # the second run names exactly the marked files
    test_target = makefile.split("\ntest: ", 1)[1].split("\n\n", 1)[0]
    runs = [
        line.strip()
        for line in test_target.splitlines()
        if "-m pytest" in line and "--collect-only" not in line
    ]
    assert runs == [
        "$(BIN)/python -m pytest -q $(PYTEST_WORKERS) $(PYTEST_ARGS)"
        ' -m "not install and not alone"',
        '$(BIN)/python -m pytest -q $(PYTEST_ARGS) -m "alone and not install" $(ALONE_FILES)',
    ]


def test_the_run_keeps_bytecode_caches_where_the_environment_turns_them_off(monkeypatch):
    """A test run, and so every server and `t24` process the tests start, keeps its bytecode
    caches even where the environment turns them off (PYTHONDONTWRITEBYTECODE=1 on the
    shared machine: every process compiled t24's sources again; docs/testing.md, "Suite
    time"): tests/conftest.py's `keep_bytecode` drops the setting for the run, a child
    Python then writes its caches, this process writes its own (the test modules' rewritten
    bytecode, which `make test`'s first collection leaves for the workers), and both come
    back when the run ends."""
    # by its path: `conftest` may name tests/e2e's too, when both folders are collected
    spec = importlib.util.spec_from_file_location("t24_tests_conftest", ROOT / "tests/conftest.py")
    conftest = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conftest)
    cleanups: list = []
    config = SimpleNamespace(add_cleanup=cleanups.append)
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    conftest.keep_bytecode(config)
    assert sys.dont_write_bytecode is False
    writes = subprocess.run(
        [sys.executable, "-c", "import sys; print(not sys.dont_write_bytecode)"],
        capture_output=True,
        text=True,
        env=dict(os.environ),
        check=True,
    ).stdout.strip()
    assert writes == "True"
    assert len(cleanups) == 1
    cleanups[0]()
    assert os.environ["PYTHONDONTWRITEBYTECODE"] == "1"
    assert sys.dont_write_bytecode is True
