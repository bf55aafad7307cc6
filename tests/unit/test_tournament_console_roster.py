"""What the director's console asks of the tournament before and during registration: a
preview of an import (nothing recorded, every bad row named) and a student renamed.

Given/when/then over the real `decide`, `evolve` and `query` (docs/tournament.md, "Queries").
"""

from __future__ import annotations

import pytest
from tournament_support import DIRECTOR, Tourney, csv_of, types

import server.tournament as tournament
from server.games.base import Actor, RuleViolation

GOOD = csv_of([("Ada", "Hill", "4th"), ("Bo", "Dale", "5th")])


def ask(t: Tourney, name: str, actor: Actor = DIRECTOR, **args):
    return tournament.query(t.state, name, args, actor, t.now)


def test_a_preview_lists_the_students_an_import_would_register_and_records_nothing():
    t = Tourney()
    t.do("register", name="Cy", school="Hill", grade="4th")
    answer = ask(t, "preview_import", csv=GOOD)
    assert answer == {
        "students": [
            {"student": "p2", "name": "Ada", "school": "Hill", "grade": "4th"},
            {"student": "p3", "name": "Bo", "school": "Dale", "grade": "5th"},
        ],
        "rows": 2,
        "problems": [],
        "problem_count": 0,
        "registration_open": True,
    }
    assert len(t.state.students) == 1  # a preview records nothing
    (imported,) = t.do("import_students", csv=GOOD)
    assert imported.data["students"] == answer["students"]  # what the preview said


def test_a_preview_names_every_bad_row_by_its_line_and_lists_no_student():
    t = Tourney()
    text = GOOD + "Di,Hill,9th\n,Dale,4th\nAda,Hill,4th\n"
    answer = ask(t, "preview_import", csv=text)
    assert answer["students"] == [] and answer["rows"] == 2
    assert [p.split(":")[0] for p in answer["problems"]] == ["line 4", "line 5", "line 6"]
    assert "9th" in answer["problems"][0]
    assert t.refused("import_students", csv=text).code == "bad_rows"


def test_a_preview_is_bounded_whatever_the_file():
    """A reply never grows with what the client sent: a header quoted in its problem is cut,
    and at most `PREVIEW_PROBLEMS` problems (`problem_count` says how many there are)."""
    t = Tourney()
    answer = ask(t, "preview_import", csv="x" * 20_000)
    (problem,) = answer["problems"]
    assert problem.startswith("line 1:") and len(problem) == tournament.PREVIEW_TEXT
    many = "name,school,grade\n" + "".join(f"S{i},Hill,9th\n" for i in range(300))
    answer = ask(t, "preview_import", csv=many)
    assert len(answer["problems"]) == tournament.PREVIEW_PROBLEMS
    assert answer["problem_count"] == 300 and answer["rows"] == 0


def test_only_the_director_asks_and_only_known_queries():
    t = Tourney()
    with pytest.raises(RuleViolation) as unknown:
        ask(t, "preview_everything")
    assert unknown.value.code == "unknown_query"
    with pytest.raises(RuleViolation) as stranger:
        ask(t, "preview_import", Actor("spectator", "s"), csv=GOOD)
    assert stranger.value.code == "not_allowed"
    with pytest.raises(RuleViolation) as no_file:
        ask(t, "preview_import", csv=None)
    assert no_file.value.code == "bad_args"


def test_a_student_renamed_keeps_id_school_grade_and_points():
    t = Tourney()
    t.do("import_students", csv=GOOD)
    (renamed,) = t.do("rename_student", student="p1", name="  Ada Lovelace ")
    assert types([renamed]) == ["StudentRenamed"]
    assert renamed.data["name"] == "Ada Lovelace" and renamed.data["previous"] == "Ada"
    ada = t.state.students["p1"]
    assert (ada.name, ada.school, ada.grade) == ("Ada Lovelace", "Hill", "4th")
    assert t.replayed() == t.state


def test_a_rename_is_refused_for_an_unknown_student_a_blank_name_or_a_duplicate():
    t = Tourney()
    t.do("import_students", csv=GOOD + "Ada,Hill,5th\n")
    assert t.refused("rename_student", student="p9", name="X").code == "unknown_student"
    assert t.refused("rename_student", student="p1", name="  ").code == "bad_args"
    # Bo (Dale, 5th) renamed Ada would still differ by school; p3 (Hill, 5th) renamed to a
    # name registered at Hill in 5th is the same student twice
    t.do("register", name="Eve", school="Hill", grade="5th")
    assert t.refused("rename_student", student="p3", name="eve").code == "bad_student"
    t.do("rename_student", student="p1", name="ada")  # its own name in another case
