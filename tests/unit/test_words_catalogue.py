"""The catalogue format and its reader (protocol/words, docs/translating.md): gettext PO files
read with Babel, one per language, English behind what a language lacks."""

from __future__ import annotations

import shutil

import pytest

from protocol import words
from protocol.words import catalogue, languages, pick_language

TOY = """msgid ""
msgstr ""
"Language: xx\\n"
"Plural-Forms: nplurals=3; plural=(n==1 ? 0 : n==2 ? 1 : 2);\\n"
"Content-Type: text/plain; charset=utf-8\\n"

msgctxt "common"
msgid "language.name"
msgstr "Toy"

msgctxt "deck40"
msgid "refusal.stale_set"
msgstr "TOY stale {n}"

msgctxt "deck40"
msgid "event.TableCreated"
msgid_plural "event.TableCreated"
msgstr[0] "toy one {n}: {names}"
msgstr[1] "toy two {n}: {names}"
msgstr[2] "toy many {n}: {names}"

msgctxt "deck40"
msgid "screen.title"
msgstr "toy {nonsense}"
"""


@pytest.fixture
def toy_dir(tmp_path, monkeypatch):
    """A copy of the catalogues with a fourth language, `xx`, added as a translator would."""
    folder = tmp_path / "words"
    shutil.copytree(words.words_dir(), folder, ignore=shutil.ignore_patterns("*.py", "__*"))
    (folder / "xx.po").write_text(TOY, encoding="utf-8")
    monkeypatch.setenv("T24_WORDS_DIR", str(folder))
    return folder


def test_the_three_languages_are_there_english_first():
    assert languages()[:1] == ["en"]
    assert {"en", "nb", "sv"} <= set(languages())
    assert words.language_names()["nb"] == "Norsk bokmål"
    assert words.language_names()["sv"] == "Svenska"


def test_plural_forms_follow_the_language():
    en = catalogue("en")
    assert en.say("deck40", "event.TableCreated", 1, names="Ada") == (
        "a deck40 table for 1 player: Ada"
    )
    assert en.say("deck40", "event.TableCreated", 2, names="Ada and Bo").endswith(
        "2 players: Ada and Bo"
    )


def test_a_missing_key_and_an_unknown_language_fall_back_to_english(toy_dir):
    toy = catalogue("xx")
    assert toy.say("deck40", "refusal.stale_set", 5) == "TOY stale 5"
    # not in the toy catalogue: English speaks for it
    assert toy.say("deck40", "refusal.game_over") == catalogue("en").say(
        "deck40", "refusal.game_over"
    )
    assert catalogue("zz").lang == "en"
    # a translation that names a placeholder the caller does not give: English instead
    assert toy.say("deck40", "screen.title") == catalogue("en").say("deck40", "screen.title")
    with pytest.raises(KeyError):
        toy.say("deck40", "no.such.key")


def test_a_toy_language_is_one_file(toy_dir):
    assert "xx" in languages()
    toy = catalogue("xx")
    assert [toy.say("deck40", "event.TableCreated", n, names="A") for n in (1, 2, 5)] == [
        "toy one 1: A",
        "toy two 2: A",
        "toy many 5: A",
    ]
    assert words.language_names()["xx"] == "Toy"
    assert pick_language("xx", {}) == "xx"


def test_pick_language_reads_the_request_then_the_environment():
    assert pick_language("sv", {"LANG": "nb_NO.UTF-8"}) == "sv"
    assert pick_language(None, {"LANG": "nb_NO.UTF-8"}) == "nb"
    assert pick_language(None, {"LANGUAGE": "fr:sv_SE", "LANG": "nb_NO.UTF-8"}) == "sv"
    assert pick_language(None, {"LANG": "no_NO.UTF-8"}) == "nb"  # Norwegian: Bokmål
    assert pick_language("nb-NO", {}) == "nb"  # a browser's tag
    assert pick_language("de", {"LANG": "C"}) == "en"
    assert pick_language(None, {}) == "en"


def test_as_json_keys_plurals_by_cldr_category():
    data = catalogue("en").as_json()
    assert data["lang"] == "en"
    assert data["languages"]["nb"] == "Norsk bokmål"
    assert data["words"]["deck40/refusal.stale_set"].startswith("not judged")
    assert data["words"]["deck40/event.TableCreated"] == {
        "one": "a deck40 table for {n} player: {names}",
        "other": "a deck40 table for {n} players: {names}",
    }


def test_a_broken_catalogue_is_named(toy_dir):
    (toy_dir / "xx.po").write_text('msgid "a"\nmsgstr "x"\nbogus line\n', encoding="utf-8")
    words._load.cache_clear()
    with pytest.raises(words.WordsError, match="xx.po"):
        catalogue("xx")
