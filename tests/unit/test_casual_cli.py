"""`t24 admin create-table --game pocket|deck40`: the flags build options the games accept."""

from __future__ import annotations

from argparse import Namespace

import pytest

from clients.reference_cli import admin_commands, cli
from server.games import deck40, pocket


def casual_args(game: str, **values) -> Namespace:
    base = {
        "game": game,
        "seats": "3",
        "seed": None,
        "edition": "single-digits",
        "cards": None,
        "options": None,
        "option": None,
    }
    return Namespace(**{**base, **values})


def test_pocket_options_from_flags_are_valid_for_the_game():
    options = admin_commands.table_options(
        casual_args("pocket", cards=12, seed=5, option=["answer_seconds=20", "dots=[1, 2]"])
    )
    assert options == {
        "seats": [{"seat": f"s{i}", "name": f"Seat {i}"} for i in (1, 2, 3)],
        "seed": 5,
        "edition": "single-digits",
        "size": 12,
        "answer_seconds": 20,
        "dots": [1, 2],
    }
    read = pocket.initial_state(options).options
    assert (read.size, read.dots, read.answer_us) == (12, (1, 2), 20_000_000)


def test_deck40_options_from_flags_pick_a_fresh_seed_unless_one_is_given():
    options = admin_commands.table_options(
        casual_args("deck40", seats="s1:Ada,s2:Bo", option=["scoring=advanced", "target_points=10"])
    )
    assert isinstance(options["seed"], int) and "deck" not in options
    read = deck40.initial_state(options).options
    assert (read.layout, read.scoring, read.target_points) == ("pairs", "advanced", 10)
    fixed = admin_commands.table_options(
        casual_args("deck40", seed=3, options='{"layout": "common_pile"}')
    )
    assert fixed["seed"] == 3 and fixed["layout"] == "common_pile"


def test_a_bad_option_flag_is_refused_before_connecting():
    with pytest.raises(admin_commands.AdminInputError, match="NAME=VALUE"):
        admin_commands.table_options(casual_args("pocket", option=["answer_seconds"]))
    text = admin_commands.option_pairs(["house=on"])
    assert text == {"house": "on"}


def test_the_admin_parser_takes_a_game_and_repeated_options():
    parser = cli.build_parser()
    args = parser.parse_args(
        ["admin", "create-table", "--game", "deck40", "--seats", "2", "--option", "scoring=cards"]
    )
    assert (args.game, args.option, args.seed) == ("deck40", ["scoring=cards"], None)
