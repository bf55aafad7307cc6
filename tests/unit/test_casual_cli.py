"""`t24 admin create-table --game pocket|deck40`: the flags build options the games accept."""

from __future__ import annotations

import random
from argparse import Namespace

import pytest
from casual_tables import Table, player, pocket_options, types

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


def test_deck40_options_from_flags_leave_the_seed_to_the_server_unless_one_is_given():
    """R-DECK40-1: without --seed the options carry none; the server draws a fresh secret
    one for the table (tests/unit/test_hub_seeds.py)."""
    options = admin_commands.table_options(
        casual_args("deck40", seats="s1:Ada,s2:Bo", option=["scoring=advanced", "target_points=10"])
    )
    assert "seed" not in options and "deck" not in options
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


# -- the per-game parts: screens, typed lines, bot brains --------------------------------------


def test_the_pocket_screen_shows_the_card_the_claim_and_the_result():
    from casual_tables import DIRECTOR, POCKET_WRONG, Table, player, pocket_options

    from clients.reference_cli.games.pocket import brain, screen

    table = Table.started(pocket, pocket_options(2, ["p4", "p1"]))
    table.do("claim", player("s2"))
    lines = screen.render_lines(pocket.view(table.state, player("s1")), table.now)
    text = "\n".join(lines)
    assert "[ 2  3  4  5 ]" in text and "claimed by Player 2, answer within 15 s" in text
    assert "you are Player 1" in text
    assert brain.next_move(pocket.view(table.state, player("s1")), "s1") is None  # held
    table.do("answer", player("s2"), expression=POCKET_WRONG)
    view = pocket.view(table.state, player("s1"))
    assert "out of this card: Player 2" in "\n".join(screen.render_lines(view))
    name, args = brain.next_move(view, "s1")
    table.do(name, player("s1"), **args)
    assert table.state.scores()["s1"] == 1
    table.do("end_game", DIRECTOR)
    assert "winner: Player 1" in screen.render_lines(pocket.view(table.state, player("s2")))


def test_pocket_typed_lines():
    from clients.reference_cli.games.pocket.screen import parse_line

    assert parse_line("  ") is None
    assert parse_line("c") == ("claim", {})
    assert parse_line("S") == ("declare_stumped", {})
    assert parse_line("start") == ("start_game", {})
    assert parse_line(" (5+3-2)*4 ") == ("answer", {"expression": "(5+3-2)*4"})


def test_pocket_typed_lines_name_the_card_on_screen():
    """A claim, an answer or "stumped" carries `set`, the number of the card in the view on
    screen (a command that crossed the next card is refused `stale_set`); the others do not."""
    from clients.reference_cli.games.pocket.screen import parse_line

    table = Table.started(pocket, pocket_options(2, ["p4", "p1"]))
    table.do("answer", player("s2"), expression="(5+3-2)*4")
    view = pocket.view(table.state, player("s1"))
    assert view["card"]["number"] == 2
    assert parse_line("c", view) == ("claim", {"set": 2})
    assert parse_line("s", view) == ("declare_stumped", {"set": 2})
    assert parse_line("(1+1+1)*8", view) == ("answer", {"expression": "(1+1+1)*8", "set": 2})
    assert parse_line("start", view) == ("start_game", {})
    assert parse_line("end", view) == ("end_game", {})
    assert parse_line("c", pocket.view(Table(pocket, pocket_options(2)).state, player("s1"))) == (
        "claim",
        {},
    )  # no card up yet: nothing to name


def test_the_pocket_bot_names_the_card_it_answers():
    from clients.reference_cli.games.pocket import brain

    table = Table.started(pocket, pocket_options(2, ["p4", "p1"]))
    table.do("answer", player("s2"), expression="1 + 1")  # wrong: s2 is out, card 1 still up
    view = pocket.view(table.state, player("s1"))
    name, args = brain.next_move(view, "s1")
    assert (name, args["set"]) == ("answer", 1)
    table.do(name, player("s1"), **args)
    view = pocket.view(table.state, player("s2"))
    assert brain.next_move(view, "s2") == ("answer", {"expression": "(1 + 1 + 1) * 8", "set": 2})


def test_the_deck40_screen_shows_cards_piles_and_a_tie():
    from casual_tables import DIRECTOR, Table, deck40_options, player

    from clients.reference_cli.games.deck40 import brain, screen

    table = Table.started(deck40, deck40_options(2, ["1111", "3388"]))
    view = deck40.view(table.state, player("s1"))
    text = "\n".join(screen.render_lines(view))
    assert "table: A♠ (Player 1)  A♥ (Player 1)  A♦ (Player 2)  A♣ (Player 2)" in text
    assert "Player 1 (you): pile 18" in text
    assert brain.next_move(view, "s1") == ("call_no_solution", {"set": 1})
    for seat in ("s1", "s2"):
        name, args = brain.next_move(deck40.view(table.state, player(seat)), seat)
        table.do(name, player(seat), **args)
    assert table.state.set_number == 2
    table.do("end_game", DIRECTOR)
    assert "tie: Player 1 and Player 2" in "\n".join(
        screen.render_lines(deck40.view(table.state, player("s2")))
    )


def test_deck40_typed_lines():
    from clients.reference_cli.games.deck40.screen import parse_line

    assert parse_line("n") == ("call_no_solution", {})
    assert parse_line("n 7h") == ("call_no_solution", {"returns": "7H"})
    assert parse_line("24! (8-4)*(7-1)") == ("call_24", {"expression": "(8-4)*(7-1)"})
    assert parse_line("8/(3-8/3)") == ("call_24", {"expression": "8/(3-8/3)"})
    assert parse_line("start") == ("start_game", {})


def test_deck40_typed_lines_name_the_set_on_screen():
    """A call carries `set`, the set of the view on screen (a call that crossed the next deal
    is refused `stale_set`); `start` and `end` do not."""
    from casual_tables import deck40_options

    from clients.reference_cli.games.deck40.screen import parse_line

    table = Table.started(deck40, deck40_options(2, ["3388", "4187"]))
    table.do("call_24", player("s2"), expression="8/(3-8/3)")
    view = deck40.view(table.state, player("s1"))
    assert parse_line("n", view) == ("call_no_solution", {"set": 2})
    assert parse_line("n 7c", view) == ("call_no_solution", {"returns": "7C", "set": 2})
    assert parse_line("24! (8-4)*(7-1)", view) == (
        "call_24",
        {"expression": "(8-4)*(7-1)", "set": 2},
    )
    assert parse_line("start", view) == ("start_game", {})
    assert parse_line("end", view) == ("end_game", {})
    table.do("call_24", player("s1"), **parse_line("(8-4)*(7-1)", view)[1])
    assert table.state.seat("s1").score == 1


def test_the_deck40_bot_names_the_set_it_answers_and_a_crossed_call_is_refused():
    """The bot's call for set 1, decided after set 2 was dealt, is refused, not judged."""
    from casual_tables import deck40_options

    from clients.reference_cli.games.deck40 import brain

    table = Table.started(deck40, deck40_options(2, ["3388", "4187"]))
    name, args = brain.next_move(deck40.view(table.state, player("s1")), "s1")
    assert name == "call_24" and args["set"] == 1
    table.do("call_24", player("s2"), expression="8/(3-8/3)")
    assert table.refused(name, player("s1"), **args).code == "stale_set"
    assert table.state.excluded == ()
    name, args = brain.next_move(deck40.view(table.state, player("s1")), "s1")
    assert args["set"] == 2 and types(table.do(name, player("s1"), **args))[1] == "RoundWon"


def test_a_random_bots_nonsense_still_names_the_set():
    """`t24 bot --skill random` replaces the answer half the time, never the other arguments."""
    from clients.reference_cli.games.typed_answers import ANSWER, plan

    answers = set()
    for seed in range(20):
        _key, actions = plan(
            "k", ("call_24", {ANSWER: "6*4", "set": 3}), "random", random.Random(seed)
        )
        assert actions[0].args["set"] == 3
        answers.add(actions[0].args[ANSWER])
    assert answers == {"6*4", "1 + 2 + 3"}


def test_the_generic_client_has_a_part_for_each_casual_game_that_words_every_event():
    from test_casual_docs import every_deck40_event, every_pocket_event

    from clients.reference_cli.games import part_for
    from clients.reference_cli.styling import Style

    for name, script in (("pocket", every_pocket_event), ("deck40", every_deck40_event)):
        part = part_for(name)
        assert part.name == name and part.bot is not None
        for event in script():
            words = part.describe_event(event.type, event.data, {"s1": "Ada"})
            assert words and "{" not in words, (event.type, words)
    table = Table.started(pocket, pocket_options(2, ["p4"]))
    view = pocket.view(table.state, player("s1"))
    part = part_for("pocket")
    assert part.board(view, Style(color=False), "player") == ["   [ 2  3  4  5 ]   ● (1 dot)"]
    assert part.side(view, "s1", Style(color=False), None) == ["scores: Player 1 0 · Player 2 0"]
    key, moves = part.bot(view, "s1", [], 0, "perfect", random.Random(1))
    assert [move.name for move in moves] == ["answer"] and moves[0].delay == 0.2
    assert part.finished(view) is False
