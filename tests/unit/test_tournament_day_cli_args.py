"""`t24 tournament`'s day subcommands as the real parser reads them (the requests are sent in
tests/e2e/test_tournament_day_cli.py), and `create --advance-count`, the console's field."""

from __future__ import annotations

import shlex

import pytest

from clients.reference_cli.cli import build_parser
from clients.reference_cli.tournament_commands import create_options
from clients.reference_cli.tournament_day_commands import DAY_EXAMPLES, bundle_url

PARSER = build_parser()


def parse(line: str):
    return PARSER.parse_args(shlex.split(line))


def test_every_day_example_parses_to_its_own_work():
    for name, example in DAY_EXAMPLES.items():
        args = parse(example.removeprefix("t24 "))
        assert args.tournament_command == name


def test_begin_takes_a_table_or_a_round_and_mark_a_mark():
    assert parse("tournament begin --id cup --round 1").round == 1
    assert parse("tournament begin --id cup --table r1.s1.t01").table == "r1.s1.t01"
    for wrong in (
        "tournament begin --id cup",  # neither
        "tournament begin --id cup --round 1 --table r1.s1.t01",  # both
        "tournament mark --id cup --table r1.s1.t01 p3 late",  # no such mark
        "tournament links --id cup",  # no round nor tie-break
    ):
        with pytest.raises(SystemExit):
            parse(wrong)


def test_create_takes_advance_count():
    line = "tournament create --id cup --name Cup --date 2026-03-14 --grades 4th --seed 7"
    assert "advance_count" not in create_options(parse(line))  # the default: 16
    assert create_options(parse(line + " --advance-count 4"))["advance_count"] == 4


def test_the_bundle_is_fetched_from_the_server_the_url_names():
    assert (
        bundle_url("ws://127.0.0.1:8024/ws", "cup") == "http://127.0.0.1:8024/bundle?tournament=cup"
    )
    assert bundle_url("wss://t24.example/ws", "cup").startswith("https://t24.example/bundle?")
