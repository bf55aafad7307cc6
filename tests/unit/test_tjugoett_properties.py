"""Properties of a Tjugoett table over random games: any actor sends any command (sensible
ones mostly, junk too) at random times, over several rounds, with every kind of table.

After every command, whatever happened:
- only events or a RuleViolation come back, and a refusal changes nothing;
- card conservation: in a round, the draw pile, every hand, the dealer's hand and the discard
  pile hold the 52 cards, each exactly once (R-21-1, R-21-12/13, R-21-20/21);
- the dealer never sees a hidden card (R-21-19), nor other players and spectators one their
  `public_hands` hides, nor anyone but the officials the draw order or the seed: checked on
  every pushed event (`event_view`) and on the snapshot (`view`) of every viewer;
- a player holds two to five cards during its turn (R-21-6);
- the tally counts every settled turn once;
- replaying the recorded events gives the live state, and the log is over exactly when
  its last event is final.

Why some games are "given" a short draw pile: with 52 cards a round rarely draws the pile
down to one card, so R-21-21's reshuffle would hardly ever run. In those games, right after
a round starts, most of the draw pile is moved to the discard pile (the cards stay 52);
their state is then no replay of their log, so only they skip the replay check.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from itertools import product

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tjugoett_tables import (
    AUDITOR,
    DEALER,
    DEALER_SEAT,
    DIRECTOR,
    SPECTATOR,
    T0,
    S,
    leaks,
    options,
    player,
)

from server.games import tjugoett
from server.games.base import SERVER_ACTOR, Actor, Command, Event, RuleViolation, replay
from server.games.tjugoett.cards import DECK, card_points, hand_value
from server.games.tjugoett.state import TjugoettState

COMMAND_NAMES = (
    "start_round",
    "draw_card",
    "stand",
    "dealer_draw",
    "dealer_stand",
    "dealer_play",
    "turn_deadline",
    "end_table",
    "junk",
)


def _conserved(state: TjugoettState) -> None:
    if not state.in_round:
        return
    held = [card for hand in state.hands for card in hand.cards]
    every = [*state.draw_pile, *held, *state.dealer_cards, *state.discard_pile]
    assert Counter(every) == Counter(DECK), "a card was lost or doubled"


def _turn_sizes(state: TjugoettState) -> None:
    if state.phase in ("player_turn", "dealer_turn"):
        assert state.turn is not None
        assert 2 <= len(state.cards_of(state.turn)) <= 5


def _no_leaks(viewers: list[Actor], event: Event | None, state: TjugoettState) -> None:
    """Nothing hidden in `state` shows in the pushed `event` (judged on the state right after
    it: a card shown by an earlier event may be hidden again after a reshuffle) or, with no
    event, in the snapshot."""
    for viewer in viewers:
        if event is None:
            assert leaks(viewer, tjugoett.view(state, viewer), state) == [], viewer
            continue
        pushed = tjugoett.event_view(event, viewer)
        assert pushed.type == event.type
        assert leaks(viewer, dict(pushed.data), state, event.type) == [], (viewer, event)


def _command(rng: random.Random, state: TjugoettState, now: int) -> tuple[Command, int]:
    """A random command: mostly what the table expects now, sometimes anything at all."""
    live = tjugoett.deadlines(state)
    seats = list(state.options.seat_ids())
    actors = [DIRECTOR, SPECTATOR, DEALER, *(player(seat) for seat in seats), player("zz")]
    if rng.random() < 0.15:
        name = rng.choice(COMMAND_NAMES)
        actor = rng.choice([*actors, SERVER_ACTOR])
        args = rng.choice([{}, {"key": "nope"}, {"order": ["AS"]}, {"order": list(DECK)}])
        return Command(name, args, actor), now + rng.randrange(0, 3 * S)
    if live and rng.random() < 0.7:
        deadline = live[0]
        return deadline.command, max(now, deadline.at)
    phase = state.phase
    if phase == "between_rounds":
        if state.round >= 4 or rng.random() < 0.05:
            return Command("end_table", {}, DIRECTOR), now
        starter = DEALER if state.options.dealer and rng.random() < 0.5 else DIRECTOR
        return Command("start_round", {}, starter), now + S
    if phase == "player_turn":
        assert state.turn is not None
        name = "draw_card" if rng.random() < 0.6 else "stand"
        return Command(name, {}, player(state.turn)), now + rng.randrange(0, 2 * S)
    if phase == "dealer_turn" and state.options.dealer is not None:
        name = (
            "dealer_draw" if len(state.dealer_cards) < 2 or rng.random() < 0.5 else "dealer_stand"
        )
        return Command(name, {}, DEALER), now + rng.randrange(0, 2 * S)
    return Command("end_table", {}, DIRECTOR), now


@st.composite
def tables(draw: st.DrawFn) -> dict:
    players = draw(st.integers(1, 7))
    more: dict = {
        "public_hands": draw(st.sampled_from(["turn_over", "live"])),
        "dealer_stands_at": draw(st.integers(12, 21)),
        "seed": draw(st.text("abcdef0123456789", min_size=8, max_size=16)),
    }
    if draw(st.booleans()):
        more["turn_seconds"] = draw(st.sampled_from([1, 5]))
    if draw(st.booleans()):
        more["next_round_seconds"] = 2
    return options(players=players, person_dealer=draw(st.booleans()), **more)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(raw=tables(), seed=st.integers(0, 2**32), short_pile=st.booleans())
def test_random_games_keep_every_invariant(raw: dict, seed: int, short_pile: bool) -> None:
    rng = random.Random(seed)
    state = tjugoett.initial_state(raw)
    recorded: list[Event] = []
    now = T0
    seats = list(state.options.seat_ids())
    viewers = [DEALER, SPECTATOR, AUDITOR, *(player(seat) for seat in seats)]
    settled = 0
    for _step in range(400):
        if tjugoett.is_over(state):
            break
        command, now = _command(rng, state, now)
        try:
            events = tjugoett.decide(state, command, now)
        except RuleViolation as violation:
            assert violation.code in tjugoett.REFUSALS
            continue
        assert events, f"{command.name} was accepted but recorded nothing"
        for event in events:
            assert event.type in tjugoett.EVENT_TYPES
            state = tjugoett.evolve(state, event)
            _conserved(state)
            _no_leaks(viewers, event, state)
            settled += event.type == "TurnSettled"
        recorded.extend(events)
        if short_pile and state.in_round and events[0].type == "RoundStarted":
            keep = rng.randrange(2, 8)
            state = dataclasses.replace(
                state,
                draw_pile=state.draw_pile[:keep],
                discard_pile=state.discard_pile + state.draw_pile[keep:],
            )
        now = max(now, state.clock)
        _turn_sizes(state)
        _no_leaks(viewers, None, state)
    tally = state.tally_data()
    assert (
        sum(entry["won"] + entry["lost"] for seat, entry in tally.items() if seat != "dealer")
        == settled
    )
    assert tally["dealer"]["won"] == sum(tally[seat]["lost"] for seat in seats)
    if not short_pile:
        assert replay(tjugoett, raw, recorded) == state
    assert tjugoett.is_over(state) == bool(recorded and recorded[-1].type in tjugoett.FINAL_EVENTS)
    if DEALER_SEAT not in seats:
        assert all(event.data.get("seat") != DEALER_SEAT for event in recorded)


@settings(max_examples=300, deadline=None)
@given(cards=st.lists(st.sampled_from(DECK), min_size=1, max_size=5, unique=True))
def test_r21_2_hand_value_is_the_best_ace_choice_by_brute_force(cards: list[str]) -> None:
    """R-21-2's decision, checked against every way of counting the aces: the best total
    not over 21, else the smallest."""
    aces = [card for card in cards if card.startswith("A")]
    rest = sum(card_points(card) for card in cards if not card.startswith("A"))
    totals = {rest + sum(choice) for choice in product((1, 14), repeat=len(aces))}
    fitting = [total for total in totals if total <= 21]
    assert hand_value(cards) == (max(fitting) if fitting else min(totals))
