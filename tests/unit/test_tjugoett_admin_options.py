"""`t24 admin create-table --game tjugoett`: the options the CLI builds are the game's (the
seats and `--options`, no deck); the secret seed is left out unless one is given, and the
server draws a fresh one (`SEED_OPTION`, issue 28 item 12: the shell, not each client)."""

from __future__ import annotations

from argparse import Namespace

import pytest

from clients.reference_cli import admin_commands
from server.games import tjugoett


def args(**values):
    base = {"game": "tjugoett", "seats": "3", "options": None, "option": None, "seed": None}
    return Namespace(**{**base, **values})


def test_tjugoett_options_from_the_cli_are_valid_and_leave_the_seed_to_the_server():
    first = admin_commands.table_options(args(seats="s1:Ada,s2:Bo"))
    assert first["seats"] == [{"seat": "s1", "name": "Ada"}, {"seat": "s2", "name": "Bo"}]
    assert set(first) == {"seats"}
    assert tjugoett.SEED_OPTION == "seed"  # the option the server draws a seed for
    drawn = {**first, "seed": "a-seed-the-server-drew"}
    assert tjugoett.initial_state(drawn).options.seat_ids() == ("s1", "s2")


def test_tjugoett_options_json_adds_options_and_may_give_the_seed():
    raw = admin_commands.table_options(
        args(options='{"seed": "given-seed-1", "dealer": {"seat": "d", "name": "Dora"}}')
    )
    assert raw["seed"] == "given-seed-1"
    assert tjugoett.initial_state(raw).options.dealer_seat == "d"


def test_option_pairs_and_a_numbered_seed_for_a_replayable_table():
    raw = admin_commands.table_options(args(seed=7, option=["public_hands=live"]))
    assert raw["seed"] == 7 and raw["public_hands"] == "live"
    read = tjugoett.initial_state(raw).options
    assert read.seed == "7" and read.public_hands == "live"


def test_bad_options_json_is_refused_before_connecting():
    with pytest.raises(admin_commands.AdminInputError):
        admin_commands.table_options(args(options="[1]"))
