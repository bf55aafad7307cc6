"""The web client says every refusal in words (issue 13: "errors from the server are shown in
words, the documented codes, never as raw maps"): `words.js` has a sentence for every
protocol error code, for every refusal code of every game the server runs and for every
tournament refusal code (a director's page may show a tournament command refused), so a new
code without its words fails here, not in front of a student or a director.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from protocol.messages import ERROR_CODES
from server.games import games
from server.tournament.refusals import REFUSALS as TOURNAMENT_REFUSALS

WORDS_JS = Path(__file__).resolve().parents[2] / "clients" / "web" / "public" / "js" / "words.js"
GAME_PAGES = WORDS_JS.parent / "games"


def error_words(source: Path = WORDS_JS) -> set[str]:
    """The codes of `ERROR_WORDS` in words.js or a game's page module (one `code: "sentence",`
    entry per code; none when the module has no such map)."""
    text = source.read_text() if source.exists() else ""
    if "const ERROR_WORDS = {" not in text:
        return set()
    body = text.split("const ERROR_WORDS = {", 1)[1].split("\n};", 1)[0]
    return set(re.findall(r"^\s+([a-z_]+):", body, flags=re.M))


def game_error_words(name: str) -> set[str]:
    """The codes a game's refusals are said with: words.js's, and its page module's own
    (`games/<name>.js`: `const ERROR_WORDS = {...}` given as the page's `errorWords`)."""
    return error_words() | error_words(GAME_PAGES / f"{name}.js")


def test_every_protocol_error_code_has_words():
    assert set(ERROR_CODES) - error_words() == set()


def test_every_game_refusal_code_has_words():
    missing = {
        name: sorted(set(getattr(game, "REFUSALS", {})) - game_error_words(name))
        for name, game in games().items()
    }
    assert all(not codes for codes in missing.values()), missing


def test_every_tournament_refusal_code_has_words():
    assert set(TOURNAMENT_REFUSALS) - error_words() == set()


def test_the_check_reads_the_words():
    found = error_words()
    assert {"unauthorized", "moved", "bad_seq", "table_paused", "tournament_over"} <= found
    assert "The server refused that." not in found  # the default is not a code


def words_keys(table: str) -> set[str]:
    """The keys of a `const TABLE = {` map of words.js (one `key: ...` entry per line)."""
    body = WORDS_JS.read_text().split(f"const {table} = {{", 1)[1].split("\n};", 1)[0]
    return set(re.findall(r"^\s+([a-z_]+):", body, flags=re.M))


def test_every_command_a_person_sends_at_a_24_challenge_table_is_said_done():
    """The console says a command done in words (issue 27), never "start_round: done"."""
    from server.games.challenge import COMMANDS, TIMER

    sent = {name for name, rule in COMMANDS.items() if rule.roles != TIMER}
    assert sent - words_keys("DONE_WORDS") == set()


def test_every_end_of_a_round_has_words():
    """`RoundEnded`'s reasons as docs/rules.md lists them (its Events table)."""
    rules = (WORDS_JS.parents[4] / "docs" / "rules.md").read_text()
    row = next(line for line in rules.splitlines() if line.startswith("| `RoundEnded` |"))
    reasons = set(re.findall(r"`([a-z_]+)`", row.split("`reason`:", 1)[1].split("(", 1)[0]))
    assert {"deck_empty", "ended_by_proctor"} <= reasons
    assert reasons - words_keys("END_REASONS") == set()


def test_a_game_page_may_say_its_own_refusals(tmp_path):
    """A new game's refusals need no line in words.js: its page module's `ERROR_WORDS`
    (given as the page's `errorWords`, which games/shell.js says first) count."""
    page = tmp_path / "guess.js"
    page.write_text('const ERROR_WORDS = {\n  not_your_turn: "It is not your turn.",\n};\n')
    assert error_words(page) == {"not_your_turn"}
    assert error_words(tmp_path / "nothing.js") == set()
    said = subprocess.run(
        ["node", "--input-type=module", "-e", SAY_REFUSAL, str(GAME_PAGES / "shell.js")],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    assert said == [
        "It is not your turn. (R-TOY-1) — s2 plays now",  # the page's own words
        "Too many requests: slow down a little.",  # words.js's, for a code the page leaves
    ]


SAY_REFUSAL = """
const { refusalInWords } = await import(process.argv[1]);
const game = { errorWords: { not_your_turn: "It is not your turn." } };
const refused = { code: "not_your_turn", rule: "R-TOY-1", message: "s2 plays now" };
console.log(refusalInWords(refused, game));
console.log(refusalInWords({ code: "rate_limited" }, game));
"""
