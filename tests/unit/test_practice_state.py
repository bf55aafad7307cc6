"""A practice table's state (server/games/practice/state.py): given recorded events, the whole
state after them and the live deadlines, exactly. The events are written out here (not
decided), so each expected value is a literal of the log."""

from __future__ import annotations

from dataclasses import replace

from server.games.base import SERVER_ACTOR, Command, Deadline, Event
from server.games.practice import evolve
from server.games.practice.options import practice_options
from server.games.practice.state import (
    Attempt,
    PracticeState,
    SeatPractice,
    deadlines,
    initial_state,
    is_over,
)
from server.ratings import Rating

T0 = 1_700_000_000_000_000
S = 1_000_000
OPTIONS = {
    "seats": [{"seat": "s1", "name": "Ada"}, {"seat": "s2", "name": "Bo"}],
    "cards": 2,
    "touch_seconds": 10,
    "answer_seconds": 20,
    "ratings": {"s2": {"mu": 1700, "sigma": 80}},
}
DEALT_1 = Event(
    "CardDealt",
    {
        "seat": "s1",
        "number": 1,
        "card_id": "1 1 1 8",
        "numbers": [8, 1, 1, 1],
        "score": 1,
        "card_rating": {"mu": 1400, "sigma": 120},
        "rating": {"mu": 1500, "sigma": 350},
        "at": T0,
    },
)
FIRST = Attempt(
    number=1,
    card_id="1 1 1 8",
    numbers=(8, 1, 1, 1),
    score=1.0,
    card_rating=Rating(1400.0, 120.0),
    rating=Rating(1500.0, 350.0),
    dealt_at=T0,
    window_from=T0,
)
SOLUTIONS = [{"pattern": "3 × 8", "steps": ["1 + 1 = 2", "2 + 1 = 3", "3 × 8 = 24"]}]


def play(*events: Event) -> PracticeState:
    state = initial_state(OPTIONS)
    for event in events:
        state = evolve(state, event)
    return state


def test_a_new_table_has_each_seat_at_its_start_rating_and_no_card():
    state = play()
    assert state == PracticeState(
        options=practice_options(OPTIONS),
        seats=(
            SeatPractice("s1", "Ada", Rating(1500.0, 350.0)),
            SeatPractice("s2", "Bo", Rating(1700.0, 80.0)),
        ),
        card_ratings={},
        paused=False,
        pause_cause=None,
        ended=False,
        end_reason=None,
        clock=0,
    )
    assert state.phase == "practising" and not is_over(state)


def test_a_dealt_card_is_the_seats_card_in_play_with_its_recorded_ratings():
    state = play(DEALT_1)
    assert state.seats == (
        SeatPractice("s1", "Ada", Rating(1500.0, 350.0), (FIRST,)),
        SeatPractice("s2", "Bo", Rating(1700.0, 80.0)),
    )
    assert state.clock == T0 and state.seat("s1").current == FIRST
    assert state.seat("s3") is None


def test_a_touch_opens_the_answer_window_from_its_time():
    state = play(DEALT_1, Event("CardTouched", {"seat": "s1", "number": 1, "at": T0 + 2 * S}))
    touched = replace(FIRST, touched_at=T0 + 2 * S, window_from=T0 + 2 * S)
    assert state.seats[0].attempts == (touched,) and state.clock == T0 + 2 * S


def test_a_solved_card_and_its_rating_update_end_the_attempt():
    rated = {
        "seat": "s1",
        "number": 1,
        "card_id": "1 1 1 8",
        "solved": True,
        "before": {"mu": 1500, "sigma": 350},
        "after": {"mu": 1560.5, "sigma": 300},
        "card_before": {"mu": 1400, "sigma": 120},
        "card_after": {"mu": 1390.25, "sigma": 119},
        "at": T0 + 4 * S,
    }
    state = play(
        DEALT_1,
        Event("CardTouched", {"seat": "s1", "number": 1, "at": T0 + 2 * S}),
        Event("CardSolved", {"seat": "s1", "number": 1, "at": T0 + 4 * S}),
        Event("RatingUpdated", rated),
    )
    done = replace(
        FIRST,
        touched_at=T0 + 2 * S,
        window_from=T0 + 2 * S,
        result="solved",
        ended_at=T0 + 4 * S,
        rating_after=Rating(1560.5, 300.0),
        card_rating_after=Rating(1390.25, 119.0),
    )
    assert state.seats == (
        SeatPractice("s1", "Ada", Rating(1560.5, 300.0), (done,)),
        SeatPractice("s2", "Bo", Rating(1700.0, 80.0)),
    )
    assert state.card_ratings == {"1 1 1 8": Rating(1390.25, 119.0)}
    assert state.seats[0].current is None and state.seats[0].played == 1
    assert deadlines(state) == []


def test_a_rating_update_changes_only_its_own_attempt():
    second = Event("CardDealt", {**DEALT_1.data, "number": 2, "card_id": "2 3 4 6", "at": T0 + 9})
    missed = Event("CardMissed", {"seat": "s1", "number": 1, "reason": "gave_up", "at": T0 + 5})
    rated = {
        "seat": "s1",
        "number": 2,
        "card_id": "2 3 4 6",
        "after": {"mu": 1450, "sigma": 320},
        "card_after": {"mu": 1410, "sigma": 118},
        "at": T0 + 12,
    }
    state = play(DEALT_1, missed, second, Event("RatingUpdated", rated))
    first, later = state.seats[0].attempts
    assert (first.rating_after, first.card_rating_after) == (None, None)
    assert (later.rating_after, later.card_rating_after) == (
        Rating(1450.0, 320.0),
        Rating(1410.0, 118.0),
    )
    assert state.seats[1] == SeatPractice("s2", "Bo", Rating(1700.0, 80.0))


def test_a_missed_card_keeps_the_reason_the_judges_words_and_the_solutions():
    missed = {
        "seat": "s1",
        "number": 1,
        "reason": "wrong",
        "message": "3 is not 24",
        "solutions": SOLUTIONS,
        "at": T0 + 7 * S,
    }
    state = play(DEALT_1, Event("CardMissed", missed))
    assert state.seats[0].attempts == (
        replace(
            FIRST,
            result="wrong",
            ended_at=T0 + 7 * S,
            message="3 is not 24",
            solutions=tuple(SOLUTIONS),
        ),
    )


def test_a_miss_recorded_without_words_or_solutions_reads_as_none_given():
    missed = {"seat": "s1", "number": 1, "reason": "no_touch", "at": T0 + 10 * S}
    (attempt,) = play(DEALT_1, Event("CardMissed", missed)).seats[0].attempts
    assert (attempt.result, attempt.ended_at) == ("no_touch", T0 + 10 * S)
    assert (attempt.message, attempt.solutions) == ("", ())


def test_the_clock_follows_the_latest_time_and_never_runs_back():
    state = play(DEALT_1, Event("PracticePaused", {"cause": "server_restart", "at": T0 - 5}))
    assert state.clock == T0
    assert play(Event("Unknown", {"at": T0 + 1})).clock == T0 + 1
    assert play(Event("Unknown", {})) == play()


def test_a_pause_and_a_resume_restart_every_card_in_play_in_full():
    dealt_2 = Event("CardDealt", {**DEALT_1.data, "seat": "s2", "at": T0 + 1})
    paused = play(DEALT_1, dealt_2, Event("PracticePaused", {"cause": "proctor", "at": T0 + 2}))
    assert (paused.paused, paused.pause_cause, deadlines(paused)) == (True, "proctor", [])
    state = evolve(paused, Event("PracticeResumed", {"cause": "proctor", "at": T0 + 50}))
    assert (state.paused, state.pause_cause) == (False, None)
    assert [seat.current.window_from for seat in state.seats] == [T0 + 50, T0 + 50]
    assert [seat.current.dealt_at for seat in state.seats] == [T0, T0 + 1]


def test_a_resume_leaves_a_seat_without_a_card_in_play_as_it_was():
    missed = Event("CardMissed", {"seat": "s1", "number": 1, "reason": "gave_up", "at": T0 + 1})
    state = play(
        DEALT_1,
        missed,
        Event("PracticePaused", {"cause": "proctor", "at": T0 + 2}),
        Event("PracticeResumed", {"cause": "proctor", "at": T0 + 3}),
    )
    assert state.seats[0].attempts[0].window_from == T0


def test_the_end_records_its_reason_and_stops_every_clock():
    paused = play(DEALT_1, Event("PracticePaused", {"cause": "proctor", "at": T0 + 1}))
    state = evolve(paused, Event("PracticeEnded", {"reason": "ended", "at": T0 + 2}))
    assert (state.ended, state.end_reason, state.paused) == (True, "ended", False)
    assert state.phase == "ended" and is_over(state) and deadlines(state) == []


def test_each_seat_has_its_window_touch_then_answer_sorted_by_time():
    touched = Event("CardTouched", {"seat": "s1", "number": 1, "at": T0 + 1 * S})
    dealt_2 = Event("CardDealt", {**DEALT_1.data, "seat": "s2", "at": T0 + 3 * S})
    state = play(DEALT_1, touched, dealt_2)
    answer_key = f"answer:s1:1:{T0 + 1 * S}"
    touch_key = f"touch:s2:1:{T0 + 3 * S}"
    assert deadlines(state) == [
        Deadline(
            touch_key, T0 + 13 * S, Command("touch_deadline", {"key": touch_key}, SERVER_ACTOR)
        ),
        Deadline(
            answer_key, T0 + 21 * S, Command("answer_deadline", {"key": answer_key}, SERVER_ACTOR)
        ),
    ]
    # a seat without a card does not hide the seats after it
    missed = Event("CardMissed", {"seat": "s1", "number": 1, "reason": "gave_up", "at": T0 + 5})
    (only,) = deadlines(evolve(state, missed))
    assert only.key == touch_key


def test_windows_ending_together_are_ordered_by_key():
    """s1's answer window (from its touch at T0 - 10 s) and s2's touch window (from its deal at
    T0) both end at T0 + 10 s: the answer's key sorts first, though s1's is not first."""
    dealt_1 = Event("CardDealt", {**DEALT_1.data, "seat": "s2", "at": T0 - 20 * S})
    touched = Event("CardTouched", {"seat": "s2", "number": 1, "at": T0 - 10 * S})
    keys = [(d.key, d.at) for d in deadlines(play(dealt_1, touched, DEALT_1))]
    assert keys == [(f"answer:s2:1:{T0 - 10 * S}", T0 + 10 * S), (f"touch:s1:1:{T0}", T0 + 10 * S)]


def test_a_seat_is_done_after_its_cards_and_not_with_a_card_in_play():
    state = play(DEALT_1)
    assert not state.done(state.seats[0])
    ended = Event("CardMissed", {"seat": "s1", "number": 1, "reason": "gave_up", "at": T0 + 1})
    second = Event("CardDealt", {**DEALT_1.data, "number": 2, "at": T0 + 2})
    state = play(DEALT_1, ended, second)
    assert not state.done(state.seats[0])
    state = evolve(state, Event("CardMissed", {**ended.data, "number": 2, "at": T0 + 3}))
    assert state.done(state.seats[0]) and not state.done(state.seats[1])
