"""The web client's words are the catalogue's (issues 13, 27, 30): every refusal code, every
command the console says done, every end of a round has words in protocol/words/<lang>.po
where js/words.js looks for them; every page word (`web` vocabulary) is there in every
language with English's placeholders; and no sentence is written in the JavaScript itself.

A new code without its words fails here, not in front of a student or a director. (That
every key a page draws is in the catalogue is checked in a real browser, where the word
tables are walked: tests/e2e/test_web_languages.py.)
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from protocol.messages import ERROR_CODES
from protocol.words import Catalogue, catalogue, languages
from server.games import games
from server.tournament.refusals import REFUSALS as TOURNAMENT_REFUSALS

JS = Path(__file__).resolve().parents[2] / "clients" / "web" / "public" / "js"
LANGS = ("en", "nb", "sv")
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def refusal_words(words: Catalogue, vocabulary: str, code: str) -> bool:
    """Whether `errorInWords({code}, vocabulary)` finds words (js/words.js: the game's
    refusal, the protocol's, the tournament's, the page's own)."""
    places = ((vocabulary, "refusal"), ("common", "refusal"), ("tournament", "refusal"))
    return any(words.has(where, f"{prefix}.{code}") for where, prefix in places) or words.has(
        "web", f"error.{code}"
    )


@pytest.mark.parametrize("lang", LANGS)
def test_every_protocol_error_and_refusal_code_has_words(lang):
    words = catalogue(lang)
    missing = {"protocol": [c for c in ERROR_CODES if not refusal_words(words, "common", c)]}
    for name, game in games().items():
        missing[name] = [c for c in game.REFUSALS if not refusal_words(words, name, c)]
    missing["tournament"] = [
        c for c in TOURNAMENT_REFUSALS if not refusal_words(words, "tournament", c)
    ]
    assert all(not codes for codes in missing.values()), missing
    assert words.has("web", "error.disconnected")  # wire.js's own code, no server's


def js_list(source: str, name: str) -> set[str]:
    """The strings of `export const NAME = [...]` in a JS module."""
    body = source.split(f"export const {name} = [", 1)[1].split("];", 1)[0]
    return set(re.findall(r'"([a-z_]+)"', body))


def test_every_command_a_person_sends_at_a_24_challenge_table_is_said_done():
    """The console says a command done in words (issue 27), never "start_round: done"."""
    from server.games.challenge import COMMANDS, TIMER

    sent = {name for name, rule in COMMANDS.items() if rule.roles != TIMER}
    said = js_list((JS / "word_tables.js").read_text(), "DONE_COMMANDS")
    assert sent - said == set()
    for lang in LANGS:
        assert [c for c in said if not catalogue(lang).has("web", f"done.{c}")] == []


def test_every_end_of_a_round_has_words():
    """`RoundEnded`'s reasons as docs/rules.md lists them (its Events table): the
    challenge's `reason.<code>`, the same words the terminal and the report use."""
    rules = (JS.parents[3] / "docs" / "rules.md").read_text()
    row = next(line for line in rules.splitlines() if line.startswith("| `RoundEnded` |"))
    reasons = set(re.findall(r"`([a-z_]+)`", row.split("`reason`:", 1)[1].split("(", 1)[0]))
    assert {"deck_empty", "ended_by_proctor"} <= reasons
    words = catalogue("en")
    assert [r for r in reasons if not words.has("challenge", f"reason.{r}")] == []


def web_entries(lang: str) -> dict[str, tuple[str, ...]]:
    words = catalogue(lang)
    found = {}
    for vocabulary, key in words.keys():
        if vocabulary == "web":
            entry = words.entry(vocabulary, key)
            assert entry is not None
            found[key] = entry.forms
    return found


# Words a Norwegian or Swedish page may share with English: names, numbers, signs, codes,
# the unit "s", and words spelled the same in all three ("Rating", "Protest").
SAME_AS_ENGLISH = re.compile(
    r"^(\{\w+\}|[\s\d.,:;()·=→±–—\-+/%#…]|R\d|t24|Tjugoett|Kortspillet 24|24 Challenge|"
    r"Rating|Protest|CSV|s)*$"
)


@pytest.mark.parametrize("lang", ["nb", "sv"])
def test_every_page_word_is_translated_with_english_placeholders(lang):
    english, translated = web_entries("en"), web_entries(lang)
    assert sorted(set(english) - set(translated)) == []
    wrong_fields = {
        key: text
        for key, text in translated.items()
        if {f for form in text for f in PLACEHOLDER.findall(form)}
        != {f for form in english[key] for f in PLACEHOLDER.findall(form)}
    }
    assert wrong_fields == {}
    left_english = [
        key
        for key, text in translated.items()
        if text == english[key] and not all(SAME_AS_ENGLISH.match(form) for form in text)
    ]
    assert left_english == []


def test_the_catalogues_are_the_three_languages_at_least():
    assert set(LANGS) <= set(languages())


# String literals of the JavaScript that are no words shown to people: key names the pages
# listen for, an HTTP scheme, a developer's error (caught, never shown).
NOT_WORDS = {"Space", "Enter", "Home", "End", "Bearer ${connection.token}"}
LITERAL = re.compile(r""""((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|`((?:[^`\\]|\\.)*)`""")
ENGLISH = re.compile(
    r"\b(the|a|an|of|to|is|are|you|your|no|not|in|on|for|and|with|card|cards|table|round|game)\b",
    re.I,
)


def sounds_english(text: str) -> bool:
    """A literal that reads as words to a person: two words or more with a capital or an
    English function word, or one capitalised word ("Pause"); never a class list."""
    bare = re.sub(r"\$\{[^}]*\}", " ", text).strip()
    two = re.search(r"[A-Za-z]{2,}[,:;.!?]? [A-Za-z]{2,}", bare)
    if not two:
        return bool(re.fullmatch(r"[A-Z][a-z]+[.!?…]?", bare))
    if re.search(r"[A-Z][a-z]", bare):
        return True
    return bool(ENGLISH.search(bare)) and not re.fullmatch(r"[a-z0-9\- ]+", bare)


def test_no_words_are_written_in_the_javascript():
    """Every word a page shows comes from the catalogue (js/words.js): a sentence, label or
    heading written in a .js file (or in index.html) fails here, by file and line."""
    found = []
    for path in sorted(JS.rglob("*.js")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if line.strip().startswith(("//", "*", "/*")):
                continue
            code = re.sub(r"\s//\s.*$", "", line)
            for match in LITERAL.finditer(code):
                text = next(group for group in match.groups() if group is not None)
                if text not in NOT_WORDS and "no catalogue for" not in text:
                    if sounds_english(text):
                        found.append(f"{path.relative_to(JS)}:{number}: {text}")
    assert found == []
    index = (JS.parent / "index.html").read_text()
    body = re.sub(r"<noscript.*?</noscript>", "", index.split("<body>", 1)[1], flags=re.S)
    assert re.sub(r"<[^>]+>", "", body).strip() == ""  # the page itself says nothing


def test_the_check_finds_words_in_javascript():
    assert sounds_english("Start the game")
    assert sounds_english("Pause")
    assert sounds_english("`${n} cards left`")
    assert not sounds_english("playing-card back")
    assert not sounds_english("status.online")


def test_every_key_the_javascript_names_is_in_the_catalogue():
    """A key written whole in a page's code (`web("status.online")`, `say("deck40",
    "screen.ended.cards_out")`) is in English's catalogue (and so in every language's, with
    English behind it); keys built from a code are checked with their codes above."""
    english = catalogue("en")
    named = set()
    for path in sorted(JS.rglob("*.js")):
        source = path.read_text()
        named |= {("web", key) for key in re.findall(r'\bweb\("([\w.\-]+)"', source)}
        named |= set(re.findall(r'\bsay\("(\w+)", "([\w.\-]+)"', source))
    assert len(named) > 20
    assert sorted(f"{v}/{k}" for v, k in named if not english.has(v, k)) == []
