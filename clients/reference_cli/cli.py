"""The `t24` command: one argparse tree, one module per group of subcommands.

Each command module exposes `add_parsers(subparsers)`, which registers its subcommands and
sets `func` on each, a callable taking the parsed arguments and returning the exit code.
The exit codes are listed once, in `exit_codes.py` (and docs/cli.md). Two ways out are the
same for every command: Ctrl-C exits 130 and output cut short by its reader (`| head`)
exits 141, both without a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from importlib.metadata import PackageNotFoundError, version

from clients.reference_cli import (
    admin_commands,
    analyse_commands,
    audit_commands,
    bot_commands,
    casual_commands,
    exit_codes,
    log_commands,
    puzzle_commands,
    replay_commands,
    table_commands,
    tournament_commands,
)
from clients.reference_cli.words import environment_language, set_language
from protocol.words import languages

COMMAND_MODULES = [
    puzzle_commands,
    log_commands,
    table_commands,
    bot_commands,
    casual_commands,
    admin_commands,
    replay_commands,
    tournament_commands,
    audit_commands,
    analyse_commands,
]

EXIT_CODES = exit_codes.EXIT_CODES_HELP


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="t24",
        description="t24: play, proctor, watch and audit the 24 Game.",
        epilog=build_examples(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"t24 {package_version()}")
    parser.add_argument(
        "--lang",
        metavar="LANG",
        help=f"the language of every screen: {', '.join(languages())} (default: LANGUAGE or "
        "LANG of the environment, else a table's own language, else en; docs/translating.md)",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMAND_MODULES:
        module.add_parsers(subparsers)
    return parser


def package_version() -> str:
    """The installed package's version: pyproject.toml is its one source (the server reads
    the same metadata, `server.__version__`)."""
    try:
        return version("t24")
    except PackageNotFoundError:  # a source tree that was never installed
        return "0+unknown"


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
    """Parse, run the chosen command, return its exit code."""
    parser = build_parser()
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
