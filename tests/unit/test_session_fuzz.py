"""Random traffic from every role against live tables of every game: bad input never crashes
a session, never loses or corrupts an event, and is always answered with a documented error
code.

Why a property test here: the hand-written refusal tests (test_net.py, e2e refusals) pin one
bad input each; this one mixes garbage frames, wrong fields, commands out of phase, repeated
ids, deadlines firing between requests and valid play, in any order, from the director, the
proctor, players and a spectator at once, and then checks every table's log by replaying it.
The tables: `t1`, a 24 Challenge table played through a realistic burst (PLAY), and one
table of every other game and the tournament (`GAME_TABLES`), each with a player of its own.
Commands, argument names and shapes come from every game's own declarations
(tests/argument_shapes.py: `COMMANDS_BY_ROLE`, `argument_names`, `SHAPES`), so a new game,
command or argument is fuzzed without touching this file.
"""

from __future__ import annotations

import functools
import itertools
import random

from argument_shapes import SHAPES, UNKNOWN_ARG, argument_names
from example_plays import example_of
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from shell_testcase import ShellTestCase
from test_net import T0, Wire, make_session, token
from tournament_support import tournament_options
from twisted.internet.task import Clock

import server.tournament as tournament
from protocol.codec import encode
from protocol.messages import CLIENT_TYPES, CLOSE_CODES, ERROR_CODES, validate_message
from server.audit.replay import replay_table
from server.eventlog.backends import open_store
from server.games import games
from server.games.base import Event, replay
from server.games.challenge import COMMANDS
from server.net.session import Session
from server.runtime.hub import Hub

DECK = [{"card_id": i, "numbers": [1, 2, 3, 4], "dots": 1} for i in range(1, 4)]
OPTIONS = {"seats": [{"seat": f"s{i}", "name": ""} for i in range(1, 4)], "deck": DECK}
# Every game but the challenge (t1), and the tournament: a table each, named after the game.
GAMES = {**games(), tournament.NAME: tournament}
GAME_TABLES = {
    name: f"tournament/{name}" if name == tournament.NAME else name
    for name in sorted(GAMES)
    if name != "challenge"
}


@functools.cache
def table_options(name: str) -> dict:
    """A valid options map for a table of game `name` (the contract suite's example).

    Cached: the same map every time (a fixed seed), built once rather than for each of the
    250 tables `open_table` opens; nothing mutates it (`CREATE_ANY_GAME` copies it)."""
    if name == tournament.NAME:
        return tournament_options()
    example = example_of(GAMES[name])
    assert example is not None, name
    return example.options(random.Random(1))


TOKENS = {
    "director": token("director"),
    "proctor": token("proctor", table="t1"),
    "s1": token("player", table="t1", seat="s1"),
    "s2": token("player", table="t1", seat="s2"),
    "spectator": token("spectator"),
    **{  # a player of each other game's table (the tournament has none: its director acts)
        f"s1@{table}": token("player", table=table, seat="s1")
        for name, table in GAME_TABLES.items()
        if name != tournament.NAME
    },
}
ROLES = tuple(TOKENS)
TABLES = ("t1", *GAME_TABLES.values())
# Every code a session may answer with: the protocol's, every game's refusals, and the
# shell's `unknown_query` for a game without queries (docs/protocol.md, "query").
DOCUMENTED = {*ERROR_CODES, *(code for game in GAMES.values() for code in game.REFUSALS)}
DOCUMENTED.add("unknown_query")
SOLUTION = ["1*2=2", "2*3=6", "6*4=24"]


def plain_values() -> st.SearchStrategy:
    scalars = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(2**40), 2**40),
        st.floats(allow_nan=False),
        st.text(max_size=12),
        st.binary(max_size=8),
    )
    return st.recursive(
        scalars,
        lambda inner: (
            st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
        ),
        max_leaves=8,
    )


# The argument names each game and the tournament reads, documents or sends (and an unknown).
GAME_ARG_NAMES = {name: argument_names(name, game) for name, game in GAMES.items()}
# Every one of them, whichever game.
ARG_NAMES = sorted(set().union(*GAME_ARG_NAMES.values()))
# The challenge table's (t1): another game's names reach its handlers as the unknown one does
# (none reads them), and each game's own names are swept on its Decider by
# tests/contract/test_argument_shapes.py.
CHALLENGE_ARG_NAMES = sorted(GAME_ARG_NAMES["challenge"])
COMMAND_NAMES = sorted({command for game in GAMES.values() for command in game.COMMANDS_BY_ROLE})
# Shapes a handler must not test for membership or use as a key before checking the type
# (issue 18: `issue_flag` with a list `cause` answered `internal`).
UNHASHABLE = [[], ["late_touch"], {}, {"seat": "s1"}, [[1]]]
PLAUSIBLE = {"seat": "s2", "cause": "late_touch", "pattern": "4*6", "steps": SOLUTION}

# Arguments the games read, with values that sometimes make sense and sometimes do not: every
# shape of SHAPES (lists, maps, None, bools, floats, a huge int, a long string) among them.
ARGS = st.dictionaries(
    st.sampled_from(ARG_NAMES),
    st.one_of(
        st.sampled_from(["s1", "s2", "s9", "x", "late_touch", "proctor", 1, 3, 0, -1]),
        st.just(SOLUTION),
        st.just([3, 1, 2]),
        st.sampled_from(UNHASHABLE),
        st.sampled_from(list(SHAPES.values())),
        plain_values(),
    ),
    max_size=3,
)
# A director's create_table of any game with its own options, one option (a known one, or
# an unknown one) of any shape.
CREATE_ANY_GAME = st.builds(
    lambda game_options, key, shape, table: {
        "type": "create_table",
        "id": 300,
        "table": table,
        "game": game_options[0],
        "options": {**game_options[1], key: shape},
    },
    st.sampled_from(
        [("challenge", OPTIONS)] + [(name, table_options(name)) for name in GAME_TABLES]
    ),
    st.sampled_from(sorted({UNKNOWN_ARG, *(k for g in GAMES.values() for k in g.DEFAULT_OPTIONS)})),
    st.one_of(st.sampled_from(list(SHAPES.values())), plain_values()),
    st.sampled_from(["n1", "n2", "tournament/n3"]),
)

FIELDS = {
    "id": st.one_of(st.integers(-2, 40), st.text(max_size=3), st.none()),
    "table": st.one_of(st.sampled_from([*TABLES, "t2", "bad id!", ""]), st.integers(0, 3)),
    "name": st.one_of(
        st.sampled_from([*COMMAND_NAMES, "view_at", "preview_ruling", "nope"]), st.integers(0, 3)
    ),
    "args": st.one_of(ARGS, plain_values()),
    "token": st.one_of(st.sampled_from(list(TOKENS.values()) + ["garbage"]), st.integers(0, 3)),
    "after_seq": st.one_of(st.integers(-1, 30), st.text(max_size=3)),
    "options": st.one_of(st.just(OPTIONS), plain_values()),
    "game": st.sampled_from([*sorted(GAMES), "nope"]),
    "role": st.sampled_from(["player", "spectator", "god"]),
    "seat": st.sampled_from(["s1", "s2"]),
    "junk": plain_values(),
}

MESSAGE = st.builds(
    lambda kind, fields: {"type": kind, **fields},
    st.one_of(st.sampled_from(sorted(CLIENT_TYPES) + ["nope"]), st.integers(0, 3)),
    st.fixed_dictionaries({}, optional=FIELDS),
)

# A realistic burst of play, so that the random traffic also meets a table that is mid-card.
PLAY = [
    ("proctor", {"type": "command", "name": "start_round", "table": "t1"}),
    ("proctor", {"type": "command", "name": "place_card", "table": "t1"}),
    ("proctor", {"type": "command", "name": "reveal_card", "table": "t1"}),
    ("s1", {"type": "command", "name": "touch_card", "table": "t1"}),
    ("s1", {"type": "command", "name": "declare_pattern", "table": "t1", "args": {"pattern": "p"}}),
    ("s1", {"type": "command", "name": "fix_solution", "table": "t1", "args": {"steps": SOLUTION}}),
]

STEP = st.one_of(
    st.tuples(st.just("message"), st.sampled_from(ROLES), MESSAGE),
    st.tuples(st.just("message"), st.just("director"), CREATE_ANY_GAME),
    st.tuples(st.just("play"), st.just(""), st.integers(1, len(PLAY))),  # a prefix of PLAY
    st.tuples(st.just("bytes"), st.sampled_from(ROLES), st.binary(max_size=24)),
    st.tuples(st.just("text"), st.sampled_from(ROLES), st.binary(max_size=8)),
    st.tuples(st.just("wait"), st.just(""), st.floats(0, 20)),
    st.tuples(st.just("finish"), st.just(""), st.just(0)),  # end the round, everyone leaves
    st.tuples(st.just("sweep"), st.just(""), st.just(0)),  # evict quiet finished tables
)


def open_table() -> tuple[Clock, Hub, dict[str, tuple[Session, Wire]]]:
    """A memory-store hub with table t1 and a table of every other game (GAME_TABLES), and an
    authenticated session per token, joined to every table its token may see."""
    clock = Clock()
    clock.advance(T0)
    hub = Hub(open_store("memory:", clock=clock.seconds), clock, evict_after=1.0)
    sessions = {}
    for role in ROLES:
        session, wire = make_session(hub, clock, rate_per_second=1e6, rate_burst=10**6)
        session.frame_received(encode({"type": "hello", "id": 0, "token": TOKENS[role]}), True)
        sessions[role] = (session, wire)
    director, director_wire = sessions["director"]
    created = {"t1": ("challenge", OPTIONS)}
    created.update({table: (name, table_options(name)) for name, table in GAME_TABLES.items()})
    for table, (name, options) in created.items():
        director.frame_received(
            encode(
                {"type": "create_table", "id": 1, "table": table, "game": name, "options": options}
            ),
            True,
        )
        assert director_wire.messages()[-1]["type"] == "table_created", table
    for session, wire in sessions.values():
        for table in TABLES:
            assert session.claims is not None
            if session.claims.may_see(table):
                session.frame_received(encode({"type": "join", "id": 2, "table": table}), True)
                assert wire.messages()[-1]["type"] == "snapshot"
    return clock, hub, sessions


def check_output(messages: list[dict], wire: Wire) -> None:
    """Everything a session sent is a documented server message; no fault, no 1011."""
    for message in messages:
        spec = validate_message(message)
        assert spec.sender == "server", message
        if message["type"] == "error":
            code = message["code"]  # the protocol's codes, or a game's refusals (docs/rules.md)
            assert code in DOCUMENTED, message
            assert code != "internal", message
    for code, _reason in wire.closed:
        assert code in CLOSE_CODES and code != 1011, wire.closed


def send(sessions: dict[str, tuple[Session, Wire]], role: str, message: dict) -> None:
    """Send one map from `role`; a request with a usable id gets exactly one answer; and
    everything the session sent, before the request and for it, passes `check_output`.

    Each frame is decoded once, here, and taken off the wire (`Wire.messages`): the callers'
    own `check_output` then finds only what other steps sent (a frame decoded twice cost 5% of
    the file's CPU: 200,000 requests)."""
    session, wire = sessions[role]
    check_output(wire.messages(), wire)
    session.frame_received(encode(message), True)
    sent = wire.messages()
    check_output(sent, wire)
    rid = message.get("id")
    if type(rid) is int and rid >= 0 and not wire.closed:
        replies = [m for m in sent if m["type"] != "event" and m.get("id") == rid]
        assert len(replies) == 1, (message, sent)


class SessionFuzzTests(ShellTestCase):
    @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.lists(STEP, max_size=25))
    def test_random_traffic_is_answered_and_the_log_replays(self, steps):
        clock, hub, sessions = open_table()
        for kind, role, payload in steps:
            if kind == "wait":
                clock.advance(payload)  # deadlines fire between requests, as on a real table
            elif kind == "play":
                for number, (player, message) in enumerate(PLAY[:payload]):
                    send(sessions, player, dict(message, id=100 + number))
            elif kind == "finish":
                send(
                    sessions,
                    "proctor",
                    {"type": "command", "id": 200, "table": "t1", "name": "end_round"},
                )
                for each in ROLES:
                    send(sessions, each, {"type": "leave", "id": 201, "table": "t1"})
            elif kind == "sweep":
                hub.evict_quiet_tables()  # a finished table nobody watches leaves memory:
                clock.advance(1.0)  # the first sweep saw it quiet, the next one evicts it
                hub.evict_quiet_tables()
            elif kind == "message":
                send(sessions, role, payload)
            else:
                sessions[role][0].frame_received(payload, kind == "bytes")
            for _session, wire in sessions.values():
                check_output(wire.messages(), wire)

        # The logs: every event an actor applied is stored, the chain verifies, and a replay
        # from the store reaches exactly the live table's state (reloaded if it was evicted).
        # t1 through the audit's own replay; every table (the tournament, which the audit
        # does not replay, too) through `verify` and its game's fold.
        evicted = "t1" in hub.retired
        actor = hub.actors.get("t1") or hub.get("t1").result
        replayed = replay_table(hub.store.engine, "table/t1")
        assert replayed.report.ok
        assert replayed.moments[-1].seq == actor.seq
        assert replayed.moments[-1].state == actor.state
        for table in TABLES:
            live = hub.actors.get(table) or hub.get(table).result
            assert hub.store.engine.verify(live.stream).ok, table
            events = hub.store.engine.read(live.stream)
            created, rest = events[0].data, [Event(e.type, e.data) for e in events[1:]]
            assert events[-1].seq == live.seq, table
            assert replay(GAMES[created["game"]], created["options"], rest) == live.state, table
        event(f"table reached phase {actor.state.phase}")  # --hypothesis-show-statistics
        event(f"evicted at the end: {evicted}")

    def test_every_command_refuses_unhashable_arguments_in_every_phase(self):
        """Issue 18: a list or a map where a handler expects a string (or a number) is
        `bad_args` or another documented refusal, never `internal`: for every command, every
        argument name the challenge game has (CHALLENGE_ARG_NAMES), alone or beside one
        plausible other argument, in the phases PLAY passes through (setup, between cards,
        revealed, solving), from every role that sends commands, through the session and the
        hub."""
        for reached, name in itertools.product((0, 1, 3, 4), sorted(COMMANDS)):
            _clock, _hub, sessions = open_table()  # a fresh table: an accepted command moves it on
            for number, (player, message) in enumerate(PLAY[:reached]):
                send(sessions, player, dict(message, id=100 + number))
            request_id = 1000
            for arg, value, other in itertools.product(
                CHALLENGE_ARG_NAMES, UNHASHABLE[::2], [None, *PLAUSIBLE]
            ):
                args = {} if other is None or other == arg else {other: PLAUSIBLE[other]}
                args[arg] = value
                for role in ("director", "proctor", "s1"):
                    request_id += 1
                    message = {"type": "command", "id": request_id, "table": "t1", "name": name}
                    send(sessions, role, {**message, "args": args})
                    check_output(sessions[role][1].messages(), sessions[role][1])
