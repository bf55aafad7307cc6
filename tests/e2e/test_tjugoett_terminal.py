"""`t24 tjugoett` in pseudo-terminals against a real server: the table created with
`t24 admin create-table --game tjugoett`, Ada at the keyboard, Bo played by `--bot`, the
proctor starting the round and ending the table, the server dealing.

The seed is chosen so that Ada's first hand needs a decision (neither 21 nor bust on two
cards): the test computes the recorded shuffle with the game's own function.
"""

from __future__ import annotations

import json

import pexpect
import pytest
from cli_pty import T24Cli

from server.games.tjugoett.cards import DECK, player_verdict, round_label, shuffled

pytestmark = pytest.mark.e2e


def _seed_with_a_decision() -> str:
    for number in range(1000):
        seed = f"pty-seed-{number:04d}"
        order = shuffled(DECK, seed, round_label(1))
        if player_verdict([order[0], order[2]]) is None:  # Ada: the first and third cards
            return seed
    raise AssertionError("no seed found")


@pytest.fixture
def cli(tmp_path):
    runner = T24Cli(tmp_path)
    yield runner
    runner.close()


def test_a_round_of_tjugoett_at_the_terminal(server, cli):
    options = json.dumps({"seed": _seed_with_a_decision(), "dealer_seconds": 0.05})
    tokens = cli.create_table(
        server, "kort", "--game", "tjugoett", "--options", options, seats="s1:Ada,s2:Bo"
    )
    ada = cli.spawn("tjugoett", "--tokens", str(tokens), "--seat", "s1")
    ada.expect("Tjugoett · table kort · round 0 · between rounds")
    bo = cli.spawn("tjugoett", "--tokens", str(tokens), "--seat", "s2", "--bot")
    bo.expect("Tjugoett · table kort")
    proctor = cli.spawn("tjugoett", "--tokens", str(tokens), "--proctor")
    proctor.expect("n = start the next round")
    watcher = cli.spawn("tjugoett", "--tokens", str(tokens), "--watch")
    watcher.expect("Tjugoett · table kort")
    ada.send("d\r")
    ada.expect("not now")  # no round yet: nothing to draw

    proctor.send("n\r")
    ada.expect("round 1: the deck is shuffled")
    ada.expect("Your keys: d = draw a card, s = stand")
    ada.send("s\r")
    ada.expect(r"Ada stands at \d+")
    ada.expect(r"Ada (wins|loses) \(")
    bo.expect(r"Bo (wins|loses) \(")
    ada.expect(r"round 1 over \(all played\)")
    proctor.expect(r"round 1 over")
    proctor.send("e\r")
    for child in (ada, bo, proctor, watcher):
        child.expect("the table is over after 1 round")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0, cli.logs()
    shown = ada.logfile_read.getvalue()
    assert "Bo gets a card (1 card)" in shown  # R-21-19 / turn_over: Bo's live card hidden
    assert "Tally (won-lost): Ada " in shown
    watched = watcher.logfile_read.getvalue()
    assert "Ada gets a card (2 cards)" in watched  # a spectator sees no live hand
    assert "Ada stands\r" in watched or "Ada stands\n" in watched  # ... nor its sum
    fed = [line for line in shown.splitlines() if line.startswith("the dealer draws")]
    assert len(fed) == len(set(fed)), "an event was printed twice"
