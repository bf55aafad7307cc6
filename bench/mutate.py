"""Mutation testing of the rules core (`make mutate`, not in CI): a score per file and the
surviving mutants, each either explained in docs/testing.md or reported as a gap in the tests.

Why: a test suite that runs every line can still miss a wrong judgement (an `ok` flipped, a
boundary moved by one, a payload field set to None). A mutant is one such small change made by
mutmut; a test that fails on it "kills" it. A mutant that survives is a change to the rules
core that no test notices, unless it is *equivalent* (it behaves exactly as the original) or
changes only a human message text.

How it works: mutmut (configured in pyproject.toml, `[tool.mutmut]`) copies `server/` to
`mutants/`, runs the guarding test files once to learn which tests reach which function, then,
for each mutant, runs only the tests that reached the mutated function (for a target named in
pyproject.toml's `[tool.t24.mutation_guards]`, only those of its own test files), fastest
first, stopping at the first failure. This script runs mutmut once over the chosen target files
(every file `only_mutate` names, `TARGETS`: one run, so mutmut's fixed costs, copying the
tree, the stats run and the clean test run, are paid once), reads mutmut's per-file
results, matches each survivor against the table of explained mutants in docs/testing.md (by
name *and* by the mutated line, so a renumbered mutant is not silently excused), and writes
var/mutation/report.md with the wall time, the CPU time and the machine's load. Exit status
1 when a survivor is unexplained, 2 when a guarding test file is missing from pyproject.toml
(or `[tool.t24.mutation_guards]`, which narrows a target's tests to its own files, names a
file that is not a target or not a guarding test file).

    python bench/mutate.py                    # every target
    python bench/mutate.py notation checks    # targets whose path contains these words
    python bench/mutate.py --report           # label the last run's survivors again
    python bench/mutate.py --keep protests    # keep mutants/ and its stats (while writing
                                              # tests; the measured run starts afresh)
"""

from __future__ import annotations

import ast
import difflib
import json
import os
import re
import shutil
import subprocess
import sys
import time
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
MUTMUT = Path(sys.executable).with_name("mutmut")
FAST_MUTMUT = ROOT / "bench" / "mutmut_fast.py"  # mutmut, with a faster type-check filter
REPORT = ROOT / "var" / "mutation" / "report.md"
TIMINGS = REPORT.with_name("timings.json")
DOC = ROOT / "docs" / "testing.md"
GOAL = 97.0  # per cent killed, per file (issue 20)
# Examples per property test during the run (tests/conftest.py; MUTATE_MAX_EXAMPLES=0: every
# example, as written). A cap can only turn a kill into a survivor, which the report shows as
# unexplained, never hide one; every mutant the capped runs missed has a plain test since
# (docs/testing.md, "Wall time"), and it halves a survivor's cost.
MAX_EXAMPLES = 25


def _target(path: Path) -> tuple[str, str]:
    """(source file, mutmut's glob for the names of its mutants): a package's `__init__.py`
    has the package's name, its functions' mutants start with `x` (`xǁClassǁ` for methods)."""
    module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    if module.endswith(".__init__"):
        return str(path.relative_to(ROOT)), module.removesuffix(".__init__") + ".x*"
    return str(path.relative_to(ROOT)), module + ".*"


def _config() -> dict[str, list[str]]:
    with (ROOT / "pyproject.toml").open("rb") as file:
        return dict(tomllib.load(file)["tool"]["mutmut"])


# The target files: every source file pyproject.toml's `only_mutate` names (one place for the
# list; mutmut matches those patterns with fnmatch, where `*` also matches `/`). pyproject.toml
# read once here, not once or twice per source file (about 200 TOML parses at every import of
# this module: test_mutation_config.py imports it afresh per test, 1,600 parses, 2026-12-03).
_MUTMUT = _config()
TARGETS = [
    _target(path)
    for path in sorted((ROOT / "server").rglob("*.py"))
    if any(fnmatch(str(path.relative_to(ROOT)), pattern) for pattern in _MUTMUT["only_mutate"])
    and not any(
        fnmatch(str(path.relative_to(ROOT)), pattern)
        for pattern in _MUTMUT.get("do_not_mutate", [])
    )
]

# The unit test files that guard the targets: every tests/unit/test_<prefix>*.py that tests
# the pure core only must be in `pytest_add_cli_args_test_selection`, or its tests would kill
# nothing (a new test file was forgotten there once). Files that start a server, a client or
# the shell test the shell; they are slow and are not the core's guards.
# Each game's by its folder (`test_<name>_*.py` for server/games/<name>/: a new game's
# files are found, never listed here), and those of the rules every game shares.
GAME_FOLDERS = sorted(
    path.name for path in (ROOT / "server" / "games").iterdir() if (path / "__init__.py").exists()
)
GUARD_PREFIXES = (
    "test_base",
    "test_casual_",
    "test_expressions",
    "test_limits",
    "test_notation",
    "test_round_decks",
    "test_solver",
    "test_tournament_",
    *(f"test_{name}_" for name in GAME_FOLDERS),
)
CORE = ("server.games", "server.puzzles", "server.tournament")


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return names


def tests_only_the_core(path: Path, seen: frozenset[Path] = frozenset()) -> bool:
    """Whether a test file imports nothing of the shell or the clients (`server.*` only from
    the pure core), through the test helpers it imports (tests/unit/*.py) too."""
    for name in _imports(path):
        top = name.split(".")[0]
        helper = path.parent / f"{top}.py"
        if top == "server" and not name.startswith(CORE):
            return False
        if top in ("clients", "twisted", "autobahn", "psycopg"):
            return False
        if top != "server" and helper.exists() and helper not in seen:
            if not tests_only_the_core(helper, seen | {path}):
                return False
    return True


def unguarded_test_files() -> list[str]:
    """Guarding test files missing from pyproject.toml's list, and listed files that do not
    exist (a renamed file)."""
    listed = set(_config()["pytest_add_cli_args_test_selection"])
    found = {
        str(path.relative_to(ROOT))
        for path in sorted((ROOT / "tests" / "unit").glob("test_*.py"))
        if path.name.startswith(GUARD_PREFIXES) and tests_only_the_core(path)
    }
    missing = sorted(found - listed)
    gone = sorted(name for name in listed if not (ROOT / name).exists())
    return missing + [f"{name} (listed, but no such file)" for name in gone]


def mutation_guards() -> dict[str, list[str]]:
    """pyproject.toml's `[tool.t24.mutation_guards]`: per target file, the only guarding test
    files whose tests run for its mutants (see the comment there and docs/testing.md)."""
    with (ROOT / "pyproject.toml").open("rb") as file:
        tool = tomllib.load(file)["tool"]
    return {path: list(files) for path, files in tool["t24"]["mutation_guards"].items()}


def guard_problems(guards: dict[str, list[str]]) -> list[str]:
    """Entries of the table that would narrow nothing or to nothing: a path that is not a
    target, a test file that is not among the guarding ones."""
    targets = {path for path, _glob in TARGETS}
    listed = set(_config()["pytest_add_cli_args_test_selection"])
    problems = [f"{path}: not a target" for path in guards if path not in targets]
    for path, files in guards.items():
        if not files:
            problems.append(f"{path}: no test file")
        missing = [name for name in files if name not in listed]
        problems += [f"{path}: {name} is not a guarding test file" for name in missing]
    return problems


def narrowed_tests(
    tests_by_function: dict[str, set[str]], guards: dict[str, list[str]]
) -> dict[str, set[str]]:
    """mutmut's map from a mangled function name (`server.puzzles.solver.x__canonical`) to the
    tests (`tests/unit/test_solver.py::test_…`) that reached it in the stats run, with the
    functions of each target named in `guards` keeping only the tests of its files. Every
    other function keeps its tests. A function left with none is one no guard of its target
    reaches: mutmut reports its mutants as not reached (exit code 33)."""
    globs = {_target(ROOT / path)[1]: set(files) for path, files in guards.items()}
    out: dict[str, set[str]] = {}
    for name, tests in tests_by_function.items():
        files = next((f for glob, f in globs.items() if fnmatch(name, glob)), None)
        out[name] = set(tests) if files is None else {t for t in tests if t.split("::")[0] in files}
    return out


class ShareOfTests:
    """A pytest plugin that keeps one share of the collected tests: every `count`-th test
    from the `index`-th on (the stats run split over the cores, `stats_in_shares`)."""

    def __init__(self, index: int, count: int) -> None:
        self.index, self.count = index, count

    def pytest_collection_modifyitems(self, config: Any, items: list[Any]) -> None:
        others = [item for n, item in enumerate(items) if n % self.count != self.index]
        items[:] = items[self.index :: self.count]
        config.hook.pytest_deselected(items=others)


class DeferredSaves:
    """mutmut's per-file results (`SourceFileMutationData.save`), written at most every few
    seconds while the mutants run, and all of them when the run ends or is stopped.

    Why: mutmut rewrites a file's whole `.meta` (every mutant's result, indented JSON through
    the pure-Python encoder) after every single mutant, in its own process, on the cores the
    mutants need: 12,900 rewrites of files of up to 1,100 mutants a whole run. Only the
    parent saves (a mutant's child leaves with `os._exit`, writing nothing); bench/mutate.py
    reads the files after mutmut has ended, when everything is written.
    """

    EVERY_S = 5.0

    def __init__(
        self, write: Callable[[Any], None], clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.write = write  # mutmut's own save of one file's results
        self.clock = clock
        self.pending: dict[int, Any] = {}
        self.deferring = False
        self.flushed = clock()

    def save(self, data: Any) -> None:
        if not self.deferring:
            self.write(data)
            return
        self.pending[id(data)] = data
        if self.clock() - self.flushed >= self.EVERY_S:
            self.flush()

    def flush(self) -> None:
        for data in self.pending.values():
            self.write(data)
        self.pending.clear()
        self.flushed = self.clock()


# mutmut's exit codes per mutant: a kill is a failing test, a timeout, or a crash; 37 is a
# mutant mypy --strict refuses (pyproject's `type_check_command`), which `make test` would
# fail too: caught before any test runs, and counted apart in the report.
TYPE_CHECKED = 37
KILLED = {1, 3, 36, 24, -24, 152, 255, -11, -9, TYPE_CHECKED}
SURVIVED = {0}
NOT_REACHED = {5, 33}


@dataclass(frozen=True)
class Explained:
    """A row of docs/testing.md's table: a survivor judged equivalent or message text."""

    name: str
    line: str  # the mutated line as mutmut shows it (after "+"), whitespace-normalised
    kind: str  # "equivalent" or "message"
    why: str


def _squash(text: str) -> str:
    return " ".join(text.split())


def explained_mutants(doc: Path = DOC) -> dict[str, Explained]:
    """The table rows `| `name` | `mutated line` | kind | why |` of docs/testing.md."""
    rows: dict[str, Explained] = {}
    pattern = re.compile(r"^\|\s*`([^`]+__mutmut_\d+)`\s*\|\s*`(.*)`\s*\|\s*(\w+)\s*\|(.*)\|\s*$")
    for line in doc.read_text(encoding="utf-8").splitlines():
        match = pattern.match(line)
        if match:
            name, mutated, kind, why = match.groups()
            rows[name] = Explained(name, _squash(mutated.replace("\\|", "|")), kind, why.strip())
    return rows


def run_mutmut(globs: list[str], jobs: int) -> dict[str, float]:
    """One mutmut run over the mutants these globs name (all of them when none is given):
    its wall time and CPU time (its processes and their children), and the load meanwhile."""
    started, cpu = time.monotonic(), os.times()
    load_before = os.getloadavg()[0]
    # mutmut runs its `type_check_command` ("mypy ...") by name: this venv's first.
    env = {**os.environ, "PATH": f"{MUTMUT.parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    env["T24_MUTATE_TIMINGS"] = str(TIMINGS)  # bench/mutmut_fast.py: per phase and per mutant
    for old in (TIMINGS, TIMINGS.with_name(TIMINGS.name + ".killers")):
        old.unlink(missing_ok=True)
    env["T24_MUTATING"] = "1"  # tests/conftest.py: property tests neither shrink nor store
    env["T24_MUTATE_MAX_EXAMPLES"] = os.environ.get("MUTATE_MAX_EXAMPLES", str(MAX_EXAMPLES))
    with (REPORT.parent / "mutmut.log").open("w", encoding="utf-8") as out:
        subprocess.run(
            [sys.executable, str(FAST_MUTMUT), "run", *globs, "--max-children", str(jobs)],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            check=True,
        )
    done = os.times()
    return {
        "wall": time.monotonic() - started,
        "cpu": done.children_user + done.children_system - cpu.children_user - cpu.children_system,
        "load_before": load_before,
        "load_after": os.getloadavg()[0],
        "jobs": jobs,
    }


def timing_lines(path: Path = TIMINGS) -> list[str]:
    """The run's time per phase and per tested mutant (bench/mutmut_fast.py writes them): what
    docs/testing.md's "Wall time" compares. CPU is of every process of the phase."""
    if not path.exists():
        return []
    data = json.loads(path.read_text(encoding="utf-8"))
    lines = ["| phase | wall s | CPU s |", "|---|---|---|"]
    phases = data["phases"].items()
    lines += [f"| {name} | {wall:.1f} | {cpu:.1f} |" for name, (wall, cpu) in phases]
    groups: dict[str, list[float]] = {}
    for _name, code, cpu, _wall in data["mutants"]:
        kind = "survived" if code in SURVIVED else "killed" if code in KILLED else f"exit {code}"
        groups.setdefault(kind, []).append(cpu)
    for kind, cpus in sorted(groups.items()):
        lines.append(
            f"| tested mutants, {kind}: {len(cpus)} | | {sum(cpus):.1f} "
            f"(mean {sum(cpus) / len(cpus):.3f}, max {max(cpus):.1f}) |"
        )
    return ["", *lines, ""]


def results_of(path: str) -> dict[str, int]:
    """mutmut's exit code per mutant of one source file (its `.meta` file in mutants/)."""
    meta = ROOT / "mutants" / (path + ".meta")
    if not meta.exists():  # a file mutmut found nothing to mutate in
        return {}
    return dict(json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"])


def mutant_sources(path: str) -> dict[str, str]:
    """The source of every function in mutmut's copy of `path`, by name: each original is
    there as `<name>__mutmut_orig` beside its mutants `<name>__mutmut_<n>`."""
    source = (ROOT / "mutants" / path).read_text(encoding="utf-8")
    lines = source.splitlines()
    return {
        node.name: "\n".join(lines[node.lineno - 1 : node.end_lineno])
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and "__mutmut_" in node.name
    }


def diff_of(name: str, sources: dict[str, str], path: str) -> str:
    """The mutant as a unified diff against the original function (what `mutmut show` prints,
    without starting mutmut once per survivor)."""
    function = name.rsplit(".", 1)[-1]
    plain = function.rsplit("__mutmut_", 1)[0]  # mutmut's name of the original function
    original = sources.get(plain + "__mutmut_orig", "").replace(plain + "__mutmut_orig", plain)
    mutant = sources.get(function, "").replace(function, plain)
    lines = difflib.unified_diff(
        original.splitlines(), mutant.splitlines(), path, path, n=1, lineterm=""
    )
    return "\n".join(lines)


def mutated_line(diff: str) -> str:
    """The first "+" line of a mutant's diff (or "removed: " and the first "-" line when the
    mutant only deletes): what the table of explained mutants names, to be compared."""
    changed = [line for line in diff.splitlines()[2:] if line[:1] in "+-"]
    for line in changed:
        if line.startswith("+"):
            return _squash(line[1:])
    return "removed: " + _squash(changed[0][1:]) if changed else ""


def main(argv: list[str]) -> int:
    jobs = int(os.environ.get("MUTATE_JOBS", str(os.cpu_count() or 2)))
    report_only = "--report" in argv  # re-read the last run's results (after editing the table)
    keep = "--keep" in argv  # reuse mutants/: mutmut's stats of unchanged tests stand
    words = [word for word in argv if word not in ("--report", "--keep")]
    chosen = [t for t in TARGETS if not words or any(word in t[0] for word in words)]
    unguarded = unguarded_test_files()
    if unguarded:
        print("add to pyproject.toml's pytest_add_cli_args_test_selection:", *unguarded, sep="\n  ")
        return 2
    wrong = guard_problems(mutation_guards())
    if wrong:
        print("fix pyproject.toml's [tool.t24.mutation_guards]:", *wrong, sep="\n  ")
        return 2
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    run = None
    if not report_only:
        if not keep:
            shutil.rmtree(ROOT / "mutants", ignore_errors=True)  # a fresh run: no stale stats
        run = run_mutmut([glob for _path, glob in chosen] if words else [], jobs)
    explained = explained_mutants()
    table = []
    details = []
    totals = {"counted": 0, "killed": 0, "typed": 0, "unexplained": 0}
    for path, _glob in chosen:
        codes = results_of(path)
        killed = sum(1 for code in codes.values() if code in KILLED)
        typed = sum(1 for code in codes.values() if code == TYPE_CHECKED)
        survivors = sorted(name for name, code in codes.items() if code in SURVIVED)
        unreached = sorted(name for name, code in codes.items() if code in NOT_REACHED)
        counted = killed + len(survivors) + len(unreached)
        score = 100.0 * killed / counted if counted else 100.0
        kinds = {"equivalent": 0, "message": 0, "unexplained": 0}
        details.append(f"\n## {path}\n")
        sources = mutant_sources(path) if survivors or unreached else {}
        for name in survivors + unreached:
            diff = diff_of(name, sources, path)
            row = explained.get(name.replace("__init__.", ""))
            if row is not None and row.line == mutated_line(diff) and name in survivors:
                kinds[row.kind if row.kind in kinds else "unexplained"] += 1
                label = f"{row.kind}: {row.why}"
            else:
                kinds["unexplained"] += 1
                label = "UNEXPLAINED" + (" (no test reaches it)" if name in unreached else "")
            details.append(f"### {name}: {label}\n\n```diff\n{diff}\n```\n")
        totals["counted"] += counted
        totals["killed"] += killed
        totals["typed"] += typed
        totals["unexplained"] += kinds["unexplained"]
        distinct = counted - kinds["equivalent"]  # mutants that behave differently
        fair = 100.0 * killed / distinct if distinct else 100.0
        tested = counted - typed  # the mutants the tests alone had to kill
        by_tests = 100.0 * (killed - typed) / tested if tested else 100.0
        table.append(
            f"| {path} | {counted} | {killed} | {typed} | {len(survivors) + len(unreached)} "
            f"| {score:.1f}% | {fair:.1f}% | {by_tests:.1f}% | {kinds['equivalent']} "
            f"| {kinds['message']} | {kinds['unexplained']} |"
        )
        print(table[-1], flush=True)
    header = [
        "# Mutation report (bench/mutate.py; how to read it: docs/testing.md)\n",
        f"Goal: at least {GOAL:g}% killed per file; every survivor equivalent or message text.\n",
    ]
    if run is not None:
        header.append(
            f"Run of {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}: {totals['counted']} "
            f"mutants ({totals['typed']} caught by mypy) in {run['wall']:.0f} s wall, "
            f"{run['cpu']:.0f} s CPU, {run['jobs']:g} jobs, "
            f"load average {run['load_before']:.1f} before and {run['load_after']:.1f} after, "
            f"on {os.cpu_count()} cores.\n"
        )
    header += timing_lines() if run is not None else []
    header += [
        "| file | mutants | killed | of them by mypy | survived | score "
        "| score without equivalents | score of the tests alone | equivalent | message "
        "| unexplained |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    REPORT.write_text("\n".join(header + table + details) + "\n", encoding="utf-8")
    print(header[2].strip() if run is not None else "(no run: --report)")
    print(f"report: {REPORT.relative_to(ROOT)}; unexplained survivors: {totals['unexplained']}")
    return 1 if totals["unexplained"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
