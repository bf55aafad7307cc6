"""The SHIPPED bots play the casual games to the end over a real server (issue 14, "E2E").

Each seat is a real `t24` process (`t24 bot --skill perfect`, and `t24 casual --bot` for one
pocket seat) against the shared `t24-server` (the table is made and started by requests: the
bots are the subject here, `t24 admin create-table` and typing `start` are tested in
tests/e2e/test_cli_casual.py, the command's code there, its real process for a casual game
in test_cli_languages.py): the bots read only the views the server pushes
them and send ordinary commands. A pocket game of three bots (R-POCKET-1..5) and a deck40
game of two bots in each scoring version (simple, advanced, cards, cards with the house
option; R-DECK40-1..7) play to `GameEnded`. Then the recorded log is read back with the
shipped `t24 log show --json` (exit 0: the chain verifies; a real process in the pocket
test, the command's code in the test's process in the deck40 ones), the game's final event
is the last one, and its scores, winners and tie follow from the events before it; every bot
exits 0 with the result on its screen.

The bots' speeds differ (`--time-scale`) so that one usually answers first: which one wins a
card is still the arrival order's (R-POCKET-3, R-DECK40-2), so the checks hold for any order.
The loser's answer may cross the next deal: it names the set (card) it answers, so the server
refuses it (`stale_set`) instead of judging it on cards the bot never saw.
The stacks and targets are small to keep each game to a few seconds.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import time
from collections import Counter
from typing import Any

import pexpect
import pytest
from cli_pty import T24Cli

from clients.reference_cli.cli import build_parser

pytestmark = pytest.mark.e2e

# how a finished deck40 game says why it ended (games/deck40/words.py, `screen.ended.*`)
ENDED_WORDS = {
    "target_points": "played to the target points",
    "cards_out": "the cards are used up",
    "cannot_turn_up": "a pile ran out",
    "no_solution_left": "no set left had a solution",
}

GAME_TIME = 90  # seconds: a whole game on a loaded 2-core machine; they take a few


def recorded_events(
    cli: T24Cli, server: Any, table: str, process: bool = False
) -> list[dict[str, Any]]:
    """The table's log as `t24 log show --json` prints it; its exit 0 says the hash chain
    verifies (it exits 1 naming the first broken seq, as `t24 log verify` does). With
    `process` the real `t24` process runs it; else the command's own code (its parser and
    function) runs in this process: it reads the store file either way, and one real run (the
    pocket test's) is enough for the process, which costs ~0.45 s of CPU."""
    argv = ("log", "show", "--store", server.store, f"table/{table}", "--json")
    if process:
        shown = cli.run(*argv)
        code, out, err = shown.returncode, shown.stdout, shown.stderr
    else:
        args = build_parser(["log_commands"]).parse_args(argv)
        printed, complaints = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(complaints):
            code = args.func(args)
        out, err = printed.getvalue(), complaints.getvalue()
    assert code == 0, out[-1000:] + err
    events = [json.loads(line) for line in out.splitlines()]
    assert [event["seq"] for event in events] == list(range(1, len(events) + 1))
    return events


def exit_with_their_results(
    bots: list[pexpect.spawn], cli: T24Cli, watching: tuple[pexpect.spawn, ...] = ()
) -> list[str]:
    """Wait for every bot's exit (0) and return what each printed. Every child's terminal
    is read meanwhile, the watchers' too: a child whose output nobody reads blocks once its
    terminal's buffer is full, and a blocked bot would stall the game for the others."""
    deadline = time.monotonic() + GAME_TIME
    running = list(bots)
    while running:
        assert time.monotonic() < deadline, "the bots did not finish" + cli.logs()
        for child in list(running):
            try:
                child.expect(pexpect.EOF, timeout=0.1)
                running.remove(child)
            except pexpect.TIMEOUT:
                pass
        for child in watching:
            try:
                child.expect(pexpect.TIMEOUT, timeout=0)  # what it printed so far
            except pexpect.EOF:
                pass
    printed = []
    for child in bots:
        child.close()
        printed.append(child.logfile_read.getvalue())
        assert child.exitstatus == 0, printed[-1][-2000:] + cli.logs()
    return printed


def table_made(server: Any, connect: Any, table: str, game: str, options: Any) -> None:
    """The table, made by a director's request (the bots are the subject, not the admin
    command: tests/e2e/test_cli_casual.py runs that)."""
    director = connect(server.token("director", name="director"))
    reply = director.request("create_table", table=table, game=game, options=options)
    assert reply["type"] == "table_created", reply


def start(server: Any, connect: Any, table: str, seat: str) -> None:
    """A player starts the game (the bots never start one)."""
    player = connect(server.token("player", table=table, seat=seat))
    reply = player.request("command", table=table, name="start_game", args={})
    assert reply["type"] == "accepted", reply


def token_flags(server: Any, table: str, seat: str | None = None) -> tuple[str, ...]:
    if seat is None:
        token = server.token("spectator", name="watcher", table=table)
    else:
        token = server.token("player", table=table, seat=seat)
    return ("--url", server.url, "--token", token)


def spawn_bot(cli: T24Cli, server: Any, table: str, seat: str, scale: str) -> pexpect.spawn:
    flags = token_flags(server, table, seat)
    return cli.spawn("bot", *flags, "--skill", "perfect", "--time-scale", scale, "--seed", "1")


def winners_of(scores: dict[str, int], lowest: bool = False) -> list[str]:
    best = (min if lowest else max)(scores.values())
    return [seat for seat, score in scores.items() if score == best]


# -- pocket -----------------------------------------------------------------------------------


def test_three_shipped_bots_play_a_pocket_game_to_the_end(server, connect, cli):
    table = "bots-pocket3"
    seats = [{"seat": s, "name": n} for s, n in (("s1", "Ada"), ("s2", "Bo"), ("s3", "Cy"))]
    options = {"seats": seats, "seed": 11, "size": 5, "answer_seconds": 5}
    table_made(server, connect, table, "pocket", options)
    bots = [spawn_bot(cli, server, table, "s1", "0.1"), spawn_bot(cli, server, table, "s2", "1")]
    bots.append(  # the third seat: `t24 casual --bot`, the casual command's own bot
        cli.spawn("casual", *token_flags(server, table, "s3"), "--bot", "--delay", "0.4")
    )
    for bot in bots:
        bot.expect("connected")
    start(server, connect, table, "s2")
    screens = exit_with_their_results(bots, cli)

    events = recorded_events(cli, server, table, process=True)
    types = [event["type"] for event in events]
    assert types.count("GameStarted") == 1 and types[-1] == "GameEnded"
    ended = events[-1]["data"]
    assert ended["reason"] == "stack_used_up" and ended["unplayed"] == []  # R-POCKET-5
    turned = [e["data"] for e in events if e["type"] == "CardTurnedUp"]
    assert [card["number"] for card in turned] == [1, 2, 3, 4, 5]  # the whole stack, in turn
    dots = {card["card_id"]: card["dots"] for card in turned}

    won = [e["data"] for e in events if e["type"] == "CardWon"]
    aside = [e["data"] for e in events if e["type"] == "CardSetAside"]
    assert sorted(c["number"] for c in won + aside) == [1, 2, 3, 4, 5]  # each card settled once
    scores = Counter({"s1": 0, "s2": 0, "s3": 0})
    for card in won:  # the card's dots and the bonus cards it took (R-POCKET-2/4)
        assert card["points"] == dots[card["card_id"]] + sum(dots[b] for b in card["bonus"])
        scores[card["seat"]] += card["points"]
    taken = [bonus for card in won for bonus in card["bonus"]]
    assert sorted(taken + ended["unclaimed_bonus"]) == sorted(c["card_id"] for c in aside)
    assert ended["scores"] == dict(scores)
    assert ended["winners"] == winners_of(ended["scores"])
    assert ended["tie"] == (len(ended["winners"]) > 1)
    # every card won was judged right first, with no answer of the winner before it wrong
    for card in won:
        judged = [
            e["data"]
            for e in events
            if e["type"] == "AnswerJudged" and e["data"]["number"] == card["number"]
        ]
        assert judged[-1]["ok"] and judged[-1]["seat"] == card["seat"]
        assert all(not j["ok"] for j in judged[:-1])
    # each bot's answer names the card it solved: one that crossed the next card's turn-up is
    # refused (`stale_set`), never judged on a card the bot did not solve: nobody is out
    assert [e for e in events if e["type"] == "AnswerJudged" and not e["data"]["ok"]] == []
    assert "PlayerExcluded" not in types

    names = {"s1": "Ada", "s2": "Bo", "s3": "Cy"}
    winners = [names[seat] for seat in ended["winners"]]
    together = ", ".join(winners[:-1]) + " and " + winners[-1] if len(winners) > 1 else winners[0]
    shown = ("tie: " if ended["tie"] else "winner: ") + together
    assert shown in screens[2]  # `t24 casual --bot` draws the result
    for screen in screens[:2]:  # `t24 bot` prints the events in words and leaves
        assert "the stack is used up: the game is over (R-POCKET-5)" in screen, screen[-1500:]


# -- deck40 -----------------------------------------------------------------------------------

VERSIONS: dict[str, dict[str, Any]] = {
    "simple": {"scoring": "simple", "target_points": 3},
    "advanced": {"scoring": "advanced", "target_points": 3, "reveal_unsolvable": True},
    "cards": {"scoring": "cards"},
    "cards-house": {"scoring": "cards", "house_loser_takes": True},
}


def piles_replayed(events: list[dict[str, Any]]) -> dict[str, int]:
    """Each own pile's size from the recorded deal and every move after it: the cards turned
    up leave it, returned cards go back under it (R-DECK40-4), and with the house option the
    loser's pile takes the four cards (R-DECK40-6)."""
    dealt = next(e["data"] for e in events if e["type"] == "GameStarted")
    piles = {seat: len(cards) for seat, cards in dealt["piles"].items()}
    assert sum(piles.values()) == 40 == len(dealt["deck"])  # the shuffle is recorded
    for event in events:
        data = event["data"]
        if event["type"] == "CardsTurnedUp":
            for card in data["cards"]:
                piles[card["seat"]] -= 1
        elif event["type"] == "CardsReturned":
            for entry in data["returns"]:
                piles[entry["seat"]] += 1
        elif event["type"] == "RoundWon" and data["taken_by"]:
            piles[data["taken_by"]] += 4
    return piles


@pytest.mark.parametrize("version", VERSIONS)
def test_two_shipped_bots_play_a_deck40_game_to_the_end(server, connect, cli, version):
    table = f"bots-deck40-{version}"
    seats = [{"seat": "s1", "name": "Ada"}, {"seat": "s2", "name": "Bo"}]
    table_made(server, connect, table, "deck40", {"seats": seats, "seed": 7, **VERSIONS[version]})
    watcher = cli.spawn("watch", *token_flags(server, table), "--plain")
    bots = [spawn_bot(cli, server, table, "s1", "0.1"), spawn_bot(cli, server, table, "s2", "1")]
    for child in (watcher, *bots):
        child.expect("connected")
    start(server, connect, table, "s1")
    exit_with_their_results(bots, cli, watching=(watcher,))

    events = recorded_events(cli, server, table)
    types = [event["type"] for event in events]
    assert types.count("GameStarted") == 1 and types[-1] == "GameEnded"
    ended = events[-1]["data"]
    scoring = "cards" if version.startswith("cards") else version
    assert ended["scoring"] == scoring
    rounds = [e["data"] for e in events if e["type"] == "RoundWon"]
    assert rounds, "the bots solved no set"
    calls = [e["data"] for e in events if e["type"] == "SolutionCalled"]
    for won in rounds:  # taken by a right "24!" on that set (R-DECK40-2)
        assert any(c["set"] == won["set"] and c["ok"] and c["seat"] == won["seat"] for c in calls)
        assert len(won["cards"]) == 4
    # Each bot's call names the set it solved: one that crossed the next deal (the other bot
    # won the set first) is refused `stale_set` and recorded nowhere, so no call is ever
    # judged on cards the bot did not solve: every recorded "24!" is right, nobody is out.
    assert [c for c in calls if not c["ok"]] == []
    assert "PlayerExcluded" not in types
    for agreed in (e["data"] for e in events if e["type"] == "NoSolutionAgreed"):
        callers = {
            e["data"]["seat"]
            for e in events
            if e["type"] == "NoSolutionCalled" and e["data"]["set"] == agreed["set"]
        }
        assert callers == {"s1", "s2"}  # R-DECK40-3: agreed by every player
        assert agreed["reason"] == "all_called"
        if version == "advanced":  # R-DECK40-7: the server confirms the bots were right
            assert agreed["solvable"] is False and agreed["example"] is None

    assert ended["cards_left"] == piles_replayed(events)
    if scoring != "cards":  # points: 1 a set, 2 after another player's "no solution"
        points = Counter({"s1": 0, "s2": 0})
        for won in rounds:
            assert won["points"] == (2 if won["after_no_solution"] else 1)
            points[won["seat"]] += won["points"]
        assert ended["scores"] == dict(points)
        assert ended["reason"] in ("target_points", "cards_out", "no_solution_left")
        if ended["reason"] == "target_points":
            assert max(ended["scores"].values()) >= 3
        assert ended["winners"] == winners_of(ended["scores"])
        assert ended["tie"] == (len(ended["winners"]) > 1)
    else:  # R-DECK40-6: the fewest cards left wins when a player cannot turn up
        assert ended["reason"] in ("cannot_turn_up", "cards_out", "no_solution_left")
        for won in rounds:
            assert won["points"] == 0  # the card version has no points
            if version == "cards-house":  # the loser takes the four cards
                assert won["taken_by"] == ("s2" if won["seat"] == "s1" else "s1")
            else:
                assert won["taken_by"] is None
        assert ended["winners"] == winners_of(ended["cards_left"], lowest=True)
        assert ended["tie"] == (len(ended["winners"]) > 1)
        if version == "cards":
            assert ended["tie"] is True  # as written both piles shrink alike: a tie
        elif ended["reason"] == "cannot_turn_up":
            assert ended["tie"] is False  # the house option decides it

    # the spectator's `t24 watch` draws the same result (a tie shown as a tie)
    result = "tie" if ended["tie"] else "winner"
    names = " and ".join({"s1": "Ada", "s2": "Bo"}[seat] for seat in ended["winners"])
    why = ENDED_WORDS[ended["reason"]]
    watcher.expect(re.escape(f"{result}: {names} ({why})"), timeout=GAME_TIME)
    watcher.sendintr()  # a plain `watch` reads no keys: Ctrl-C leaves it
    watcher.expect(pexpect.EOF)
