"""README's "Play Tjugoett" (issue 15) and "Casual games: pocket and deck40" (issue 14) work
as written, and `t24 admin create-table` names every game of the registry (issue 14).

Every `t24` command of each section is parsed by the real CLI parser; the tables it creates
get options the real game accepts; the person dealer's table is a new table (its id and
tokens folder differ from the first table's, which would be refused `table_exists`) and the
dealer plays the seat that table's options give, from that table's tokens folder.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

from clients.reference_cli import admin_commands, cli
from clients.reference_cli.games import GENERIC, PART_MODULES, part_for
from server.games import games, tjugoett
from server.runtime.hub import with_drawn_seed

ROOT = Path(__file__).resolve().parents[2]


def readme_section(title: str) -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index(f"## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def commands_in(section: str) -> list[list[str]]:
    """The `t24` commands of the section's sh blocks, as argv after the program (a line
    ending in a backslash goes on on the next line)."""
    found = []
    for block in re.findall(r"```sh\n(.*?)```", section, flags=re.S):
        for line in block.replace("\\\n", " ").splitlines():
            words = shlex.split(line)
            if words and words[0].endswith("/t24"):
                found.append(words[1:])
    return found


def parsed(argv: list[str]) -> Any:
    return cli.build_parser().parse_args(argv)


def seat_of(args: Any) -> str | None:
    """The one seat a command plays (`t24 bot`'s `--seat` may be given again: a list)."""
    seat = getattr(args, "seat", None)
    if isinstance(seat, list):
        assert len(seat) == 1, f"one seat a command here: {seat}"
        return seat[0]
    return seat


def test_the_readme_shows_how_to_start_a_tjugoett_table_and_play_it():
    section = readme_section("Play Tjugoett")
    assert "docs/games/tjugoett.md" in section
    commands = [parsed(argv) for argv in commands_in(section)]
    creates = [args for args in commands if getattr(args, "admin_command", "") == "create-table"]
    assert creates and all(args.game == "tjugoett" for args in creates)
    for args in creates:  # options the game accepts, as the server will check them
        options = with_drawn_seed(tjugoett, admin_commands.table_options(args))
        tjugoett.initial_state(options)
    first = creates[0]
    plays = {(args.command, args.tokens, seat_of(args)) for args in commands}
    assert ("bot", first.tokens_out, "s2") in plays
    assert ("proctor", first.tokens_out, None) in plays
    assert ("play", first.tokens_out, "s1") in plays


def test_the_readme_person_dealer_commands_make_a_new_table_and_the_dealer_plays_its_seat():
    commands = [parsed(argv) for argv in commands_in(readme_section("Play Tjugoett"))]
    creates = [args for args in commands if getattr(args, "admin_command", "") == "create-table"]
    dealt = [args for args in creates if "dealer" in admin_commands.table_options(args)]
    assert len(dealt) == 1, "the README shows one table with a person dealer"
    dealer_table = dealt[0]
    others = [args for args in creates if args is not dealer_table]
    assert dealer_table.table not in {args.table for args in others}  # else table_exists
    assert dealer_table.tokens_out not in {args.tokens_out for args in others}
    seat = admin_commands.table_options(dealer_table)["dealer"]["seat"]
    assert seat not in {s["seat"] for s in admin_commands.table_options(dealer_table)["seats"]}
    plays = [args for args in commands if getattr(args, "command", "") == "play"]
    assert any(p.tokens == dealer_table.tokens_out and p.seat == seat for p in plays)
    drawn = with_drawn_seed(tjugoett, admin_commands.table_options(dealer_table))
    state = tjugoett.initial_state(drawn)  # the server drew the seed the CLI left out
    assert state.options.dealer_seat == seat


def test_the_clients_one_list_of_games_is_the_servers_registry():
    """The client does not import the server (test_cli_app): its list of games, which the
    help names and `part_for` draws, must be the registry's."""
    assert sorted(PART_MODULES) == sorted(games())
    for name in PART_MODULES:
        assert part_for(name) is not GENERIC, name


def test_create_table_help_names_every_game_of_the_registry():
    parser = cli.build_parser()
    admin = next(
        action.choices["admin"]
        for action in parser._actions
        if getattr(action, "choices", None) and "admin" in action.choices
    )
    create = next(
        action.choices["create-table"]
        for action in admin._actions
        if getattr(action, "choices", None) and "create-table" in action.choices
    )
    text = create.format_help()
    for name in games():
        assert name in text, name
    assert "any game" in text and "24 Challenge table" not in text
    assert "any game" in admin.format_help()


CASUAL_SECTION = "Casual games: pocket and deck40"


def test_the_readme_starts_a_pocket_and_a_deck40_table_the_games_accept():
    """Each `create-table --game pocket|deck40` of the README, parsed by the real parser: its
    flags reach the game's options reader (`initial_state`) and the table starts."""
    from casual_tables import Table

    from server.games import deck40, pocket

    commands = [parsed(argv) for argv in commands_in(readme_section(CASUAL_SECTION))]
    creates = {
        args.game: args for args in commands if getattr(args, "admin_command", "") == "create-table"
    }
    assert sorted(creates) == ["deck40", "pocket"]
    options = {name: admin_commands.table_options(args) for name, args in creates.items()}
    assert all("seed" not in made for made in options.values())  # the server draws one

    table = Table.started(pocket, options["pocket"])
    read = table.state.options
    assert (read.size, read.answer_us) == (12, 20_000_000)  # --cards 12, answer_seconds=20
    assert [seat.seat for seat in table.state.seats] == ["s1", "s2", "s3"]
    started = next(event.data for event in table.events if event.type == "GameStarted")
    assert len(started["stack"]) == 12
    assert any(event.type == "CardTurnedUp" for event in table.events)

    table = Table.started(deck40, options["deck40"])
    read = table.state.options
    assert (read.scoring, read.target_points, read.layout) == ("advanced", 10, "pairs")
    started = next(event.data for event in table.events if event.type == "GameStarted")
    assert {seat: len(pile) for seat, pile in started["piles"].items()} == {"s1": 20, "s2": 20}


def test_the_readme_casual_players_sit_at_the_tables_it_creates():
    """The `t24 casual`, `bot` and `watch` lines use a created table's tokens folder, and
    each seat they name is one of that table's seats."""
    commands = [parsed(argv) for argv in commands_in(readme_section(CASUAL_SECTION))]
    creates = [args for args in commands if getattr(args, "admin_command", "") == "create-table"]
    seats = {
        args.tokens_out: {seat["seat"] for seat in admin_commands.table_options(args)["seats"]}
        for args in creates
    }
    sitting = [args for args in commands if args.command in ("casual", "bot", "watch")]
    assert {args.command for args in sitting} == {"casual", "bot", "watch"}
    for args in sitting:
        assert args.tokens in seats, f"{args.command}: {args.tokens} is no created table's"
        seat = seat_of(args)
        assert seat is None or seat in seats[args.tokens], f"{args.command}: seat {seat}"
    assert any(args.command == "bot" and args.seat for args in sitting)
