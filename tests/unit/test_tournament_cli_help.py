"""`t24 tournament --help` (issue 26): its examples name the director's token that `make run`
writes (var/demo-tokens/director.json, not a var/director.json that does not exist), each
example parses, and `create` takes `--cards-per-round` (a short practice tournament)."""

from __future__ import annotations

import argparse
import shlex

import pytest

from clients.reference_cli.admin_commands import AdminInputError
from clients.reference_cli.cli import build_parser
from clients.reference_cli.tournament_commands import TOKENS, create_options
from server.config import ServerConfig

PARSER = build_parser()


def examples(text: str) -> list[list[str]]:
    """The example command lines of a help text (continued lines joined)."""
    body = text.split("examples", 1)[1].split("\n\n", 1)[0].replace("\\\n", " ")
    lines = [line.strip() for line in body.splitlines() if line.strip().startswith("t24 ")]
    return [shlex.split(line.replace('"$(date +%F)"', "2026-03-14"))[1:] for line in lines]


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    (action,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(action.choices)


def tournament_helps() -> list[str]:
    tournament = subcommands(PARSER)["tournament"]
    leaves = subcommands(tournament).values()
    return [tournament.format_help()] + [leaf.format_help() for leaf in leaves]


def test_the_examples_name_the_token_make_run_writes_and_parse():
    assert TOKENS == f"{ServerConfig().demo_tokens_dir}/director.json"
    seen = 0
    for text in tournament_helps():
        assert "var/director.json" not in text
        for argv in examples(text):
            if "--tokens" in argv:
                assert argv[argv.index("--tokens") + 1] == TOKENS
            PARSER.parse_args(argv)  # exits (a failed test) on an example it cannot parse
            seen += 1
    assert seen >= 15


def test_create_takes_cards_per_round():
    argv = shlex.split(
        "tournament --url ws://x/ws --token T create --id drill --name Drill --date 2026-03-14 "
        "--grades 4th --seed 7 --cards-per-round 6"
    )
    options = create_options(PARSER.parse_args(argv))
    assert options["cards_per_round"] == 6
    argv = argv[: argv.index("--cards-per-round")]
    assert "cards_per_round" not in create_options(PARSER.parse_args(argv))  # the default: 48


def test_a_table_option_that_is_the_tournaments_own_points_at_its_flag():
    argv = shlex.split(
        "tournament --url ws://x/ws --token T create --id drill --name Drill --date 2026-03-14 "
        "--grades 4th --seed 7 --table-option cards_per_round=6"
    )
    with pytest.raises(AdminInputError, match="tournament's own option.*--cards-per-round 6"):
        create_options(PARSER.parse_args(argv))
