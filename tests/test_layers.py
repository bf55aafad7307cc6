"""The layers' contracts (pyproject.toml, `[tool.importlinter]`; docs/architecture.md, "Layers,
checked") can fail: each one breaks on a copy of the tree given one import it forbids.

`make test` runs `lint-imports` over the real tree; this file shows that the check is not one
that cannot fail. The copy is `server/`, `protocol/`, `clients/` (the Python files only: the
import graph is read from the source, nothing is imported) and pyproject.toml, in a temporary
folder that `lint-imports` reads as its working directory, so the packages it analyses are
the copy's, not the checkout's (each test checks it named the added import).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("server", "protocol", "clients")
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")

# contract id -> (file of the copy, line added, the import as lint-imports reports it). Each
# is a "never" of the picture broken once; the first and the last are issue 29's own.
BREAKS = {
    "server-layers": (
        "server/net/errors.py",
        "from server.cluster.leases import Fence\n",
        "server.net.errors -> server.cluster.leases",
    ),
    "cluster-store-only": (
        "server/cluster/feed.py",
        "from server.runtime import hub\n",
        "server.cluster.feed -> server.runtime.hub",
    ),
    "rules-core-pure": (
        "server/games/base.py",
        "from server.eventlog import envelope\n",
        "server.games.base -> server.eventlog.envelope",
    ),
    "core-no-twisted": (  # inside a function: an import that runs later counts too
        "server/puzzles/solver.py",
        "def _later():\n    from twisted.internet import reactor\n\n    return reactor\n",
        "server.puzzles.solver -> twisted",
    ),
    "protocol-below-all": (
        "protocol/codec.py",
        "from server.games import base\n",
        "protocol.codec -> server.games.base",
    ),
    "server-no-clients": (
        "server/app.py",
        "from clients.reference_cli import words\n",
        "server.app -> clients.reference_cli.words",
    ),
    "cli-not-the-shell": (
        "clients/reference_cli/log_commands.py",
        "from server.net import tokens\n",
        "clients.reference_cli.log_commands -> server.net.tokens",
    ),
    "no-circles": (  # the circle of issue 29: the contract opening every backend
        "server/eventlog/store.py",
        "def _open():\n    from server.eventlog import sqlite\n\n    return sqlite\n",
        ".store -> .sqlite",
    ),
}


def contracts() -> dict[str, str]:
    """Contract id -> name, as pyproject.toml declares them."""
    with open(ROOT / "pyproject.toml", "rb") as pyproject:
        declared = tomllib.load(pyproject)["tool"]["importlinter"]["contracts"]
    return {contract["id"]: contract["name"] for contract in declared}


def tree_copy(destination: Path) -> Path:
    """The packages' Python files and pyproject.toml, copied to `destination`."""
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "node_modules" in path.parts:
                continue
            target = destination / path.relative_to(ROOT)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
    shutil.copyfile(ROOT / "pyproject.toml", destination / "pyproject.toml")
    return destination


def lint_imports(folder: Path) -> subprocess.CompletedProcess:
    """`lint-imports` run in `folder`, with no cache (it would outlive the copy)."""
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PYTHONPATH": str(folder), "PATH": "/usr/bin:/bin"},
    )


def broken_section(output: str, name: str) -> str:
    """The text lint-imports prints under a broken contract's name (its name is wrapped at
    80 columns, so it is matched with its whitespace squeezed)."""
    squeezed = " ".join(output.split())
    start = squeezed.find("Broken contracts")
    assert start >= 0, output
    at = squeezed.find(" ".join(name.split()), start)
    assert at >= 0, f"contract {name!r} is not reported broken:\n{output}"
    others = [squeezed.find(" ".join(n.split()), at + 1) for n in contracts().values()]
    end = min([o for o in others if o > at] or [len(squeezed)])
    return squeezed[at:end]


def test_every_contract_is_broken_by_the_import_it_forbids(tmp_path):
    declared = contracts()
    assert set(BREAKS) == set(declared), "each contract needs its break here"
    copy = tree_copy(tmp_path / "tree")
    for file, line, _reported in BREAKS.values():
        with open(copy / file, "a") as source:
            source.write("\n\n" + line)
    checked = lint_imports(copy)
    assert checked.returncode == 1, checked.stdout + checked.stderr
    assert f"Contracts: 0 kept, {len(declared)} broken." in checked.stdout, checked.stdout
    for contract, (_file, _line, reported) in BREAKS.items():
        assert reported in broken_section(checked.stdout, declared[contract]), contract


def test_the_copy_of_the_tree_keeps_every_contract(tmp_path):
    """The same copy without the added imports keeps them all: what broke above was the
    added import, not the copying."""
    checked = lint_imports(tree_copy(tmp_path / "tree"))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert f"Contracts: {len(contracts())} kept, 0 broken." in checked.stdout


def test_the_architecture_page_names_every_contract():
    """docs/architecture.md's picture lists each contract by its id: a contract added or
    renamed in pyproject.toml is drawn there too."""
    page = (ROOT / "docs" / "architecture.md").read_text()
    missing = [contract for contract in contracts() if f"`{contract}`" not in page]
    assert missing == []
