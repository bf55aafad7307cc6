"""`mutmut`, made faster for `make mutate` (bench/mutate.py runs mutmut through this).

Why: a whole run tests some 6,600 mutants, each in a forked child, after fixed costs paid
one after the other; docs/testing.md ("Wall time") measures each change, per phase and per
mutant, in CPU time:
- mypy's errors are mapped to mutants with `ast` instead of libcst (about a second instead
  of three minutes), and mypy runs beside the stats run (`TypeCheckInBackground`);
- no clean run after a full stats run that passed (it has just run every guarding test on
  the unmutated code);
- each child runs its tests in a pytest session collected once in the parent
  (`CollectedPytestRunner`) instead of a fresh `pytest.main`, and reads the active mutant once;
- the progress line is counted once a second, not before every mutant;
- the stats run is split over two forked processes (`stats_in_shares`);
- each file's results are written every few seconds and at the end, not after every
  mutant (`DeferredSaves`, in bench/mutate.py);
- in a mutant's child every mutated function is called directly, not through mutmut's
  trampoline (`call_directly`), and each test has a CPU limit of its own (`TestCpuLimit`);
- `T24_MUTATE_TIMINGS` names where to write the time of each phase and each tested mutant.
What a mutant is, which tests run for it, in which order, and how its verdict is counted
stay mutmut's own: `mutmut_fast.py run ...` is `mutmut run ...` (`T24_MUTATE_PLAIN=1`: mutmut
as it comes, with the timings, for comparison), but for one declared change of which tests
guard a target: a target named in pyproject.toml's `[tool.t24.mutation_guards]` runs only its
own test files' tests (`_narrow_to_guards`; in both modes).

Same rule as mutmut's for the type checker: an error inside a mutant's function marks that
mutant caught (exit code 37); an error anywhere else means the mutated copy is broken in a
way no mutant explains, and the run stops, as mutmut's own filter does.
"""

from __future__ import annotations

import ast
import atexit
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import mutmut.__main__ as mutmut_main
import pytest
from mutate import DeferredSaves, ShareOfTests, mutation_guards, narrowed_tests  # bench/
from mutmut.configuration import config
from mutmut.mutation import trampoline
from mutmut.mutation.data import SourceFileMutationData
from mutmut.mutation.file_mutation import FailedTypeCheckMutant, MutatedMethodLocation
from mutmut.mutation.trampoline_templates import CLASS_NAME_SEPARATOR
from mutmut.runners.harness import PytestRunner
from mutmut.state import state
from mutmut.type_checking import TypeCheckingError, parse_mypy_report, run_type_checker
from mutmut.utils.file_utils import change_cwd
from mutmut.utils.format_utils import get_mutant_name, is_mutated_method_name
from mutmut.workers import isolation


def _mutant_spans(path: Path) -> list[MutatedMethodLocation]:
    """Every mutant function of a mutated file with its first and last line (the mutants
    are plain functions or methods; none is nested in another function)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        MutatedMethodLocation(path, node.name, node.lineno, node.end_lineno or node.lineno)
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and is_mutated_method_name(node.name)
    ]


def _caught_by(errors: list[TypeCheckingError]) -> dict[str, FailedTypeCheckMutant]:
    """mutmut's mapping of type errors to mutants, with `ast` instead of libcst (run in
    mutants/, where mypy ran)."""
    caught: dict[str, FailedTypeCheckMutant] = {}
    spans_by_path: dict[Path, list[MutatedMethodLocation]] = {}
    for error in errors:
        path = error.file_path
        if path not in spans_by_path:
            spans_by_path[path] = _mutant_spans(path)
        spans = spans_by_path[path]
        mutant = next(
            (s for s in spans if s.line_number_start <= error.line_number <= s.line_number_end),
            None,
        )
        if mutant is None:
            raise Exception(
                f"type error outside every mutant: {path}:{error.line_number} "
                f"({error.error_description})"
            )
        name = get_mutant_name(path.relative_to(Path(".").absolute()), mutant.function_name)
        caught.setdefault(name, FailedTypeCheckMutant(mutant, name, error))
    return caught


def filter_mutants_with_type_checker() -> dict[str, FailedTypeCheckMutant]:
    """mutmut's `filter_mutants_with_type_checker`, with `ast` instead of libcst."""
    with change_cwd(Path("mutants")):
        return _caught_by(run_type_checker(config().type_check_command))


class TypeCheckInBackground(dict[str, FailedTypeCheckMutant]):
    """The mutants mypy catches, with mypy running in the background meanwhile.

    Why: mutmut runs mypy (about 40 s of one core), then the stats run (about a minute of
    one core), one after the other, though neither needs the other: on two cores they can
    run at once. mutmut first reads this mapping when it picks the first mutant to test
    (after the stats run): then it waits for mypy and maps its errors (`_caught_by`). mypy is
    waited for before any mutant is forked, so no fork waits for it by mistake.
    """

    def __init__(self) -> None:
        super().__init__()
        self.output = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115
        self.started = time.monotonic()
        with change_cwd(Path("mutants")):
            self.process: subprocess.Popen[bytes] | None = subprocess.Popen(
                config().type_check_command, stdout=self.output, stderr=subprocess.DEVNULL
            )

    def _wait(self) -> None:
        if self.process is None:
            return
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        self.process.wait()
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        self.process = None
        cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        timings.phases["type_check: mypy (in the background)"] = [
            time.monotonic() - self.started,
            cpu,
        ]
        self.output.seek(0)
        lines = [line for line in self.output.read().splitlines() if line.strip()]
        with change_cwd(Path("mutants")):
            mapped = timings.phase("type_check: mapping", _caught_by)
            self.update(mapped(parse_mypy_report([json.loads(line) for line in lines])))

    def get(self, key: str, default: Any = None) -> Any:
        self._wait()
        return super().get(key, default)

    def __contains__(self, key: object) -> bool:
        self._wait()
        return super().__contains__(key)

    def __iter__(self) -> Any:
        self._wait()
        return super().__iter__()

    def __len__(self) -> int:
        self._wait()
        return super().__len__()

    def keys(self) -> Any:
        self._wait()
        return super().keys()

    def items(self) -> Any:
        self._wait()
        return super().items()


TIMINGS = os.environ.get("T24_MUTATE_TIMINGS")  # bench/mutate.py: where to write the timings


class FirstFailure:
    """A pytest plugin that remembers the first failing test (what killed a mutant)."""

    def __init__(self) -> None:
        self.nodeid: str | None = None

    def pytest_runtest_logreport(self, report: Any) -> None:
        if report.failed and self.nodeid is None:
            self.nodeid = report.nodeid


class TestCpuLimit:
    """A pytest plugin for a mutant's child: a test that runs past its own CPU limit,
    `MULTIPLIER` x (its time in the stats run + 1 s), ends the child as timed out (exit 36,
    mutmut's "timeout", counted killed as mutmut counts its own timeouts).

    Why: mutmut's limit is per mutant, 3 x (the time of all the mutant's tests + 1 s): a
    mutant of the notation parser that loops forever (`self.index -= 1`) held a worker for
    87 s of CPU before it was stopped, in the first of its tests. Per test, such a loop is
    stopped after a few seconds. CPU time, not wall time, so a loaded machine does not turn a
    slow test into a timeout; a mutant's tests call the functions directly
    (`call_directly`), faster than in the stats run, which measured them through mutmut's
    recording trampolines.
    """

    MULTIPLIER = 3.0

    def __init__(self) -> None:
        self.armed = False  # in a mutant's child only

    def arm(self) -> None:
        """In a mutant's child, once: a test past its limit ends the child (exit 36)."""
        signal.signal(signal.SIGPROF, lambda *_: os._exit(36))
        self.armed = True

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item: Any, nextitem: Any) -> Any:
        if self.armed:
            seconds = (state().duration_by_test.get(item.nodeid, 0.0) + 1.0) * self.MULTIPLIER
            signal.setitimer(signal.ITIMER_PROF, seconds)
        yield
        if self.armed:
            signal.setitimer(signal.ITIMER_PROF, 0)


TRAMPOLINE_CODE = Path(trampoline.__file__).resolve()


def _is_trampoline(value: Any) -> bool:
    """Whether a module's or class's attribute is mutmut's trampoline around a function (its
    wrapper is defined in mutmut/mutation/trampoline.py)."""
    code = getattr(value, "__code__", None)
    return code is not None and Path(code.co_filename).resolve() == TRAMPOLINE_CODE


def trampolined_functions() -> list[tuple[Any, str, str, dict[str, Any]]]:
    """Every mutated function of the loaded `server` modules, as (owner, attribute, module,
    mutants): the module (or class) whose attribute is the trampoline, and mutmut's dict of
    the function's variants (`_mutmut_orig` and each `<mangled>__mutmut_<n>`)."""
    found = []
    for module_name, module in sorted(sys.modules.items()):
        if module is None or not module_name.startswith("server."):
            continue
        for name, variants in list(vars(module).items()):
            if not (name.startswith("mutants_x") and name.endswith("__mutmut")):
                continue
            mangled = name.removeprefix("mutants_").removesuffix("__mutmut")
            if mangled.startswith("x" + CLASS_NAME_SEPARATOR):  # xǁClassǁmethod
                _x, class_name, attribute = mangled.split(CLASS_NAME_SEPARATOR)
                owner = getattr(module, class_name, None)
                current = vars(owner).get(attribute) if isinstance(owner, type) else None
            else:  # x_function
                owner, attribute = module, mangled.removeprefix("x_")
                current = vars(module).get(attribute)
            known = isinstance(variants, dict) and "_mutmut_orig" in variants
            if known and _is_trampoline(current):
                found.append((owner, attribute, module_name, variants))
    return found


def call_directly(functions: list[tuple[Any, str, str, dict[str, Any]]], active: str) -> None:
    """In a mutant's child: every mutated function's name bound to its variant for this run
    (the mutant for the function under test, the original for every other), in place of
    mutmut's trampoline, which picks the variant on every call.

    Why: the trampoline costs three Python frames and a few string operations a call. The
    tournament's replay property test runs 3.2 times as long through the trampolines as the
    plain code (28.6 s of CPU instead of 8.9); every test of every mutant pays it. The verdict
    cannot change: a name bound directly and a trampoline reached through a reference taken
    before (a handler in a table, an import of the name) call the same variant; the core
    reads no function's name or identity. `T24_MUTATE_TRAMPOLINES=1` keeps the trampolines
    (for comparing the two).
    """
    module_name, _, mutant = active.rpartition(".")
    for owner, attribute, module, variants in functions:
        variant = variants.get(mutant) if module == module_name else None
        setattr(owner, attribute, variant or variants["_mutmut_orig"])


class CollectedPytestRunner(PytestRunner):
    """mutmut's pytest runner, with the guarding tests collected once, before the forks.

    Why: mutmut forks a child per mutant, and each child ran `pytest.main` on its tests:
    parse the command line, load the plugins and conftest files, collect every test of the
    files named, start and finish a session (about 0.085 s of CPU, a third of an average
    mutant's cost). Here the parent does all of that once (`startup`, just before the
    mutants are forked), and each child runs its tests through pytest's own run loop
    (`pytest_runtestloop`, the loop `pytest.main` runs after collecting): the same tests of
    the same collection, in mutmut's order (fastest first), the same fixtures, hooks and
    `-x` (stop at the first failure). The stats run, the clean run and the forced-fail run
    stay plain `pytest.main` runs.
    """

    def __init__(self) -> None:
        super().__init__()
        self.session: Any = None
        self.items: dict[str, Any] = {}
        self.first_failure = FirstFailure()
        self.cpu_limit = TestCpuLimit()
        self.functions: list[tuple[Any, str, str, dict[str, Any]]] = []

    def collect_once(self) -> None:
        """Configure pytest and collect every guarding test, in this (the parent) process."""
        from _pytest.config import _prepareconfig
        from _pytest.main import Session

        args = ["--rootdir=.", "--tb=native"]
        args += self._pytest_args_regular_run([]) + self._pytest_add_cli_args
        stdout = sys.stdout
        # pytest's terminal reporter writes to the sys.stdout of its configuration: nowhere,
        # so that the children's progress dots do not land in mutmut's log.
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 (the children write to it)
        try:
            with change_cwd(Path("mutants")):
                config = _prepareconfig(args)
                config.pluginmanager.register(self.first_failure, "t24-first-failure")
                config.pluginmanager.register(self.cpu_limit, "t24-test-cpu-limit")
                config._do_configure()
                session = Session.from_config(config)
                config.hook.pytest_sessionstart(session=session)
                session.perform_collect()
        finally:
            sys.stdout = stdout
        if session.testsfailed:  # a collection error: pytest.main would refuse to run too
            raise RuntimeError(f"collecting the guarding tests failed ({session.testsfailed})")
        self.session = session
        self.items = {item.nodeid: item for item in session.items}
        if not os.environ.get("T24_MUTATE_TRAMPOLINES"):
            self.functions = trampolined_functions()
        mapped = set().union(*state().tests_by_mangled_function_name.values())
        if mapped - self.items.keys():  # a child must never miss a test the stats named
            raise RuntimeError(f"tests not collected: {sorted(mapped - self.items.keys())[:5]}")

    def run_tests(self, *, mutant_name: str | None, tests: Any) -> int:
        """In a mutant's child: its tests, in the given order, through pytest's run loop.
        The exit code is what `pytest.main` returns (1 failed, 2 interrupted, 3 internal
        error, 5 nothing to run); the child ends after it, so nothing is torn down."""
        if self.session is None:  # the clean and forced-fail runs, before `startup`
            return super().run_tests(mutant_name=mutant_name, tests=tests)
        session = self.session
        session.items = [self.items[test] for test in tests]
        if not session.items:
            return 5
        # Every call of a mutated function asks which mutant is active, by default from
        # os.environ (some 30 microseconds, a seventh of a property test's time): in this
        # child it is this mutant for good, as mutmut set it before calling here.
        active = trampoline.get_mutant_under_test()
        trampoline.get_mutant_under_test = lambda: active
        call_directly(self.functions, active)
        self.cpu_limit.arm()
        os.chdir("mutants")
        try:
            session.config.hook.pytest_runtestloop(session=session)
        except session.Failed:  # -x: the first failure stops the loop
            pass
        except (KeyboardInterrupt, session.Interrupted):
            return 2
        except BaseException:
            return 3
        if self.first_failure.nodeid and TIMINGS:  # which test killed it, for the timings
            line = json.dumps([mutant_name, self.first_failure.nodeid]) + "\n"
            out = os.open(TIMINGS + ".killers", os.O_WRONLY | os.O_APPEND | os.O_CREAT)
            os.write(out, line.encode())
            os.close(out)
        return 1 if session.testsfailed else 0


STATS_SHARES = 2  # one stats process per core of this machine


def _run_stats_share(runner: isolation.ForkRunner, index: int, shares: int) -> int:
    """In a forked share of the stats run: its tests, then its record written for the parent."""
    log = open(f"mutants/stats-share-{index}.log", "w")  # noqa: SIM115 (until os._exit)
    sys.stdout = sys.stderr = log
    os.dup2(log.fileno(), 1)
    os.dup2(log.fileno(), 2)
    # A call's record without what only mutmut's incremental runs read (its caller; so
    # `track_dependencies = false` in pyproject.toml) and without asking os.environ which
    # mutant is active on every call (the stats, for this process's life): a quarter less
    # CPU for the tournament's replay property test.
    seen = state()._stats
    trampoline.get_mutant_under_test = lambda: "stats"
    trampoline.record_trampoline_hit = lambda name, caller=None: seen.add(name)
    test_runner: Any = runner.test_runner
    plain_execute = test_runner.execute_pytest
    share = ShareOfTests(index, shares)

    def execute_pytest(params: list[str], **kwargs: Any) -> int:
        kwargs["plugins"] = [*kwargs.get("plugins", []), share]
        return int(plain_execute(params, **kwargs))

    test_runner.execute_pytest = execute_pytest
    code = int(test_runner.run_stats(tests=[]))
    tests = state().tests_by_mangled_function_name
    record = {
        "tests": {name: sorted(names) for name, names in tests.items()},
        "durations": state().duration_by_test,
    }
    Path(f"mutants/stats-share-{index}.json").write_text(json.dumps(record), encoding="utf-8")
    log.flush()
    return code


def stats_in_shares(runner: isolation.ForkRunner, shares: int = STATS_SHARES) -> int:
    """mutmut's full stats run (which test reaches which function, and each test's time),
    split over `shares` forked processes that each run every `shares`-th guarding test, then
    merged into mutmut's state, as its own fork-server runner merges one child's.

    Why: mutmut runs the stats in its own process, on one core: 288 s of a whole run's 24
    minutes (docs/testing.md, 20:20), while the other core ran mypy for 55 s and then waited.
    Each test's record is its own (mutmut clears the functions seen after every test), so
    the shares' union is the one run's record. A share's pytest output is in
    mutants/stats-share-<n>.log.
    """
    pids: dict[int, int] = {}
    for index in range(shares):
        pid = os.fork()
        if pid == 0:  # a share: its tests, its record to a file, and out without cleanup
            code = 3
            try:
                code = _run_stats_share(runner, index, shares)
            finally:
                os._exit(code)
        pids[pid] = index
    codes = []
    for pid, index in pids.items():
        _, status = os.waitpid(pid, 0)
        codes.append(os.waitstatus_to_exitcode(status))
        if codes[-1] != 0:
            print(f"    stats share {index} failed ({codes[-1]}): mutants/stats-share-{index}.log")
            continue
        record = json.loads(Path(f"mutants/stats-share-{index}.json").read_text("utf-8"))
        for name, tests in record["tests"].items():
            state().tests_by_mangled_function_name[name] |= set(tests)
        state().duration_by_test.update(record["durations"])
    return next((code for code in codes if code != 0), 0)


deferred_saves = DeferredSaves(SourceFileMutationData.save)


def _cpu() -> float:
    """CPU seconds of this process and its waited-for children."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


class Timings:
    """Wall and CPU time per phase of the run, and per tested mutant (its fork's own rusage):
    what docs/testing.md's "Wall time" compares, measured, not estimated."""

    def __init__(self) -> None:
        self.phases: dict[str, list[float]] = {}
        self.mutants: list[tuple[str, int, float, float]] = []  # name, exit code, cpu, wall

    def phase(self, name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            wall, cpu = time.monotonic(), _cpu()
            try:
                return function(*args, **kwargs)
            finally:
                spent = self.phases.setdefault(name, [0.0, 0.0])
                spent[0] += time.monotonic() - wall
                spent[1] += _cpu() - cpu

        return timed

    def save(self) -> None:
        itself = os.times()  # the mutmut process alone: its loop over the mutants included
        self.phases["the mutmut process itself"] = [0.0, itself.user + itself.system]
        # system time: its forks (a page table per mutant) and copies of written pages
        self.phases["the mutmut process itself: system"] = [0.0, itself.system]
        if TIMINGS:
            Path(TIMINGS).write_text(
                json.dumps({"phases": self.phases, "mutants": self.mutants}), encoding="utf-8"
            )


timings = Timings()


def _submit(self: isolation.ForkRunner, mutant_name: str, *args: Any) -> None:
    _plain_submit(self, mutant_name, *args)
    self._t24_started = getattr(self, "_t24_started", {})
    self._t24_started[mutant_name] = time.monotonic()


def _wait_for_result(
    self: isolation.ForkRunner, timeout: float | None = None
) -> isolation.MutantResult:
    """ForkRunner's wait, with os.wait4 for the finished mutant's own CPU time."""
    if self._no_tests_results:
        return self._no_tests_results.pop(0)
    pid, status, usage = os.wait4(-1, 0)
    exit_code = os.waitstatus_to_exitcode(status)
    worker = self._running.pop(pid)
    wall = time.monotonic() - self._t24_started.pop(worker.mutant_name)
    timings.mutants.append((worker.mutant_name, exit_code, usage.ru_utime + usage.ru_stime, wall))
    return isolation.MutantResult(worker.mutant_name, exit_code, wall)


_plain_submit = isolation.ForkRunner.submit


def _speed_up() -> None:
    """The levers docs/testing.md ("Wall time") measured: mypy beside the stats run, no
    clean run after a passing stats run, the guarding tests collected once."""
    mutmut_main.filter_mutants_with_type_checker = timings.phase(
        "type_check: start", TypeCheckInBackground
    )
    plain_stats_collection = mutmut_main.run_stats_collection

    def run_stats_collection(runner: Any, tests: Any = None) -> None:
        """mutmut stops the run when the stats run fails; a full one that passed already ran
        every guarding test on the unmutated code, which is what the clean run checks."""
        plain_stats_collection(runner, tests)
        if not tests:
            runner.t24_stats_passed = True

    def run_clean_tests(self: Any, tests: Any) -> int:
        if getattr(self, "t24_stats_passed", False):
            return 0
        return plain_clean_tests(self, tests)

    plain_clean_tests = isolation.ForkRunner.run_clean_tests
    mutmut_main.run_stats_collection = run_stats_collection
    isolation.ForkRunner.run_clean_tests = run_clean_tests  # type: ignore[method-assign]
    isolation.PytestRunner = CollectedPytestRunner  # type: ignore[attr-defined]
    plain_startup = isolation.ForkRunner.startup

    def startup(self: isolation.ForkRunner) -> None:
        if isinstance(self.test_runner, CollectedPytestRunner):
            self.test_runner.collect_once()
        plain_startup(self)
        deferred_saves.deferring = True  # from here on only this process saves results

    def shutdown(self: isolation.ForkRunner) -> None:
        try:
            plain_shutdown(self)
        finally:
            deferred_saves.flush()
            deferred_saves.deferring = False

    def collect_stats(self: isolation.ForkRunner, tests: Any) -> int:
        if tests:  # mutmut's incremental stats of new tests only (not a full run)
            return int(plain_collect_stats(self, tests))
        return stats_in_shares(self)

    plain_shutdown = isolation.ForkRunner.shutdown
    plain_collect_stats = isolation.ForkRunner.collect_stats
    isolation.ForkRunner.startup = startup  # type: ignore[method-assign]
    isolation.ForkRunner.shutdown = shutdown  # type: ignore[method-assign]
    isolation.ForkRunner.collect_stats = collect_stats  # type: ignore[method-assign]

    def save(data: SourceFileMutationData) -> None:
        deferred_saves.save(data)

    SourceFileMutationData.save = save  # type: ignore[method-assign]
    plain_print_stats = mutmut_main.print_stats
    shown = [0.0]

    def print_stats(data: Any, force_output: bool = False) -> None:
        """mutmut counts every mutant's status to print its progress line before each
        mutant (1.5 ms for 12,500 mutants, 19 s of the parent's CPU a run): once a second."""
        if force_output or time.monotonic() - shown[0] >= 1.0:
            shown[0] = time.monotonic()
            plain_print_stats(data, force_output=force_output)

    mutmut_main.print_stats = print_stats


def _narrow_to_guards() -> None:
    """After the stats run (or its load, with `--keep`), each target named in pyproject.toml's
    `[tool.t24.mutation_guards]` keeps only its own test files' tests in mutmut's map of
    tests per function (`narrowed_tests` in bench/mutate.py): what `_run` then runs per
    mutant, sorts the mutants by, and the collected session holds."""

    plain = mutmut_main.collect_or_load_stats
    guards = mutation_guards()

    def collect_or_load_stats(*args: Any, **kwargs: Any) -> None:
        plain(*args, **kwargs)
        tests = state().tests_by_mangled_function_name
        narrowed = narrowed_tests(dict(tests), guards)
        dropped = sum(len(tests[name]) - len(narrowed[name]) for name in narrowed)
        tests.update(narrowed)
        print(f"    narrowed to the targets' own tests: {dropped} (function, test) pairs dropped")

    mutmut_main.collect_or_load_stats = collect_or_load_stats


def _time_phases() -> None:
    for name in ("copy_src_dir", "copy_also_copy_files", "create_mutants"):
        setattr(mutmut_main, name, timings.phase(name, getattr(mutmut_main, name)))
    mutmut_main.collect_or_load_stats = timings.phase("stats", mutmut_main.collect_or_load_stats)
    for name in ("run_clean_tests", "run_forced_fail", "startup"):
        method = getattr(isolation.ForkRunner, name)
        setattr(isolation.ForkRunner, name, timings.phase(name, method))
    isolation.ForkRunner.submit = _submit  # type: ignore[method-assign]
    isolation.ForkRunner.wait_for_result = _wait_for_result  # type: ignore[method-assign]
    atexit.register(timings.save)
    mutmut_main._run = timings.phase("total", mutmut_main._run)


if __name__ == "__main__":
    if os.environ.get("T24_MUTATE_PLAIN"):  # mutmut as it comes, for comparison
        mutmut_main.filter_mutants_with_type_checker = timings.phase(
            "type_check", filter_mutants_with_type_checker
        )
    else:
        _speed_up()
    _narrow_to_guards()  # which tests guard a target: the same with or without the speed-ups
    _time_phases()
    sys.exit(mutmut_main.cli())
