"""The `t24` command: one argparse tree, one module per group of subcommands.

Each command module exposes `add_parsers(subparsers)`, which registers its subcommands and
sets `func` on each, a callable taking the parsed arguments and returning the exit code.
The exit codes are listed once, in `exit_codes.py` (and docs/cli.md). Two ways out are the
same for every command: Ctrl-C exits 130 and output cut short by its reader (`| head`)
exits 141, both without a traceback.

Only the module of the command being run is imported (issue 29): importing all of them
(Twisted, Autobahn, rich, the solver, the audit bundle) cost a `t24 solve` 0.4 s of CPU, and
the tests start hundreds of `t24` processes. `COMMANDS` names each top-level command's module
and its one-line help; the other commands are registered from it alone, so the top-level
help, the list of choices in an unknown command's error and the exit codes are those of the
whole tree. tests/unit/test_cli_commands.py builds every module's parsers and checks the
table against them, so it cannot drift.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable, Collection
from types import ModuleType
from typing import NamedTuple

from clients.reference_cli import exit_codes
from clients.reference_cli.words import environment_language, set_language
from protocol.words import languages


class Command(NamedTuple):
    """A top-level command: the module (of clients.reference_cli) whose `add_parsers`
    registers it, and the help line the top-level `--help` shows for it."""

    module: str
    help: str


# In the order of the top-level help; a module's commands side by side, in its own order.
COMMANDS: dict[str, Command] = {
    "solve": Command(
        "puzzle_commands", "every distinct solution of a card, with its three-step form and dots"
    ),
    "check": Command(
        "puzzle_commands", "judge an answer: an expression, or a pattern and three steps"
    ),
    "deck": Command("puzzle_commands", "print a generated deck (same seed, same deck)"),
    "log": Command("log_commands", "list, show, verify and export event streams"),
    "play": Command(
        "table_commands",
        "play a seat at a table: the card in large digits, touch, pattern, steps, fix",
    ),
    "proctor": Command(
        "table_commands",
        "run a table: place and reveal cards, record touches and answers, flags, rulings",
    ),
    "watch": Command("table_commands", "the live scoreboard of a table (spectator)"),
    "bot": Command("bot_commands", "play a seat automatically (perfect, human or random)"),
    "casual": Command(
        "casual_commands",
        "play or watch a casual table (pocket, deck40) in typed lines, or let a bot play a "
        "seat (Tjugoett: t24 play)",
    ),
    "admin": Command("admin_commands", "director requests: create-table, issue-token, list-tables"),
    "replay": Command(
        "replay_commands",
        "step through a recorded round: the table after each event, timed from reveals",
    ),
    "tournament": Command(
        "tournament_commands",
        "run a tournament: create, register, import, seat, start-round, standings, ...",
    ),
    "audit": Command("audit_commands", "the officials' bundle of a tournament: bundle, verify"),
    "analyse": Command("analyse_commands", "the analysis after a round: cards, students, grades"),
}

COMMAND_MODULES = tuple(dict.fromkeys(command.module for command in COMMANDS.values()))

EXIT_CODES = exit_codes.EXIT_CODES_HELP


def build_parser(modules: Collection[str] | None = None) -> argparse.ArgumentParser:
    """The `t24` parser. `modules`: the command modules whose parsers are built (None: every
    one, the whole tree, as the tests and docs/cli.md's checks read it); any other command is
    registered by its name and help line only, enough to list it and to pick it."""
    parser = argparse.ArgumentParser(
        prog="t24",
        description="t24: play, proctor, watch and audit the 24 Game.",
        epilog=build_examples(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action=VersionAction)
    parser.add_argument(
        "--lang",
        metavar="LANG",
        help=f"the language of every screen: {', '.join(languages())} (default: LANGUAGE or "
        "LANG of the environment, else a table's own language, else en; docs/translating.md)",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    built: set[str] = set()
    for name, command in COMMANDS.items():
        if modules is not None and command.module not in modules:
            subparsers.add_parser(name, help=command.help, add_help=False)
        elif command.module not in built:
            built.add(command.module)
            command_module(command.module).add_parsers(subparsers)
    return parser


def command_module(module: str) -> ModuleType:
    """One command module of clients.reference_cli, imported now."""
    return importlib.import_module(f"clients.reference_cli.{module}")


def package_version() -> str:
    """The installed package's version: pyproject.toml is its one source (the server reads
    the same metadata, `server.__version__`)."""
    # importlib.metadata (email, zipfile, csv: ~15-30 ms) only for `--version` (issue 29)
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("t24")
    except PackageNotFoundError:  # a source tree that was never installed
        return "0+unknown"


class VersionAction(argparse.Action):
    """`--version`: argparse's own action ("t24 VERSION" on stdout, exit 0), but the version
    is read when asked, not by every parser built (`package_version`)."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS) -> None:
        super().__init__(
            option_strings,
            dest,
            default=argparse.SUPPRESS,
            nargs=0,
            help="show program's version number and exit",
        )

    def __call__(self, parser: argparse.ArgumentParser, *_args: object) -> None:
        parser._print_message(f"t24 {package_version()}\n", sys.stdout)
        parser.exit()


def build_examples() -> str:
    """The top-level help's epilog: a few first commands, then the exit codes."""
    return (
        "examples:\n"
        "  t24 solve 3 3 8 8\n"
        "  t24 play --tokens var/demo-tokens/s1.json\n"
        "  t24 proctor --tokens var/demo-tokens/proctor.json\n"
        "  t24 replay --store sqlite:///var/t24.sqlite table/demo\n"
        "  t24 COMMAND --help   (every command lists its options and examples)\n\n" + EXIT_CODES
    )


def main(argv: list[str] | None = None) -> int:
    """Parse, run the chosen command, return its exit code.

    Two passes: the top-level parser with every command registered by name only reads which
    command `argv` names (`--lang X`, `--lang=X` or `--la X` before it are its to read, not
    guessed here); then the parser with that command's module built parses `argv` again.
    `--help`, `--version` and the top-level errors exit in the first pass, with the whole
    tree's words (the names and help lines are the same)."""
    names_only = build_parser(modules=())
    command = names_only.parse_known_args(argv)[0].command
    parser = build_parser(modules=[COMMANDS[command].module]) if command else names_only
    args = parser.parse_args(argv)
    set_language(args.lang, explicit=bool(args.lang) or bool(environment_language()))
    if not getattr(args, "func", None):
        parser.print_help()
        return exit_codes.BAD_INPUT
    return run_command(args.func, args)


def run_command(func: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    """Run one command; Ctrl-C and a closed output pipe become exit codes, not tracebacks."""
    try:
        return int(func(args))
    except KeyboardInterrupt:
        return exit_codes.INTERRUPTED
    except BrokenPipeError:
        # The reader went away (`t24 deck | head`): stop quietly, as `cat` would.
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):  # stdout is not a real file (captured): nothing to do
            pass
        return exit_codes.PIPE_CLOSED


if __name__ == "__main__":
    sys.exit(main())
