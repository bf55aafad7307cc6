"""Every game's page, found by the game's folder (docs/architecture.md, "How to add a game"):
`docs/games/<name>.md` for each game of the registry (the 24 Challenge's is docs/rules.md),
and no page without its game. The page lists, in tables of one row each, every command,
every event type and every refusal code of the game, and names each of its options, so a
new game's page cannot fall behind its code nor be forgotten. The sweep reads the registry
and the folder only: a new game needs no line here.

The pages of pocket and deck40 are checked further (every event's data fields, the rule ids'
code and tests) by test_casual_docs.py, Tjugoett's by test_tjugoett_docs.py.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from server.games import games

ROOT = Path(__file__).resolve().parents[2]
PAGES = ROOT / "docs" / "games"
OWN_PAGES = {"challenge": ROOT / "docs" / "rules.md"}  # the game that came first


def page_of(name: str) -> Path:
    return OWN_PAGES.get(name, PAGES / f"{name}.md")


def section(text: str, *titles: str) -> str:
    """The section under the first of `titles` that the page has ("## <title>"), up to the
    next heading of any level, or ""."""
    for title in titles:
        start = text.find(f"\n## {title}\n")
        if start != -1:
            end = re.search(r"\n#{2,6} ", text[start + 1 :])
            return text[start : start + 1 + end.start() if end else len(text)]
    return ""


def rows(text: str) -> dict[str, str]:
    """A table row's first cell, a backticked name, -> the rest of its row."""
    found = {}
    for line in text.splitlines():
        match = re.match(r"\| `([A-Za-z0-9_]+)` \|(.*)\|$", line)
        if match:
            found[match.group(1)] = match.group(2)
    return found


def test_every_game_has_its_page_and_every_page_its_game():
    names = set(games())
    assert {page.stem for page in PAGES.glob("*.md")} == names - set(OWN_PAGES)
    for name in names:
        assert page_of(name).exists(), name


@pytest.mark.parametrize("name", sorted(set(games()) - set(OWN_PAGES)))
def test_the_page_lists_every_command_event_refusal_and_option(name):
    game = games()[name]
    text = page_of(name).read_text(encoding="utf-8")
    commands = rows(section(text, "Commands"))
    assert set(commands) == set(game.COMMANDS_BY_ROLE), "## Commands: a row per command"
    events = rows(section(text, "Events"))
    assert set(events) == set(game.EVENT_TYPES), "## Events: a row per event type"
    refusals = rows(section(text, "Refusal codes", "Refusals"))
    missing = set(getattr(game, "REFUSALS", {})) - set(refusals)
    assert not missing, f"## Refusal codes: no row for {sorted(missing)}"
    options = section(text, "Options")
    for option in game.DEFAULT_OPTIONS:
        assert f"`{option}`" in options, f"## Options: `{option}` is not named"
