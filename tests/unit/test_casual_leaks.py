"""No hidden card reaches a player or a spectator of a casual game, at any step (issue 14).

After EVERY event, for every viewer that does not see everything (each seated player, a
spectator): the pushed `event_view` of that event is checked against what is hidden in the
state right after it, and after every command the `view` of the new state. The shell's
first event, `TableCreated` with the options as given, is checked too (it is pushed on a
join from seq 0). Over random games (Hypothesis), with the stack or deck given or drawn
from a seed.

What counts as a leak (restated here, not imported from the views it checks):
- pocket (R-POCKET-1, the stack is face down): a stack card's id; its four numbers (a list
  of four integers equal, as a multiset, to the numbers of a card still in the stack, unless
  a card already seen has the same numbers); the seed.
- deck40 (the piles are face down): the name of a face-down card never turned up; its suit
  and rank together (a map with both); a pile's order as ranks (a list equal to the ranks of
  three or more such cards of a pile, in order); the seed.
The seed is drawn at least 1000 so that a small number (a score, a count) is never taken
for it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from casual_tables import DIRECTOR, SPECTATOR, S, Table, player, pocket_options, seats_data
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.games import deck40, pocket
from server.games.base import SERVER_ACTOR, Actor, Event, RuleViolation
from server.games.deck40.options import CARD_NAMES, card_data, rank
from server.puzzles.solver import solve

SETTINGS = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SEED = st.integers(1000, 2**20)


def walk(data: Any) -> Iterator[Any]:
    """Every value anywhere in plain data: maps, their keys and values, sequences, items."""
    stack = [data]
    while stack:
        item = stack.pop()
        yield item
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple | set | frozenset):
            stack.extend(item)


def ints(item: Any) -> bool:
    return isinstance(item, int) and not isinstance(item, bool)


def viewers(seat_ids: list[str]) -> list[Actor]:
    """Everyone who must not see a hidden card (the officials see the piles: view.py)."""
    return [player(seat) for seat in seat_ids] + [SPECTATOR]


def attempt(table: Table, name: str, actor: Actor, **args: Any) -> list[Event]:
    """A command that may be refused; its events recorded one by one (see `Stepper`)."""
    try:
        return table.do(name, actor, **args)
    except RuleViolation:
        return []


class Stepper:
    """Checks each event of a table as it is recorded: the state after each event is folded
    here from the state before the command, so the hidden set is the one of that step.
    `hidden(state, history)` says what is secret in `state`, `history` being the events so
    far (a card's numbers seen once are no secret)."""

    def __init__(self, game: Any, table: Table, hidden: Any, leaks: Any, seat_ids: list[str]):
        self.game, self.table, self.hidden, self.leaks = game, table, hidden, leaks
        self.viewers = viewers(seat_ids)
        self.history: list[Event] = []

    def check_created(self) -> None:
        """The shell's first event holds the options as given (a stack, a deck, a seed):
        checked against what is secret once the game has started."""
        options = self.table.raw_options
        created = Event("TableCreated", {"game": self.game.NAME, "options": options})
        self.check(created, self.hidden(self.table.state, self.history))

    def check(self, event: Event, hidden: Any) -> None:
        for viewer in self.viewers:
            data = dict(self.game.event_view(event, viewer).data)
            found = self.leaks(hidden, data, self.table.raw_options)
            assert not found, (viewer, event.type, found)

    def run(self, name: str, actor: Actor, **args: Any) -> None:
        before = self.table.state
        events = attempt(self.table, name, actor, **args)
        state = before
        for event in events:
            state = self.game.evolve(state, event)
            self.history.append(event)
            self.check(event, self.hidden(state, self.history))
        assert state == self.table.state
        hidden = self.hidden(state, self.history)
        for viewer in self.viewers:
            found = self.leaks(hidden, self.game.view(state, viewer), self.table.raw_options)
            assert not found, (viewer, "view", found)


# -- pocket -----------------------------------------------------------------------------------


def pocket_hidden(state: Any, history: list[Event]) -> dict[str, Any]:
    """The stack's cards (face down) and the numbers only they have: numbers a card turned
    up so far also had are not a secret."""
    seen = {tuple(sorted(e.data["numbers"])) for e in history if e.type == "CardTurnedUp"}
    return {
        "ids": {card.card_id for card in state.stack},
        "numbers": {tuple(sorted(card.numbers)) for card in state.stack} - seen,
    }


def pocket_leaks(hidden: dict[str, Any], data: Any, options: dict[str, Any]) -> list[str]:
    found = []
    for item in walk(data):
        if isinstance(item, str) and item in hidden["ids"]:
            found.append(f"card id {item}")
        elif isinstance(item, list | tuple) and len(item) == 4 and all(ints(n) for n in item):
            if tuple(sorted(item)) in hidden["numbers"]:
                found.append(f"numbers {item}")
        elif ints(item) and "seed" in options and item == options["seed"]:
            found.append("the seed")
    return found


@st.composite
def pocket_game(draw: st.DrawFn) -> tuple[dict[str, Any], list[tuple]]:
    players = draw(st.integers(1, 4))
    if draw(st.booleans()):
        options = pocket_options(players)
    else:
        options = {
            "seats": seats_data(players),
            "seed": draw(SEED),
            "size": draw(st.integers(2, 6)),
        }
    if draw(st.booleans()):
        options["stumped_seconds"] = draw(st.sampled_from([5, 30]))
    actions = draw(
        st.lists(
            st.tuples(
                st.sampled_from(["claim", "right", "wrong", "stumped", "fire", "restart", "end"]),
                st.integers(0, 4),
                st.integers(0, 9),
            ),
            max_size=40,
        )
    )
    return options, actions


@SETTINGS
@given(pocket_game())
def test_no_pocket_stack_card_reaches_a_player_or_spectator_at_any_step(game) -> None:
    options, actions = game
    seat_ids = [seat["seat"] for seat in options["seats"]]
    table = Table(pocket, options)
    steps = Stepper(pocket, table, pocket_hidden, pocket_leaks, seat_ids)
    steps.run("start_game", DIRECTOR)
    steps.check_created()
    for action, who, pick in actions:
        seat = player(seat_ids[who % len(seat_ids)])
        card = table.state.card
        if action == "claim":
            steps.run("claim", seat)
        elif action in ("right", "wrong"):
            solutions = solve(list(card.card.numbers)) if card is not None else []
            right = action == "right" and solutions
            text = solutions[0].ascii_expression if right else "1 + 2 + 3 + 4 + 5"
            steps.run("answer", seat, expression=text)
        elif action == "stumped":
            steps.run("declare_stumped", seat)
        elif action == "fire":
            for deadline in pocket.deadlines(table.state)[:1]:
                table.now = max(table.now, deadline.at)
                steps.run(deadline.command.name, SERVER_ACTOR, **deadline.command.args)
        elif action == "restart":
            steps.run("pause_game", SERVER_ACTOR, cause="server_restart")
            steps.run("resume_game", seat)
        elif action == "end" and pick == 9:
            steps.run("end_game", DIRECTOR)
        table.advance(pick / 4)
    assert steps.history == table.events  # every event was checked


# -- deck40 -----------------------------------------------------------------------------------


def deck40_hidden(state: Any, history: list[Event]) -> dict[str, Any]:
    """The face-down cards never turned up (the common pile, every seat's pile: a card
    turned up once and given back under a pile is known) and the piles' orders of those."""
    seen = {c["card"] for e in history if e.type == "CardsTurnedUp" for c in e.data["cards"]}
    piles = [list(state.common)] + [list(seat.pile) for seat in state.seats]
    unseen = [[card for card in pile if card not in seen] for pile in piles]
    return {
        "cards": {card for pile in unseen for card in pile},
        "orders": [[rank(card) for card in pile] for pile in unseen if len(pile) >= 3],
    }


def deck40_leaks(hidden: dict[str, Any], data: Any, options: dict[str, Any]) -> list[str]:
    found = []
    shown = {(card_data(c)["suit"], card_data(c)["rank"]): c for c in hidden["cards"]}
    for item in walk(data):
        if isinstance(item, str) and item in hidden["cards"]:
            found.append(f"card {item}")
        elif isinstance(item, dict) and (item.get("suit"), item.get("rank")) in shown:
            found.append(f"suit and rank of {shown[(item.get('suit'), item.get('rank'))]}")
        elif isinstance(item, list) and len(item) >= 3 and all(ints(n) for n in item):
            if any(_contains_run(order, item) for order in hidden["orders"]):
                found.append(f"a pile's order {item}")
        elif ints(item) and "seed" in options and item == options["seed"]:
            found.append("the seed")
    return found


def _contains_run(order: list[int], item: list[int]) -> bool:
    """`item` is `order`, or three or more of its cards in a row (a pile, or part of it)."""
    width = len(item)
    return any(order[i : i + width] == item for i in range(len(order) - width + 1))


@st.composite
def deck40_game(draw: st.DrawFn) -> tuple[dict[str, Any], list[tuple]]:
    players = draw(st.sampled_from([2, 3, 4, 5]))
    scorings = ["simple", "advanced", "cards"] if players in (2, 4) else ["simple", "advanced"]
    options: dict[str, Any] = {
        "seats": seats_data(players),
        "scoring": draw(st.sampled_from(scorings)),
    }
    if draw(st.booleans()):
        options["seed"] = draw(SEED)
    else:
        options["deck"] = draw(st.permutations(list(CARD_NAMES)))
    options["reveal_unsolvable"] = draw(st.booleans())
    actions = draw(
        st.lists(
            st.tuples(
                st.sampled_from(["right", "right", "wrong", "none", "return", "end"]),
                st.integers(0, 5),
                st.integers(0, 9),
            ),
            max_size=60,
        )
    )
    return options, actions


@SETTINGS
@given(deck40_game())
def test_no_face_down_deck40_card_reaches_a_player_or_spectator_at_any_step(game) -> None:
    options, actions = game
    seat_ids = [seat["seat"] for seat in options["seats"]]
    table = Table(deck40, options)
    steps = Stepper(deck40, table, deck40_hidden, deck40_leaks, seat_ids)
    steps.run("start_game", DIRECTOR)
    steps.check_created()
    for action, who, pick in actions:
        seat = player(seat_ids[who % len(seat_ids)])
        cards = [on.card for on in table.state.table]
        if action == "right" and cards:
            solutions = solve([rank(card) for card in cards])
            steps.run(
                "call_24", seat, expression=solutions[0].ascii_expression if solutions else "1+1"
            )
        elif action == "wrong":
            steps.run("call_24", seat, expression="1 + 2 + 3")
        elif action == "none":
            steps.run("call_no_solution", seat)
        elif action == "return" and cards:
            steps.run("call_no_solution", seat, returns=cards[pick % len(cards)])
        elif action == "end" and pick == 9:
            steps.run("end_game", DIRECTOR)
        table.advance(1 / S)
    assert steps.history == table.events  # every event was checked


# -- the oracle finds what it looks for --------------------------------------------------------


def test_the_pocket_oracle_finds_an_id_the_numbers_and_the_seed() -> None:
    hidden = {"ids": {"p2"}, "numbers": {(3, 3, 8, 8)}}
    options = {"seed": 4321}
    assert pocket_leaks(hidden, {"x": [{"id": "p2"}]}, options) == ["card id p2"]
    assert pocket_leaks(hidden, {"next": [8, 3, 8, 3]}, options) == ["numbers [8, 3, 8, 3]"]
    assert pocket_leaks(hidden, {"n": 4321}, options) == ["the seed"]
    assert pocket_leaks(hidden, {"card": [1, 1, 1, 8], "left": 3}, options) == []


def test_the_deck40_oracle_finds_a_name_a_suit_and_rank_and_a_pile_order() -> None:
    hidden = {"cards": {"AC", "8H", "3S"}, "orders": [[1, 8, 3, 5]]}
    assert deck40_leaks(hidden, {"piles": {"s1": ["AC"]}}, {}) == ["card AC"]
    found = deck40_leaks(hidden, {"top": {**card_data("8H"), "card": None}}, {})
    assert found == ["suit and rank of 8H"]
    assert deck40_leaks(hidden, {"p": [8, 3, 5]}, {}) == ["a pile's order [8, 3, 5]"]
    assert deck40_leaks(hidden, {"table": [card_data("2D")], "sizes": [20, 20]}, {}) == []
