"""Issue 27: every event and every refusal of every game reads as words at the terminal.

Each event type of each game the server runs (and `TableCreated`, every table's first event)
is rendered through the game's part (`describe_event`, the words of `t24 play`, `watch`,
`casual`, `replay`) from the examples of tests/unit/terminal_event_examples.py (for a game
found by its folder with none written there, what its example play gives a player), and each
refusal code (the game's and the protocol's) through `refusal_words`, as a person would read
it. The test fails on an event name, a brace, a `'key':` of a dict, a Python value (None,
True, a list), a `_`-joined code, a seat id where the name is known, or an unfilled
placeholder; on a game's table without a sentence for one of its codes; and on a sentence of a
table that no example renders (so each variant is seen here once).
"""

from __future__ import annotations

import re
import string

import pytest
from terminal_event_examples import NAMES, examples_of

from clients.reference_cli.connection import ServerRefused, refusal_words
from clients.reference_cli.games import part_for
from clients.reference_cli.words import PROTOCOL, Plural, say
from protocol.messages import ERROR_CODES
from server.games import games

GAMES = games()
EXAMPLES = {name: examples_of(game) for name, game in GAMES.items()}
CAMEL = re.compile(r"\b[A-Z][a-z]+[A-Z][A-Za-z]*\b")  # CardWon, TableCreated
CODE = re.compile(r"\b[a-z0-9]+_[a-z0-9_]+\b")  # stack_used_up, stale_set
DICT_KEY = re.compile(r"['\"][a-z_]+['\"]\s*:")
PYTHON = re.compile(r"\b(None|True|False)\b|\[\s*['\d\[{]|\{|\}")
SEAT_ID = re.compile(r"\b(s1|s2|s3|dl)\b")


def faults(text: str) -> list[str]:
    """What a person should not read in `text` (empty when it reads as words)."""
    found = []
    for name, pattern in (
        ("event name", CAMEL),
        ("code", CODE),
        ("dict key", DICT_KEY),
        ("Python value", PYTHON),
        ("seat id", SEAT_ID),
    ):
        match = pattern.search(text)
        if match:
            found.append(f"{name} {match.group(0)!r}")
    return found


def test_every_event_type_of_every_game_has_examples():
    for name, game in GAMES.items():
        assert set(EXAMPLES[name]) == set(game.EVENT_TYPES) | {"TableCreated"}, name


def rendered(name: str) -> list[tuple[str, str]]:
    part = part_for(name)
    return [
        (kind, part.describe_event(kind, data, NAMES))
        for kind, datas in EXAMPLES[name].items()
        for data in datas
    ]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_event_reads_as_words(name):
    bad = {text: faults(text) for _kind, text in rendered(name) if faults(text)}
    assert not bad, bad


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_event_sentence_of_the_table_is_rendered_by_an_example(name):
    """Each `event.*` entry (each form of a plural) matches some rendered example: no
    variant is left unseen, and the describe functions use every sentence they keep."""
    texts = [text for _kind, text in rendered(name)]
    words = part_for(name).words
    unseen = []
    for key, entry in words.items():
        if not key.startswith("event."):
            continue
        forms = [entry.one, entry.other] if isinstance(entry, Plural) else [entry]
        for form in forms:
            pattern = re.compile(
                ".+?".join(re.escape(literal) for literal, *_ in string.Formatter().parse(form))
            )
            if not any(pattern.search(text) for text in texts):
                unseen.append(f"{key}: {form}")
    assert not unseen, unseen


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_refusal_code_reads_as_words(name):
    game, part = GAMES[name], part_for(name)
    refusals = getattr(game, "REFUSALS", {})
    missing = sorted(code for code in refusals if f"refusal.{code}" not in part.words)
    assert not missing, missing
    for code, (rule, _meaning) in refusals.items():
        # the server's message names commands and seats (`reveal_card: ...`, `seat s1`)
        error = ServerRefused(code, f"some_command: seat s1 {code}", rule or None)
        text = refusal_words(error, part.words)
        assert not faults(text), (code, text, faults(text))
        if rule:
            assert text.endswith(f"({rule})"), text


def test_every_protocol_error_code_reads_as_words():
    assert {f"refusal.{code}" for code in ERROR_CODES} <= set(PROTOCOL)
    for code in ERROR_CODES:
        text = refusal_words(ServerRefused(code, f"`{code}`: some_field"), {})
        assert not faults(text), (code, text)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_tables_keep_only_codes_the_game_has_and_fill_every_placeholder(name):
    """No stale entry (an event type or refusal code the game no longer has), and a plural's
    two forms take the same placeholders (a catalogue's ngettext pair)."""
    game, words = GAMES[name], part_for(name).words
    for key, entry in words.items():
        kind, _, rest = key.partition(".")
        if kind == "event":
            assert rest.split(".")[0] in set(game.EVENT_TYPES) | {"TableCreated"}, key
        if kind == "refusal":
            assert rest in getattr(game, "REFUSALS", {}), key
        if isinstance(entry, Plural):
            fields = [
                {f for _, f, *_ in string.Formatter().parse(form) if f}
                for form in (entry.one, entry.other)
            ]
            assert fields[0] == fields[1] and entry.n in fields[0], key


def test_say_picks_the_plural_form_by_its_count():
    table = {"x": Plural("{count} card", "{count} cards")}
    assert [say(table, "x", count=n) for n in (0, 1, 2)] == ["0 cards", "1 card", "2 cards"]


def test_the_check_finds_what_a_person_should_not_read():
    for text in (
        "· CardsTurnedUp: cards",
        "the game ends (stack_used_up)",
        "> answer {'expression': '8*6/(2*3)', 'set': 2}",
        "s2 wins",
        "ok True",
        "numbers [7, 3, 6, 6]",
    ):
        assert faults(text), text
    assert not faults("Bo wins card 1: 2 points (R-POCKET-2)")
