"""docs/rules.md must match the code: every rule id, command, event (with its data fields),
refusal code, flag cause and option, so the doc the protocol links to cannot drift."""

from __future__ import annotations

import re
from pathlib import Path

from challenge_tables import ANSWERS, DIRECTOR, PROCTOR, Table, options, player

from server.games import challenge
from server.games.challenge.evolvers import DEADLINE_COMMANDS
from server.games.challenge.options import table_options

DOC = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text(encoding="utf-8")
RULE_IDS = [f"R-PUZ-{n}" for n in range(1, 5)] + ["R-DECK-1", "R-DECK-4", "R-DECK-5", "R-ROUND-1"]
RULE_IDS += ["R-ROUND-7", "R-ROUND-8"]
RULE_IDS += [f"R-PLAY-{n}" for n in range(1, 8)] + [f"R-FLAG-{n}" for n in range(1, 5)]


def section(title: str) -> str:
    start = DOC.index(f"## {title}\n")
    end = DOC.find("\n## ", start + 1)
    return DOC[start : end if end != -1 else len(DOC)]


def table_rows(text: str) -> dict[str, list[str]]:
    """First cell (a `name`) -> the other cells, for every row of the markdown tables in text."""
    rows = {}
    for line in text.splitlines():
        match = re.match(r"\| `([A-Za-z_-]+)` \|(.*)\|$", line)
        if match:
            rows[match.group(1)] = [cell.strip() for cell in match.group(2).split("|")]
    return rows


def every_event_of_a_scripted_round() -> list:
    """A round that produces every event type once or more."""
    table = Table.started(cards=["c1", "c2", "c3"], stumped_cards="replay_at_end", flag_limit=1)
    table.next_card()
    table.do("touch_card", player("s1"))
    table.do("touch_card", player("s2"))
    table.do("override_first_touch", seat="s2")
    table.do("declare_pattern", player("s2"), pattern=ANSWERS["c1"][2])
    table.do("state_steps", player("s2"), steps=ANSWERS["c1"][3][:2])
    table.do("pause_table")
    table.do("resume_table")
    table.do("fix_solution", player("s2"), steps=ANSWERS["c1"][3])
    table.do("place_card")
    table.do("touch_card", player("s3"))  # before the reveal: flagged, disqualified
    table.next_card()
    for seat in ("s1", "s2", "s4"):
        table.do("declare_stumped", player(seat))
    table.next_card()
    table.fire("no_touch_deadline")  # the deck runs out: the stumped pile comes back
    table.do("rule_slap", seat="s4")
    table.do("end_round", PROCTOR)
    flag = table.seq_of("FlagIssued")
    table.do("file_protest", player("s3"), seqs=[flag], reason="I touched after the reveal")
    table.do(
        "rule_protest",
        protest=1,
        upheld=True,
        ruling_text="the reveal came first",
        corrections=[
            {"kind": "rescind_flag", "seat": "s3", "flag": flag},
            {"kind": "revoke_card", "seat": "s2", "card": "c1"},
            {"kind": "award_card", "seat": "s3", "card": "c1"},
            {"kind": "adjust_score", "seat": "s1", "delta": 1, "why": "a misread step"},
        ],
    )
    table.do("sign_score_card", initials="PK")
    table.do("reopen_score_card", DIRECTOR, reason="a late protest")
    # decision 30: a table that waits for its students
    waits = Table(options(wait_for_students=True))
    waits.do("start_round")
    waits.do("mark_seat", seat="s4", mark="absent")
    waits.do("begin_play")
    # R-PLAY-2 under compensation (issue 19): its two events
    fair = Table.started(touch_compensation=True)
    fair.next_card()
    fair.do("touch_card", player("s1"))
    fair.fire("grant_first_touch")
    # A Variables card (Q1): its wheels and the x of an answer
    deck = [{"card_id": "v1", "wheels": [[6, 6, 2], [20, 22, 24]], "dots": 2}]
    variables = Table(options(cards=["c1"]) | {"deck": deck})
    variables.do("start_round")
    variables.next_card()
    variables.do("touch_card", player("s1"))
    variables.do("declare_pattern", player("s1"), pattern="12 + 12")
    variables.do("state_steps", player("s1"), steps=["6 * 2 = 12"], x=2)
    variables.do("fix_solution", player("s1"))
    return table.events + fair.events + variables.events + waits.events


def test_every_rule_id_has_its_enforcing_code_listed():
    rows = {
        line.split("|")[1].strip(): line.split("|")[2].strip()
        for line in section("Rule ids and the code that enforces them").splitlines()
        if line.startswith("| R-")
    }
    assert set(RULE_IDS) <= set(rows), sorted(set(RULE_IDS) - set(rows))
    assert all("`" in code for code in rows.values())  # each names a function or module


def test_every_command_and_deadline_is_documented_and_nothing_else():
    commands, deadlines = section("Commands").split("### Deadlines")
    assert set(table_rows(commands)) == set(challenge.COMMANDS)
    kinds = table_rows(deadlines)
    assert set(kinds) == set(DEADLINE_COMMANDS)
    for kind, cells in kinds.items():
        assert cells[-1] == f"`{DEADLINE_COMMANDS[kind]}`"


def test_every_event_is_documented_with_exactly_its_data_fields():
    rows = table_rows(section("Events"))
    assert set(rows) == set(challenge.EVENT_TYPES)
    seen: dict[str, set[str]] = {}
    for event in every_event_of_a_scripted_round():
        seen.setdefault(event.type, set()).update(event.data)
    assert set(seen) == set(challenge.EVENT_TYPES)
    for event_type, fields in seen.items():
        documented = {field.strip() for field in rows[event_type][0].split(",")}
        assert fields == documented | {"at"}, event_type


def test_every_refusal_code_is_documented_with_its_rule():
    rows = table_rows(section("Refusal codes"))
    assert set(rows) == set(challenge.REFUSALS)
    for code, (rule, _meaning) in challenge.REFUSALS.items():
        assert rows[code][0] == rule, code


def test_flag_causes_and_options_are_documented():
    commands = section("Commands")
    for cause, rule in challenge.FLAG_CAUSES.items():
        assert f"`{cause}` ({rule})" in commands.replace("\n", " ")
    documented = set(table_rows(section("Options")))
    # `touch_compensation`, `max_credit_ms` and `lang` are recorded only when not the default.
    recorded = table_options(
        options(touch_compensation=True, wait_for_students=True, lang="nb")
    ).as_data()
    assert documented == set(recorded) | {"deck"}


def test_the_game_contracts_default_options_are_the_documented_defaults():
    """`challenge.DEFAULT_OPTIONS` (the game contract's option defaults) is the Options table:
    a number or a word as written, `true`/`false`, `none` for None (flag_limit: its rule, by
    round)."""
    documented = table_rows(section("Options"))
    for name, default in challenge.DEFAULT_OPTIONS.items():
        cell = documented[name][0]
        if default is None:
            assert cell == "none" or name == "flag_limit", (name, cell)
        elif isinstance(default, bool):
            assert cell == str(default).lower(), (name, cell)
        elif isinstance(default, str):
            assert cell == f"`{default}`", (name, cell)
        else:
            assert cell == str(default), (name, cell)
    assert set(documented) == {*challenge.DEFAULT_OPTIONS, "seats", "deck"}
