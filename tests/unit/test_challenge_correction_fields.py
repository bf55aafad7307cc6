"""A ruling's corrections take exactly their documented fields (R-ROUND-8, issue 33).

The attack run found that `rule_protest` recorded a correction as sent: a 12,000-character
note or a nested map under a key no rule asks for went into `ProtestRuled.corrections` and was
pushed to every viewer of the table. Now any other key is refused `bad_correction`, nothing is
recorded, and what is recorded is what the kind takes (`why` stripped).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from challenge_tables import PROCTOR, Table, player, types

from server.games import challenge
from server.games.base import RuleViolation
from server.games.challenge.protests import CORRECTION_FIELDS, MAX_REASON

RULES_DOC = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


def hearing() -> Table:
    """Given: s1 is flagged at seq 7 for a wrong answer, then wins c2; the round has ended and
    s1's protest against the flag (protest 1) is open."""
    table = Table.started(cards=["c1", "c2"])
    table.next_card()
    table.do("touch_card", player("s1"))
    table.do("declare_pattern", player("s1"), pattern="3 × 8")
    table.do("fix_solution", player("s1"), steps=["1 + 1 = 2", "2 + 1 = 3", "3 + 8 = 11"])
    table.next_card()
    table.win("s1")
    table.next_card()
    table.win("s2")
    assert table.state.phase == "ended"
    table.do("file_protest", player("s1"), seqs=[table.seq_of("FlagIssued")], reason="judge")
    return table


def good_corrections(table: Table) -> list[dict]:
    """One correction of each kind, every field right."""
    return [
        {"kind": "rescind_flag", "seat": "s1", "flag": table.seq_of("FlagIssued")},
        {"kind": "revoke_card", "seat": "s2", "card": "c1"},
        {"kind": "award_card", "seat": "s3", "card": "c1"},
        {"kind": "adjust_score", "seat": "s4", "delta": 1, "why": "the bell"},
    ]


@pytest.mark.parametrize("kind", sorted(CORRECTION_FIELDS))
@pytest.mark.parametrize(
    "extra",
    [
        {"note": "x" * 12_000},
        {"note": {"nested": {"map": [1, 2, 3]}}},
        {"seats": "s1"},  # a near miss of a real field
        {"": 1},
    ],
)
def test_a_key_its_kind_does_not_take_is_refused_and_nothing_recorded(kind, extra):
    table = hearing()
    shapes = [*good_corrections(table), {"kind": "rescind_slap", "seat": "s3"}]  # (no slap here)
    correction = next(c for c in shapes if c["kind"] == kind)
    before = len(table.events)
    refused = table.refused(
        "rule_protest",
        protest=1,
        upheld=True,
        ruling_text="r",
        corrections=[{**correction, **extra}],
    )
    assert refused.code == "bad_correction" and refused.rule == "R-ROUND-8"
    key = next(iter(extra))
    assert f"{kind}: no field {key[:32]!r}" in refused.message
    assert len(refused.message) < 200  # never the 12,000 characters back
    assert len(table.events) == before
    query = {
        "protest": 1,
        "upheld": True,
        "ruling_text": "r",
        "corrections": [{**correction, **extra}],
    }
    with pytest.raises(RuleViolation) as previewed:  # the preview judges alike
        challenge.query(table.state, "preview_ruling", query, PROCTOR, table.now)
    assert previewed.value.code == "bad_correction"


def test_the_recorded_corrections_hold_exactly_their_fields_why_stripped():
    table = hearing()
    corrections = good_corrections(table)
    corrections[3]["why"] = "  the bell " + " " * 11_000
    events = table.do(
        "rule_protest", protest=1, upheld=True, ruling_text="r", corrections=corrections
    )
    assert types(events) == [
        "ProtestRuled",
        "FlagRescinded",
        "CardAwardRevoked",
        "CardAwarded",
        "ScoreAdjusted",
    ]
    recorded = events[0].data["corrections"]
    assert recorded == [*good_corrections(table)[:3], {**corrections[3], "why": "the bell"}]
    assert [set(c) for c in recorded] == [{"kind", *CORRECTION_FIELDS[c["kind"]]} for c in recorded]
    assert events[-1].data["why"] == "the bell"
    assert table.replayed() == table.state


def test_a_why_over_500_characters_is_refused():
    table = hearing()
    too_long = {"kind": "adjust_score", "seat": "s4", "delta": 1, "why": "w" * (MAX_REASON + 1)}
    refused = table.refused(
        "rule_protest", protest=1, upheld=True, ruling_text="r", corrections=[too_long]
    )
    assert refused.code == "bad_correction"


def test_docs_list_each_corrections_fields_as_the_code_takes_them():
    """docs/rules.md, "A correction": one `{"kind": ...}` form per kind, with its fields."""
    text = RULES_DOC.read_text()
    section = text[text.index("A correction (R-ROUND-8)") :]
    section = section[: section.index("\n\n")]
    documented = {}
    for form in re.findall(r"`\{(\"kind\"[^`]*)\}`", section):
        _kind, kind, *fields = re.findall(r"\"(\w+)\"", form)  # values are `<...>`
        documented[kind] = tuple(fields)
    assert documented == CORRECTION_FIELDS
