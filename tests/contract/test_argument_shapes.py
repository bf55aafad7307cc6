"""Every command of every game and of the tournament, every argument name, every wrong shape:
a documented refusal, never a crash (issue 18).

`issue_flag` with a list `cause` once answered `internal` with a traceback: a membership test
(`cause in CAUSES`) on an argument whose type nobody had checked. This sweep looks for that
pattern everywhere, directly on each Decider (pure, no shell): for each game in
`server.games.games()` and the tournament, in a state of every phase the game's own example
play reaches (tests/example_plays.py), each command of its `COMMANDS_BY_ROLE` (and an
unknown one), from each role that may send it, gets each argument name it could read set to
each shape of `SHAPES`, alone and inside otherwise valid arguments; a game's queries (its
optional `QUERIES`, and an unknown one) get the same arguments from every role. The answer
must be the events of a valid command (an answer) or a `RuleViolation` whose code the game
documents (`REFUSALS`); any other exception fails.

Nothing here is a hand list of commands or arguments, so a new command or argument is swept
without touching this file:
- commands: the game's `COMMANDS_BY_ROLE` (the plug-in contract, server/games/base.py);
- argument names: `argument_names` (tests/argument_shapes.py): what the game's source reads
  from `args`, what its documented command table names, what its example play sends;
- valid values to embed a wrong one in: the arguments of the commands the example play sent.

tests/unit/test_session_argument_shapes.py does the same for what the shell reads itself
(`create_table` options, query arguments) through a session.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import example_plays
import pytest
from argument_shapes import ROOT, SHAPES, argument_names, nested_shapes

import server.tournament as tournament
from server.games import games
from server.games.base import ROLES, SERVER, SERVER_ACTOR, Actor, Command, RuleViolation
from server.tournament.results import table_result

sys.path.insert(0, str(ROOT / "tests" / "unit"))  # the tournament's given/when/then support
from tournament_support import DIRECTOR, Tourney, ended_stream  # noqa: E402

T0 = 1_700_000_000_000_000
S = 1_000_000
UNKNOWN_COMMAND = "no_such_command"
UNKNOWN_QUERY = "no_such_query"


# -- states ---------------------------------------------------------------------------------


def example_of(name: str) -> ModuleType:
    example = example_plays.example_of(games()[name])
    assert example is not None, f"{name} has no example play (tests/example_plays.py)"
    return example


def signature(example: ModuleType, state: Any) -> tuple:
    """What makes two states worth sweeping separately: phase, pause, mode, and which
    commands the example would try there (an ended table with a protest to rule on is not
    one without: the ruling's arguments are read only in the first)."""
    options = getattr(state, "options", None)
    offered = {command.name for command in example.commands(state, random.Random(0))}
    return (
        getattr(state, "phase", None),
        bool(getattr(state, "paused", False)),
        getattr(options, "mode", None),
        bool(getattr(state, "signed", False)),
        tuple(sorted(offered)),
    )


def played(game: ModuleType, seeds: int = 12, steps: int = 60) -> tuple[list, list[Command]]:
    """States of every phase the example play reaches, and every command it sent."""
    example = example_of(game.NAME)
    states: dict[tuple, Any] = {}
    sent: list[Command] = []
    for seed in range(seeds):
        rng = random.Random(seed)
        state, now = game.initial_state(example.options(rng)), T0
        for _ in range(steps):
            states.setdefault(signature(example, state), state)
            if game.is_over(state):
                break
            now += rng.randint(0, 2 * S)
            live = game.deadlines(state)
            offered = example.commands(state, rng)
            if live and (rng.random() < 0.2 or not offered):
                deadline = min(live, key=lambda d: d.at)
                command, now = deadline.command, max(now, deadline.at)
            elif offered:
                command = rng.choice(offered)
            else:
                break
            sent.append(command)
            try:
                events = game.decide(state, command, now)
            except RuleViolation:
                continue
            for event in events:
                state = game.evolve(state, event)
        states.setdefault(signature(example, state), state)
    return list(states.values()), sent


def tournament_states() -> tuple[list, list[Command]]:
    """A tournament at each stage: registration open, students in, closed, a round seated,
    started, a table's result recorded, the round closed."""
    tourney = Tourney()
    stages = [tourney.state]
    tourney.register_many(4)
    stages.append(tourney.state)
    tourney.do("close_registration")
    stages.append(tourney.state)
    tourney.do("seat_round", round=1)
    stages.append(tourney.state)
    tourney.do("start_round", round=1)
    stages.append(tourney.state)
    tables = tourney.state.round(1).tables
    tourney.table_ends(tables[0].table, {s: 1 for s in tables[0].students})
    stages.append(tourney.state)
    for table in tables[1:]:
        tourney.table_ends(table.table, {s: 1 for s in table.students})
    tourney.do("close_round", round=1)
    stages.append(tourney.state)
    # Valid arguments of the commands the stages did not send (the tournament has no example
    # module): the plausible values a wrong shape is put beside.
    student = next(iter(tourney.state.students))
    table = tables[0]
    result = table_result(ended_stream({s: 1 for s in table.students}))
    assert result is not None
    sent = [
        Command(name, args, SERVER_ACTOR if name == "record_result" else DIRECTOR)
        for name, args in [
            ("register", {"name": "Ada", "school": "S", "grade": "4th"}),
            ("withdraw", {"student": student}),
            ("swap_seats", {"round": 1, "a": table.students[0], "b": table.students[1]}),
            ("assign_proctor", {"table": table.table, "name": "P", "initials": "PK"}),
            ("merge_grades", {"grades": ["4th", "5th"], "section": "4-5"}),
            ("seat_round", {"round": 2}),
            ("record_result", {**result, "table": table.table, "seq": 5}),
        ]
    ]
    return stages, sent


# -- the sweep ------------------------------------------------------------------------------


def actors_for(roles: frozenset[str], seats: list[str]) -> list[Actor]:
    """One actor of each role that may send a command (a player of the first seat)."""
    actors = []
    for role in sorted(roles):
        if role == SERVER:
            actors.append(SERVER_ACTOR)
        elif role == "player":
            actors.append(Actor("player", seats[0] if seats else "s1"))
        else:
            actors.append(Actor(role, f"{role[0]}1"))
    return actors


def seats_of(state: Any) -> list[str]:
    seats = getattr(state, "seats", ()) or ()
    return [getattr(seat, "seat", None) or str(seat) for seat in seats]


def plausible(sent: list[Command]) -> dict[str, list[Any]]:
    """Each argument name's distinct valid values, from any command the example sent."""
    values: dict[str, list[Any]] = {}
    for command in sent:
        for arg, value in command.args.items():
            seen = values.setdefault(arg, [])
            if value not in seen:
                seen.append(value)
    return values


def bases_for(values: dict[str, list[Any]]) -> list[dict]:
    """Argument maps to put one wrong shape in: none, and every plausible argument at once,
    twice (with each name's first, then second valid value): a wrong `cause` must have a
    valid `seat` beside it to be read at all, and the example never flags anyone. A game
    reads the arguments it needs and ignores the others."""
    bases: list[dict[str, Any]] = [{}]
    for turn in range(2):
        merged = {arg: seen[turn % len(seen)] for arg, seen in values.items()}
        if merged not in bases:
            bases.append(merged)
    return bases


def commands_to_try(
    game: Any, sent: list[Command], names: set[str]
) -> Iterator[tuple[str, dict[str, Any]]]:
    """(command, args): each argument name with each shape, in each base of `bases_for`."""
    bases = bases_for(plausible(sent))
    shapes = [*SHAPES.values(), *nested_shapes(game).values()]
    for name in [*game.COMMANDS_BY_ROLE, UNKNOWN_COMMAND]:
        for base in bases:
            for arg in sorted(names):
                for shape in shapes:
                    yield name, {**base, arg: shape}


def checked(game: Any, ask: Any, *arguments: Any) -> None:
    """`ask(*arguments)` gives events, an answer, or a refusal the game documents."""
    try:
        ask(*arguments)
    except RuleViolation as refused:
        assert refused.code in game.REFUSALS, (refused.code, arguments[1:])
    except Exception as exc:  # the bug this test is for
        raise AssertionError(f"{type(exc).__name__}: {exc} on {arguments[1:]}") from exc


def sweep(game: Any, states: list, sent: list[Command], names: set[str]) -> int:
    """Decide every command of `commands_to_try` in every state, and ask every query of the
    game's optional `QUERIES` (and an unknown one) with the same arguments, from every role;
    the number tried."""
    now = T0 + 3600 * S
    queries = [*getattr(game, "QUERIES", {}), UNKNOWN_QUERY] if hasattr(game, "query") else []
    # The same in every state: built once (its nested shapes scan the game's source, a fifth
    # of the challenge's sweep when it was built per state).
    tries = list(commands_to_try(game, sent, names))
    tried = 0
    for state in states:
        seats = seats_of(state)
        senders = {
            name: actors_for(game.COMMANDS_BY_ROLE.get(name, frozenset({"director"})), seats)
            for name in {name for name, _ in tries}
        }
        askers = actors_for(frozenset(ROLES) - {SERVER}, seats)
        for name, args in tries:
            for actor in senders[name]:
                checked(game, game.decide, state, Command(name, args, actor), now)
                tried += 1
            if name != UNKNOWN_COMMAND:
                continue
            for query in queries:  # the same arguments, once per state
                for actor in askers:
                    checked(game, game.query, state, query, args, actor, now)
                    tried += 1
    return tried


@pytest.mark.parametrize("name", sorted(games()))
def test_every_argument_of_every_command_in_every_phase_refuses_wrong_shapes(name):
    game = games()[name]
    states, sent = played(game)
    names = argument_names(name, game, [command.args for command in sent])
    assert len(states) >= 3 and sent, "the example play reached too little to sweep"
    tried = sweep(game, states, sent, names)
    print(f"{name}: {len(states)} states, {len(names)} argument names, {tried} commands")


def test_every_tournament_command_refuses_wrong_shapes():
    states, sent = tournament_states()
    names = argument_names("tournament", tournament, [command.args for command in sent])
    tried = sweep(tournament, states, sent, names)
    print(f"tournament: {len(states)} states, {len(names)} argument names, {tried} commands")


def test_the_argument_names_found_include_what_the_handlers_read():
    """The source scan itself: the names of the issue-18 bug and of each kind of reading."""
    from argument_shapes import names_read_by

    from server.games import challenge, deck40, pocket

    assert {"cause", "seat", "steps", "seqs", "corrections", "ruling_text", "initials"} <= (
        names_read_by(challenge)
    )
    assert "expression" in names_read_by(pocket) and "returns" in names_read_by(deck40)
    assert {"round", "student", "csv", "grades"} <= names_read_by(tournament)
