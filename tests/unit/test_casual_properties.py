"""Properties of the casual games (pocket, deck40) over random command sequences.

Any actor may send any command at any time with any arguments; the game must only answer
with events or a RuleViolation, and after every step:
- card conservation: every card is in exactly one place (pocket: stack, top card, won cards,
  bonus pile; deck40: own piles, common pile, table, won cards);
- the scores are what the won cards say (R-POCKET-2/4, R-DECK40-6);
- no hidden card (a face-down card never turned up: the stack's, a pile's) appears in any
  player's or spectator's view or pushed event;
- at the end, the replay of the log equals the live state.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from casual_tables import (
    DIRECTOR,
    POCKET_ANSWERS,
    POCKET_WRONG,
    SPECTATOR,
    S,
    Table,
    player,
    pocket_options,
    seats_data,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.games import deck40, pocket
from server.games.base import SERVER_ACTOR, Actor, Event, RuleViolation
from server.games.deck40.options import CARD_NAMES, rank
from server.puzzles.solver import solve

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def strings_in(data: Any) -> set[str]:
    """Every string anywhere in plain data (keys and values)."""
    found: set[str] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple | set | frozenset):
            stack.extend(item)
    return found


def leaks(hidden: set[str], data: Any) -> set[str]:
    """The hidden card ids that appear in `data` (empty when nothing leaks)."""
    return hidden & strings_in(data)


def viewers(seat_ids: list[str]) -> list[Actor]:
    return [player(seat) for seat in seat_ids] + [SPECTATOR]


def check_no_leak(game: Any, table: Table, hidden: set[str], seat_ids: list[str]) -> None:
    for viewer in viewers(seat_ids):
        assert not leaks(hidden, game.view(table.state, viewer)), viewer
        for event in table.events:
            assert not leaks(hidden, dict(game.event_view(event, viewer).data)), (viewer, event)


def attempt(table: Table, name: str, actor: Actor, **args: Any) -> list[Event]:
    try:
        return table.do(name, actor, **args)
    except RuleViolation:
        return []


# -- pocket -----------------------------------------------------------------------------------


@st.composite
def pocket_game(draw: st.DrawFn) -> tuple[dict[str, Any], list[tuple]]:
    ids = draw(st.permutations(list(POCKET_ANSWERS)))[: draw(st.integers(1, len(POCKET_ANSWERS)))]
    more = {}
    if draw(st.booleans()):
        more["stumped_seconds"] = draw(st.sampled_from([5, 30]))
    options = pocket_options(draw(st.integers(1, 4)), list(ids), **more)
    actions = draw(
        st.lists(
            st.tuples(
                st.sampled_from(
                    ["claim", "right", "wrong", "stumped", "fire", "wait", "restart", "end"]
                ),
                st.integers(0, 4),
                st.sampled_from([0.5, 3, 20, 70]),
            ),
            max_size=40,
        )
    )
    return options, actions


def pocket_places(table: Table) -> Counter:
    state = table.state
    places = Counter(card.card_id for card in state.stack)
    places.update(card.card_id for card in state.bonus)
    if state.card is not None:
        places[state.card.card.card_id] += 1
    for seat in state.seats:
        places.update(seat.cards_won)
    return places


@SETTINGS
@given(pocket_game())
def test_pocket_properties(game: tuple[dict[str, Any], list[tuple]]) -> None:
    options, actions = game
    seat_ids = [seat["seat"] for seat in options["seats"]]
    all_ids = [card["card_id"] for card in options["stack"]]
    table = Table.started(pocket, options)
    for action, who, seconds in actions:
        seat = player(seat_ids[who % len(seat_ids)] if who < 4 else "s9")
        card = table.state.card
        if action == "claim":
            attempt(table, "claim", seat)
        elif action in ("right", "wrong"):
            text = (
                POCKET_ANSWERS[card.card.card_id][2] if card and action == "right" else POCKET_WRONG
            )
            attempt(table, "answer", seat, expression=text)
        elif action == "stumped":
            attempt(table, "declare_stumped", seat)
        elif action == "fire":
            for deadline in pocket.deadlines(table.state)[:1]:
                table.now = max(table.now, deadline.at)
                table.do(deadline.command.name, SERVER_ACTOR, **deadline.command.args)
        elif action == "wait":
            table.advance(seconds)
        elif action == "restart":
            attempt(table, "pause_game", SERVER_ACTOR, cause="server_restart")
            attempt(table, "resume_game", seat)
        elif action == "end" and seconds == 70:
            attempt(table, "end_game", DIRECTOR)
        # card conservation: every card in exactly one place
        assert pocket_places(table) == Counter(all_ids)
        dots = {card["card_id"]: card["dots"] for card in options["stack"]}
        for seat_state in table.state.seats:
            assert seat_state.score == sum(dots[c] for c in seat_state.cards_won)
    turned = {e.data["card_id"] for e in table.events if e.type == "CardTurnedUp"}
    hidden = {card.card_id for card in table.state.stack} - turned
    check_no_leak(pocket, table, hidden, seat_ids)
    assert table.replayed() == table.state
    if table.events[-1].type in pocket.FINAL_EVENTS:
        assert pocket.is_over(table.state) and pocket.deadlines(table.state) == []


# -- deck40 -----------------------------------------------------------------------------------


@st.composite
def deck40_game(draw: st.DrawFn) -> tuple[dict[str, Any], list[tuple]]:
    players = draw(st.sampled_from([2, 3, 4, 5]))
    scoring = draw(
        st.sampled_from(
            ["simple", "advanced", "cards"] if players in (2, 4) else ["simple", "advanced"]
        )
    )
    options: dict[str, Any] = {"seats": seats_data(players), "scoring": scoring}
    if draw(st.booleans()):
        options["seed"] = draw(st.integers(0, 2**20))
    else:
        options["deck"] = draw(st.permutations(list(CARD_NAMES)))
    if scoring == "cards" and players == 2:
        options["house_loser_takes"] = draw(st.booleans())
    if scoring != "cards" and draw(st.booleans()):
        options["target_points"] = draw(st.integers(1, 6))
    options["reveal_unsolvable"] = draw(st.booleans())
    actions = draw(
        st.lists(
            st.tuples(
                st.sampled_from(["right", "right", "wrong", "none", "none", "return", "end"]),
                st.integers(0, 5),
                st.integers(0, 3),
            ),
            max_size=60,
        )
    )
    return options, actions


def deck40_places(table: Table) -> Counter:
    state = table.state
    places = Counter(state.common)
    places.update(on.card for on in state.table)
    for seat in state.seats:
        places.update(seat.pile)
        places.update(seat.won)
    return places


@SETTINGS
@given(deck40_game())
def test_deck40_properties(game: tuple[dict[str, Any], list[tuple]]) -> None:
    options, actions = game
    seat_ids = [seat["seat"] for seat in options["seats"]]
    table = Table.started(deck40, options)
    for action, who, pick in actions:
        seat = player(seat_ids[who % len(seat_ids)] if who < 5 else "s9")
        cards = [on.card for on in table.state.table]
        if action == "right" and cards:
            solutions = solve([rank(card) for card in cards])
            text = solutions[0].ascii_expression if solutions else "1 + 1"
            attempt(table, "call_24", seat, expression=text)
        elif action == "wrong":
            attempt(table, "call_24", seat, expression="1 + 2 + 3")
        elif action == "none":
            attempt(table, "call_no_solution", seat)
        elif action == "return" and cards:
            attempt(table, "call_no_solution", seat, returns=cards[pick % len(cards)])
        elif action == "end" and pick == 3 and who == 0:
            attempt(table, "end_game", DIRECTOR)
        table.advance(1 / S)
        assert deck40_places(table) == Counter(CARD_NAMES)
        if table.state.options.scoring != "cards":
            for seat_state in table.state.seats:
                assert seat_state.score <= len(seat_state.won) // 4 * 2
    turned = {c["card"] for e in table.events if e.type == "CardsTurnedUp" for c in e.data["cards"]}
    face_down = set(table.state.common) | {c for s in table.state.seats for c in s.pile}
    check_no_leak(deck40, table, face_down - turned, seat_ids)
    assert table.replayed() == table.state


# -- bad input never crashes a game -----------------------------------------------------------

JUNK = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)
ACTORS = st.sampled_from(
    [player("s1"), player("s2"), player("zz"), SPECTATOR, DIRECTOR, Actor("proctor"), SERVER_ACTOR]
)


@SETTINGS
@given(
    st.sampled_from(["pocket", "deck40"]),
    st.lists(
        st.tuples(
            st.text(max_size=20)
            | st.sampled_from(sorted(set(pocket.COMMANDS) | set(deck40.COMMANDS))),
            ACTORS,
            st.dictionaries(
                st.sampled_from(["expression", "returns", "seat", "key", "cause", "x"]),
                JUNK,
                max_size=3,
            ),
        ),
        max_size=25,
    ),
)
def test_any_command_with_any_arguments_is_answered_with_events_or_a_refusal(name, commands):
    game = {"pocket": pocket, "deck40": deck40}[name]
    options = pocket_options(2) if name == "pocket" else {"seats": seats_data(2), "seed": 1}
    table = Table(game, options)
    for command_name, actor, args in commands:
        attempt(table, command_name, actor, **args)
    assert table.replayed() == table.state
