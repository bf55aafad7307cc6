"""The words of the officials' report: readers of the shared catalogue, in one language.

What it keeps: `CHALLENGE` (the 24 Challenge table's events in the report, the `report`
vocabulary's `challenge.*` keys) and `TOURNAMENT` (the `tournament` vocabulary: its events
as `event.<Type>`, its codes, the rules cited), each a mapping from the key the report passes
(`CardWon`, `SolutionJudged.wrong`, `flag_cause.no_pattern`, `rule.R-PLAY-4`) to its text;
`say` fills one in, in the language of the report being rendered (`speaking`).

Why a catalogue (protocol/words/<lang>.po, docs/translating.md): the report renders in
English, Norwegian or Swedish from the same bundle, and its words sit beside the terminal's
and the pages' in one file per language.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import date

from babel import UnknownLocaleError
from babel.dates import format_date
from babel.numbers import format_decimal

from protocol.words import FALLBACK, catalogue

_LANG: ContextVar[str] = ContextVar("report_lang", default=FALLBACK)


@contextmanager
def speaking(lang: str) -> Iterator[None]:
    """Word the report in `lang` within the block (English for a language not present)."""
    token = _LANG.set(lang)
    try:
        yield
    finally:
        _LANG.reset(token)


def language() -> str:
    """The language the report is being worded in."""
    return _LANG.get()


class Words(Mapping[str, "str | tuple[str, str]"]):
    """One part of the catalogue as the report's table: `key` -> its English-shaped entry."""

    def __init__(self, vocabulary: str, prefix: str = "", events: bool = False) -> None:
        self.vocabulary, self.prefix, self.events = vocabulary, prefix, events

    def key(self, key: str) -> str:
        """The catalogue key of the report's key (`CardWon` -> `challenge.CardWon`, a
        tournament event `RoundSeated` -> `event.RoundSeated`)."""
        if self.events and key[:1].isupper():
            return f"event.{key}"
        return self.prefix + key

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and catalogue(language()).has(self.vocabulary, self.key(key))

    def __getitem__(self, key: str) -> str | tuple[str, str]:
        entry = catalogue(FALLBACK).entry(self.vocabulary, self.key(key))
        if entry is None:
            raise KeyError(key)
        return (entry.forms[0], entry.forms[-1]) if entry.plural else entry.forms[0]

    def __iter__(self) -> Iterator[str]:
        for vocabulary, key in catalogue(FALLBACK).keys():
            if vocabulary != self.vocabulary:
                continue
            if self.events and key.startswith("event."):
                yield key[len("event.") :]
            elif key.startswith(self.prefix) and not (self.events and key.startswith("command.")):
                yield key[len(self.prefix) :]

    def __len__(self) -> int:
        return sum(1 for _ in self)


CHALLENGE = Words("report", prefix="challenge.")  # what the report adds to the game's words
CHALLENGE_EVENTS = Words("challenge")  # the game's own: events, codes, roles (the terminal's)
COMMON = Words("common")  # the judge's reasons, shared by every game
TOURNAMENT = Words("tournament", events=True)


def long_date(iso: str) -> str:
    """A tournament's date (`2026-03-14`) in the report's locale: `March 14, 2026`,
    `14. mars 2026`, `14 mars 2026`; as written when it is not a date."""
    try:
        day = date.fromisoformat(iso)
    except (TypeError, ValueError):
        return str(iso)
    try:
        return format_date(day, format="long", locale=language())
    except (ValueError, LookupError, UnknownLocaleError):  # a language Babel lacks (a toy)
        return format_date(day, format="long", locale=FALLBACK)


def decimal(number: float, pattern: str) -> str:
    """A number in the report's locale (`1,234` in Norwegian and Swedish, `1.234` in English)."""
    try:
        return format_decimal(number, format=pattern, locale=language())
    except (ValueError, LookupError, UnknownLocaleError):  # a language Babel lacks (a toy)
        return format_decimal(number, format=pattern, locale=FALLBACK)


def say(words: Words, key: str, n: int | None = None, **values: object) -> str:
    """The entry `key` of `words` with its placeholders filled, in the report's language; a
    plural entry takes the language's form for the count `n`. Raises KeyError for a key the
    catalogue lacks: a missing word is a bug, not a gap to fill with a code."""
    if key not in words:
        raise KeyError(key)
    if n is None and isinstance(words[key], tuple):
        raise ValueError(f"{key}: a plural entry needs its count n")
    return catalogue(language()).say(words.vocabulary, words.key(key), n, **values)
