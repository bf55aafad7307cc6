"""docs/games/pocket.md and docs/games/deck40.md must match the code: every rule id (with code
that exists and tests that exist), command, event with its data fields, refusal code and
option, so the pages cannot drift."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from casual_tables import DIRECTOR, POCKET_ANSWERS, POCKET_WRONG, Table, player, pocket_options
from test_deck40_rules import all_call_no_solution, solve_it_by_solver, started

from server.games import deck40, pocket
from server.games.base import SERVER_ACTOR

ROOT = Path(__file__).resolve().parents[2]
GAMES = {
    "pocket": (pocket, [f"R-POCKET-{n}" for n in range(1, 6)], "test_pocket_rules.py"),
    "deck40": (deck40, [f"R-DECK40-{n}" for n in range(1, 8)], "test_deck40_rules.py"),
}


def doc(name: str) -> str:
    return (ROOT / "docs" / "games" / f"{name}.md").read_text(encoding="utf-8")


def section(text: str, title: str) -> str:
    start = text.index(f"## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def rows(text: str) -> dict[str, list[str]]:
    """First cell (`name` or a rule id) -> the other cells, for each markdown table row."""
    found = {}
    for line in text.splitlines():
        match = re.match(r"\| (`[A-Za-z0-9_]+`|R-[A-Z0-9]+-\d+) \|(.*)\|$", line)
        if match:
            key = match.group(1).strip("`")
            found[key] = [cell.strip() for cell in match.group(2).split("|")]
    return found


def source(name: str) -> str:
    package = ROOT / "server" / "games" / name
    return "\n".join(path.read_text() for path in sorted(package.glob("*.py")))


@pytest.mark.parametrize("name", GAMES)
def test_every_rule_id_names_code_that_exists_and_tests_that_exist(name):
    game, rule_ids, test_file = GAMES[name]
    table = rows(section(doc(name), "Rule ids and the code that enforces them"))
    assert sorted(table) == sorted(rule_ids)
    code = source(name) + (ROOT / "server" / "puzzles" / "expressions.py").read_text()
    tests = (ROOT / "tests" / "unit" / test_file).read_text()
    tests += (ROOT / "tests" / "unit" / "test_casual_properties.py").read_text()
    for rule_id, (enforced, tested) in table.items():
        for token in re.findall(r"`([A-Za-z_][A-Za-z0-9_.]*)`", enforced):
            assert token.split(".")[-1] in code, f"{rule_id}: {token} is not in the code"
        for pattern in re.findall(r"`(?:[a-z_]+\.py::)?(test_[a-z0-9_]+)\*?`", tested):
            assert f"def {pattern}" in tests, f"{rule_id}: no test {pattern}*"
        assert rule_id in code, f"{rule_id} is not cited in the code"


@pytest.mark.parametrize("name", GAMES)
def test_every_command_refusal_and_option_is_listed(name):
    game = GAMES[name][0]
    text = doc(name)
    assert sorted(rows(section(text, "Commands"))) == sorted(game.COMMANDS)
    refusals = rows(section(text, "Refusal codes"))
    assert sorted(refusals) == sorted(game.REFUSALS)
    for code, (rule, _meaning) in game.REFUSALS.items():
        assert refusals[code][0] == rule, code
    options = rows(section(text, "Options"))
    assert sorted(options) == sorted(
        set(game.DEFAULT_OPTIONS) | {"stack" if name == "pocket" else "deck"}
    )
    commands = rows(section(text, "Commands"))
    for command, roles in game.COMMANDS_BY_ROLE.items():
        for role in roles:
            assert role in commands[command][0], f"{command}: {role} is not listed"


def every_pocket_event() -> list:
    table = Table.started(pocket, pocket_options(2, ["p1", "p2", "p3", "p4"], stumped_seconds=30))
    table.do("declare_stumped", player("s1"))
    table.do("declare_stumped", player("s2"))  # CardSetAside
    table.do("claim", player("s1"))
    table.do("pause_game", SERVER_ACTOR, cause="server_restart")
    table.do("resume_game", player("s2"))
    table.do("answer", player("s1"), expression=POCKET_WRONG)  # PlayerExcluded
    table.do("answer", player("s2"), expression=POCKET_ANSWERS["p2"][2])  # CardWon with bonus
    table.fire("stumped_deadline")
    table.do("end_game", DIRECTOR)
    return table.events


def every_deck40_event() -> list:
    table = started(2, ["1111", "3388"], reveal_unsolvable=True)
    all_call_no_solution(table)
    table.do("call_24", player("s1"), expression="1 + 1")
    solve_it_by_solver(table, player("s2"))
    table.do("end_game", DIRECTOR)
    return table.events


@pytest.mark.parametrize(
    ("name", "script"), [("pocket", every_pocket_event), ("deck40", every_deck40_event)]
)
def test_every_event_and_every_data_field_is_listed(name, script):
    game = GAMES[name][0]
    table = rows(section(doc(name), "Events"))
    assert sorted(table) == sorted(game.EVENT_TYPES)
    events = script()
    assert {event.type for event in events} == set(game.EVENT_TYPES)
    for event in events:
        for field in event.data:
            if field not in ("at", "rule"):
                assert f"`{field}`" in table[event.type][0], f"{event.type}.{field}"


@pytest.mark.parametrize("name", GAMES)
def test_the_readme_shows_how_to_start_each_game(name):
    """The words; test_readme_games.py parses the commands and starts the tables they make."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"create-table --game {name}" in readme
    assert f"docs/games/{name}.md" in readme


def test_docs_rules_names_each_linked_game_page_with_its_rule_ids():
    """docs/rules.md (the 24 Challenge's page) points to the games' pages (found by their
    folder: test_game_docs.py) and names the range of ids each page it links lists."""
    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert "`docs/games/<name>.md`" in rules
    linked = set(re.findall(r"\]\(games/([a-z0-9_]+)\.md\)", rules))
    assert linked >= {"pocket", "deck40", "tjugoett", "practice"}
    for page in sorted(ROOT / "docs" / "games" / f"{name}.md" for name in linked):
        ids = re.findall(r"^\| (R-[A-Z0-9]+-\d+) \|", page.read_text(encoding="utf-8"), re.M)
        if page.stem == "practice":  # the 24 Challenge's rules, no ids of its own
            assert not ids
            continue
        prefix = ids[0].rsplit("-", 1)[0]
        last = max(int(rule.rsplit("-", 1)[1]) for rule in ids)
        assert f"({prefix}-1..{last}" in rules, f"{page.name}: {prefix}-1..{last}"
