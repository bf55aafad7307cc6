"""Every game's `lang` option (docs/protocol.md, "Words"; docs/rules.md and docs/games/*.md,
"Options"): the language a table opens in, recorded with its options and named in its view
when not English; a value that is not a language code is refused like any bad option."""

from __future__ import annotations

import pytest

from server.games import games
from server.games.base import Actor, RuleViolation

SEATS = {
    "challenge": [{"seat": f"s{i}", "name": f"P{i}"} for i in (1, 2, 3)],
    "tjugoett": [{"seat": "s1", "name": "P1"}],
}
DECK = [{"card_id": "c1", "numbers": [1, 2, 3, 4], "dots": 1}]
EXTRA = {"challenge": {"deck": DECK}, "tjugoett": {"seed": "a-secret-seed"}}
PLAYER = Actor("player", "s1")


def options(name: str, **more: object) -> dict[str, object]:
    seats = SEATS.get(name, [{"seat": "s1", "name": "P1"}, {"seat": "s2", "name": "P2"}])
    return {"seats": seats, **EXTRA.get(name, {}), **more}


@pytest.mark.parametrize("name", sorted(games()))
def test_a_table_in_norwegian_says_so_in_its_view(name):
    game = games()[name]
    assert game.DEFAULT_OPTIONS["lang"] == "en"
    state = game.initial_state(options(name, lang="nb"))
    assert game.view(state, PLAYER)["lang"] == "nb"
    english = game.initial_state(options(name))
    assert "lang" not in game.view(english, PLAYER)  # English tables read as before


@pytest.mark.parametrize("name", sorted(games()))
@pytest.mark.parametrize("bad", ["Norsk", "", 7, None, "nb-NO", "x"])
def test_a_lang_that_is_not_a_language_code_is_refused(name, bad):
    game = games()[name]
    with pytest.raises(RuleViolation) as refused:
        game.initial_state(options(name, lang=bad))
    assert refused.value.code in ("bad_options", "invalid_options")
    assert "lang" in str(refused.value)


def test_a_tournaments_lang_is_passed_to_each_of_its_tables():
    from tournament_support import DIRECTOR, Tourney, tournament_options

    from server.tournament.options import tournament_options as read_options
    from server.tournament.standings import view
    from server.tournament.tables import table_options_for

    t = Tourney(tournament_options(grades=["4th"], lang="nb"))
    assert view(t.state, DIRECTOR)["lang"] == "nb"
    t.register_many(6, grades=["4th"])
    t.do("close_registration")
    t.do("seat_round", round=1)
    t.do("start_round", round=1)
    for table in t.state.round(1).tables:
        assert table_options_for(t.state, table.table)["lang"] == "nb"
    with pytest.raises(RuleViolation, match="lang"):
        read_options(tournament_options(grades=["4th"], lang="Norwegian"))
