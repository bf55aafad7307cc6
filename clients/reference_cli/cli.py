"""The `t24` command: one argparse tree, one module per group of subcommands.

Each command module exposes `add_parsers(subparsers)`, which registers its subcommands and
sets `func` on each, a callable taking the parsed arguments and returning the exit code.
"""

from __future__ import annotations

import argparse
import sys

from clients.reference_cli import (
    admin_commands,
    bot_commands,
    exit_codes,
    log_commands,
    puzzle_commands,
    replay_commands,
    table_commands,
)

COMMAND_MODULES = [
    puzzle_commands,
    log_commands,
    table_commands,
    bot_commands,
    admin_commands,
    replay_commands,
]

EXIT_CODES = exit_codes.EXIT_CODES_HELP


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="t24",
        description="t24: play, proctor, watch and audit the 24 Game.",
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMAND_MODULES:
        module.add_parsers(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
