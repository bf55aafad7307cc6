"""R-ROUND-2 seating: 3 or 4 to a table within a section, never 5; round 2 reseats so nobody
meets a former table-mate where that is possible; the director swaps seats before the start."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from tournament_support import Tourney, types

from server.tournament import seating

COUNTS = st.integers(min_value=3, max_value=120).filter(lambda n: n != 5)


@given(COUNTS)
def test_r_round_2_every_seatable_count_sits_three_or_four_to_a_table(count):
    sizes = seating.table_sizes(count)
    assert sum(sizes) == count
    assert all(size in (3, 4) for size in sizes)


def test_r_round_2_one_two_and_five_students_cannot_sit_three_or_four_to_a_table():
    for count in (0, 1, 2, 5):
        try:
            seating.table_sizes(count)
        except seating.CannotSeat:
            continue
        raise AssertionError(f"{count} students were seated")


@settings(max_examples=200, deadline=None)
@given(COUNTS, st.integers(min_value=0, max_value=10_000), st.data())
def test_r_round_2_round_two_never_repeats_a_pair_where_that_is_possible(count, seed, data):
    """Property over random registrations (and random withdrawals after round 1): when no
    round-1 table is larger than the number of round-2 tables, no two students share a table
    again; when it is impossible (pigeonhole), the seating is still valid."""
    students = [f"p{i}" for i in range(1, count + 1)]
    first = seating.seat_fresh(students, f"seed/{seed}/1")
    withdrawn = data.draw(st.sets(st.sampled_from(students), max_size=max(0, count - 3)))
    present = [s for s in students if s not in withdrawn]
    if len(present) in (1, 2, 5):
        return
    second = seating.reseat(present, first, f"seed/{seed}/2")
    assert sorted(s for table in second for s in table) == sorted(present)
    assert all(len(table) in (3, 4) for table in second)
    largest = max(len([s for s in table if s in set(present)]) for table in first)
    if largest <= len(second):
        assert seating.repeated_pairs(first, second) == 0


def test_r_round_2_seating_is_by_section_and_the_same_for_the_same_seed():
    t = Tourney()
    t.register_many(7)
    t.do("close_registration")
    seated = t.do("seat_round", round=1)[0].data["tables"]
    sections = {table["section"] for table in seated}
    assert sections == {"4th", "5th", "6th"}
    for table in seated:
        grades = {t.state.students[s].grade for s in table["students"]}
        assert grades == {table["section"]}
        assert len(table["students"]) in (3, 4)
    again = Tourney()
    again.register_many(7)
    again.do("close_registration")
    assert again.do("seat_round", round=1)[0].data["tables"] == seated


def test_r_round_2_round_two_changes_tables_within_the_grade():
    t = Tourney()
    t.register_many(16)
    t.play_round(1, lambda s: 1)
    t.do("seat_round", round=2)
    first = [table.students for table in t.state.round(1).tables]
    second = [table.students for table in t.state.round(2).tables]
    assert seating.repeated_pairs(first, second) == 0


def test_seat_round_refusals():
    t = Tourney()
    t.register_many(4)
    assert t.refused("seat_round", round=1).code == "registration_open"
    t.do("close_registration")
    assert t.refused("seat_round", round=5).code == "bad_round"
    assert t.refused("seat_round", round=2).code == "previous_round_open"
    assert t.refused("seat_round", round=3).code == "previous_round_open"
    t.do("seat_round", round=1)
    t.do("seat_round", round=1)  # seating again before the start replaces it
    t.do("start_round", round=1)
    assert t.refused("seat_round", round=1).code == "round_started"


def test_the_director_swaps_two_seats_of_one_section_before_the_round_starts():
    t = Tourney()
    t.register_many(8)
    t.do("close_registration")
    assert t.refused("swap_seats", round=1, a="p1", b="p2").code == "round_not_seated"
    t.do("seat_round", round=1)
    tables = t.state.round(1).tables
    a, b = tables[0].students[0], tables[1].students[0]
    assert types(t.do("swap_seats", round=1, a=a, b=b)) == ["SeatsSwapped"]
    assert t.state.round(1).tables[0].students[0] == b
    assert t.state.round(1).tables[1].students[0] == a
    mate = tables[0].students[1]
    assert t.refused("swap_seats", round=1, a=b, b=mate).code == "same_table"
    other = next(x for x in t.state.round(1).tables if x.section != tables[0].section)
    other_student = other.students[0]
    assert t.refused("swap_seats", round=1, a=a, b=other_student).code == "different_sections"
    assert t.refused("swap_seats", round=1, a=a, b="p999").code == "not_seated"
    t.do("start_round", round=1)
    assert t.refused("swap_seats", round=1, a=a, b=b).code == "round_started"


def test_assign_proctor_records_name_and_initials():
    t = Tourney()
    t.register_many(4)
    t.do("close_registration")
    t.do("seat_round", round=1)
    table = t.state.round(1).tables[0].table
    event = t.do("assign_proctor", table=table, name="Grace Hopper")[0]
    assert event.data["initials"] == "GH"
    assert t.refused("assign_proctor", table="r9.s1.t01", name="X").code == "unknown_table"
    assert t.refused("assign_proctor", table=table, name="").code == "bad_args"
    assert t.refused("assign_proctor", table=table, name="X", initials="TOOLONGXX").code == (
        "bad_args"
    )
