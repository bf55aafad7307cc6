"""Properties of the 24 Challenge table over random command sequences with random timings.

Any actor may send any command at any time with any arguments; the table must only ever
answer with events or a RuleViolation, and the recorded log must keep the invariants of the
rules (R-PLAY-6 scores, R-FLAG-3 limits, R-FLAG-4 disqualification, R-ROUND-1 termination).
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest
from challenge_tables import (
    ANSWERS,
    DIRECTOR,
    PROCTOR,
    SPECTATOR,
    T0,
    WRONG_STEPS,
    S,
    options,
    player,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.games import challenge
from server.games.base import SERVER_ACTOR, Actor, Command, Event, RuleViolation, replay
from server.games.challenge.state import SeatState, replace

ACTIONS = (
    "start",
    "place",
    "reveal",
    "touch",
    "pattern",
    "steps",
    "fix",
    "stumped",
    "flag",
    "override",
    "pause",
    "resume",
    "end",
    "fire",
    "fire_stale",
    "junk",
    "protest",
    "rule",
    "sign",
    "reopen",
)
PATTERNS = ("right", "right", "right", "8 × 3", "3 + 8", "3 ×", "24 × 1")
SENSIBLE = {
    "between_cards": ("place", "place", "place", "place", "fire", "flag"),
    "placed": ("reveal", "reveal", "reveal", "reveal", "touch", "fire"),
    "revealed": ("touch", "touch", "touch", "stumped", "fire", "pause"),
    "solving": ("pattern", "pattern", "pattern", "pattern", "touch", "override", "fire"),
    "answering": ("steps", "fix", "fix", "fix", "touch", "override", "fire"),
}


@st.composite
def table_options(draw: st.DrawFn) -> dict[str, Any]:
    cards = draw(st.permutations(list(ANSWERS)))[: draw(st.integers(1, len(ANSWERS)))]
    return options(
        seats=draw(st.sampled_from([3, 4])),
        cards=cards,
        round=draw(st.integers(1, 4)),
        mode=draw(st.sampled_from(["networked", "proctored"])),
        stumped_cards=draw(st.sampled_from(["set_aside", "replay_at_end"])),
        auto_proctor=draw(st.sampled_from([None, 0.5, 2])),
    )


@dataclass
class Run:
    """A table driven by arbitrary commands; `log` is everything recorded, in order."""

    raw: dict[str, Any]
    now: int = T0
    log: list[Event] = field(default_factory=list)
    old_keys: list[tuple[str, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.state = challenge.initial_state(self.raw)

    def send(self, name: str, actor: Actor, args: dict[str, Any]) -> bool:
        try:
            events = challenge.decide(self.state, Command(name, args, actor), self.now)
        except RuleViolation as violation:
            assert violation.code in challenge.REFUSALS, violation.code
            return False
        for deadline in challenge.deadlines(self.state):
            self.old_keys.append((deadline.command.name, deadline.key))
        for event in events:
            self.state = challenge.evolve(self.state, event)
        self.log.extend(events)
        return True

    def seat_actor(self, seat: str, honest: bool) -> tuple[Actor, dict[str, Any]]:
        """The actor that may act for `seat`, or (not honest) one that may not."""
        proctored = self.state.options.mode == "proctored"
        if honest:
            return (PROCTOR, {"seat": seat}) if proctored else (player(seat), {})
        return (player(seat), {}) if proctored else (player("s1"), {"seat": seat})

    def answer(self, card_id: str | None) -> tuple[str, list[str]]:
        if card_id is None:
            return "3 × 8", WRONG_STEPS
        _numbers, _dots, pattern, steps = ANSWERS[card_id]
        return pattern, steps

    def sensible(self, variant: int) -> str:
        """An action that fits the phase (most steps), so random runs get deep into play."""
        if self.state.paused:
            return "resume"
        phase = self.state.phase
        if phase == "solving" and self.state.card and self.state.card.pattern:
            phase = "answering"
        choices = SENSIBLE.get(phase, ("start",))
        return choices[variant % len(choices)]

    def act(self, action: str, seat_index: int, variant: int, detail: int, delay: int) -> bool:
        """Turn one drawn step into a command and send it: `variant` picks the action (for a
        "sensible" step) and whether the actor is the right one, `detail` picks its arguments."""
        if action == "sensible":
            action = self.sensible(variant)
        elif action == "end" and detail:
            action = "junk"  # ending the round early is rare, or nothing else gets tested
        state = self.state
        seats = [seat.seat for seat in state.seats]
        seat = seats[seat_index % len(seats)]
        if action in ("pattern", "steps", "fix") and state.card and state.card.toucher:
            seat = seat if seat_index == 3 else state.card.toucher  # mostly the toucher answers
        actor, args = self.seat_actor(seat, honest=variant % 11 != 10)
        card_id = state.card.card.card_id if state.card else None
        pattern, steps = self.answer(card_id)
        self.now += delay
        if action == "fire":
            live = challenge.deadlines(state)
            if not live:
                return False
            deadline = live[detail % len(live)]
            self.now = max(self.now, deadline.at)
            return self.send(deadline.command.name, SERVER_ACTOR, dict(deadline.command.args))
        if action == "fire_stale":
            if not self.old_keys:
                return False
            name, key = self.old_keys[detail % len(self.old_keys)]
            return self.send(name, SERVER_ACTOR, {"key": key})
        if action == "touch":
            fingertips = (1, 1, 2, 3, 1, 2, 4, 5)[detail % 8]
            return self.send("touch_card", actor, {**args, "fingertips": fingertips})
        if action == "pattern":
            text = PATTERNS[detail % len(PATTERNS)]
            return self.send(
                "declare_pattern", actor, {**args, "pattern": pattern if text == "right" else text}
            )
        if action == "steps":
            return self.send("state_steps", actor, {**args, "steps": steps[: detail % 3 + 1]})
        if action == "fix":
            chosen = [steps, steps, steps, WRONG_STEPS, None][detail % 5]
            extra = {} if chosen is None else {"steps": chosen}
            return self.send("fix_solution", actor, {**args, **extra})
        if action == "stumped":
            return self.send("declare_stumped", actor, args)
        if action in ("protest", "rule", "sign", "reopen"):
            return self.hear(action, seat, variant, detail)
        proctor = SPECTATOR if variant % 11 == 10 else PROCTOR
        simple = {
            "start": ("start_round", {}),
            "place": ("place_card", {}),
            "reveal": ("reveal_card", {}),
            "flag": (
                "issue_flag",
                {"seat": seat, "cause": list(challenge.FLAG_CAUSES)[detail % 5]},
            ),
            "override": ("override_first_touch", {"seat": seat}),
            "pause": ("pause_table", {"cause": "test"}),
            "resume": ("resume_table", {}),
            "end": ("end_round", {}),
            "junk": (["slap_card", "touch_card", "pattern_deadline"][detail % 3], {"seat": 7}),
        }
        name, command_args = simple[action]
        return self.send(name, proctor, command_args)

    def corrections(self, seat: str, detail: int) -> list[dict[str, Any]]:
        """A mix of corrections for `seat` (R-ROUND-8), most of them possible."""
        state = self.state
        seat_state = state.seat(seat)
        assert seat_state is not None
        deck = [card.card_id for card in state.options.deck]
        mix: list[dict[str, Any]] = []
        if seat_state.flag_seqs:
            flag = seat_state.flag_seqs[detail % len(seat_state.flag_seqs)]
            mix.append({"kind": "rescind_flag", "seat": seat, "flag": flag})
        if seat_state.disqualified_cause == "slap" or detail % 7 == 3:  # R-PLAY-3 lifted
            mix.append({"kind": "rescind_slap", "seat": seat})
        if seat_state.cards_won and detail % 3 == 0:
            mix.append({"kind": "revoke_card", "seat": seat, "card": seat_state.cards_won[0]})
        if detail % 2:
            mix.append({"kind": "award_card", "seat": seat, "card": deck[detail % len(deck)]})
        if detail % 5 == 1:
            mix.append({"kind": "adjust_score", "seat": seat, "delta": 1 - detail % 3, "why": "x"})
        return mix[: 1 + detail % 3]

    def hear(self, action: str, seat: str, variant: int, detail: int) -> bool:
        """Protests, rulings, the signature and a reopening, by the right actor mostly."""
        state = self.state
        if action == "protest":
            who = PROCTOR if variant % 3 == 0 else player(seat)
            seqs = [1 + detail % (state.seq + 1)]
            return self.send("file_protest", who, {"seqs": seqs, "reason": "r"})
        if action == "rule":
            who = player(seat) if variant % 11 == 10 else PROCTOR
            open_ = [protest.protest for protest in state.open_protests()]
            if open_ and variant % 4:
                number = open_[detail % len(open_)]
            else:  # a protest already ruled on, or none
                number = 1 + detail % (len(state.protests) + 1)
            upheld = variant % 2 == 0
            args = {"protest": number, "upheld": upheld, "ruling_text": "t"}
            if upheld:
                args["corrections"] = self.corrections(seat, detail)
            return self.send("rule_protest", who, args)
        if action == "sign":
            return self.send("sign_score_card", PROCTOR, {"initials": "PK"})
        return self.send("reopen_score_card", DIRECTOR, {"reason": "late"})


def check_invariants(run: Run) -> None:
    """What must hold of any recorded log and the state it leads to."""
    state, log = run.state, run.log
    card_of = state.options.card
    # Time never goes backwards in the log.
    times = [event.data["at"] for event in log]
    assert times == sorted(times)
    # The shell tells a finished table from its last event alone (hub.load_all): over once
    # the score card is signed (R-ROUND-7), and nothing is recorded after but a reopening.
    assert challenge.is_over(state) == bool(log and log[-1].type in challenge.FINAL_EVENTS)
    assert not state.signed or state.ended
    # R-PLAY-6, R-ROUND-8: a score is the dots of the cards won or awarded, less the revoked,
    # plus the adjustments; derived by replay, never negative.
    points: Counter[str] = Counter()
    adjusted: Counter[str] = Counter()
    flags: Counter[str] = Counter()
    disqualified: set[str] = set()
    revoked: set[str] = set()
    for event in log:
        data = event.data
        if event.type == "CardWon":
            assert data["seat"] not in disqualified  # R-FLAG-4: never while disqualified
            points[data["seat"]] += data["dots"]
        elif event.type == "CardAwarded":
            points[data["seat"]] += data["dots"]
            revoked.discard(data["card"])
        elif event.type == "CardAwardRevoked":
            points[data["seat"]] -= data["dots"]
            revoked.add(data["card"])
        elif event.type == "ScoreAdjusted":
            adjusted[data["seat"]] += data["delta"]
        elif event.type == "FlagIssued":
            flags[data["seat"]] += 1
        elif event.type == "FlagRescinded":
            flags[data["seat"]] -= 1
        elif event.type == "PlayerDisqualified":
            disqualified.add(data["seat"])
        elif event.type == "PlayerReinstated":
            disqualified.remove(data["seat"])
    limit = state.options.flag_limit
    for seat in state.seats:
        won = sum(card_of(card_id).dots for card_id in seat.cards_won)
        assert seat.score == won + adjusted[seat.seat] == points[seat.seat] + adjusted[seat.seat]
        assert seat.score >= 0
        # R-FLAG-3: flags never exceed the limit; reaching it disqualifies. R-ROUND-8: a
        # rescinded flag never leaves a student disqualified below the limit (a slap, R-PLAY-3,
        # is not a flag's disqualification).
        assert seat.flags == flags[seat.seat] == len(seat.flag_seqs) <= limit
        assert seat.disqualified == (seat.disqualified_cause is not None)
        if seat.disqualified_cause != "slap":
            assert seat.disqualified == (seat.flags == limit)
        assert seat.disqualified == (seat.seat in disqualified)
    # Every card of the deck is in exactly one place: won, stumped, removed, deck, in play, or
    # revoked by a ruling (R-ROUND-8: not played again).
    places = [card_id for seat in state.seats for card_id in seat.cards_won]
    places += list(state.stumped) + list(state.removed) + list(state.deck) + sorted(revoked)
    if state.card is not None:
        places.append(state.card.card.card_id)
    assert sorted(places) == sorted(card.card_id for card in state.options.deck)
    # A card is won at most once.
    wins = [event.data["card_id"] for event in log if event.type == "CardWon"]
    assert len(wins) == len(set(wins))
    # Deadlines: none unless the round runs unpaused; never before the window opened.
    live = challenge.deadlines(state)
    if state.paused or not state.started or state.ended:
        assert live == []
    assert all(deadline.at >= state.timer_from for deadline in live)
    # R-PLAY-1: a player never sees a placed card's numbers before the reveal.
    card_view = challenge.view(state, player("s2"))["card"]
    if state.card is not None and state.card.revealed_at is None:
        assert card_view["numbers"] is None and card_view["card_id"] is None


STEP = st.tuples(
    st.sampled_from(ACTIONS + ("sensible",) * 3 * len(ACTIONS)),
    st.integers(0, 3),
    st.integers(0, 54),
    st.integers(0, 59),
    st.sampled_from([0, 1, 1000, S // 4, S // 2, S, 0, 1000, S // 2, 2 * S, 3 * S, 14 * S, 16 * S]),
)


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(raw=table_options(), steps=st.lists(STEP, min_size=10, max_size=120))
def test_random_commands_keep_the_rules_and_replay_to_the_live_state(raw, steps):
    run = Run(raw)
    run.send("start_round", PROCTOR, {})
    for action, seat_index, variant, detail, delay in steps:
        if run.act(action, seat_index, variant, detail, delay):
            check_invariants(run)
    # Replaying the recorded events from the options gives the live state.
    assert replay(challenge, raw, run.log) == run.state
    # Redaction never fails on a recorded event and hides every placed card's numbers.
    for event in run.log:
        seen = challenge.event_view(event, SPECTATOR)
        if event.type == "CardPlaced":
            assert "numbers" not in seen.data


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(raw=table_options(), seed=st.integers(0, 2**32))
def test_a_random_full_round_always_terminates(raw, seed: int):
    """Students act at random, the proctor places and reveals, timers fire when due: the round
    ends, within a bounded number of card plays (R-ROUND-1, R-FLAG-2, R-FLAG-3, R-PLAY-7).
    A seeded generator, not hypothesis draws, plays the students: uniform choices reach deep."""
    rng = random.Random(seed)
    run = Run(raw)
    run.send("start_round", PROCTOR, {})
    for _ in range(5000):
        if run.state.ended:
            break
        action = run.sensible(rng.randrange(55))
        if action in ("override", "pause", "flag") or rng.random() < 0.1:
            action = "fire"  # the proctor does not stall the table; timers fire when due
        if action == "fire" and not challenge.deadlines(run.state):
            action = "place" if run.state.phase == "between_cards" else "reveal"
        run.act(
            action,
            rng.randrange(4),
            rng.randrange(55),
            rng.randrange(60),
            rng.choice([0, 1000, S // 2, S, 4 * S]),
        )
    assert run.state.ended, "the round did not end"
    check_invariants(run)
    read = run.state.options
    plays = sum(1 for event in run.log if event.type == "CardPlaced")
    replays = 2 if read.stumped_cards == "replay_at_end" else 1
    assert plays <= len(read.deck) * replays + len(read.seats) * read.flag_limit
    assert run.log[-1].type == "RoundEnded"
    assert not challenge.is_over(run.state)  # protests are heard until the signature
    assert run.send("sign_score_card", PROCTOR, {"initials": "PK"})
    assert challenge.is_over(run.state)
    check_invariants(run)


@given(score=st.integers(0, 99), flags=st.integers(0, 3), out=st.booleans())
def test_the_fast_replace_builds_what_dataclasses_replace_builds(score, flags, out):
    seat = SeatState("s1", "Ada", score=1, cards_won=("c1",))
    changes = {"score": score, "flags": flags, "disqualified": out}
    fast, slow = replace(seat, **changes), dataclasses.replace(seat, **changes)
    assert fast == slow and hash(fast) == hash(slow) and repr(fast) == repr(slow)
    assert seat == SeatState("s1", "Ada", score=1, cards_won=("c1",))  # the original is kept
    with pytest.raises(TypeError, match="scroe"):  # refused, as dataclasses.replace does
        replace(seat, scroe=1)


HEARING = st.tuples(
    st.sampled_from(["protest", "protest", "rule", "rule", "rule", "sign", "reopen"]),
    st.integers(0, 3),
    st.integers(0, 54),
    st.integers(0, 59),
)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(raw=table_options(), seed=st.integers(0, 2**32), hearings=st.lists(HEARING, max_size=40))
def test_any_mix_of_corrections_replays_to_the_live_state(raw, seed, hearings):
    """R-ROUND-8: protests and rulings with any mix of corrections, during the round and after
    it, signed and reopened: the replayed log equals the live state, scores are never
    negative, and a rescinded flag never leaves a student disqualified below the limit
    (`check_invariants` after every accepted command)."""
    rng = random.Random(seed)
    run = Run(raw)
    run.send("start_round", PROCTOR, {})
    pending = list(hearings)
    for _ in range(5000):
        if run.state.ended and not pending:
            break
        if pending and (run.state.ended or rng.random() < 0.15):
            action, seat_index, variant, detail = pending.pop(0)
            seats = [seat.seat for seat in run.state.seats]
            if run.hear(action, seats[seat_index % len(seats)], variant, detail):
                check_invariants(run)
            continue
        action = run.sensible(rng.randrange(55))
        if action in ("override", "pause", "flag") or rng.random() < 0.1:
            action = "fire"
        if action == "fire" and not challenge.deadlines(run.state):
            action = "place" if run.state.phase == "between_cards" else "reveal"
        if run.act(action, rng.randrange(4), rng.randrange(55), rng.randrange(60), S // 2):
            check_invariants(run)
    assert replay(challenge, raw, run.log) == run.state
