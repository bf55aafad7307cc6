"""Mutation testing of the rules core (`make mutate`, not in CI): a score per file and the
surviving mutants, each either explained in docs/testing.md or reported as a gap in the tests.

Why: a test suite that runs every line can still miss a wrong judgement (an `ok` flipped, a
boundary moved by one, a payload field set to None). A mutant is one such small change made by
mutmut; a test that fails on it "kills" it. A mutant that survives is a change to the rules
core that no test notices, unless it is *equivalent* (it behaves exactly as the original) or
changes only a human message text.

How it works: mutmut (configured in pyproject.toml, `[tool.mutmut]`) copies `server/` to
`mutants/`, runs the guarding test files once to learn which tests reach which function, then,
for each mutant, runs only the tests that reached the mutated function. This script runs it
for one target file at a time (`TARGETS`), reads mutmut's per-file results, matches each
survivor against the table of explained mutants in docs/testing.md (by name *and* by the
mutated line, so a renumbered mutant is not silently excused), and writes
var/mutation/report.md. Exit status 1 when a survivor is unexplained.

    python bench/mutate.py                    # every target
    python bench/mutate.py notation checks    # targets whose path contains these words
    python bench/mutate.py --report           # label the last run's survivors again
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
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MUTMUT = Path(sys.executable).with_name("mutmut")
REPORT = ROOT / "var" / "mutation" / "report.md"
DOC = ROOT / "docs" / "testing.md"
GOAL = 97.0  # per cent killed, per file (issue 20)


def _target(path: Path) -> tuple[str, str]:
    """(source file, mutmut's glob for the names of its mutants): a package's `__init__.py`
    has the package's name, its functions' mutants start with `x` (`xǁClassǁ` for methods)."""
    module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    if module.endswith(".__init__"):
        return str(path.relative_to(ROOT)), module.removesuffix(".__init__") + ".x*"
    return str(path.relative_to(ROOT)), module + ".*"


# Every module of the challenge game (new ones included), then the judge: pyproject.toml's
# `only_mutate` says the same.
TARGETS = [_target(path) for path in sorted((ROOT / "server/games/challenge").glob("*.py"))] + [
    _target(ROOT / "server/puzzles/expressions.py"),
    _target(ROOT / "server/puzzles/notation.py"),
]

# mutmut's exit codes per mutant: a kill is a failing test, a timeout, or a crash.
KILLED = {1, 3, 36, 24, -24, 152, 255, -11, -9}
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


def run_target(glob: str, jobs: int) -> float:
    """One mutmut run over the mutants of one file; returns its wall time in seconds."""
    started = time.monotonic()
    log = REPORT.parent / (glob.strip("*").strip(".").replace(".", "_") + ".log")
    with log.open("w", encoding="utf-8") as out:
        subprocess.run(
            [str(MUTMUT), "run", glob, "--max-children", str(jobs)],
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
            check=True,
        )
    return time.monotonic() - started


def results_of(path: str) -> dict[str, int]:
    """mutmut's exit code per mutant of one source file (its `.meta` file in mutants/)."""
    meta = ROOT / "mutants" / (path + ".meta")
    return json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]


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
    jobs = int(os.environ.get("MUTATE_JOBS", "2"))
    report_only = "--report" in argv  # re-read the last run's results (after editing the table)
    words = [word for word in argv if word != "--report"]
    chosen = [t for t in TARGETS if not words or any(word in t[0] for word in words)]
    if not report_only:
        shutil.rmtree(ROOT / "mutants", ignore_errors=True)  # a fresh run: no stale stats
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    table = []
    details = []
    unexplained_total = 0
    for path, glob in chosen:
        seconds = float("nan") if report_only else run_target(glob, jobs)
        explained = explained_mutants()  # read after each run: the table may be edited meanwhile
        codes = results_of(path)
        killed = sum(1 for code in codes.values() if code in KILLED)
        survivors = sorted(name for name, code in codes.items() if code in SURVIVED)
        unreached = sorted(name for name, code in codes.items() if code in NOT_REACHED)
        counted = killed + len(survivors) + len(unreached)
        score = 100.0 * killed / counted if counted else 100.0
        kinds = {"equivalent": 0, "message": 0, "unexplained": 0}
        details.append(f"\n## {path}\n")
        sources = mutant_sources(path)
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
        unexplained_total += kinds["unexplained"]
        distinct = counted - kinds["equivalent"]  # mutants that behave differently
        fair = 100.0 * killed / distinct if distinct else 100.0
        table.append(
            f"| {path} | {counted} | {killed} | {len(survivors) + len(unreached)} "
            f"| {score:.1f}% | {fair:.1f}% | {kinds['equivalent']} | {kinds['message']} "
            f"| {kinds['unexplained']} | {seconds:.0f} s |"
        )
        print(table[-1], flush=True)
    header = [
        "# Mutation report (bench/mutate.py; how to read it: docs/testing.md)\n",
        f"Goal: at least {GOAL:g}% killed per file; every survivor equivalent or message text.\n",
        "| file | mutants | killed | survived | score | score without equivalents "
        "| equivalent | message | unexplained | time |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    REPORT.write_text("\n".join(header + table + details) + "\n", encoding="utf-8")
    print(f"report: {REPORT.relative_to(ROOT)}; unexplained survivors: {unexplained_total}")
    return 1 if unexplained_total else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
