"""A person dealer's Tjugoett screen in a pseudo-terminal against a real server (issue 15):
the table created with `t24 admin create-table --game tjugoett --options '{"dealer": ...}'`
(as the README shows), Dora deals at `t24 play --seat dl`, Bo is played by `t24 bot`.

Dora starts the round (`n`), waits while Bo plays his turn (his cards stay `??` on her screen,
R-21-19), draws twice (`d`, R-21-14) and stands (`s`); the screen shows the outcome
(R-21-18) and the tally, then the director ends the table. The seed is chosen so that the
round needs those moves: the test computes the recorded shuffle with the game's own
functions and plays Bo's policy (the perfect bot stands at 16) on it.
"""

from __future__ import annotations

import json
import re

import pexpect
import pytest
from cli_pty import T24Cli

from server.games.tjugoett.cards import (
    DECK,
    dealer_verdict,
    hand_value,
    player_verdict,
    round_label,
    shuffled,
    stand_verdict,
)

pytestmark = pytest.mark.e2e

BOT_STANDS_AT = 16  # clients/reference_cli/games/tjugoett/bot.py, SKILLS["perfect"]


def a_round_the_dealer_plays() -> tuple[str, list[str], list[str]]:
    """(seed, Bo's hand, the dealer's two cards) of a first round in which Bo stands without
    a settled hand and the dealer may stand on two cards."""
    for number in range(2000):
        seed = f"dealer-pty-{number:04d}"
        order = shuffled(DECK, seed, round_label(1))
        hand, rest = order[:2], order[2:]  # one card dealt, one at the turn's start
        while player_verdict(hand) is None and hand_value(hand) < BOT_STANDS_AT:
            hand, rest = [*hand, rest[0]], rest[1:]
        if player_verdict(hand) is not None:
            continue  # 21, bust or five cards: the dealer would not play
        dealer = rest[:2]
        if dealer_verdict(dealer) is None:
            return seed, hand, dealer
    raise AssertionError("no seed found")


SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
STOOD = {
    "dealer_below": "the dealer stood at {dealer}, below {player}",
    "dealer_at_or_above": "the dealer stood at {dealer}, at or above {player}",
}


def shown(card: str) -> str:
    """A card as a screen shows it: `10♥`."""
    return card[:-1] + SUITS[card[-1]]


@pytest.fixture
def cli(tmp_path):
    runner = T24Cli(tmp_path)
    yield runner
    runner.close()


def test_a_person_dealer_deals_a_round_at_the_terminal(server, connect, cli):
    seed, bo_hand, dealer_cards = a_round_the_dealer_plays()
    options = json.dumps({"seed": seed, "dealer": {"seat": "dl", "name": "Dora"}})
    tokens = cli.create_table(
        server, "kort-dl", "--game", "tjugoett", "--options", options, seats="s1:Bo", process=True
    )
    assert (tokens / "dl.json").exists()  # the dealer's seat has its tokens file
    dora = cli.spawn("play", "--tokens", str(tokens), "--seat", "dl")
    dora.expect("you: Dora \\(the dealer\\)")
    dora.expect("connected")
    dora.expect("\\[n\\] start the next round  \\[q\\] quit")
    bo = cli.spawn(
        "bot", "--tokens", str(tokens), "--seat", "s1", "--skill", "perfect", "--time-scale", "0.5"
    )
    bo.expect("connected")
    dora.send("s")
    dora.expect("not now")  # nothing to stand on between rounds

    dora.send("n")  # a person dealer starts the rounds
    dora.expect("round 1: the deck is shuffled")
    dora.expect("Bo stands")  # the bot played its turn; the dealer learns no sum (R-21-19)
    dora.expect("\\[d\\] draw for the dealer  \\[q\\] quit")  # no stand on no cards
    dora.send("d")
    dora.expect(f"the dealer draws {shown(dealer_cards[0])}")
    dora.send("d")
    total = hand_value(dealer_cards)
    dora.expect(f"the dealer draws {shown(dealer_cards[1])} \\({total}\\)")
    dora.expect("\\[d\\] draw for the dealer  \\[s\\] stand for the dealer  \\[q\\] quit")
    before_the_stand = dora.logfile_read.getvalue()
    for card in bo_hand:  # Bo's cards never reached the dealer's screen (R-21-19)
        assert shown(card) not in before_the_stand, card
    assert "Bo stands at" not in before_the_stand

    dora.send("s")
    dora.expect(f"the dealer stands at {total}")
    verdict = stand_verdict(total, hand_value(bo_hand))  # R-21-18
    outcome = "wins" if verdict.winner == "player" else "loses"
    hand = " ".join(shown(card) for card in bo_hand) + f" = {hand_value(bo_hand)}"
    why = STOOD[verdict.reason].format(dealer=total, player=hand_value(bo_hand))
    dora.expect(re.escape(f"Bo {outcome}: {why} ({hand})"))
    dora.expect(re.escape("round 1 is over: everyone has played"))
    won = "1-0" if verdict.winner == "player" else "0-1"
    lost = "0-1" if verdict.winner == "player" else "1-0"
    dora.expect("\\[n\\] start the next round  \\[q\\] quit")  # the round is over
    tally = f"tally (won-lost): Bo {won}  the dealer {lost}"  # drawn above the feed
    assert tally in dora.logfile_read.getvalue()

    director = connect(server.token("director", name="director"))
    ended = director.request("command", table="kort-dl", name="end_table", args={})
    assert ended["type"] == "accepted", ended
    dora.expect("the table is over after 1 round")
    dora.send("q")
    for child in (dora, bo):
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0, cli.logs()
