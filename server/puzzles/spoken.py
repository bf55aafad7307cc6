"""Patterns and steps said in words: "3 times 8", "15 plus 9", "8 divided by 3 equals 8/3".

What this module keeps (R-PUZ-3, R-PLAY-5): the one table of the words a tournament answer
may use for an operator or for "equals", per language, and `words_to_symbols`, which turns
them into the symbols the step reader knows (`notation.parse_pattern`, `notation.parse_step`).
The seed words its patterns this way ("3 times 8" or "15 plus 9") and a student fixes the
solution by saying "equals, makes or is 24" (R-PLAY-5).

Why a table per language: the words of every language in `OPERATOR_WORDS` and `RESULT_WORDS`
are read at once (no table option chooses one), so adding a language is adding its rows
here; a word must never mean two things (`WordTable` refuses a table where one does).

How: each word or phrase, as a whole word in any letter case (no letter just before or after
it; digits may touch it: "3times8"), with any whitespace inside a
phrase (`divided  by`), becomes its symbol followed by spaces up to the word's own length.
Keeping the length keeps every position a refusal message quotes pointing at the text as
said, and keeps the 200-character limit meaning the same. Division becomes `÷`, never `/`:
only a slash can be a fraction bar, so "8 divided by 1/3" reads exactly as `8 ÷ 1/3`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

# language -> word or phrase -> the operator symbol it stands for (notation.OPERATORS).
OPERATOR_WORDS: Mapping[str, Mapping[str, str]] = {
    "en": {
        "plus": "+",
        "minus": "−",
        "times": "×",
        "multiplied by": "×",
        "divided by": "÷",
    },
    "nb": {  # Norwegian Bokmål: "3 ganger 8", "15 pluss 9", "24 delt på 1"
        "pluss": "+",
        "minus": "−",
        "ganger": "×",
        "gange": "×",
        "multiplisert med": "×",
        "delt på": "÷",
        "dividert med": "÷",
    },
    "sv": {  # Swedish: "3 gånger 8", "15 plus 9", "24 delat med 1"
        "plus": "+",
        "minus": "−",
        "gånger": "×",
        "multiplicerat med": "×",
        "delat med": "÷",
        "dividerat med": "÷",
    },
}
# language -> the words that say a step's result follows: "equals, makes or is 24" (R-PLAY-5).
RESULT_WORDS: Mapping[str, tuple[str, ...]] = {
    "en": ("equals", "makes", "is"),
    "nb": ("er lik", "blir", "er"),
    "sv": ("är lika med", "blir", "är"),
}


class WordTable:
    """The words of some languages, read into symbols: `WORDS` is the one the judge uses;
    another table (a language being added, a test) is built the same way."""

    def __init__(
        self,
        operator_words: Mapping[str, Mapping[str, str]],
        result_words: Mapping[str, Sequence[str]],
    ) -> None:
        symbol_of: dict[str, str] = {}
        meanings = [
            (word, symbol) for words in operator_words.values() for word, symbol in words.items()
        ] + [(word, "=") for words in result_words.values() for word in words]
        for word, symbol in meanings:
            key = " ".join(word.lower().split())
            if symbol_of.setdefault(key, symbol) != symbol:
                # a word that means two things would make one text read two ways
                raise ValueError(f"{word!r} means both {symbol_of[key]!r} and {symbol!r}")
        self.symbol_of = symbol_of
        # In reverse order every phrase comes before its own prefixes ("multiplied by" before
        # "multiplied"), so a phrase is read whole; a phrase's spaces match any whitespace;
        # no letter may touch a word ("this" holds no "is"), a digit may ("3times8").
        alternatives = "|".join(
            r"\s+".join(map(re.escape, word.split())) for word in sorted(symbol_of, reverse=True)
        )
        self.pattern = re.compile(rf"(?<![^\W\d_])({alternatives})(?![^\W\d_])", re.IGNORECASE)

    def _symbol(self, match: re.Match[str]) -> str:
        said = match.group(1)
        symbol = self.symbol_of[" ".join(said.lower().split())]
        return symbol + " " * (len(said) - len(symbol))

    def to_symbols(self, text: str) -> str:
        """`text` with every operator or result word replaced by its symbol, padded to the
        word's length ("3 times 8" -> "3 ×     8")."""
        return self.pattern.sub(self._symbol, text)


WORDS = WordTable(OPERATOR_WORDS, RESULT_WORDS)


def words_to_symbols(text: str) -> str:
    """`text` read with the judge's word table (`WORDS`): "3 times 8" -> "3 ×     8"."""
    return WORDS.to_symbols(text)
