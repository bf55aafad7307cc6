"""`t24 tournament standings` renders the tournament's view: one table per grade, shared
ranks marked `=` (a tie that decides nothing, R-ROUND-6), the seating of each round."""

from __future__ import annotations

from tournament_support import DIRECTOR, Tourney, tournament_options

from clients.reference_cli.tournament_render import render_standings
from server.tournament.standings import view


def test_the_standings_show_each_grade_shared_ranks_seating_and_champions():
    t = Tourney(tournament_options(grades=["4th"]))
    t.register_many(4)
    t.play_round(1, lambda s: 2 if s in ("p1", "p2") else 1)
    text = render_standings(view(t.state, DIRECTOR))
    assert "== 4th" in text
    assert "=1    p1" in text and "=3    p3" in text
    assert "round 1 (closed)" in text
    t.play_round(2, lambda s: int(s[1:]))
    t.do("advance", round=2)
    t.play_round(3, lambda s: int(s[1:]))
    t.do("advance", round=3)
    text = render_standings(view(t.state, DIRECTOR))
    assert "champion of 4th: 4th-03 (p4)" in text
    assert "-- semi-final r3.s1.t01" in text
