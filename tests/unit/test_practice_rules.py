"""The practice game (server/games/practice, docs/games/practice.md, issue 31): given its
events, when a command is decided, then these events (or this refusal)."""

from __future__ import annotations

import pytest

from server.games import practice
from server.games.base import SERVER_ACTOR, Actor, Command, Event, RuleViolation, replay
from server.games.practice.choice import NEAREST, card_id_of
from server.games.practice.pool import pool
from server.puzzles.card_facts import facts
from server.ratings import MAX_PROVISIONAL_STEP, card_prior

T0 = 1_700_000_000_000_000
S = 1_000_000
ADA = Actor("player", "s1")
DIRECTOR = Actor("director", "d1")


class Practice:
    """One practice table in memory, its commands decided at `now`."""

    def __init__(self, **options: object) -> None:
        self.options = {"seats": [{"seat": "s1", "name": "Ada"}], "seed": 3, **options}
        self.state = practice.initial_state(self.options)
        self.now = T0
        self.events: list[Event] = []

    def do(self, name: str, actor: Actor = ADA, **args: object) -> list[Event]:
        new = practice.decide(self.state, Command(name, args, actor), self.now)
        for event in new:
            self.state = practice.evolve(self.state, event)
        self.events += new
        return new

    def refused(self, name: str, actor: Actor = ADA, **args: object) -> RuleViolation:
        with pytest.raises(RuleViolation) as caught:
            self.do(name, actor, **args)
        return caught.value

    def fire(self) -> list[Event]:
        (deadline,) = practice.deadlines(self.state)
        self.now = max(self.now, deadline.at)
        return self.do(deadline.command.name, SERVER_ACTOR, **deadline.command.args)

    def card(self, seat: str = "s1"):
        found = self.state.seat(seat)
        assert found is not None and found.current is not None
        return found.current

    def solve(self, after: float = 2.0) -> list[Event]:
        card = self.card()
        self.do("touch")
        self.now += round(after * S)
        solution = facts(card.numbers).solutions[0]
        return self.do("answer", pattern=solution["pattern"], steps=solution["steps"])


def types(events: list[Event]) -> list[str]:
    return [event.type for event in events]


def test_next_card_deals_a_card_near_the_rating_with_its_score_and_rating():
    table = Practice()
    (dealt,) = table.do("next_card")
    assert dealt.type == "CardDealt" and dealt.data["number"] == 1
    assert dealt.data["rating"] == {"mu": 1500.0, "sigma": 350.0}
    score = dict(pool())[tuple(sorted(dealt.data["numbers"]))]
    assert dealt.data["score"] == score
    assert dealt.data["card_rating"] == card_prior(score).as_data()
    assert dealt.data["card_id"] == card_id_of(tuple(dealt.data["numbers"]))
    assert table.refused("next_card").code == "card_in_play"


def test_a_right_answer_after_the_touch_solves_the_card_and_both_ratings_move():
    table = Practice()
    table.do("next_card")
    table.now += S
    events = table.solve(after=2.0)
    assert types(events) == ["AnswerJudged", "CardSolved", "RatingUpdated"]
    solved, rated = events[1].data, events[2].data
    assert (solved["after_us"], solved["touch_us"]) == (3 * S, S)
    assert rated["solved"] is True and rated["after"]["mu"] > rated["before"]["mu"]
    assert rated["card_after"]["mu"] < rated["card_before"]["mu"]  # the card looks easier
    assert table.state.seat("s1").rating.mu == rated["after"]["mu"]


def test_a_wrong_answer_is_a_miss_with_the_judges_words_and_the_solutions():
    table = Practice()
    table.do("next_card")
    numbers = table.card().numbers
    table.do("touch")
    events = table.do("answer", pattern="3 × 8", steps=["1 + 1 = 2", "2 + 1 = 3", "3 × 8 = 24"])
    assert types(events) == ["AnswerJudged", "CardMissed", "RatingUpdated"]
    missed = events[1].data
    assert missed["reason"] == "wrong" and missed["message"] == events[0].data["message"]
    assert missed["solutions"] == [dict(s) for s in facts(numbers).solutions]
    assert events[2].data["after"]["mu"] < events[2].data["before"]["mu"]


def test_no_touch_in_time_and_no_answer_in_time_are_misses_at_their_deadlines():
    table = Practice(touch_seconds=15, answer_seconds=15)
    table.do("next_card")
    events = table.fire()
    assert events[0].type == "CardMissed" and events[0].data["reason"] == "no_touch"
    assert events[0].data["after_us"] == 15 * S
    table.do("next_card")
    table.now += 4 * S
    table.do("touch")
    events = table.fire()
    assert events[0].data["reason"] == "no_answer" and events[0].data["after_us"] == 19 * S


def test_an_answer_before_the_touch_or_after_its_window_is_refused():
    table = Practice()
    table.do("next_card")
    assert table.refused("answer", pattern="3 × 8", steps=["1 + 1"]).code == "touch_first"
    table.do("touch")
    assert table.refused("touch").code == "already_touched"
    table.now += 15 * S
    assert table.refused("answer", pattern="3 × 8", steps=["1 + 1"]).code == "too_late"


def test_giving_up_is_a_miss_and_no_card_means_nothing_to_give_up():
    table = Practice()
    assert table.refused("give_up").code == "no_card"
    table.do("next_card")
    assert table.do("give_up")[0].data["reason"] == "gave_up"


def test_the_next_card_follows_the_rating_at_once():
    """lila 19101, 16619: the card after a rise is chosen at the new rating."""
    table = Practice()
    table.do("next_card")
    table.solve()
    rating = table.state.seat("s1").rating.mu
    (dealt,) = table.do("next_card")
    assert dealt.data["rating"]["mu"] == rating
    nearest = sorted(abs(card_prior(score).mu - rating) for _n, score in pool())[NEAREST]
    assert abs(dealt.data["card_rating"]["mu"] - rating) <= nearest


def test_the_cards_are_never_far_below_the_level_and_never_dealt_twice():
    """lila 4684: a strong student is not flooded with easy cards."""
    table = Practice(cards=30, ratings={"s1": {"mu": 2200, "sigma": 60}})
    seen = set()
    for _ in range(30):
        (dealt,) = table.do("next_card")
        assert dealt.data["card_rating"]["mu"] > dealt.data["rating"]["mu"] - 200
        assert dealt.data["card_id"] not in seen
        seen.add(dealt.data["card_id"])
        table.solve()


def test_early_steps_are_bounded_while_the_rating_is_provisional():
    """lila 7777: a provisional rating never jumps more than MAX_PROVISIONAL_STEP."""
    table = Practice(ratings={"s1": {"mu": 1500, "sigma": 350}}, aim=600)
    table.do("next_card")
    rated = table.solve()[-1].data
    assert 0 < rated["after"]["mu"] - rated["before"]["mu"] <= MAX_PROVISIONAL_STEP


def test_the_practice_ends_when_every_student_has_played_their_cards():
    seats = [{"seat": "s1", "name": "Ada"}, {"seat": "s2", "name": "Bo"}]
    table = Practice(seats=seats, cards=1)
    bo = Actor("player", "s2")
    table.do("next_card")
    table.do("next_card", bo)
    assert table.do("give_up")[-1].type == "RatingUpdated"
    assert table.refused("next_card").code == "all_cards_played"
    events = table.do("give_up", bo)
    assert events[-1].type == "PracticeEnded" and events[-1].data["reason"] == "all_played"
    assert set(events[-1].data["ratings"]) == {"s1", "s2"}
    assert practice.is_over(table.state)
    assert table.refused("next_card", bo).code == "practice_over"


def test_a_class_is_ended_by_the_director_and_a_student_alone_ends_their_own():
    seats = [{"seat": "s1", "name": "Ada"}, {"seat": "s2", "name": "Bo"}]
    table = Practice(seats=seats)
    assert table.refused("end_practice").code == "not_allowed"
    assert table.do("end_practice", DIRECTOR)[0].data["reason"] == "ended"
    alone = Practice()
    assert alone.do("end_practice")[0].type == "PracticeEnded"


def test_a_pause_stops_the_windows_and_a_resume_restarts_them_in_full():
    table = Practice()
    table.do("next_card")
    table.now += 10 * S
    table.do("pause_practice", SERVER_ACTOR, cause="server_restart")
    assert practice.deadlines(table.state) == []
    assert table.refused("touch").code == "practice_paused"
    table.now += 60 * S
    table.do("resume_practice")
    (deadline,) = practice.deadlines(table.state)
    assert deadline.at == table.now + 15 * S


def test_a_stale_or_early_deadline_is_refused():
    table = Practice()
    table.do("next_card")
    (deadline,) = practice.deadlines(table.state)
    with pytest.raises(RuleViolation) as early:
        practice.decide(table.state, deadline.command, deadline.at - 2_000)
    assert early.value.code == "deadline_not_due"
    table.do("touch")  # the touch window closed: its timer is stale now
    with pytest.raises(RuleViolation) as stale:
        practice.decide(table.state, deadline.command, deadline.at)
    assert stale.value.code == "stale_deadline"


def test_replay_of_the_recorded_events_gives_the_live_state():
    table = Practice(cards=3)
    for _ in range(3):
        table.do("next_card")
        table.solve()
    assert replay(practice, table.options, table.events) == table.state


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"seats": []}, "seats"),
        ({"cards": 0}, "cards"),
        ({"touch_seconds": 0}, "touch_seconds"),
        ({"aim": 601}, "aim"),
        ({"ratings": {"s9": {"mu": 1500, "sigma": 100}}}, "ratings"),
        ({"ratings": {"s1": {"mu": 1500, "sigma": 351}}}, "ratings"),
        ({"seed": -1}, "seed"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_bad_options_are_refused_naming_the_option(options, field):
    with pytest.raises(RuleViolation) as caught:
        Practice(**options)
    assert caught.value.code == "bad_options" and repr(field) in caught.value.message


def test_the_seed_is_hidden_from_players_and_shown_to_officials():
    table = Practice(seed=2**62 + 5)
    created = Event("TableCreated", {"game": "practice", "options": table.options})
    assert "seed" not in practice.event_view(created, ADA).data["options"]
    assert practice.event_view(created, DIRECTOR).data["options"]["seed"] == 2**62 + 5
    assert "seed" not in practice.view(table.state, ADA)
    assert practice.view(table.state, DIRECTOR)["seed"] == 2**62 + 5
    assert practice.view(table.state, ADA)["you"] == "s1"
