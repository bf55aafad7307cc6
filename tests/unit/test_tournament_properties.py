"""Properties of whole tournaments over random registrations and random results:
replaying the tournament stream and its tables reproduces the standings; every refusal code
is exercised by a test."""

from __future__ import annotations

import random
import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from tournament_support import Tourney, tournament_options

import server.tournament as tournament
from server.tournament.results import table_result
from server.tournament.standings import score_cards, standings

SIZES = st.integers(min_value=3, max_value=24).filter(lambda n: n != 5)


def run_whole_tournament(sizes: list[int], seed: int) -> Tourney:
    grades = [f"G{i}" for i in range(len(sizes))]
    t = Tourney(tournament_options(grades=grades, deck_seed=seed % 3))
    for grade, size in zip(grades, sizes, strict=True):
        t.register_many(size, grades=[grade])
    rng = random.Random(seed)

    def points(student: str) -> int:
        return rng.randint(0, 6)

    def distinct(student: str) -> int:
        return int(student[1:])

    for number in (1, 2, 3, 4):
        if t.state.finished:
            break
        t.play_round(number, points)
        for attempt in range(20):  # R-ROUND-6: repeated while still tied
            if not ranking_pending(t, number):
                break
            # late attempts use distinct points, so the loop ends
            t.play_tie_breaks(distinct if attempt >= 10 else points)
        if number > 1:
            t.do("advance", round=number)
    return t


def ranking_pending(t: Tourney, number: int) -> bool:
    from server.tournament import ranking

    return bool(ranking.pending_ties(t.state, number))


@settings(max_examples=10, deadline=None)
@given(st.lists(SIZES, min_size=1, max_size=3), st.integers(min_value=0, max_value=10**6))
def test_replaying_the_tournament_stream_and_its_tables_reproduces_the_standings(sizes, seed):
    t = run_whole_tournament(sizes, seed)
    assert t.state.finished
    assert set(t.state.champions) == set(t.state.sections())
    replayed = t.replayed()
    assert replayed == t.state
    assert standings(replayed) == standings(t.state)
    assert score_cards(replayed) == score_cards(t.state)
    # Each recorded result is what the table's own stream says (R-ROUND-7).
    for name, result in t.state.results.items():
        assert result.as_data() | {"table": name} == {
            "table": name,
            **table_result(t.streams[name]),
        }


def test_every_refusal_code_is_exercised_by_a_test_and_documented():
    here = Path(__file__).parent
    text = "".join(p.read_text() for p in here.glob("test_tournament_*.py"))
    used = set(re.findall(r'"([a-z_]+)"', text))
    missing = sorted(set(tournament.REFUSALS) - used - {"unknown_command", "bad_options"})
    assert missing == []
    doc = (here.parents[1] / "docs" / "tournament.md").read_text()
    for code in tournament.REFUSALS:
        assert f"`{code}`" in doc, code
    for event in tournament.EVENT_TYPES:
        assert f"`{event}`" in doc, event
    for command in tournament.COMMANDS:
        assert f"`{command}`" in doc, command


VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-3, max_value=30)
    | st.sampled_from(["p1", "p2", "p9", "4th", "r1.s1.t01", "tb1.t1", "", "x" * 70]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=8,
)
ARGS = st.dictionaries(
    st.sampled_from(["round", "a", "b", "student", "table", "name", "school", "grade", "csv",
                     "grades", "section", "scores", "flags", "seq", "initials", "disqualified"]),
    VALUES,
    max_size=5,
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from([*tournament.COMMANDS, "nonsense"]),
            ARGS,
            st.sampled_from(["director", "server", "proctor", "player"]),
        ),
        max_size=12,
    )
)
def test_bad_input_is_refused_with_a_code_never_a_crash(commands):
    """Whatever a client (or a confused shell) sends, `decide` answers with events that
    `evolve` takes, or a RuleViolation with a documented code."""
    from server.games.base import Actor, Command, RuleViolation

    t = Tourney(tournament_options(grades=["4th"]))
    t.register_many(8)
    t.do("close_registration")
    t.do("seat_round", round=1)
    for name, args, role in commands:
        actor = Actor(role, "x")
        try:
            events = tournament.decide(t.state, Command(name, args, actor), t.now)
        except RuleViolation as refused:
            assert refused.code in tournament.REFUSALS
            continue
        for event in events:
            t.state = tournament.evolve(t.state, event)
