"""Every figure of a table's analysis (server/analysis/table.py, issue 31), on hand-built logs:
given the events of a round played through the real `decide`, then the analysis says what a
person reading the log would say."""

from __future__ import annotations

from challenge_tables import (
    ANSWERS,
    PROCTOR,
    T0,
    WRONG_STEPS,
    S,
    Table,
    options,
    player,
)

from server.analysis.table import analyse_table
from server.games import challenge
from server.games.base import Actor, Command, Event
from server.puzzles import difficulty
from server.puzzles.card_facts import facts
from server.puzzles.solver import solve
from server.puzzles.variables import variable_values


def log(table: Table) -> list[Event]:
    created = Event("TableCreated", {"game": "challenge", "options": table.raw_options, "at": T0})
    return [created, *table.events]


def wrong(table: Table, seat: str) -> None:
    table.do("touch_card", player(seat))
    table.do("declare_pattern", player(seat), pattern="3 × 8")
    table.do("fix_solution", player(seat), steps=WRONG_STEPS)


def three_cards() -> Table:
    """c1 (easy) won by Ada after 2.5 s; c5 (4 4 4 4) wrong by Bo, then stumped; c3 won by Bo
    after Ada's later touch was refused."""
    table = Table.started(seats=4, cards=["c1", "c5", "c3"], stumped_cards="set_aside")
    table.next_card()
    table.advance(2.5).win("s1")
    table.next_card()
    table.advance(1)
    wrong(table, "s2")
    table.next_card()  # c3
    table.advance(0.5).do("touch_card", player("s2"))
    table.advance(0.25).do("touch_card", player("s1"))  # later: refused (R-PLAY-2)
    _numbers, _dots, pattern, steps = ANSWERS["c3"]
    table.do("declare_pattern", player("s2"), pattern=pattern)
    table.advance(1).do("fix_solution", player("s2"), steps=steps)
    table.next_card()  # c5 again, from the bottom of the deck (R-FLAG-2)
    table.fire("no_touch_deadline")
    return table


def test_each_card_has_its_numbers_dots_difficulty_and_solutions_from_the_solver():
    analysis = analyse_table(log(three_cards()))
    card = analysis.card("c5")
    assert card.numbers == (4, 4, 4, 4) and card.dots == 2
    assert card.score == difficulty.score((4, 4, 4, 4))
    assert card.facts.solution_count == len(solve((4, 4, 4, 4)))
    assert card.facts.solutions[0]["expression"] == solve((4, 4, 4, 4))[0].ascii_expression
    assert [c.card_id for c in analysis.cards] == ["c1", "c5", "c3"]  # in order of reveal


def test_who_touched_first_and_when_who_solved_it_and_how_fast():
    analysis = analyse_table(log(three_cards()))
    c1 = analysis.card("c1")
    assert (c1.first_touch.seat, c1.first_touch.after_us) == ("s1", int(2.5 * S))
    assert (c1.solved_by, c1.solve_us) == ("s1", int(2.5 * S))
    c3 = analysis.card("c3")
    assert [(t.seat, t.after_us, t.first) for t in c3.plays[0].touches] == [
        ("s2", int(0.5 * S), True),
        ("s1", int(0.75 * S), False),
    ]
    assert (c3.solved_by, c3.solve_us) == ("s2", int(1.75 * S))


def test_a_card_nobody_solved_is_stumped_and_each_of_its_plays_says_how_it_ended():
    analysis = analyse_table(log(three_cards()))
    c5 = analysis.card("c5")
    assert c5.stumped and c5.solved_by is None and c5.solve_us is None
    assert [p.outcome for p in c5.plays] == ["returned", "stumped"]  # R-FLAG-2, R-PLAY-7
    assert c5.plays[1].ended_after_us == 15 * S  # the no-touch window (R-PLAY-7)
    assert not analysis.card("c1").stumped


def test_the_timeline_lists_the_plays_in_order_from_the_rounds_start():
    analysis = analyse_table(log(three_cards()))
    assert [(p.play, p.card_id) for p in analysis.timeline] == [
        (1, "c1"),
        (2, "c5"),
        (3, "c3"),
        (4, "c5"),
    ]
    assert analysis.timeline[0].revealed_at == 0
    assert analysis.timeline[1].revealed_at == int(2.5 * S)
    assert analysis.timeline[1].answers[0]["ok"] is False


def test_a_student_has_cards_won_points_and_touches_against_the_cards_difficulty():
    analysis = analyse_table(log(three_cards()))
    ada, bo, cy, _di = analysis.students
    assert (ada.name, ada.cards_won, ada.points) == ("Ada", ("c1",), 1)
    assert (bo.cards_won, bo.points) == (("c3",), 2)
    assert [(t["card_id"], t["after_us"], t["first"]) for t in ada.touches] == [
        ("c1", int(2.5 * S), True),
        ("c3", int(0.75 * S), False),
    ]
    assert ada.touches[0]["score"] == round(difficulty.score((1, 1, 1, 8)), 2)
    assert cy.touches == () and cy.level is None


def test_the_level_is_the_hardest_card_solved_and_missed_cards_are_those_at_or_below_it():
    analysis = analyse_table(log(three_cards()))
    ada, bo, _cy, _di = analysis.students
    c1, c3, c5 = (difficulty.score(ANSWERS[c][0]) for c in ("c1", "c3", "c5"))
    assert c1 < c5 < c3  # the cards' order of difficulty this test relies on
    assert bo.level == c3
    # Bo solved c3 (harder), so c1 (won by Ada) and c5 (stumped) were his to solve
    assert [(m["card_id"], m["outcome"], m["by"]) for m in bo.missed] == [
        ("c1", "won", "s1"),
        ("c5", "stumped", None),
    ]
    assert bo.missed[1]["solutions"] == [dict(s) for s in facts((4, 4, 4, 4)).solutions]
    assert ada.level == c1 and ada.missed == ()  # c3 and c5 are above her level


def test_wrong_answers_and_flags_name_the_cause_and_the_solutions_one_could_have_used():
    analysis = analyse_table(log(three_cards()))
    bo = analysis.student("s2")
    (answer,) = bo.wrong_answers
    assert answer["card_id"] == "c5" and answer["reason"] == "value_not_available"
    assert answer["solutions"][0]["expression"] == facts((4, 4, 4, 4)).solutions[0]["expression"]
    (flag,) = bo.flags
    assert (flag["cause"], flag["rule"], flag["card_id"], flag["rescinded"]) == (
        "incorrect_solution",
        "R-PLAY-5",
        "c5",
        False,
    )
    assert flag["solutions"] == answer["solutions"]


def test_a_touch_before_the_reveal_is_a_flag_that_never_names_the_hidden_card():
    table = Table.started(seats=4, cards=["c1", "c2", "c3"])
    table.do("place_card")
    table.do("touch_card", player("s3"))  # R-PLAY-3: before the reveal
    analysis = analyse_table(log(table))
    (flag,) = analysis.student("s3").flags
    assert flag["cause"] == "touched_before_reveal"
    assert flag["card_id"] is None and flag["solutions"] == []
    assert analysis.cards == () and analysis.student("s3").touches == ()


def test_a_ruling_that_awards_a_card_and_rescinds_a_flag_changes_the_analysis():
    table = Table.started(seats=4, cards=["c1", "c3"], stumped_cards="set_aside")
    table.next_card()
    wrong(table, "s1")
    flag_seq = table.seq_of("FlagIssued")
    table.next_card()
    table.win("s2")
    table.next_card()  # c1 again
    table.win("s3")
    table.do("file_protest", player("s1"), seqs=[flag_seq], reason="my steps were right")
    corrections = [
        {"kind": "rescind_flag", "seat": "s1", "flag": flag_seq},
        {"kind": "revoke_card", "seat": "s3", "card": "c1"},
        {"kind": "award_card", "seat": "s1", "card": "c1"},
    ]
    table.do("rule_protest", protest=1, upheld=True, ruling_text="ok", corrections=corrections)
    analysis = analyse_table(log(table))
    ada, _bo, cy, _di = analysis.students
    assert ada.cards_won == ("c1",) and ada.points == 1
    assert cy.cards_won == () and cy.points == 0
    assert ada.flags[0]["rescinded"] is True
    assert analysis.card("c1").solved_by == "s1" and analysis.card("c1").solve_us is None


def test_a_disqualified_student_is_not_said_to_miss_the_cards_revealed_after():
    table = Table.started(seats=4, cards=["c1", "c3", "c10"], flag_limit=1)
    table.next_card()  # c1
    table.win("s1")
    table.next_card()  # c3
    wrong(table, "s1")  # one flag: out (flag_limit 1)
    table.next_card()  # c10, the same numbers as c1, revealed after Ada is out
    table.win("s2")
    analysis = analyse_table(log(table))
    ada = analysis.student("s1")
    assert ada.disqualified
    assert [m["card_id"] for m in ada.missed] == []  # c10 came after; c3 is above her level


def test_a_compensated_first_touch_is_the_granted_one_at_its_compensated_time():
    table = Table.started(seats=4, cards=["c1"], touch_compensation=True)
    table.next_card()
    reveal = table.now
    table.advance(1.0)
    command = Command("touch_card", {}, Actor("player", "s2"), delay_us=0)
    for event in challenge.decide(table.state, command, table.now):  # a lag estimate of 0
        table.state = challenge.evolve(table.state, event)
        table.events.append(event)
    table.fire("grant_first_touch")
    analysis = analyse_table(log(table))
    (touch,) = analysis.card("c1").plays[0].touches
    assert (touch.seat, touch.first) == ("s2", True)
    assert touch.after_us == table.events[-1].data["compensated_at"] - reveal


def test_a_variables_card_is_rated_and_solved_as_a_variables_card():
    deck = [{"card_id": "v1", "wheels": [[6, 6, 2], [20, 22, 24]], "dots": 2}]
    table = Table({**options(seats=4), "deck": deck})
    table.do("start_round", PROCTOR)
    table.next_card()
    table.fire("no_touch_deadline")
    card = analyse_table(log(table)).card("v1")
    assert card.wheels == ((6, 6, 2), (20, 22, 24))
    assert card.facts.solutions[0]["x"] == variable_values(card.wheels)[0]  # the smallest x
    assert card.score is not None


def test_another_game_is_refused():
    created = Event("TableCreated", {"game": "pocket", "options": {}})
    try:
        analyse_table([created])
    except ValueError as error:
        assert "pocket" in str(error)
    else:
        raise AssertionError("a pocket table was analysed as a 24 Challenge table")
