"""`t24` imports only the module of the command it runs (issue 29), and says the same as the
whole tree: cli.COMMANDS names each top-level command's module and help line, and the other
commands are registered from it alone.

- The table is what the modules register: every module's parsers are built and their names,
  help lines and order must equal the table's, and no module of the package that registers
  commands (`def add_parsers`) is missing from it. A new command, a changed help line or a
  command moved to another module fails here, not in a user's `t24 --help`.
- The names-only parser says what the whole tree says: the top-level help and an unknown
  command's error (the list of choices) are the same text.
- A child process shows what a command imports: `t24 --help` no command module, `t24 solve`
  its own module only, and neither Twisted, Autobahn nor rich.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from clients.reference_cli import cli

PACKAGE = Path(cli.__file__).parent
ROOT = PACKAGE.parents[1]


def _subparsers(parser: argparse.ArgumentParser) -> argparse._SubParsersAction:
    (action,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return action


def _registered(module: str) -> list[tuple[str, str, str]]:
    """(name, module, help line) of each command the module's `add_parsers` registers."""
    parser = argparse.ArgumentParser(prog="t24")
    subparsers = parser.add_subparsers(dest="command")
    cli.command_module(module).add_parsers(subparsers)
    return [(choice.dest, module, str(choice.help)) for choice in subparsers._choices_actions]


def test_the_table_is_what_the_modules_register():
    registered = [row for module in cli.COMMAND_MODULES for row in _registered(module)]
    table = [(name, command.module, command.help) for name, command in cli.COMMANDS.items()]
    assert table == registered


def test_every_module_that_registers_commands_is_in_the_table():
    registering = {
        path.stem
        for path in PACKAGE.glob("*.py")
        if re.search(r"^def add_parsers\(", path.read_text(encoding="utf-8"), re.MULTILINE)
    }
    assert registering == set(cli.COMMAND_MODULES)


def test_the_whole_tree_lists_the_commands_in_the_tables_order():
    whole = _subparsers(cli.build_parser())
    assert [choice.dest for choice in whole._choices_actions] == list(cli.COMMANDS)
    assert [str(choice.help) for choice in whole._choices_actions] == [
        command.help for command in cli.COMMANDS.values()
    ]


def test_the_names_only_parser_has_the_whole_trees_help():
    assert cli.build_parser(modules=()).format_help() == cli.build_parser().format_help()


@pytest.mark.parametrize("argv", [["nope"], ["--lang"], ["--bogus"], ["--version"], ["--help"]])
def test_top_level_exits_are_the_whole_trees(argv, capsys):
    with pytest.raises(SystemExit) as whole:
        cli.build_parser().parse_args(argv)
    expected = capsys.readouterr()
    with pytest.raises(SystemExit) as lazy:
        cli.main(argv)
    assert lazy.value.code == whole.value.code
    assert capsys.readouterr() == expected


# Run in a child: this test process has imported every module already.
_IMPORTED_AFTER = """
import contextlib, io, json, sys
from clients.reference_cli.cli import main
seen = {}
for argv in json.loads(sys.argv[1]):
    with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
        main(argv)
    seen[" ".join(argv)] = sorted(
        name for name in sys.modules
        if name.split(".")[0] in ("twisted", "autobahn", "rich")
        or name.startswith("clients.reference_cli.") and name.endswith("_commands")
    )
print(json.dumps(seen))
"""


def test_a_command_imports_its_own_module_only():
    runs = [
        ["--help"],
        ["--lang=en", "solve", "3", "3", "8", "8"],
        ["--lang", "nb", "check", "--help"],
    ]
    out = subprocess.run(
        [sys.executable, "-c", _IMPORTED_AFTER, json.dumps(runs)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    seen = json.loads(out)
    assert seen["--help"] == []
    assert seen["--lang=en solve 3 3 8 8"] == ["clients.reference_cli.puzzle_commands"]
    assert seen["--lang nb check --help"] == ["clients.reference_cli.puzzle_commands"]
