"""`view_at` (server/runtime/view_at.py) against every game: the table as it stood after any
seq, for any viewer, is exactly the view a live join at that moment was given.

Each game is played at random through its own `decide` (the contract suite's `Play`); after
every command the live state's view for every kind of viewer is kept, as a snapshot then
would have shown it. The recorded log is loaded into a real `TableActor`, and `view_at` must
answer those same views (so nothing a viewer could not see then is shown now, and nothing
it saw is lost), the deadlines live then, and, for the seqs inside one command's events, the
fold of the log up to them; and every answer passes the game's own leak check (its example's
`view_leaks`, e.g. a Tjugoett person dealer never sees a live turn's cards). The checkpoint
spacing is varied so that the boundaries are hit.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from test_game_contract import GAMES, Play, example_of, recorded
from twisted.internet.defer import Deferred
from twisted.internet.task import Clock
from twisted.python.failure import Failure

from server.eventlog.backends import open_store
from server.eventlog.envelope import NewEvent, RecordedEvent
from server.games.base import Actor, Command, Event, RuleViolation
from server.runtime import view_at as view_at_module
from server.runtime.table_actor import TableActor
from server.runtime.view_at import ViewAt
from server.runtime.view_at import view_at as view_at_deferred
from server.runtime.views import live_deadlines

STEPS = 50


def fired(d: Deferred) -> Any:
    """The result of a Deferred fired at once (the memory store answers synchronously)."""
    results: list = []
    d.addBoth(results.append)
    if isinstance(results[0], Failure):
        results[0].raiseException()
    return results[0]


def view_at(actor: TableActor, args: object, viewer: Actor) -> ViewAt:
    """The answer of `view_at`: from the actor's recent events, or read from the store."""
    return fired(view_at_deferred(actor, args, viewer))


SEEDS = (0, 2)  # Tjugoett: with a person dealer (0), without (2)


def actor_of(play: Play) -> TableActor:
    """The recorded log of `play` in a memory store, loaded into a real table actor as the
    hub loads a stream: it holds its recent events only (`RECENT_EVENTS`), so `view_at` of
    an older step reads the store, as on a server."""
    created = Event("TableCreated", {"game": play.game.NAME, "options": play.options})
    log = [recorded(created), *(recorded(event) for event in play.log)]
    store = open_store("memory:")
    fired(store.append("table/t", 0, [NewEvent(e.type, dict(e.data)) for e in log]))
    actor = TableActor("t", play.game, store, Clock())
    actor.load(fired(store.load("table/t")))
    return actor


def logged(actor: TableActor) -> list[RecordedEvent]:
    """The actor's whole recorded log, from its store."""
    return fired(actor.store.read(actor.stream))


def played(name: str, seed: int) -> tuple[Play, dict[int, dict]]:
    """A random play of game `name`, and after each command the live views by seq."""
    game, example = GAMES[name], example_of(name)
    rng = random.Random(seed)
    play = Play(game, example, example.options(rng))
    dealer = play.options.get("dealer")  # a Tjugoett person dealer sits outside `seats`
    if isinstance(dealer, dict):
        play.viewers.append(Actor("player", dealer["seat"]))
    live = {1: {viewer: game.view(play.state, viewer) for viewer in play.viewers}}
    live_deadlines_at = {1: live_deadlines(game, play.state)}
    for _ in range(STEPS):
        if game.is_over(play.state):
            break
        play.now += rng.randint(0, 2_000_000)
        if rng.random() < 0.2 and play.fire_next_deadline():
            pass
        else:
            commands = example.commands(play.state, rng)
            if not commands or not play.send(rng.choice(commands)):
                continue
        seq = 1 + len(play.log)
        live[seq] = {viewer: game.view(play.state, viewer) for viewer in play.viewers}
        live_deadlines_at[seq] = live_deadlines(game, play.state)
    return play, {seq: {"views": live[seq], "deadlines": live_deadlines_at[seq]} for seq in live}


@pytest.mark.parametrize("every", [1, 3, view_at_module.CHECKPOINT_EVERY])
@pytest.mark.parametrize("name", sorted(GAMES))
def test_view_at_answers_the_live_view_of_every_viewer_at_every_step(name, every, monkeypatch):
    monkeypatch.setattr(view_at_module, "CHECKPOINT_EVERY", every)
    checked = 0
    for seed in SEEDS:
        play, live = played(name, seed)
        actor = actor_of(play)
        game = play.game
        events = logged(actor)
        folded = [game.initial_state(actor.options)]  # the plain fold, to compare with
        for event in events[1:]:
            folded.append(game.evolve(folded[-1], Event(event.type, event.data)))
        # every viewer from the first seq to the last, then one viewer back again: the
        # checkpoints are built in either order
        asked = [(seq, v) for seq in range(1, actor.seq + 1) for v in play.viewers]
        asked += [(seq, play.viewers[0]) for seq in range(actor.seq, 0, -1)]
        for seq, viewer in asked:
            answer = view_at(actor, {"seq": seq}, viewer)
            assert answer.seq == seq
            if seq in live:
                assert answer.result["view"] == live[seq]["views"][viewer], (seq, viewer)
                assert answer.result["deadlines"] == live[seq]["deadlines"], seq
                checked += 1
            else:  # inside one command's events: the fold of the log up to seq
                assert answer.result["view"] == game.view(folded[seq - 1], viewer), seq
            leaks = play.example.view_leaks(viewer, answer.result["view"], folded[seq - 1])
            assert not leaks, (seq, viewer, answer.result["view"])
            event = events[seq - 1]
            assert answer.result["at"] == event.data.get("at", event.at)
    assert checked > 3 * len(SEEDS), "the plays were too short to check anything"


def test_a_deep_step_folds_once_then_costs_at_most_one_checkpoint_span():
    """The work bound the session charges for: the first deep answer folds up to it once;
    every later answer folds fewer than CHECKPOINT_EVERY events."""
    toy = example_of("toy")
    play = Play(GAMES["toy"], toy, toy.options(random.Random(4)))
    assert play.send(Command("start", {}, toy.PROCTOR))
    while len(play.log) < 3 * view_at_module.CHECKPOINT_EVERY:  # a long table
        assert play.send(Command("pause", {"cause": "tea"}, toy.PROCTOR))
        assert play.send(Command("resume", {}, toy.PROCTOR))
    actor = actor_of(play)
    assert actor.first_seq > 1  # its start left memory: the older steps are read from the store
    viewer = play.viewers[0]
    deep = actor.seq - 1
    first = view_at(actor, {"seq": deep}, viewer)
    assert first.folded >= deep - view_at_module.CHECKPOINT_EVERY
    for seq in range(1, actor.seq):
        assert view_at(actor, {"seq": seq}, viewer).folded < view_at_module.CHECKPOINT_EVERY
    assert view_at(actor, {"seq": actor.seq}, viewer).folded == 0  # the table now


@pytest.mark.parametrize(
    ("args", "code"),
    [
        ({}, "bad_message"),
        (None, "bad_message"),
        (["seq", 2], "bad_message"),
        ({"seq": 2, "more": 1}, "bad_message"),
        ({"seq": "2"}, "bad_message"),
        ({"seq": 2.0}, "bad_message"),
        ({"seq": True}, "bad_message"),
        ({"seq": -1}, "bad_message"),
        ({"seq": 0}, "bad_seq"),
        ({"seq": 10**6}, "bad_seq"),
    ],
)
def test_view_at_refuses_bad_arguments_with_the_protocol_codes(args, code):
    play, _live = played("toy", 1)
    actor = actor_of(play)
    with pytest.raises(RuleViolation) as refused:
        view_at(actor, args, play.viewers[0])
    assert refused.value.code == code
    assert view_at(actor, {"seq": actor.seq}, play.viewers[0]).seq == actor.seq
