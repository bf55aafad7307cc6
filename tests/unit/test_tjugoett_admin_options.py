"""`t24 admin create-table --game tjugoett`: the options the CLI builds are the game's (the
seats and `--options`, no deck), with a fresh secret seed unless one is given."""

from __future__ import annotations

from argparse import Namespace

import pytest

from clients.reference_cli import admin_commands
from server.games import tjugoett


def args(**values):
    return Namespace(**{"game": "tjugoett", "seats": "3", "options": None, **values})


def test_tjugoett_options_from_the_cli_are_valid_and_get_a_fresh_seed():
    first = admin_commands.table_options(args(seats="s1:Ada,s2:Bo"))
    second = admin_commands.table_options(args(seats="s1:Ada,s2:Bo"))
    assert first["seats"] == [{"seat": "s1", "name": "Ada"}, {"seat": "s2", "name": "Bo"}]
    assert set(first) == {"seats", "seed"} and first["seed"] != second["seed"]
    assert tjugoett.initial_state(first).options.seat_ids() == ("s1", "s2")


def test_tjugoett_options_json_adds_options_and_may_give_the_seed():
    raw = admin_commands.table_options(
        args(options='{"seed": "given-seed-1", "dealer": {"seat": "d", "name": "Dora"}}')
    )
    assert raw["seed"] == "given-seed-1"
    assert tjugoett.initial_state(raw).options.dealer_seat == "d"


def test_bad_options_json_is_refused_before_connecting():
    with pytest.raises(admin_commands.AdminInputError):
        admin_commands.table_options(args(options="[1]"))
