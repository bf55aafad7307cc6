"""View pushes (issue 12): a client that holds the snapshot and applies the view each append's
last event push carries has exactly the game's view for its viewer after every append, and
the live deadlines, with no game rules of its own. Run through the real TableActor with the
memory store and a Clock, for the 24 Challenge and the toy game."""

from __future__ import annotations

import random

import pytest
import toygame
from shell_testcase import ShellTestCase
from twisted.internet.task import Clock

from protocol.codec import decode
from protocol.messages import validate_message
from protocol.views import apply_view_message, view_change
from server.eventlog.backends import open_store
from server.games import games
from server.games.base import Actor, Command, RuleViolation
from server.runtime.hub import Hub

T0 = 1_700_000_000.0
PROCTOR = Actor("proctor", "p1")
DIRECTOR = Actor("director", "d")
DECK = [
    {"card_id": 1, "numbers": [1, 2, 3, 4], "dots": 1},
    {"card_id": 2, "numbers": [3, 3, 8, 8], "dots": 3},
]
CHALLENGE = {"seats": [{"seat": f"s{i}", "name": f"N{i}"} for i in range(1, 5)], "deck": DECK}
TOY = {"seats": [{"seat": "s1", "name": "Ada"}, {"seat": "s2", "name": "Bo"}], "secret": 50}


class Client:
    """A thin client: the snapshot, then every push; it keeps the view and the deadlines."""

    def __init__(self, viewer: Actor) -> None:
        self.viewer = viewer
        self.view: dict | None = None
        self.deadlines: list = []
        self.last_event_seq = 0
        self.view_seq = 0
        self.frames: list[bytes] = []

    def take_snapshot(self, snapshot) -> None:
        self.view, self.deadlines = snapshot.view, snapshot.deadlines
        self.view_seq = self.last_event_seq = snapshot.seq

    def push(self, push) -> None:
        message = decode(push.frame)  # what the wire carries, not the server's dict
        validate_message(message)
        self.frames.append(push.frame)
        assert message["type"] == "event" and message["seq"] == self.last_event_seq + 1
        self.last_event_seq = message["seq"]
        if "view" in message or "patch" in message:  # the append's last event
            self.view = apply_view_message(self.view, message)
            self.deadlines, self.view_seq = message["deadlines"], message["seq"]


def make_clock():
    c = Clock()
    c.advance(T0)
    return c


class ViewPushesCase(ShellTestCase):
    """A task.Clock at T0."""

    def setUp(self):
        super().setUp()
        self.clock = make_clock()


def hub_for(clock):
    store = open_store("memory:", clock=clock.seconds)
    return Hub(store, clock, games={**games(), toygame.NAME: toygame})


def submit(actor, clock, name, sender=PROCTOR, **args):
    """Submit a command; a refusal (a guess after the game ended) is fine here."""
    d = actor.submit(Command(name, args, sender), int(clock.seconds() * 1_000_000))
    d.addErrback(lambda failure: failure.trap(RuleViolation))


def assert_current(actor, clients):
    """Every client draws exactly what the game says its viewer sees, and the live timers."""
    live = [
        {"key": d.key, "command": d.command.name, "at": d.at}
        for d in actor.game.deadlines(actor.state)
    ]
    for client in clients:
        assert client.view == actor.game.view(actor.state, client.viewer), client.viewer
        assert client.deadlines == live
        assert client.view_seq == actor.seq


def join(actor, viewer):
    client = Client(viewer)
    client.take_snapshot(actor.subscribe(client))
    return client


class ViewPushesTests(ViewPushesCase):
    def test_a_challenge_client_draws_from_snapshot_and_pushes_alone(self):
        clock = self.clock
        actor = hub_for(clock).create_table("t", "challenge", CHALLENGE, DIRECTOR).result
        viewers = [Actor("player", f"s{i}") for i in range(1, 5)]
        clients = [join(actor, viewer) for viewer in (*viewers, PROCTOR, Actor("spectator"))]
        submit(actor, clock, "start_round")
        submit(actor, clock, "place_card")
        assert_current(actor, clients)
        assert clients[0].view["card"]["numbers"] is None  # cupped: the player's view hides it
        assert clients[4].view["card"]["numbers"] == [1, 2, 3, 4]
        submit(actor, clock, "reveal_card")
        late = join(actor, Actor("player", "s3"))  # a second subscriber of a viewer, mid-card
        submit(actor, clock, "touch_card", Actor("player", "s2"))
        clients.append(late)
        assert_current(actor, clients)
        assert [d["command"] for d in clients[0].deadlines] == [
            "pattern_deadline",
            "solution_deadline",
        ]
        clock.advance(3.5)  # the pattern deadline fires: a server append is pushed the same way
        assert actor.events[-1].type in ("FlagIssued", "CardReturnedToDeck", "PlayerDisqualified")
        assert_current(actor, clients)

    def test_equal_patches_are_encoded_once_and_shared(self):
        clock = self.clock
        actor = hub_for(clock).create_table("t", "challenge", CHALLENGE, DIRECTOR).result
        players = [join(actor, Actor("player", f"s{i}")) for i in range(1, 5)]
        submit(actor, clock, "start_round")
        view_frames = [client.frames[-1] for client in players]
        assert all(frame is view_frames[0] for frame in view_frames)  # one encoding for all four
        assert decode(view_frames[0])["patch"]["set"]["phase"] == "between_cards"
        spectator = join(actor, Actor("spectator"))
        proctor = join(actor, PROCTOR)
        submit(actor, clock, "place_card")
        # the players and the spectator see the cupped card the same way: one push; the proctor
        # sees its numbers: another
        assert players[0].frames[-1] is spectator.frames[-1] is not proctor.frames[-1]
        assert_current(actor, [*players, spectator, proctor])

    def test_a_toy_client_stays_current_through_random_play(self):
        for seed in range(5):
            clock = make_clock()
            rng = random.Random(seed)
            actor = hub_for(clock).create_table("t", "toy", TOY, DIRECTOR).result
            clients = [join(actor, Actor("player", "s1")), join(actor, Actor("spectator"))]
            submit(actor, clock, "start")
            for _ in range(30):
                clock.advance(rng.choice([0.5, 4, 11]))  # sometimes a turn runs out (skip_turn)
                seat = actor.state.seats[actor.state.turn]
                submit(actor, clock, "guess", Actor("player", seat), number=rng.randint(1, 100))
                assert_current(actor, clients)
                assert ("secret" in clients[0].view) == actor.state.over

    def test_view_change_patches_small_changes_and_sends_big_ones_whole(self):
        old = {"a": 1, "b": 2, "c": 3, "d": 4}
        assert view_change(old, {**old, "a": 9}) == {"patch": {"set": {"a": 9}, "unset": []}}
        assert view_change(old, {"a": 1, "b": 2, "c": 3}) == {"patch": {"set": {}, "unset": ["d"]}}
        whole = {"a": 5, "b": 6, "c": 7, "d": 4}
        assert view_change(old, whole) == {"view": whole}
        assert view_change(None, old) == {"view": old}
        for new in ({**old, "a": 9}, {"a": 1}, whole, {**old, "e": None}):
            assert apply_view_message(old, view_change(old, new)) == new

    def test_a_patch_without_the_view_it_patches_asks_for_a_new_join(self):
        with pytest.raises(ValueError, match="join"):
            apply_view_message(None, {"patch": {"set": {"a": 1}, "unset": []}})

    def test_the_documented_push_applies_to_the_documented_snapshot(self):
        """docs/protocol.md: the `event` example (seq 43) patches the `snapshot` example's view
        (seq 42) as any client would, and its deadlines replace the snapshot's."""
        import json
        import re
        from pathlib import Path

        doc = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()
        found = [json.loads(block) for block in re.findall(r"```json\n(.*?)```", doc, flags=re.S)]
        snapshot = next(m for m in found if m["type"] == "snapshot")
        push = next(m for m in found if m["type"] == "event" and "patch" in m)
        assert push["seq"] == snapshot["seq"] + 1 and push["table"] == snapshot["table"]
        view = apply_view_message(snapshot["view"], push)
        assert view == {**snapshot["view"], **push["patch"]["set"]} and view["you"] == "s2"
        assert [d["command"] for d in push["deadlines"]] == [
            "pattern_deadline",
            "solution_deadline",
        ]
