"""Ratings over the whole log (server/analysis/log_ratings.py, issue 31), on hand-built logs:
given the events of tables played through the real `decide` (a 24 Challenge round, a
practice) or written out (a pocket game's end), then each student's rating and history and
each card's rating are what the module doc says."""

from __future__ import annotations

import random

from challenge_tables import ANSWERS, T0, S, Table, player
from test_practice_rules import Practice

from server.analysis.log_ratings import (
    CARD,
    PRACTICE,
    RESULT,
    TEACHING_SIGMA,
    card_key,
    identity,
    occurrences,
    rate_log,
)
from server.games.base import Actor, Event
from server.games.practice.pool import pool
from server.puzzles.card_facts import facts
from server.ratings import (
    CARD_MAX_SHIFT,
    CARD_MIN_SIGMA,
    Rating,
    card_prior,
    expected,
    rate_attempt,
    rate_table,
)

HOUR = 3600 * S


def challenge_log(table: Table, names: list[str] | None = None) -> list[Event]:
    options = dict(table.raw_options)
    if names is not None:
        options["seats"] = [{"seat": f"s{i}", "name": n} for i, n in enumerate(names, 1)]
    return [
        Event("TableCreated", {"game": "challenge", "options": options, "at": T0}),
        *table.events,
    ]


def round_won_by(winner: str, start: int = T0, cards: tuple[str, ...] = ("c1", "c9")) -> Table:
    """A 24 Challenge round of two cards, both won by `winner`, the card signed."""
    table = Table.started(seats=4, cards=list(cards))
    table.now = start
    for _ in cards:
        table.next_card()
        table.advance(2).win(winner)
    table.do("sign_score_card", initials="PK")
    return table


def pocket_log(names: list[str], scores: list[int], at: int) -> list[Event]:
    seats = [{"seat": f"s{i}", "name": n} for i, n in enumerate(names, 1)]
    ended = {
        "at": at,
        "reason": "stack_used_up",
        "scores": {s["seat"]: v for s, v in zip(seats, scores, strict=True)},
    }
    return [
        Event("TableCreated", {"game": "pocket", "options": {"seats": seats}, "at": at - HOUR}),
        Event("GameEnded", ended),
    ]


def practice_log(name: str, solved: list[bool], start: int) -> list[Event]:
    table = Practice(seats=[{"seat": "s1", "name": name}], cards=len(solved))
    table.now = start
    for right in solved:
        table.do("next_card")
        if right:
            table.solve()
        else:
            table.do("give_up")
        table.now += 10 * S
    created = Event("TableCreated", {"game": "practice", "options": table.options, "at": start})
    return [created, *table.events]


def test_the_same_name_is_one_student_across_tables_whatever_the_case_and_spaces():
    assert identity("  Ada   Lovelace ") == identity("ada lovelace") == "ada lovelace"
    assert identity("") == identity(None) == ""
    assert card_key([8, 1, 1, 1]) == "1 1 1 8"


def test_a_signed_round_moves_its_players_ratings_by_their_scores():
    log = challenge_log(round_won_by("s1"))
    rated = rate_log({"table/r1": log})
    ada, bo = rated.student("Ada"), rated.student("bo")
    (step,) = ada.history
    assert step["kind"] == RESULT and step["table"] == "r1" and step["game"] == "challenge"
    assert (step["score"], step["place"], step["players"]) == (3.0, 1, 4)  # 1 + 2 dots
    assert bo.history[0]["place"] == 2 and bo.history[0]["score"] == 0.0  # a tie behind
    expected_after = rate_table([Rating()] * 4, [3, 0, 0, 0])
    assert ada.rating == expected_after[0] and bo.rating == expected_after[1]
    assert step["mu"] == ada.rating.mu > 1500 > bo.rating.mu


def test_a_round_not_signed_or_reopened_moves_no_student_but_its_cards_still_count():
    table = round_won_by("s1")
    unsigned = challenge_log(table)[:-1]
    assert rate_log({"table/r1": unsigned}).students == {}
    table.do("reopen_score_card", Actor("director", "d"), reason="a late protest")
    reopened = rate_log({"table/r1": challenge_log(table)})
    assert reopened.students == {}
    assert set(reopened.cards) == {"1 1 1 8", card_key(ANSWERS["c9"][0])}
    assert all(card.attempts == card.solved == 1 for card in reopened.cards.values())


def test_every_attempt_at_a_challenge_card_rates_the_card_and_only_the_card():
    table = Table.started(seats=4, cards=["c10", "c5"], stumped_cards="set_aside")
    table.next_card()  # 1 1 1 8: won by Bo
    table.advance(1).win("s2")
    table.next_card()  # 4 4 4 4: Ada answers wrong, then nobody touches it: stumped
    table.do("touch_card", player("s1"))
    table.do("declare_pattern", player("s1"), pattern="3 × 8")
    table.do("fix_solution", player("s1"), steps=["1 + 1 = 2", "2 + 1 = 3", "3 + 8 = 11"])
    table.next_card()  # 4 4 4 4 again (R-FLAG-2)
    table.fire("no_touch_deadline")
    found = occurrences("table/t", challenge_log(table))
    attempts = [(o.student[2], o.card, o.solved) for o in found if o.kind == CARD]
    assert attempts[:2] == [("s2", "1 1 1 8", True), ("s1", "4 4 4 4", False)]
    # stumped on its second play: a miss for every seat that showed it was playing, Ada
    # again; Cy and Di never did a thing at this table
    assert sorted(attempts[2:]) == [(s, "4 4 4 4", False) for s in ("s1", "s2")]
    rated = rate_log({"table/t": challenge_log(table)})
    assert rated.students == {}  # no signed result: no student moved
    easy, hard = rated.cards["1 1 1 8"], rated.cards["4 4 4 4"]
    assert (easy.attempts, easy.solved, hard.attempts, hard.solved) == (1, 1, 3, 0)
    assert easy.prior == card_prior(facts((1, 1, 1, 8)).score)
    # four students new to the log: provisional, so the cards learn nothing from them yet
    assert easy.rated == hard.rated == 0 and easy.rating == easy.prior


def test_a_stumped_card_is_missed_by_the_seats_there_when_play_began_never_the_absent():
    seats = [{"seat": f"s{i}", "name": n} for i, n in enumerate(["Ada", "Bo", "Cy", "Di"], 1)]
    log = [
        Event("TableCreated", {"game": "challenge", "options": {"seats": seats}, "at": T0}),
        Event(
            "PlayBegan",
            {
                "at": T0,
                "by": "proctor",
                "connected": ["s1"],
                "attendance": {"s2": "present", "s4": "absent"},
            },
        ),
        Event(
            "CardRevealed",
            {"at": T0, "play": 1, "card_id": "c", "numbers": [4, 4, 4, 4], "wheels": None},
        ),
        Event("CardStumped", {"at": T0 + S, "play": 1, "card_id": "c", "reason": "no_touch"}),
    ]
    missed = [(o.student[2], o.solved) for o in occurrences("table/t", log)]
    assert missed == [("s1", False), ("s2", False)]


def test_practice_moves_the_student_and_the_card_as_the_practice_table_did_from_the_same_start():
    log = practice_log("Ada", [True, True, False], T0)
    rated = rate_log({"table/p": log}).student("ADA")
    recorded = [e.data for e in log if e.type == "RatingUpdated"]
    assert [h["mu"] for h in rated.history] == [r["after"]["mu"] for r in recorded]
    assert [(h["kind"], h["card"], h["solved"]) for h in rated.history] == [
        (PRACTICE, r["card_id"], r["solved"]) for r in recorded
    ]


def test_a_students_rating_carries_across_a_tournament_round_a_casual_game_and_practice():
    """Ada wins a round (as the tournament's p7), then a pocket game (as s2), then practises:
    one history, in time order, each step starting where the last left her."""
    round_ = round_won_by("s1", start=T0)
    tournament = challenge_log(round_, names=["Ada", "Bo", "Cy", "Di"])
    tournament[0].data["options"]["seats"][0]["seat"] = "s1"  # the seat ids do not matter
    pocket = pocket_log(["Eve", "ada"], [1, 4], at=T0 + 2 * HOUR)
    practice = practice_log("Ada", [True, False], T0 + 3 * HOUR)
    rated = rate_log(
        {"table/spring.r1.s1.t01": tournament, "table/pk": pocket, "table/pr": practice}
    )
    ada = rated.student("Ada")
    assert [h["table"] for h in ada.history] == ["spring.r1.s1.t01", "pk", "pr", "pr"]
    assert [h["kind"] for h in ada.history] == [RESULT, RESULT, PRACTICE, PRACTICE]
    after_round = Rating(ada.history[0]["mu"], ada.history[0]["sigma"])
    eve_after, ada_after = rate_table([Rating(), after_round], [1, 4])
    assert (ada.history[1]["mu"], ada.history[1]["sigma"]) == (ada_after.mu, ada_after.sigma)
    assert rated.student("Eve").rating == eve_after
    assert ada.as_data()["tables"] == 3 and ada.as_data()["rating"]["mu"] == ada.rating.mu


def test_a_student_renamed_in_a_tournament_stays_one_student_when_its_stream_is_read():
    round_ = round_won_by("s1", start=T0)
    seated = challenge_log(round_, names=["Ada", "Bo", "Cy", "Di"])
    registered = [
        {"student": f"s{i}", "name": n, "school": "Hill", "grade": "4th"}
        for i, n in enumerate(["Ada", "Bo", "Cy", "Di"], 1)
    ]
    tournament = [
        Event("TableCreated", {"game": "tournament", "options": {}, "at": T0 - HOUR}),
        Event("StudentsRegistered", {"at": T0 - HOUR, "students": registered}),
        Event("StudentRenamed", {"at": T0 + HOUR, "student": "s1", "name": "Ada Lovelace"}),
    ]
    pocket = pocket_log(["Bo", "Ada Lovelace"], [1, 4], at=T0 + 2 * HOUR)
    tables = {"table/spring.r1.s1.t01": seated, "table/pk": pocket}
    apart = rate_log(tables)
    assert len(apart.student("Ada").history) == len(apart.student("Ada Lovelace").history) == 1
    joined = rate_log({**tables, "tournament/spring": tournament})
    assert joined.student("Ada") is None
    ada = joined.student("ada lovelace")
    assert [h["table"] for h in ada.history] == ["spring.r1.s1.t01", "pk"]
    assert ada.name == "Ada Lovelace" and len(joined.student("Bo").history) == 2


def test_two_seats_of_one_name_at_a_table_are_two_students_and_a_nameless_seat_is_its_own():
    log = pocket_log(["Ada", "ada", ""], [3, 1, 2], at=T0)
    rated = rate_log({"table/pk": log})
    assert rated.student("Ada").history[0]["seat"] == "s1"
    assert set(rated.students) == {"ada", "ada#table/pk/s2", "#table/pk/s3"}


def test_a_stream_that_is_not_a_table_or_without_players_says_nothing():
    assert occurrences("tournament/x", [Event("StudentsRegistered", {"at": T0})]) == []
    assert occurrences("table/solo", pocket_log(["Ada"], [3], T0)[:1]) == []
    lonely = pocket_log(["Ada", "Bo"], [3, 1], T0)
    lonely[1] = Event("GameEnded", {"at": T0, "scores": {"s1": 3, "s9": 1}})  # s9 not seated
    assert occurrences("table/pk", lonely) == []


def practice_events(
    name: str, attempts: list[tuple[tuple[int, ...], bool]], start: int
) -> list[Event]:
    """A practice table's log written out: the events the fold reads of each attempt."""
    seats = [{"seat": "s1", "name": name}]
    events = [Event("TableCreated", {"game": "practice", "options": {"seats": seats}, "at": start})]
    for number, (numbers, solved) in enumerate(attempts, 1):
        at = start + number * S
        card = {"seat": "s1", "number": number, "card_id": card_key(numbers)}
        score = SCORES.get(tuple(sorted(numbers))) or facts(numbers).score
        events.append(
            Event("CardDealt", {**card, "at": at, "numbers": list(numbers), "score": score})
        )
        events.append(Event("RatingUpdated", {**card, "at": at, "solved": solved}))
    return events


PRIORS = [(numbers, card_prior(score).mu, score) for numbers, score in pool()]
SCORES = {tuple(numbers): score for numbers, score in pool()}  # the practice's own scores


def near(level: float, rng: random.Random) -> tuple[tuple[int, ...], float, float]:
    """A pool card whose prior is within 150 of `level`: (numbers, prior, score)."""
    return rng.choice([entry for entry in PRIORS if abs(entry[1] - level) < 150])


def test_a_provisional_students_attempts_move_their_rating_but_not_the_card():
    log = practice_events("Ada", [((2, 4, 10, 11), True)] * 3, T0)
    rated = rate_log({"table/p": log})
    card = rated.cards["2 4 10 11"]
    assert (card.attempts, card.solved, card.rated) == (3, 3, 0)
    assert card.rating == card.prior and rated.student("Ada").rating.mu > 1500


def test_a_settled_students_attempt_at_a_challenge_card_moves_the_card():
    rng = random.Random(5)
    warm = [(near(1500, rng)[0], i % 2 == 0) for i in range(40)]
    bo = practice_events("Bo", warm, T0 - HOUR)
    table = Table.started(seats=4, cards=["c10"])
    table.next_card()
    table.advance(1).win("s2")
    rated = rate_log({"table/warm": bo, "table/t": challenge_log(table)})
    before = rate_log({"table/warm": bo}).student("Bo").rating
    assert before.sigma <= TEACHING_SIGMA
    easy = rated.cards["1 1 1 8"]
    assert (easy.attempts, easy.rated) == (1, 1)
    assert easy.rating == rate_attempt(before, easy.prior, True, easy.prior.mu)[1]
    assert rated.student("Bo").rating == before  # the card alone moved: no result signed


def test_a_card_played_very_often_across_many_tables_does_not_drift():
    """lila 1704, through the log: 150 students of every level around one card settle their
    ratings on other cards, then try it 20 times each (3,000 attempts over 150 tables), each
    solving it with the chance their levels give: the card ends near its true rating and
    settled."""
    rng = random.Random(1704)
    card = (2, 4, 10, 11)
    prior = card_prior(SCORES[card])
    streams = {}
    for student in range(150):
        level = prior.mu + rng.uniform(-300, 300)
        attempts = []
        for _ in range(30):  # settling on other cards near their level
            other, other_prior, _score = near(level, rng)
            odds = expected(Rating(level, 1.0), Rating(other_prior, 1.0))
            attempts.append((other, rng.random() < odds))
        odds = expected(Rating(level, 1.0), Rating(prior.mu, 1.0))
        attempts += [(card, rng.random() < odds) for _ in range(20)]
        streams[f"table/p{student}"] = practice_events(f"st{student}", attempts, T0 + student)
    rated = rate_log(streams).cards["2 4 10 11"]
    assert rated.attempts >= 3000 and rated.rated > 2000 and rated.prior == prior
    assert abs(rated.rating.mu - prior.mu) < 60
    assert CARD_MIN_SIGMA <= rated.rating.sigma < prior.sigma
    # settled: after 100, 125 and 150 students the card is within a narrow band
    seen = [
        rate_log({k: streams[k] for k in list(streams)[:n]}).cards["2 4 10 11"].rating.mu
        for n in (100, 125)
    ] + [rated.rating.mu]
    assert max(seen) - min(seen) < 40
    assert abs(rated.rating.mu - prior.mu) <= CARD_MAX_SHIFT
