"""Every word a person reads, in every language: gettext catalogues read with Babel.

What it keeps: `catalogue(lang)`, one language's words (cached), whose `say(vocabulary, key,
n=None, **values)` fills one entry in; `languages()`, every language present; and
`pick_language`, the language a person asked for (`--lang`, the browser's, `LANGUAGE` or
`LANG`) among those present. `as_json(lang)` is the catalogue as the web pages load it
(`GET /words/<lang>.json`, server/net/words_http.py).

The catalogues are the files `<lang>.po` beside this module (docs/translating.md): one
entry per word, `msgctxt` its vocabulary (`common`, a game's name, `tournament`, `report`,
`web`), `msgid` its key (`event.CardWon`, `refusal.stale_set`), `msgstr` the text with
Python `{placeholder}` fields; a plural entry has `msgid_plural` (the same key) and one
`msgstr[i]` per plural form of the language, chosen by its `Plural-Forms` header with the
count `{n}`. A new language is one new file: nothing here names a language but English,
the fallback for a key a catalogue lacks (or leaves empty) and for a language not present.

Why here, in protocol/: the server (its words page, the officials' report) and the
terminal client read the same words, and protocol/ is the one package both may import.
The protocol itself carries codes and data, never sentences; clients word them.

`T24_WORDS_DIR`, when set, names another folder of catalogues (a translator's working copy,
a test's toy language); it replaces this folder.
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

FALLBACK = "en"
# The vocabularies of the games shipped today and of the rest; a game added by its folder
# brings its own (`msgctxt "<game>"`, docs/architecture.md "How to add a game").
VOCABULARIES = (
    "common",
    "challenge",
    "pocket",
    "deck40",
    "tjugoett",
    "practice",
    "tournament",
    "report",
    "web",
)
LANGUAGE_NAME_KEY = "language.name"  # common/language.name: the language's own name for itself

# Languages spoken under another code by the environment (`LANG=no_NO`): Norwegian without
# its written form is read as Bokmål.
ALIASES = {"no": "nb", "nn": "nb"}


class WordsError(Exception):
    """A catalogue that cannot be read (a translator's syntax error): named with its file."""


@dataclass(frozen=True)
class Entry:
    """One word: its forms (one, or one per plural form of the language)."""

    forms: tuple[str, ...]
    plural: bool


def words_dir() -> Path:
    """The folder of the catalogues: `T24_WORDS_DIR`, else the installed package's own."""
    return Path(_folder())


def _folder() -> str:
    """`words_dir` as a string, what the caches are keyed by; the override is read on every
    call (a test or an operator may set it after start), the package's folder found once."""
    override = os.environ.get("T24_WORDS_DIR")
    return str(Path(override)) if override else _package_folder()


@lru_cache(maxsize=1)
def _package_folder() -> str:
    """The installed package's folder of catalogues. Cached: `resources.files` costs ~10 µs
    and every `say` asks (the client model's property test asked 114,000 times, a quarter of
    its CPU, 2026-12-03); a package does not move while its process runs."""
    return str(resources.files("protocol.words"))


def languages() -> list[str]:
    """Every language with a catalogue file, English first (a new `xx.po` is a new language)."""
    return list(_languages(_folder()))


@lru_cache(maxsize=32)
def _languages(folder: str) -> tuple[str, ...]:
    """The folder's catalogues, read once per process (every `say` asks)."""
    found = sorted(path.stem for path in Path(folder).glob("*.po"))
    return tuple(sorted(found, key=lambda code: (code != FALLBACK, code)))


def _primary(tag: str) -> tuple[str, str]:
    """`nb_NO.UTF-8` -> (`nb_no`, `nb`); `sv-SE` -> (`sv_se`, `sv`)."""
    tag = tag.split(".")[0].split("@")[0].replace("-", "_").lower()
    return tag, tag.split("_")[0]


def pick_language(requested: str | None, env: Mapping[str, str] | None = None) -> str:
    """The language to speak: `requested` when present (a full tag or its primary part),
    else the environment's `LANGUAGE` (a `:` list, as gettext reads it), `LC_ALL`,
    `LC_MESSAGES`, `LANG`, else English."""
    present = set(languages())
    env = os.environ if env is None else env
    candidates: list[str] = []
    if requested:
        candidates.append(requested)
    candidates += [part for part in env.get("LANGUAGE", "").split(":") if part]
    candidates += [env.get(name, "") for name in ("LC_ALL", "LC_MESSAGES", "LANG")]
    for candidate in candidates:
        if not candidate or candidate in ("C", "POSIX"):
            continue
        full, primary = _primary(candidate)
        for code in (full, primary, ALIASES.get(primary, "")):
            if code in present:
                return code
    return FALLBACK


def _read(path: Path) -> tuple[dict[tuple[str, str], Entry], int, str]:
    # Babel is imported by the first catalogue read, not by every process that imports the
    # words (a server's start, `t24 --help`): issue 29
    from babel.messages.pofile import read_po

    try:
        with path.open("rb") as handle:
            catalog = read_po(handle, abort_invalid=True)
    except Exception as exc:  # Babel raises several kinds for a broken file
        raise WordsError(f"{path}: {exc}") from exc
    entries: dict[tuple[str, str], Entry] = {}
    for message in catalog:
        if not message.id:
            continue  # the header
        key = str(message.id[0] if isinstance(message.id, tuple) else message.id)
        raw = message.string if isinstance(message.string, tuple) else (message.string,)
        strings = tuple(str(text or "") for text in raw)
        if not any(strings):
            continue  # untranslated: English speaks for it
        entries[(str(message.context or ""), key)] = Entry(strings, isinstance(message.id, tuple))
    return entries, catalog.num_plurals, catalog.plural_expr


def _plural_rule(expr: str) -> Callable[[int], int]:
    try:
        rule: Callable[[int], int] = gettext.c2py(expr)
    except ValueError:
        rule = gettext.c2py("(n != 1)")
    return rule


@dataclass
class Catalogue:
    """One language's words, with English behind it for what it lacks."""

    lang: str
    entries: dict[tuple[str, str], Entry]
    plural_rule: Callable[[int], int]
    fallback: Catalogue | None = None
    name: str = ""
    categories: dict[str, int] = field(default_factory=dict)

    def has(self, vocabulary: str, key: str) -> bool:
        """Whether the key is worded (here or in English)."""
        if (vocabulary, key) in self.entries:
            return True
        return self.fallback is not None and self.fallback.has(vocabulary, key)

    def keys(self) -> list[tuple[str, str]]:
        """Every (vocabulary, key) of this catalogue itself (not its fallback's)."""
        return list(self.entries)

    def entry(self, vocabulary: str, key: str) -> Entry | None:
        return self.entries.get((vocabulary, key))

    def say(self, vocabulary: str, key: str, n: int | None = None, **values: Any) -> str:
        """The entry `key` of `vocabulary`, its placeholders filled from `values` (and `{n}`
        from `n`, which also picks a plural entry's form). A key neither this language nor
        English words is a bug of the catalogue: KeyError (the tests render every event
        and refusal of every game). A translation that cannot be filled (a placeholder
        mistyped) gives way to English rather than failing before a person."""
        entry = self.entries.get((vocabulary, key))
        if entry is None:
            if self.fallback is None:
                raise KeyError(f"{vocabulary}/{key}")
            return self.fallback.say(vocabulary, key, n, **values)
        text = entry.forms[0]
        if entry.plural and n is not None:
            index = int(self.plural_rule(int(n)))
            text = entry.forms[min(index, len(entry.forms) - 1)]
        try:
            return text.format(n=n, **values)
        except (KeyError, IndexError, ValueError, AttributeError):
            if self.fallback is None:
                raise
            return self.fallback.say(vocabulary, key, n, **values)

    def as_json(self) -> dict[str, Any]:
        """The catalogue as the web pages load it: every key (English where this language
        lacks it) as `"<vocabulary>/<key>"`; a plural entry as a map from CLDR plural
        category (`one`, `other`, ...) to its text, for the browser's `Intl.PluralRules`."""
        words: dict[str, Any] = {}
        if self.fallback is not None:
            words.update(self.fallback.as_json()["words"])
        for (vocabulary, key), entry in self.entries.items():
            name = f"{vocabulary}/{key}"
            if not entry.plural:
                words[name] = entry.forms[0]
                continue
            words[name] = {
                category: entry.forms[min(index, len(entry.forms) - 1)]
                for category, index in self.categories.items()
            }
        return {"lang": self.lang, "languages": language_names(), "words": words}


def _categories(lang: str, rule: Callable[[int], int], forms: int) -> dict[str, int]:
    """Which PO plural form each CLDR plural category of the language takes: the form the
    PO rule gives the first number (0..199) of that category. A language Babel does not
    know (a toy) numbers its categories `one` (form 0) and `other` (the last form)."""
    from babel import Locale, UnknownLocaleError  # where used, as in `_read` (issue 29)

    try:
        locale = Locale.parse(lang)
    except (UnknownLocaleError, ValueError):
        return {"one": 0, "other": max(forms - 1, 0)}
    categories: dict[str, int] = {}
    for number in range(200):
        category = locale.plural_form(number)
        categories.setdefault(category, int(rule(number)))
    categories.setdefault("other", max(forms - 1, 0))
    return categories


@lru_cache(maxsize=32)
def _load(folder: str, lang: str) -> Catalogue:
    path = Path(folder) / f"{lang}.po"
    fallback = None if lang == FALLBACK else _load(folder, FALLBACK)
    entries, forms, expr = _read(path)
    rule = _plural_rule(expr)
    found = entries.get(("common", LANGUAGE_NAME_KEY))
    name = found.forms[0] if found else lang
    return Catalogue(lang, entries, rule, fallback, name, _categories(lang, rule, forms))


def catalogue(lang: str | None) -> Catalogue:
    """The catalogue of `lang` (English for a language not present), read once per folder."""
    folder = _folder()
    code = lang if lang in _languages(folder) else FALLBACK
    return _load(folder, code or FALLBACK)


def language_names() -> dict[str, str]:
    """Every language present and its own name for itself (`{"nb": "Norsk bokmål"}`)."""
    return {code: _load(_folder(), code).name for code in languages()}


def say(lang: str | None, vocabulary: str, key: str, n: int | None = None, **values: Any) -> str:
    """`catalogue(lang).say(...)`: one word in one language."""
    return catalogue(lang).say(vocabulary, key, n, **values)
