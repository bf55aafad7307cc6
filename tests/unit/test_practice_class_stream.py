"""A class plays the same practice stream (issue 31; option `stream: class`,
server/games/practice/choice.py, docs/games/practice.md): card n is the same card for every
student, chosen at the class's mean rating, whatever order the students ask in; each
student's own rating still moves with their own answers."""

from __future__ import annotations

import pytest
from test_practice_rules import ADA, Practice, S, types

from server.games import practice
from server.games.base import Actor, RuleViolation, replay
from server.games.practice.choice import NEAREST, card_id_of
from server.games.practice.pool import pool
from server.puzzles.card_facts import facts
from server.ratings import card_prior

BO, CY = Actor("player", "s2"), Actor("player", "s3")
CLASS = [{"seat": "s1", "name": "Ada"}, {"seat": "s2", "name": "Bo"}, {"seat": "s3", "name": "Cy"}]


def solve(table: Practice, actor: Actor) -> None:
    card = table.card(actor.id)
    table.do("touch", actor)
    table.now += 2 * S
    solution = facts(card.numbers).solutions[0]
    table.do("answer", actor, pattern=solution["pattern"], steps=solution["steps"])


def dealt_ids(table: Practice, seat: str) -> list[str]:
    return [
        e.data["card_id"] for e in table.events if e.type == "CardDealt" and e.data["seat"] == seat
    ]


def test_every_student_of_a_class_stream_gets_the_same_cards_in_the_same_order():
    table = Practice(seats=CLASS, cards=6, stream="class")
    # Ada runs ahead solving, Bo gives up on everything, Cy asks late and misses by the clock
    for _ in range(6):
        table.do("next_card", ADA)
        solve(table, ADA)
    for _ in range(6):
        table.do("next_card", BO)
        table.do("give_up", BO)
    for _ in range(6):
        table.do("next_card", CY)
        table.fire()  # no touch in time
    ada, bo, cy = (dealt_ids(table, seat) for seat in ("s1", "s2", "s3"))
    assert ada == bo == cy and len(set(ada)) == 6
    # the same cards, but each student's rating followed their own answers
    ratings = {seat.seat: seat.rating.mu for seat in table.state.seats}
    assert ratings["s1"] > 1500 > ratings["s2"] and ratings["s3"] < 1500
    assert types(table.events)[-1] == "PracticeEnded"


def test_a_class_streams_next_card_is_chosen_at_the_classs_mean_rating():
    ratings = {"s1": {"mu": 2100, "sigma": 80}, "s2": {"mu": 1300, "sigma": 80}}
    table = Practice(seats=CLASS[:2], stream="class", ratings=ratings)
    (dealt,) = table.do("next_card", BO)
    mean = (2100 + 1300) / 2
    distances = sorted(abs(card_prior(score).mu - mean) for _numbers, score in pool())
    assert abs(dealt.data["card_rating"]["mu"] - mean) <= distances[NEAREST - 1] + 0.01
    # the later student gets that card, at the rating the table's attempts gave it since
    table.do("give_up", BO)
    (same,) = table.do("next_card", ADA)
    assert same.data["card_id"] == dealt.data["card_id"]
    moved = table.state.card_ratings[dealt.data["card_id"]]
    assert same.data["card_rating"] == moved.as_data() != dealt.data["card_rating"]
    assert same.data["rating"] == {"mu": 2100.0, "sigma": 80.0}  # her own rating


def test_own_streams_follow_each_students_rating_apart():
    ratings = {"s1": {"mu": 2100, "sigma": 80}, "s2": {"mu": 1000, "sigma": 80}}
    table = Practice(seats=CLASS[:2], ratings=ratings)
    (ada,) = table.do("next_card", ADA)
    (bo,) = table.do("next_card", BO)
    assert ada.data["card_rating"]["mu"] - bo.data["card_rating"]["mu"] > 600


def test_a_class_stream_replays_to_the_live_state_and_is_shown_to_the_class():
    table = Practice(seats=CLASS[:2], cards=3, stream="class")
    for actor in (ADA, BO, BO, ADA):
        table.do("next_card", actor)
        table.do("give_up", actor)
    assert replay(practice, table.options, table.events) == table.state
    assert practice.view(table.state, BO)["options"]["stream"] == "class"
    dealt = [card_id_of(tuple(e.data["numbers"])) for e in table.events if e.type == "CardDealt"]
    assert dealt[0] == dealt[1] and dealt[2] == dealt[3] != dealt[0]


@pytest.mark.parametrize("stream", ["shared", "", 1, None])
def test_an_unknown_stream_is_refused_naming_the_option(stream):
    with pytest.raises(RuleViolation) as caught:
        Practice(stream=stream)
    assert caught.value.code == "bad_options" and "'stream'" in caught.value.message
