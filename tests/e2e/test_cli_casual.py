"""`t24 casual` in pseudo-terminals against a real server: the human path of each casual game.

pocket (R-POCKET-2..5): Ada claims and answers wrong (out of this card), Bo answers right, both
are stumped by the last card (a bonus card nobody wins), the screens show the winner. deck40
(R-DECK40-1..3, R-DECK40-6): the two players read the four playing cards off the screen,
agree "no solution" when there is none, and Ada's "24!" wins the target point.
"""

from __future__ import annotations

import re

import pexpect
import pytest

from server.eventlog.backends import open_blocking_store
from server.puzzles.solver import solve

pytestmark = pytest.mark.e2e

POCKET_CARD = re.compile(r"\[ (\d+)  (\d+)  (\d+)  (\d+) \]")
DECK40_TABLE = re.compile(r"table: (\S+) \(Ada\)  (\S+) \(Ada\)  (\S+) \(Bo\)  (\S+) \(Bo\)")


def rank(text: str) -> int:
    return 1 if text[:-1] == "A" else int(text[:-1])


def finish(child: pexpect.spawn) -> None:
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.logfile_read.getvalue()[-2000:]


def test_a_pocket_game_played_by_two_people_at_their_terminals(server, cli):
    tokens = cli.create_table(
        server, "pk", "--game", "pocket", "--cards", "2", "--seed", "4", seats="s1:Ada,s2:Bo"
    )
    ada = cli.spawn("casual", "--tokens", str(tokens), "--seat", "s1")
    bo = cli.spawn("casual", "--tokens", str(tokens), "--seat", "s2")
    ada.expect("you are Ada")
    bo.expect("you are Bo")
    ada.sendline("start")
    ada.expect(POCKET_CARD)
    numbers = [int(ada.match.group(i)) for i in range(1, 5)]
    ada.sendline("c")
    bo.expect("claimed by Ada")  # R-POCKET-3: the claim holds the card
    ada.sendline("1 + 1")
    bo.expect("out of this card: Ada")  # wrong: out of this card only
    bo.sendline(solve(numbers)[0].ascii_expression)
    ada.expect("Bo wins card 1")
    ada.expect(POCKET_CARD)  # the next card, for both again
    ada.sendline("s")
    bo.expect("stumped: Ada")
    bo.sendline("s")
    for child in (ada, bo):  # the stack is used up: the game ends (R-POCKET-5)
        child.expect("winner: Bo")
        child.expect("unclaimed bonus card: 1")  # R-POCKET-4
        finish(child)


def test_a_deck40_game_played_by_two_people_at_their_terminals(server, cli):
    tokens = cli.create_table(
        server,
        "dk",
        "--game",
        "deck40",
        "--seed",
        "1",
        "--option",
        "target_points=1",
        seats="s1:Ada,s2:Bo",
    )
    ada = cli.spawn("casual", "--tokens", str(tokens), "--seat", "s1")
    bo = cli.spawn("casual", "--tokens", str(tokens), "--seat", "s2")
    ada.expect("Ada \\(you\\): waiting for the deal")
    bo.expect("Bo \\(you\\): waiting for the deal")
    bo.sendline("start")
    for _ in range(20):
        ada.expect(DECK40_TABLE)  # four real playing cards, two from each pile (R-DECK40-1)
        cards = [ada.match.group(i) for i in range(1, 5)]
        solutions = solve([rank(card) for card in cards])
        if solutions:
            ada.sendline("24! " + solutions[0].ascii_expression)
            break
        ada.sendline(
            f"n {cards[1].replace('♠', 'S').replace('♥', 'H').replace('♦', 'D').replace('♣', 'C')}"
        )
        bo.sendline("n")
        ada.expect("back under the piles")  # R-DECK40-3/4: agreed, one card each goes back
    for child in (ada, bo):
        child.expect(
            "winner: Ada \\(played to the target points\\)"
        )  # R-DECK40-6: played to 1 point
        finish(child)


def test_bots_play_a_deck40_game_to_the_end_with_t24_casual_bot(server, cli):
    tokens = cli.create_table(
        server, "bots-deck40", "--game", "deck40", "--seed", "2", seats="s1:Ada,s2:Bo"
    )
    bots = [
        cli.spawn("casual", "--tokens", str(tokens), "--seat", seat, "--bot", "--delay", delay)
        for seat, delay in (("s1", "0.05"), ("s2", "0.2"))
    ]
    bots[0].expect("you")
    cli.run("casual", "--tokens", str(tokens), "--seat", "s2", input="start\nq\n")
    for bot in bots:
        bot.expect(re.compile(r"(winner|tie): "), timeout=60)
        finish(bot)


@pytest.mark.parametrize("game", ["pocket", "deck40"])
def test_the_generic_client_draws_a_casual_game_and_t24_bot_plays_it(server, cli, game):
    """The casual games' parts in the generic client (`games.part_for`): `t24 bot` plays
    each seat with the game's brain, `t24 watch` draws the board and the result."""
    flags = ["--cards", "3"] if game == "pocket" else ["--option", "target_points=2"]
    tokens = cli.create_table(
        server, f"generic-{game}", "--game", game, "--seed", "5", *flags, seats="s1:Ada,s2:Bo"
    )
    watcher = cli.spawn("watch", "--tokens", str(tokens), "--plain")
    watcher.expect("connected")
    # the human bot's 2-6 s a move (people's pace) at a tenth: its brain and its timing
    # code still decide every move; a deck40 game of "no solution" agreements took 17 s.
    # The perfect bot's 0.2 s before each move at a quarter: still the quicker of the two.
    bots = [
        cli.spawn("bot", "--tokens", str(tokens), "--seat", seat, "--skill", skill, *scale)
        for seat, skill, scale in (
            ("s1", "perfect", ("--time-scale", "0.25")),
            ("s2", "human", ("--time-scale", "0.1")),
        )
    ]
    cli.run("casual", "--tokens", str(tokens), "--seat", "s1", input="start\nq\n")
    watcher.expect(re.compile(r"(winner|tie): "), timeout=60)
    for bot in bots:
        finish(bot)


def test_t24_play_takes_a_typed_answer_at_a_pocket_table(server, cli):
    """The generic `t24 play` with the pocket part's keys: a typed line is a command."""
    tokens = cli.create_table(
        server, "play-pk", "--game", "pocket", "--cards", "1", "--seed", "6", seats="s1:Ada"
    )
    ada = cli.spawn("play", "--tokens", str(tokens), "--seat", "s1", "--plain")
    ada.expect("connected")
    ada.sendline("start")
    ada.expect(
        r"card 1 is turned up: (\d+) (\d+) (\d+) (\d+) \(\d dots?\) \(R-POCKET-1\)"
    )  # the feed, in words
    numbers = [int(ada.match.group(i)) for i in range(1, 5)]
    ada.sendline(solve(numbers)[0].ascii_expression)
    ada.expect("Ada wins")  # the part's words for CardWon (R-POCKET-2)
    ada.expect("the stack is used up: the game is over")
    ada.sendline("q")
    finish(ada)


def test_an_answer_typed_while_a_bot_wins_the_card_is_for_the_card_it_was_typed_at(server, cli):
    """Issue 27: Ada starts typing at card 1; Bo (a bot) wins it before her Enter. Her answer
    is sent for card 1, the card she saw: the server refuses it `stale_set`, said in words,
    and she is not excluded from card 2, which she never answered."""
    tokens = cli.create_table(
        server, "typing", "--game", "pocket", "--cards", "3", "--seed", "4", seats="s1:Ada,s2:Bo"
    )
    ada = cli.spawn("casual", "--tokens", str(tokens), "--seat", "s1")
    ada.expect("you are Ada")
    bo = cli.spawn("casual", "--tokens", str(tokens), "--seat", "s2", "--bot", "--delay", "1.5")
    ada.expect("a pocket table for 2 players: Ada and Bo")
    ada.send("start\r")
    ada.expect("card 1 is turned up")
    ada.send("1+2")  # typing starts while card 1 is on screen
    ada.expect("Bo wins card 1")
    ada.expect(POCKET_CARD)  # card 2 is up before Enter
    ada.send("+3+4\r")
    ada.expect("not judged: that was for a card someone won while you typed; play the card up now")
    ada.send("q\r")
    finish(ada)
    bo.terminate(force=True)
    store = open_blocking_store(server.store, create=False)
    events = store.read("table/typing")
    store.close()
    judged = [e.data for e in events if e.type in ("AnswerJudged", "PlayerExcluded")]
    assert judged and all(data["seat"] == "s2" for data in judged), judged  # Ada: never
    printed = ada.logfile_read.getvalue()
    for raw in ("AnswerJudged", "{", "stale_set", "s2"):
        assert raw not in printed, raw
