"""Tjugoett in the generic client's pseudo-terminals against a real server: the table created
with `t24 admin create-table --game tjugoett` (its code, run in the test's process: the real
process is test_tjugoett_dealer_terminal.py's), Ada at `t24 play`, Bo played by `t24 bot`, the
proctor (`t24 proctor`) starting the round and ending the table, a spectator at `t24 watch`,
the server dealing. Each screen is drawn by the game's part (clients/reference_cli/games/
tjugoett/) from the views the server pushes.

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
    watcher = cli.spawn("watch", "--tokens", str(tokens))
    watcher.expect("round 0 · between rounds")
    bo = cli.spawn(
        "bot", "--tokens", str(tokens), "--seat", "s2", "--skill", "perfect", "--time-scale", "0.2"
    )
    ada = cli.spawn("play", "--tokens", str(tokens), "--seat", "s1")
    ada.expect("you: Ada\\s")
    ada.expect("connected")
    proctor = cli.spawn("proctor", "--tokens", str(tokens))
    proctor.expect("\\[n\\] start the next round")
    ada.send("d")
    ada.expect("not now")  # no round yet: nothing to draw

    proctor.send("n")
    ada.expect("round 1: the deck is shuffled")
    ada.expect("\\[d\\] draw a card  \\[s\\] stand  \\[q\\] quit")
    ada.send("s")
    ada.expect(r"Ada stands at \d+")
    ada.expect(r"Ada (wins|loses): ")
    ada.expect(r"Bo (wins|loses): ")
    ada.expect(r"round 1 is over: everyone has played")
    proctor.expect(r"round 1 is over")
    proctor.send("e")
    for child in (ada, proctor, watcher):
        child.expect("the table is over after 1 round")
        child.send("q")
    for child in (ada, bo, proctor, watcher):
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0, cli.logs()
    watched = watcher.logfile_read.getvalue()
    assert "Ada gets a card face down (2 cards)" in watched  # a spectator sees no live hand
    seen_by_ada = ada.logfile_read.getvalue()
    assert "Bo gets a card face down (1 card)" in seen_by_ada  # nor does another player
