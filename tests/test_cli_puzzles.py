"""`t24 solve`, `t24 check`, `t24 deck`: output and exit codes (0 yes, 1 no, 2 bad input)."""

import json
import subprocess
import sys

import pytest

from clients.reference_cli.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_solve_prints_solutions_steps_and_dots(capsys):
    code, out, err = run(capsys, "solve", "3", "3", "8", "8")
    assert code == 0 and err == ""
    assert "3 3 8 8: 1 distinct solution, 3 dots" in out
    assert "8 ÷ (3 − 8 ÷ 3)" in out
    assert "pattern 8 ÷ 1/3: 8 ÷ 3 = 8/3; 3 − 8/3 = 1/3; 8 ÷ 1/3 = 24" in out


def test_solve_ascii(capsys):
    code, out, _ = run(capsys, "solve", "3", "3", "8", "8", "--ascii")
    assert code == 0
    assert "8 / (3 - 8 / 3)" in out and "÷" not in out


def test_solve_json(capsys):
    code, out, _ = run(capsys, "solve", "2", "4", "8", "10", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["numbers"] == [2, 4, 8, 10] and data["solvable"] is True
    assert len(data["solutions"]) == 11
    assert data["dots"] in (1, 2, 3)
    assert all(len(s["steps"]) == 3 for s in data["solutions"])


def test_solve_unsolvable_exits_1(capsys):
    code, out, _ = run(capsys, "solve", "1", "1", "1", "1")
    assert code == 1
    assert "no solution" in out
    code, out, _ = run(capsys, "solve", "1", "1", "1", "1", "--json")
    assert code == 1
    assert json.loads(out) == {
        "numbers": [1, 1, 1, 1],
        "solvable": False,
        "dots": None,
        "score": None,
        "solutions": [],
    }


@pytest.mark.parametrize(
    "numbers, needle",
    [
        (["3", "3", "8"], "a card has 4 numbers, got 3"),
        (["3", "3", "8", "8", "8"], "got 5"),
        (["3", "x", "8", "8"], "'x' is not a whole number"),
        (["3", "2.5", "8", "8"], "'2.5' is not a whole number"),
        (["3", "3", "8", "1_0"], "'1_0' is not a whole number"),
        (["3", "3", "8", "+8"], "'+8' is not a whole number"),
        (["3", "3", "8", "\u0668"], "is not a whole number"),  # Arabic-Indic eight
        (["3", "-3", "8", "8"], "-3 is negative"),
        (["3", "100", "8", "8"], "100 is above 99"),
    ],
)
def test_solve_bad_input_exits_2_with_one_line(capsys, numbers, needle):
    code, out, err = run(capsys, "solve", *numbers)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and needle in err and err.startswith("t24 solve: error:")


def test_check_expression(capsys):
    code, out, _ = run(capsys, "check", "3", "3", "8", "8", "8/(3-8/3)")
    assert (code, out) == (0, "correct: makes 24\n")
    code, out, _ = run(capsys, "check", "3", "3", "8", "8", "8*3")
    assert code == 1
    assert out.startswith("wrong (wrong_numbers):")


def test_check_steps(capsys):
    argv = ["check", "3", "3", "8", "8", "--pattern", "8 / 1/3"]
    steps = ["--step", "8/3", "--step", "3 - 8/3", "--step", "8 / 1/3"]
    code, out, _ = run(capsys, *argv, *steps)
    assert (code, out) == (0, "correct: makes 24\n")
    code, out, _ = run(capsys, "check", "3", "3", "8", "8", "--pattern", "3 x 8", *steps)
    assert code == 1
    assert out.startswith("wrong (pattern_mismatch):")


def test_check_json(capsys):
    code, out, _ = run(capsys, "check", "3", "3", "8", "8", "3+3+8+8", "--json")
    assert code == 1
    data = json.loads(out)
    assert data["ok"] is False and data["reason"] == "not_24" and data["value"] == "22"
    assert data["expression"] == "3+3+8+8"
    code, out, _ = run(
        capsys, "check", "1", "2", "3", "4", "--pattern", "6 * 4", "--json",
        "--step", "1 + 2", "--step", "3 + 3", "--step", "6 * 4",
    )  # fmt: skip
    assert code == 0
    assert json.loads(out)["steps"] == ["1 + 2", "3 + 3", "6 * 4"]


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["3", "3", "8", "8"], "give the card's 4 numbers and one expression"),
        (["3", "3", "8", "8", "8*3", "extra"], "give the card's 4 numbers"),
        (["3", "3", "8", "x", "8*3"], "'x' is not a whole number"),
        (["3", "3", "8", "8", "--step", "8/3"], "--step needs --pattern"),
        (["3", "3", "8", "--pattern", "3 x 8", "--step", "8/3"], "got 3"),
    ],
)
def test_check_bad_input_exits_2(capsys, argv, needle):
    code, out, err = run(capsys, "check", *argv)
    assert code == 2 and out == ""
    assert needle in err and err.count("\n") == 1


def test_deck_table_and_json(capsys):
    code, out, _ = run(capsys, "deck", "--edition", "single-digits", "--seed", "7")
    lines = out.splitlines()
    assert code == 0
    assert lines[0] == "single-digits, seed 7: 48 double-sided cards"
    assert len(lines) == 2 + 48
    assert lines[2].startswith("SD-01  2 6 4 2")
    code, out, _ = run(capsys, "deck", "--edition", "double-digits", "--seed", "7", "--json")
    data = json.loads(out)
    assert code == 0 and len(data["cards"]) == 48 and data["cards"][0]["card_id"] == "DD-01"


def test_deck_is_the_same_for_the_same_seed(capsys):
    first = run(capsys, "deck", "--seed", "3")[1]
    assert run(capsys, "deck", "--seed", "3")[1] == first
    assert run(capsys, "deck", "--seed", "4")[1] != first


def test_playing_card_deck(capsys):
    code, out, _ = run(capsys, "deck", "--edition", "playing-cards", "--seed", "1")
    assert code == 0
    assert out.splitlines()[1] == "  1.  3 of spades"
    code, out, _ = run(capsys, "deck", "--edition", "playing-cards", "--seed", "1", "--json")
    assert len(json.loads(out)["cards"]) == 40


def test_deck_prints_the_variables_edition_wheel_by_wheel_R_DECK_2(capsys):
    code, out, _ = run(capsys, "deck", "--edition", "variables", "--seed", "7")
    lines = out.splitlines()
    assert code == 0 and lines[0] == "variables, seed 7: 48 double-sided cards"
    assert lines[2].startswith("VAR-01 7 22 9 | 10 18 23")  # two wheels: find x for both


def test_deck_unknown_edition_exits_2(capsys):
    with pytest.raises(SystemExit) as caught:
        main(["deck", "--edition", "algebra"])
    assert caught.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def test_t24_entry_point_runs_solve():
    result = subprocess.run(
        [sys.executable, "-m", "clients.reference_cli", "solve", "1", "3", "4", "6"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0
    assert "6 ÷ (1 − 3 ÷ 4)" in result.stdout


def test_check_says_a_value_is_used_twice_as_the_table_does(capsys):
    """The same refusal text in `t24 check` as at the table: a step that reuses a value says
    so (issue 10), not "2 is not available"."""
    argv = ["check", "2", "6", "8", "1", "--pattern", "4 x 6"]
    steps = ["--step", "6 - 1 = 5", "--step", "2 + 2 = 4", "--step", "4 x 6 = 24"]
    code, out, _ = run(capsys, *argv, *steps)
    assert code == 1
    assert out == (
        "wrong (value_not_available): step 2 uses 2 twice; only one 2 is available: 2, 5, 8\n"
    )
