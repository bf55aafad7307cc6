"""The pocket table at its edges (issue 20): the pause's cause at both ends of its limit and
as recorded, the exact refusals of pause and resume, and the ids of a stack drawn from an
edition (R-POCKET-1: each printed card gives a red and a white side, each a card of its own)."""

from __future__ import annotations

from casual_tables import DIRECTOR, Table, player, pocket_options

from server.games import pocket
from server.games.kit import MAX_CAUSE
from server.games.pocket.options import stack_from_edition


def started() -> Table:
    return Table.started(pocket, pocket_options(3, ["p1", "p2"]))


def test_a_pause_records_its_cause_and_the_resume_repeats_it():
    table = started()
    (paused,) = table.do("pause_game", DIRECTOR)
    assert dict(paused.data) == {"at": table.now, "cause": "director"}
    assert table.refused("pause_game", DIRECTOR).as_dict() == {
        "code": "already_paused",
        "rule": "",
        "message": "paused since: director",
    }
    (resumed,) = table.do("resume_game", player("s2"))
    assert dict(resumed.data) == {"at": table.now, "cause": "director"}
    assert table.refused("resume_game", player("s2")).as_dict() == {
        "code": "not_paused",
        "rule": "",
        "message": "the game is not paused",
    }


def test_a_pause_cause_is_1_to_MAX_CAUSE_characters():
    for cause in ("", "c" * (MAX_CAUSE + 1), 7):
        assert started().refused("pause_game", DIRECTOR, cause=cause).as_dict() == {
            "code": "bad_args",
            "rule": "",
            "message": f"pause_game: 'cause' is a text of 1..{MAX_CAUSE} characters",
        }
    for cause in ("c", "c" * MAX_CAUSE):
        (paused,) = started().do("pause_game", DIRECTOR, cause=cause)
        assert paused.data["cause"] == cause


def test_a_drawn_stack_names_each_side_by_its_card_and_colour():
    stack = stack_from_edition("single-digits", 7, 96, [1, 2, 3])
    assert len(stack) == 96 and len({card.card_id for card in stack}) == 96
    assert all(str(card.card_id).endswith("r") for card in stack[:48])
    assert all(str(card.card_id).endswith("w") for card in stack[48:])
    assert stack[0].card_id[:-1] in {card.card_id[:-1] for card in stack[48:]}
