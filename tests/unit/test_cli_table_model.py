"""The client's model of a table (clients/reference_cli/table_model.py), for any game.

The client holds no rules: its view and deadlines are the server's, from the snapshot and the
`view` pushes (protocol/views.py). These tests fold random rounds through the real 24
Challenge decider, send what the server sends (each event redacted for the viewer, then the
view change and the live deadlines), and check after every event, for every kind of viewer,
that the client draws exactly the server's `view(state, viewer)` and deadlines; also after a
join mid-round and a resume. The feed (event words, times from the card's reveal) is the
game's part (games/challenge/).
"""

from __future__ import annotations

import random

import pytest
from challenge_tables import DIRECTOR, PROCTOR, SPECTATOR, T0, S, Table, options, player
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_challenge_properties import Run

from clients.reference_cli.games import GENERIC, part_for
from clients.reference_cli.games.challenge.event_words import describe_event
from clients.reference_cli.styling import Style
from clients.reference_cli.table_model import FeedLine, apply_push, from_snapshot
from protocol.views import view_change
from server.games import challenge
from server.games.base import Event

VIEWERS = (player("s2"), SPECTATOR, PROCTOR)


def push(seq: int, event: Event, viewer) -> dict:
    seen = challenge.event_view(event, viewer)
    return {
        "type": "event",
        "table": "t",
        "seq": seq,
        "event_type": seen.type,
        "data": dict(seen.data),
        "at": seen.data.get("at", 0),
    }


def deadlines(state) -> list[dict]:
    return [
        {"key": d.key, "command": d.command.name, "at": d.at} for d in challenge.deadlines(state)
    ]


def with_view(push_: dict, before, after, viewer) -> dict:
    """The push of an append's last event: it also carries the view change and deadlines
    (server/runtime/views.py)."""
    old = challenge.view(before, viewer)
    return {
        **push_,
        **view_change(old, challenge.view(after, viewer)),
        "deadlines": deadlines(after),
    }


def created(raw: dict) -> Event:
    return Event("TableCreated", {"game": "challenge", "options": raw, "at": T0})


def snapshot(state, viewer, seq: int) -> dict:
    return {
        "type": "snapshot",
        "id": 1,
        "table": "t",
        "game": "challenge",
        "seq": seq,
        "view": challenge.view(state, viewer),
        "deadlines": deadlines(state),
        "server_time": state.clock,
    }


def follow(raw: dict, log: list[Event], viewer, join_at: int = 0, drop_at: int | None = None):
    """Join after `join_at` events (snapshot there, history before it), then check every
    later event and its view push: the client's view and deadlines are the server's. With
    `drop_at`, the connection drops after that many events and resumes (`after_seq`) a few
    events later."""
    events = [created(raw), *log]
    states = [challenge.initial_state(raw)]
    for event in log:
        states.append(challenge.evolve(states[-1], event))
    model = from_snapshot(snapshot(states[join_at], viewer, join_at + 1), after_seq=0)
    for index, event in enumerate(events[: join_at + 1]):
        model, _line = apply_push(model, push(index + 1, event, viewer))
        assert model.seq == join_at + 1  # history moves the feed only
    index = join_at + 1
    while index < len(events):
        if drop_at is not None and index == drop_at:
            missed = min(len(events) - 1, index + 3)  # three events happen while away
            model = from_snapshot(snapshot(states[missed], viewer, missed + 1), model, index)
            for seq in range(index + 1, missed + 2):
                model, _line = apply_push(model, push(seq, events[seq - 1], viewer))
            assert model.seq == missed + 1 and model.view == challenge.view(states[missed], viewer)
            index = missed + 1
            drop_at = None
            continue
        last = with_view(
            push(index + 1, events[index], viewer), states[index - 1], states[index], viewer
        )
        model, line = apply_push(model, last)
        assert isinstance(line, FeedLine)
        expected = challenge.view(states[index], viewer)
        assert model.view == expected, (index, events[index].type)
        assert model.deadlines == deadlines(states[index])
        assert model.seq == index + 1
        index += 1
    return model


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), raw_choice=st.integers(0, 10_000))
def test_the_client_view_follows_the_server_view_through_random_rounds(seed, raw_choice):
    rng = random.Random(seed)
    pick = random.Random(raw_choice)
    raw = options(
        seats=pick.choice([3, 4]),
        cards=pick.sample(["c1", "c2", "c3", "c4", "c5", "c6"], pick.randint(1, 6)),
        mode=pick.choice(["networked", "proctored"]),
        stumped_cards=pick.choice(["set_aside", "replay_at_end"]),
        auto_proctor=pick.choice([None, 0.5, 2]),
        pattern_seconds=pick.choice([3, 1.5]),
    )
    run = Run(raw)
    run.send("start_round", PROCTOR, {})
    for _ in range(400):
        if run.state.ended:
            break
        if rng.random() < 0.05:  # a protest or a ruling while the round runs (R-ROUND-8)
            hearing = rng.choice(["protest", "rule"])
            run.hear(hearing, f"s{rng.randint(1, 3)}", rng.randrange(55), rng.randrange(60))
            continue
        action = run.sensible(rng.randrange(55))
        if rng.random() < 0.12:
            action = rng.choice(["fire", "pause", "resume", "flag", "override", "touch"])
        run.act(
            action,
            rng.randrange(4),
            rng.randrange(55),
            rng.randrange(60),
            rng.choice([0, 1000, S // 2, S, 4 * S]),
        )
    for _ in range(12):  # after the round: protests, rulings, the signature, a reopening
        hearing = rng.choice(["protest", "rule", "rule", "sign", "reopen"])
        run.hear(hearing, f"s{rng.randint(1, 3)}", rng.randrange(55), rng.randrange(60))
    for viewer in VIEWERS:
        follow(raw, run.log, viewer, join_at=0)
        follow(raw, run.log, viewer, join_at=rng.randrange(len(run.log) + 1))
        follow(raw, run.log, viewer, drop_at=rng.randrange(1, len(run.log) + 1))


def returned_revealed(table: Table) -> str:
    """A card that was revealed, then flagged back into the deck (R-FLAG-2): awardable."""
    returned = [e for e in table.events if e.type == "CardReturnedToDeck" and e.data["revealed"]]
    return returned[-1].data["card_id"]


def test_a_scripted_round_with_every_kind_of_event():
    table = Table.started(
        seats=3, cards=["c1", "c2", "c3", "c4"], auto_proctor=1, stumped_cards="replay_at_end"
    )
    table.next_card()
    table.win("s1")
    table.next_card()
    table.do("touch_card", player("s2"), fingertips=2)
    table.do("touch_card", player("s3"))
    table.do("override_first_touch", PROCTOR, seat="s3")
    table.do("declare_pattern", player("s3"), pattern="3 × 8")
    table.do("fix_solution", player("s3"), steps=["1 + 1 = 2", "2 + 1 = 3", "3 + 8 = 11"])
    table.do("pause_table", PROCTOR, cause="tea")
    table.do("resume_table", PROCTOR)
    table.do("place_card")
    table.do("touch_card", player("s1"))  # before the reveal: a flag (R-PLAY-3)
    table.next_card()
    for seat in ("s1", "s2", "s3"):
        table.do("declare_stumped", player(seat))
    flag = table.seq_of("FlagIssued")
    table.do("file_protest", player("s1"), seqs=[flag], reason="after the reveal")
    table.do(
        "rule_protest",
        PROCTOR,
        protest=1,
        upheld=True,
        ruling_text="the flag goes",
        corrections=[
            {"kind": "rescind_flag", "seat": "s1", "flag": flag},
            {"kind": "award_card", "seat": "s2", "card": returned_revealed(table)},
        ],
    )
    table.do("end_round")
    table.do("file_protest", player("s2"), seqs=[3], reason="c1")
    table.do(
        "rule_protest",
        PROCTOR,
        protest=2,
        upheld=True,
        ruling_text="c1 goes",
        corrections=[
            {"kind": "revoke_card", "seat": "s1", "card": "c1"},
            {"kind": "adjust_score", "seat": "s3", "delta": 2, "why": "x"},
        ],
    )
    table.do("sign_score_card", PROCTOR, initials="PK")
    table.do("reopen_score_card", DIRECTOR, reason="late")
    types = {event.type for event in table.events}
    assert {
        "FirstTouchOverridden",
        "TouchRefused",
        "CardStumped",
        "TablePaused",
        "CardReturnedToDeck",
        "FlagIssued",
        "RoundEnded",
        "ProtestFiled",
        "ProtestRuled",
        "FlagRescinded",
        "CardAwarded",
        "CardAwardRevoked",
        "ScoreAdjusted",
        "ScoreCardSigned",
        "ScoreCardReopened",
    } <= types
    for viewer in VIEWERS:
        follow(table.raw_options, table.events, viewer)


def test_the_feed_times_each_event_from_the_card_reveal():
    table = Table.started()
    table.do("place_card")
    table.advance(0.5)
    table.do("reveal_card")
    table.advance(2.31)
    table.do("touch_card", player("s2"), fingertips=2)
    lines = []
    initial = challenge.initial_state(table.raw_options)
    model = from_snapshot(snapshot(initial, SPECTATOR, 1), after_seq=0)
    for seq, event in enumerate([created(table.raw_options), *table.events], start=1):
        model, line = apply_push(model, push(seq, event, SPECTATOR))
        lines.append(line)
    assert lines[-1].text == "Bo touched (2 fingertips)"
    assert lines[-1].stamp() == "  +2.31s"
    assert lines[-2].stamp() == "  +0.00s"  # the reveal itself
    assert lines[-3].stamp().strip() == ""  # placed: not revealed yet
    assert "hidden" not in lines[-3].text  # a spectator never sees the placed numbers
    assert [line.stamp().strip() for line in lines[:2]] == ["", ""]


def test_history_after_a_fresh_join_is_timed_from_its_own_reveals():
    table = Table.started()
    table.next_card()
    table.advance(1)
    table.win("s1")
    table.next_card()
    table.advance(4)
    # Joined now: the snapshot shows card 2 revealed; the history replays card 1.
    model = from_snapshot(snapshot(table.state, SPECTATOR, len(table.events) + 1), after_seq=0)
    stamps = []
    for seq, event in enumerate([created(table.raw_options), *table.events], start=1):
        model, line = apply_push(model, push(seq, event, SPECTATOR))
        stamps.append((line.text, line.stamp().strip()))
    assert ("round 1 started: 10 cards", "") in stamps
    assert ("Ada touched (1 fingertip)", "+1.00s") in stamps


@pytest.mark.parametrize(
    ("kind", "data", "words"),
    [
        ("RoundStarted", {"round": 1, "deck": 46, "removed": 2}, "two-dot cards removed"),
        ("CardPlaced", {"play": 2, "numbers": [3, 3, 8, 8]}, "hidden from players"),
        ("CardRevealed", {"play": 2, "numbers": [3, 3, 8, 8], "dots": 3}, "3 3 8 8"),
        ("TouchRefused", {"seat": "s1", "toucher": "s2"}, "Ada touched too, but Bo"),
        ("SolutionJudged", {"seat": "s1", "ok": False, "message": "not 24"}, "wrong: not 24"),
        ("SolutionJudged", {"seat": "s1", "ok": True}, "right"),
        ("FlagIssued", {"seat": "s1", "cause": "no_pattern", "flags": 1}, "R-PLAY-4"),
        ("PlayerDisqualified", {"seat": "s1", "flags": 3}, "R-FLAG-3"),
        ("CardStumped", {"play": 4, "reason": "no_touch"}, "nobody touched"),
        ("StumpedCardsReturned", {"cards": ["c1", "c2"]}, "2 stumped cards"),
        ("RoundEnded", {"reason": "deck_empty", "scores": {"s1": 3}}, "Scores: Ada 3"),
        ("SomethingNew", {}, "something this client cannot show yet happened"),
    ],
)
def test_events_in_words(kind, data, words):
    assert words in describe_event(kind, data, {"s1": "Ada", "s2": "Bo"})


def test_a_resume_keeps_the_feed_it_followed_and_a_fresh_join_starts_it_anew():
    table = Table.started(auto_proctor=2)
    table.next_card()
    model = from_snapshot(snapshot(table.state, SPECTATOR, 4), after_seq=None)
    assert model.feed_state == table.state.card.revealed_at  # from the snapshot's view
    again = from_snapshot(snapshot(table.state, SPECTATOR, 4), previous=model, after_seq=4)
    assert again.feed_state == model.feed_state
    fresh = from_snapshot(snapshot(table.state, SPECTATOR, 4), previous=model, after_seq=0)
    assert fresh.feed_state is None  # the history will say when the card was revealed


def test_a_game_without_a_part_is_drawn_and_worded_generically():
    """A game this client has no part for still shows: its view as lines, events by name."""
    model = from_snapshot(
        {
            "table": "t",
            "game": "go",
            "seq": 2,
            "view": {"board": [[0, 1]], "turn": "black"},
            "deadlines": [{"key": "k", "command": "pass_turn", "at": T0}],
            "server_time": T0,
        }
    )
    assert model.part is GENERIC and part_for("challenge").name == "challenge"
    assert GENERIC.board(model.view, Style(color=False)) == ["board: [[0, 1]]", 'turn: "black"']
    moved = {
        "seq": 3,
        "event_type": "Moved",
        "data": {"at": T0, "x": 1},
        "at": T0 + S,
        "patch": {"set": {"turn": "white"}, "unset": []},
        "deadlines": [],
    }
    model, line = apply_push(model, moved)
    assert line.text == "Moved x=1" and line.since_reveal_us is None
    assert model.view == {"board": [[0, 1]], "turn": "white"} and model.deadlines == []
    assert model.seq == 3 and model.server_time == T0 + S
