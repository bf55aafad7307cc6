"""Wrong-shaped arguments, and where a game's argument names come from (issue 18).

Shared by the sweep on every Decider (tests/contract/test_argument_shapes.py), the sweep of
what the shell reads itself (tests/unit/test_session_argument_shapes.py) and the session
property test (tests/unit/test_session_fuzz.py), so that all three send the same shapes and
know the same names. Nothing here is a hand list of a game's arguments:
`argument_names(game)` is every name the game's source reads from `args` (a subscript or
`.get` on `args`, a membership test on `args`, a `*_arg(command, "name")` helper), every
name its documented command table gives (docs/rules.md, docs/games/*.md, docs/tournament.md),
and every name its example play sends, so a new argument is swept without touching a test.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
UNKNOWN_ARG = "no_such_argument"
KIT = ROOT / "server" / "games" / "kit.py"
# The shapes a client can send where a handler expects a string, a number or a list of them:
# unhashable ones (a membership test or a dict key raises TypeError), None, a bool (an int to
# Python), a float, an int past any sane range (the largest msgpack carries), a string at the
# codec's limit (16,384 characters).
SHAPES: dict[str, Any] = {
    "list": ["s1", "late_touch"],
    "map": {"seat": "s1"},
    "nested list": [[1, 2], [3, [4]]],
    "None": None,
    "bool": True,
    "float": 1.5,
    "huge int": 2**64 - 1,
    "long string": "9" * 16_384,
}
# Where a game's command table is documented (a row per command): docs/games/<name>.md, but
# for the two that came first.
DOC_TABLES = {"challenge": "docs/rules.md", "tournament": "docs/tournament.md"}


def doc_table(name: str) -> str:
    return DOC_TABLES.get(name, f"docs/games/{name}.md")


def _is_args(node: ast.AST) -> bool:
    """`args` or `<anything>.args`."""
    return (isinstance(node, ast.Name) and node.id == "args") or (
        isinstance(node, ast.Attribute) and node.attr == "args"
    )


def _text(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def names_read_by(package: ModuleType) -> set[str]:
    """Every argument name the package's source reads (see module doc), and the game kit's
    (server/games/kit.py: its `decide` reads a player's `seat`, its readers `set`, `steps`,
    `cause`)."""
    found: set[str] = set()
    for path in [*Path(package.__file__).parent.rglob("*.py"), KIT]:
        found |= _names_read_in(path)
    return found


@functools.cache
def _names_read_in(path: Path) -> frozenset[str]:
    """`names_read_by` for one source file. Cached: the kit is read for every game, and the
    session fuzz (at its import), the contract sweep and the session sweep each ask for every
    game's names in one worker; parsing and walking the same files again cost about a second
    of CPU a worker (2026-12-03). The sources do not change during a run."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Subscript) and _is_args(node.value):
            found.add(_text(node.slice) or "")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr == "get" and _is_args(node.func.value) and node.args:
                found.add(_text(node.args[0]) or "")
        if isinstance(node, ast.Call):
            callee = getattr(node.func, "id", getattr(node.func, "attr", ""))
            if callee.endswith("_arg"):
                found.update(_text(arg) or "" for arg in node.args)
        if isinstance(node, ast.Compare) and any(_is_args(c) for c in node.comparators):
            found.add(_text(node.left) or "")
    found.discard("")
    return frozenset(found)


def keys_read_by(package: ModuleType) -> set[str]:
    """Every key the package's source reads from any map (`x.get("key")`, `x["key"]`): the
    fields of the maps an argument may hold (a correction's `kind`, a seat's `seat`)."""
    found: set[str] = set()
    for path in Path(package.__file__).parent.rglob("*.py"):
        found |= _keys_read_in(path)
    return found


@functools.cache
def _keys_read_in(path: Path) -> frozenset[str]:
    """`keys_read_by` for one source file; cached as `_names_read_in` is."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Subscript):
            found.add(_text(node.slice) or "")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr == "get" and node.args:
                found.add(_text(node.args[0]) or "")
    found.discard("")
    return frozenset(found)


def nested_shapes(package: ModuleType) -> dict[str, Any]:
    """Two more shapes for arguments that hold maps: a map, and a list of one map, whose every
    field the package reads is a list (unhashable: the first membership test on a field the
    handler has not type-checked raises TypeError, whichever field it reads first)."""
    fields = {key: ["x"] for key in sorted(keys_read_by(package))}
    return {"map of lists": fields, "list of a map of lists": [fields]}


def documented_args(name: str, commands: Mapping[str, Any]) -> dict[str, set[str]]:
    """Each command's row of the game's documented command table: the backticked names in
    the row after the command itself (its arguments; a stray word is one more name)."""
    rows: dict[str, set[str]] = {}
    for line in (ROOT / doc_table(name)).read_text().splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        command = cells[0].strip("`") if line.startswith("| `") else ""
        if command in commands:
            rows.setdefault(command, set()).update(
                word for cell in cells[1:] for word in re.findall(r"`([a-z_]+)`", cell)
            )
    return rows


def argument_names(
    name: str, package: ModuleType, sent: Iterable[Mapping[str, Any]] = ()
) -> set[str]:
    """What `decide` may read (see module doc; `sent`: the argument maps of commands that
    were sent to it), plus one name nobody reads. Fails for a command without a documented
    row, so the docs cannot fall behind a new command."""
    documented = documented_args(name, package.COMMANDS_BY_ROLE)
    missing = set(package.COMMANDS_BY_ROLE) - set(documented)
    assert not missing, f"{doc_table(name)} has no row for {sorted(missing)}"
    names = names_read_by(package) | {UNKNOWN_ARG}
    names |= {arg for row in documented.values() for arg in row}
    names |= {arg for args in sent for arg in args}
    return names
