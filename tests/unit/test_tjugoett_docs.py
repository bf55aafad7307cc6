"""docs/games/tjugoett.md must match the code: every rule id with code that exists and a test
that exists, every command, deadline, event (with exactly its data fields), refusal code and
option, so the page cannot drift from the game."""

from __future__ import annotations

import dataclasses
import importlib
import json
import re
import sys
from pathlib import Path

from tjugoett_tables import DEALER, DIRECTOR, Table, options, player, stacked

from server.games import tjugoett
from server.games.tjugoett.options import DEFAULT_OPTIONS, REQUIRED
from server.games.tjugoett.refusals import REFUSALS
from server.games.tjugoett.state import DEADLINE_COMMANDS

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "games" / "tjugoett.md").read_text(encoding="utf-8")
TESTS = Path(__file__).resolve().parent
RULE_IDS = [f"R-21-{n}" for n in range(1, 23)]


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


def _resolve(name: str) -> object:
    """`cards.hand_value` -> that function; `_draw` -> the package's `_draw`."""
    package = "server.games.tjugoett"
    module_name, _, attribute = name.rpartition(".")
    importlib.import_module(package + ("." + module_name if module_name else ""))
    module = sys.modules[package + ("." + module_name if module_name else "")]
    return getattr(module, attribute)


def test_every_rule_id_names_code_and_a_test_that_exist():
    rows = {
        line.split("|")[1].strip(): [cell.strip() for cell in line.split("|")[2:-1]]
        for line in section("Rule ids, their code and their test").splitlines()
        if line.startswith("| R-21-")
    }
    assert list(rows) == RULE_IDS
    for rule, cells in rows.items():
        code, test = cells[-2], cells[-1]
        names = re.findall(r"`([A-Za-z_.]+)`", code)
        assert names, rule
        for name in names:
            assert _resolve(name) is not None, (rule, name)
        (test_name,) = re.findall(r"`(test_[a-z0-9_]+)`", test)
        file = re.search(r"\((test_tjugoett_[a-z]+\.py)\)", test)
        source = (TESTS / (file.group(1) if file else "test_tjugoett_rules.py")).read_text()
        assert f"def {test_name}(" in source, (rule, test_name)
        assert rule.replace("-", "").lower().replace("r21", "r21_") in test_name, (rule, test_name)


def test_every_command_and_deadline_is_documented_and_nothing_else():
    commands, deadlines = section("Commands").split("### Deadlines")
    assert set(table_rows(commands)) == set(tjugoett.COMMANDS)
    kinds = table_rows(deadlines)
    assert set(kinds) == set(DEADLINE_COMMANDS)
    for kind, cells in kinds.items():
        assert cells[-1] == f"`{DEADLINE_COMMANDS[kind]}`"


def every_event() -> list:
    """Games that together produce every event type."""
    table = Table(options(players=3, person_dealer=True))
    table.do("start_round", order=stacked("9C", "AS", "KC", "8C", "10D", "5H", "4S", "7H", "QC"))
    table.do("stand", player("s1"))  # 17
    for _ in range(3):
        table.do("dealer_draw", DEALER)  # 10, 15, 19
    table.do("dealer_stand", DEALER)  # s2: A+7 = 21 at once; s3: K+Q bust: round over
    table.do("start_round", order=stacked("2C", "3C", "4C", "5C"))  # s1 holds 7
    state = table.state  # given: the draw pile down to one card (R-21-21)
    table.state = dataclasses.replace(
        state, draw_pile=state.draw_pile[:1], discard_pile=state.draw_pile[1:]
    )
    table.do("draw_card", player("s1"))  # DiscardsReshuffled, CardDealt
    assert table.state.phase == "player_turn"  # (the seeded reshuffle gives no ace)
    table.state = dataclasses.replace(
        table.state, draw_pile=table.state.draw_pile[:1], discard_pile=()
    )
    table.do("draw_card", player(table.state.turn))  # DrawFailed, RoundEnded (R-21-22)
    table.do("end_table", DIRECTOR)
    return table.events


def test_every_event_is_documented_with_exactly_its_data_fields():
    rows = table_rows(section("Events"))
    assert set(rows) == set(tjugoett.EVENT_TYPES)
    seen: dict[str, set[str]] = {}
    for event in every_event():
        seen.setdefault(event.type, set()).update(event.data)
    assert set(seen) == set(tjugoett.EVENT_TYPES), set(tjugoett.EVENT_TYPES) - set(seen)
    for type_, fields in seen.items():
        documented = set(re.findall(r"`([a-z_]+)`", rows[type_][0]))
        assert documented == fields - {"at"}, type_


def test_every_refusal_code_is_documented_with_its_rule():
    rows = table_rows(section("Refusals"))
    assert set(rows) == set(REFUSALS)
    for code, cells in rows.items():
        assert cells[0] == REFUSALS[code][0], code


def test_every_option_is_documented_with_its_default():
    rows = table_rows(section("Options"))
    assert set(rows) == set(DEFAULT_OPTIONS) | set(REQUIRED)
    for name, default in DEFAULT_OPTIONS.items():
        assert rows[name][0] == f"`{json.dumps(default)}`", name


def test_every_refusal_code_has_a_test_that_provokes_it():
    """A documented error path per refusal: each code is asserted by some Tjugoett test."""
    sources = "\n".join(path.read_text() for path in TESTS.glob("test_tjugoett_*.py"))
    for code in REFUSALS:
        assert f'== "{code}"' in sources, f"no test asserts the refusal {code!r}"
