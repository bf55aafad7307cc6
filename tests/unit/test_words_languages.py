"""Every word in every language (issues 27 and 30; docs/translating.md).

Walks every key of the catalogues (protocol/words/<lang>.po) and every event type and refusal
code of every game and of the tournament, in English, Norwegian Bokmål and Swedish: no key
missing from a language's own file, no English left in a Norwegian or Swedish text (bar the
names and symbols in `SAME_AS_ENGLISH`), each text's placeholders the same as English's, each
plural entry plural in every language. Then renders every example event of every game through
the terminal's words and the officials' report's, in each language, and fails on a raw event
name, a brace, a `'key':`, a `_`-joined code or a seat id standing where a name is known; and draws
every casual game's screen at the terminal with two players of one name and a seat with no
name, which read `Ada`, `Ada (2)` and `Player 3`, never an id.
"""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from casual_tables import deck40_options, pocket_options
from game_tables import DIRECTOR, Table, player
from report_tournament import TID, played
from terminal_event_examples import EXAMPLES, NAMES, examples_of
from tjugoett_tables import options as tjugoett_options

import server.tournament as tournament
from clients.reference_cli.connection import ServerRefused, refusal_words
from clients.reference_cli.games import part_for
from clients.reference_cli.styling import Style
from clients.reference_cli.words import set_language
from protocol.messages import ERROR_CODES
from protocol.words import FALLBACK, VOCABULARIES, catalogue, languages
from server.audit.bundle import build_bundle, report_in, write_bundle
from server.audit.report_events import Names, TableContext, table_sentence
from server.audit.report_words import speaking
from server.audit.signing import load_or_create_signing_key
from server.games import games

LANGUAGES = ("en", "nb", "sv")
TRANSLATED = ("nb", "sv")
GAMES = games()

# Texts that read the same in Norwegian or Swedish as in English: names (of the editions, the
# game, the program), symbols and units, and templates of placeholders only.
SAME_AS_ENGLISH = {
    ("tournament", "edition.single-digits"),
    ("tournament", "edition.double-digits"),
    ("tournament", "edition.variables"),
    ("tjugoett", "screen.title"),
    ("web", "page.title"),
    ("report", "text.r1"),  # R1, R2: Norwegian "runde" starts with R too
    ("report", "text.r2"),
    ("report", "text.num_protest"),  # "1 protest": the same word in all three
    ("challenge", "mark.protest"),
    ("challenge", "summary.protest"),
    ("challenge", "input.protest"),
    ("challenge", "analysis.col.rating"),  # "rating" in all three
    ("tournament", "standings.col.r1"),
    ("tournament", "standings.col.r2"),
    ("tournament", "standings.col.r3"),
    ("tournament", "standings.col.r4"),
    ("tournament", "standings.final"),  # Swedish "final"
    # the web pages (clients/web): names of the games, "rating", "protest", R1/R2 as above
    ("web", "analysis.gradeHeadings.rating"),
    ("web", "practice.columns.rating"),
    ("web", "board.games.challenge"),
    ("web", "board.games.deck40"),
    ("web", "board.games.tjugoett"),
    ("web", "deck40.title"),
    ("web", "tjugoett.title"),
    ("web", "page.protest"),
    ("web", "standings.headings.r1"),
    ("web", "standings.headings.r2"),
    # the proctor's `help` list: a command typed as it is, with nothing after it to translate
    *(("challenge", f"help.{command}.usage") for command in ("start", "place", "reveal")),
    *(("challenge", f"help.{command}.usage") for command in ("resume", "end", "help")),
}
UNITS_AND_FIELDS = re.compile(r"\{\w+\}|\bms\b|\bs\b")  # "{ms} ms", " (+{seconds} s)"
CAMEL = re.compile(r"\b[A-Z][a-z]+[A-Z][A-Za-z]*\b")  # CardWon, TableCreated
CODE = re.compile(r"\b[a-z0-9]+_[a-z0-9_]+\b")  # stack_used_up, stale_set
DICT_KEY = re.compile(r"['\"][a-z_]+['\"]\s*:")
SEAT_ID = re.compile(r"\b(s\d+|t\d\d|dl)\b")  # s1, t01: the protocol's handles, never words


def fields(text: str) -> set[str]:
    return {name for _, name, *_ in string.Formatter().parse(text) if name}


def faults(text: str) -> list[str]:
    """What a person should not read in `text`."""
    found = []
    for name, pattern in (
        ("event name", CAMEL),
        ("code", CODE),
        ("dict key", DICT_KEY),
        ("brace", re.compile(r"[{}]")),
        ("seat id", SEAT_ID),
    ):
        match = pattern.search(text)
        if match:
            found.append(f"{name} {match.group(0)!r}")
    return found


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    set_language("en")


# -- the catalogues ---------------------------------------------------------------------------


def test_the_three_languages_have_their_own_file():
    assert set(LANGUAGES) <= set(languages())
    for lang in LANGUAGES:
        assert catalogue(lang).lang == lang


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_english_key_is_in_each_language_and_nothing_else(lang):
    english, other = catalogue(FALLBACK), catalogue(lang)
    assert sorted(set(english.keys()) - set(other.keys())) == []
    assert sorted(set(other.keys()) - set(english.keys())) == []
    # the fixed vocabularies and one per game (a game found by its folder brings its own)
    assert {vocabulary for vocabulary, _key in english.keys()} <= set(VOCABULARIES) | set(GAMES)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_each_text_keeps_englishs_placeholders_and_plurals(lang):
    english, other = catalogue(FALLBACK), catalogue(lang)
    wrong = []
    for vocabulary, key in english.keys():
        source, target = english.entry(vocabulary, key), other.entry(vocabulary, key)
        assert source is not None and target is not None
        if source.plural != target.plural:
            wrong.append(f"{vocabulary}/{key}: plural in one language only")
        for form in target.forms:
            if fields(form) != fields(source.forms[0]):
                wrong.append(f"{vocabulary}/{key}: {sorted(fields(form))} in {form!r}")
    assert not wrong, wrong


@pytest.mark.parametrize("lang", TRANSLATED)
def test_no_english_is_left_but_names_and_symbols(lang):
    english, other = catalogue(FALLBACK), catalogue(lang)
    left = []
    for vocabulary, key in english.keys():
        source, target = english.entry(vocabulary, key), other.entry(vocabulary, key)
        assert source is not None and target is not None
        for mine, theirs in zip(target.forms, source.forms, strict=False):
            if mine != theirs or (vocabulary, key) in SAME_AS_ENGLISH:
                continue
            if re.search("[A-Za-z]", UNITS_AND_FIELDS.sub("", theirs)):
                left.append(f"{vocabulary}/{key}: {mine!r}")
    assert not left, left


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_event_type_and_refusal_code_is_worded_in_each_language(lang):
    words = catalogue(lang)
    missing = []

    def worded(vocabulary: str, prefix: str) -> bool:
        own = [key for v, key in words.keys() if v == vocabulary]
        return any(key == prefix or key.startswith(prefix + ".") for key in own)

    for name, game in GAMES.items():
        for kind in set(game.EVENT_TYPES) | {"TableCreated"}:
            if not worded(name, f"event.{kind}"):
                missing.append(f"{name}: event {kind}")
        for code in game.REFUSALS:
            if not (worded(name, f"refusal.{code}") or worded("common", f"refusal.{code}")):
                missing.append(f"{name}: refusal {code}")
    for kind in set(tournament.EVENT_TYPES) | {"TableCreated"}:
        if not worded("tournament", f"event.{kind}"):
            missing.append(f"tournament: event {kind}")
    for code in tournament.REFUSALS:
        if not worded("tournament", f"refusal.{code}"):
            missing.append(f"tournament: refusal {code}")
    for code in ERROR_CODES:
        if not worded("common", f"refusal.{code}"):
            missing.append(f"protocol: error {code}")
    assert not missing, missing


def test_plural_forms_are_right_in_each_language():
    said = {
        lang: [catalogue(lang).say("deck40", "event.RoundWon", n, who="Ada", set=3) for n in (1, 2)]
        for lang in LANGUAGES
    }
    assert said["en"] == ["Ada takes set 3: 1 point", "Ada takes set 3: 2 points"]
    assert said["nb"] == ["Ada vinner runde 3: 1 poeng", "Ada vinner runde 3: 2 poeng"]
    assert said["sv"] == ["Ada vinner omgång 3: 1 poäng", "Ada vinner omgång 3: 2 poäng"]
    assert catalogue("sv").say("tjugoett", "event.TableEnded", 2) == (
        "bordet är slut efter 2 omgångar"
    )


# -- the terminal -----------------------------------------------------------------------------


def rendered(name: str) -> list[str]:
    part = part_for(name)
    return [
        part.describe_event(kind, data, NAMES)
        for kind, datas in examples_of(GAMES[name]).items()
        for data in datas
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_event_of_every_game_reads_as_words_at_the_terminal(name, lang):
    set_language("en")
    english = rendered(name)
    set_language(lang)
    texts = rendered(name)
    bad = {text: faults(text) for text in texts if faults(text)}
    assert not bad, bad
    if lang != "en":  # every sentence said in the language, not in English
        same = [t for t, e in zip(texts, english, strict=True) if t == e and re.search("[a-z]", t)]
        assert not same, same


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_refusal_of_every_game_reads_as_words_at_the_terminal(name, lang):
    set_language(lang)
    game, part = GAMES[name], part_for(name)
    for code, (rule, _meaning) in game.REFUSALS.items():
        error = ServerRefused(code, f"some_command: seat s1 {code}", rule or None)
        text = refusal_words(error, part.words)
        assert not faults(text), (code, text)
        assert text != refusal_words(error, {}) or code in ERROR_CODES, (code, text)


# Two players of one name, a seat with no name: what every casual screen names
SHARED_NAMES = [
    {"seat": "s1", "name": "Ada"},
    {"seat": "s2", "name": "Ada"},
    {"seat": "s3", "name": ""},
]
CASUAL_TABLES = {
    "pocket": lambda: {**pocket_options(3), "seats": SHARED_NAMES},
    "deck40": lambda: {**deck40_options(3), "seats": SHARED_NAMES},
    "tjugoett": lambda: {**tjugoett_options(3, person_dealer=True), "seats": SHARED_NAMES},
    "practice": lambda: {"seats": SHARED_NAMES},
}
START = {
    "pocket": "start_game",
    "deck40": "start_game",
    "tjugoett": "start_round",
    "practice": None,
}


def casual_screen(name: str, viewer: str) -> list[str]:
    """Every line the terminal draws of a started casual table with SHARED_NAMES, as `viewer`
    sees it: the header words, the board, the side, the results, the replay's compact line
    and each seat's label."""
    game, part, plain = GAMES[name], part_for(name), Style(color=False)
    table = Table(game, CASUAL_TABLES[name]())
    if START[name]:
        table.do(START[name], DIRECTOR)
    view = game.view(table.state, player(viewer))
    return [
        *part.header_words(view),
        *part.board(view, plain, "player"),
        *part.side(view, viewer, plain, None),
        *part.results(view, plain),
        *part.compact(view, plain),
        *(part.seat_label(view, seat["seat"]) for seat in SHARED_NAMES),
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", sorted(CASUAL_TABLES))
def test_every_casual_screen_names_its_seats_at_the_terminal(name, lang):
    """The casual games' screens in each language: two Adas read `Ada` and `Ada (2)`, a seat
    with no name the language's `Player 3`; no seat id, event name or code on any line."""
    set_language(lang)
    lines = casual_screen(name, "s2")
    bad = {line: faults(line) for line in lines if faults(line)}
    assert not bad, bad
    labels = lines[-3:]
    unnamed = catalogue(lang).say("common", "seat.unnamed", number=3)
    assert labels == ["Ada", "Ada (2)", unnamed], labels


# -- the officials' report --------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_challenge_event_reads_as_words_in_the_report(lang):
    names = Names(dict(NAMES))
    with speaking(lang):
        texts = [
            table_sentence(kind, data, TableContext(names, flag_limit=3, revealed_at=0))
            for kind, datas in EXAMPLES["challenge"].items()
            for data in datas
        ]
    bad = {text: faults(text) for text in texts if faults(text)}
    assert not bad, bad


@pytest.fixture(scope="module")
def bundle_dir(tmp_path_factory) -> Path:
    source = played()
    directory = tmp_path_factory.mktemp("words-report")
    files = build_bundle(source.stored(), TID, load_or_create_signing_key(directory / "key"))
    write_bundle(files, directory / "bundle")
    return directory / "bundle"


def page_text(html: str) -> str:
    body = re.sub(r"<(style|script)\b.*?</\1>", " ", html, flags=re.S)
    body = re.sub(r'<span class="id">.*?</span>', " ", body)  # ids shown beside the names
    body = re.sub(r"<code>.*?</code>", " ", body)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body))


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_report_renders_in_each_language_from_the_same_bundle(bundle_dir, lang):
    english = (bundle_dir / "report.html").read_text(encoding="utf-8")
    html = report_in(bundle_dir, lang)
    assert f'<html lang="{lang}">' in html and '<html lang="en">' in english
    text = page_text(html)
    assert not faults(re.sub(r"\b[0-9a-f]{64}\b|r\d\.s\d\.t\d+|[\w.-]+\.(json|jsonl)", "", text))
    heading = {"nb": "Dommerrapport", "sv": "Domarrapport"}[lang]
    assert heading in text and "Officials' report" not in text
    assert {"nb": "14. mars 2026", "sv": "14 mars 2026"}[lang] in text  # the locale's date
    assert re.search(r"\b\d,\d{3} s\b", text)  # times from the reveal with a decimal comma
    for english_words in ("Standings", "Protests and rulings", "won card", "Round over"):
        assert english_words not in text, english_words
    assert report_in(bundle_dir, "en") == english  # the bundle's own copy, byte for byte
