"""The sentences a person reads at the terminal: readers of the shared catalogue.

What it keeps: `Vocabulary`, one vocabulary of the catalogue (protocol/words: `common`, a
game's, `tournament`) seen as a table (key -> a sentence with `{placeholder}` fields, or a
`Plural`), in the language the person chose (`set_language`: `t24 --lang`, `LANG`, or the
table's own language); `say` (one entry filled in), the words of the protocol's own error
codes (`PROTOCOL`, any game) and of the answer verdicts the puzzle judge gives
(`ANSWER_REASONS`, every game that judges a typed answer), and `refusal_sentence` (a refused
request in words).

Why a catalogue: the terminal, the web pages, `t24 replay` and the officials' report word
the same event with the same key (protocol/words/<lang>.po, docs/translating.md), in every
language. The keys:

    event.<EventType>            one sentence per event type (`event.CardWon`)
    event.<EventType>.<variant>  when one event reads two ways (`event.AnswerJudged.wrong`)
    refusal.<code>               a refusal code of the game (`refusal.stale_set`)
    reason.<code>                a reason, cause or outcome code inside an event
    screen.<name>                a line or label of the game's screen

Nothing here knows a game: the game's describe functions pick the key and compute the
placeholders (names, never seat ids; cards as `7♥`); `say` only fills them in. A plural
entry's count is `{n}` (callers may still pass it as `count`).
"""

from __future__ import annotations

import errno
import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from protocol.words import FALLBACK, catalogue, pick_language
from protocol.words.seat_names import seat_names as _seat_names

_LANGUAGE = {"chosen": FALLBACK, "explicit": False}


def set_language(lang: str | None, explicit: bool = True) -> str:
    """Speak `lang` from now on (`pick_language`: a language present, else the environment's,
    else English); `explicit` when the person chose it (`--lang`, or an environment naming a
    language), which a table's own language (`table_language`) never overrides."""
    _LANGUAGE["chosen"] = pick_language(lang)
    _LANGUAGE["explicit"] = bool(explicit)
    return str(_LANGUAGE["chosen"])


def environment_language() -> str | None:
    """The language the environment names (`LANGUAGE`, `LC_ALL`, `LC_MESSAGES`, `LANG`) when
    a catalogue speaks it, else None (`C`, `POSIX`, unset, or a language not present)."""
    names = {
        k: v for k, v in os.environ.items() if k in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
    }
    picked = pick_language(None, names)
    if picked != FALLBACK:
        return picked
    spoken = [v for v in names.values() if v and v not in ("C", "POSIX") and not v.startswith("C.")]
    return FALLBACK if any(v.lower().startswith("en") for v in spoken) else None


def table_language(lang: str | None) -> None:
    """A table's own language (its `lang` option): spoken unless the person chose one."""
    if lang and not _LANGUAGE["explicit"]:
        _LANGUAGE["chosen"] = pick_language(lang, {})


def language() -> str:
    """The language the terminal speaks now."""
    return str(_LANGUAGE["chosen"])


@dataclass(frozen=True)
class Plural:
    """Two forms of one sentence: `one` when the placeholder `n` is 1, else `other` (an
    ngettext pair, as a plural entry of the catalogue reads in English)."""

    one: str
    other: str
    n: str = "n"


Entry = str | Plural


class Vocabulary(Mapping[str, Entry]):
    """One vocabulary of the catalogue as a table, in the language spoken now."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and catalogue(language()).has(self.name, key)

    def __getitem__(self, key: str) -> Entry:
        spoken = catalogue(language())
        for source in (spoken, spoken.fallback):
            entry = source.entry(self.name, key) if source is not None else None
            if entry is not None:
                if entry.plural:
                    return Plural(entry.forms[0], entry.forms[-1])
                return entry.forms[0]
        raise KeyError(f"{self.name}/{key}")

    def __iter__(self) -> Iterator[str]:
        return iter(
            [key for vocabulary, key in catalogue(FALLBACK).keys() if vocabulary == self.name]
        )

    def __len__(self) -> int:
        return len(list(iter(self)))

    def say(self, key: str, n: int | None = None, **fields: Any) -> str:
        return catalogue(language()).say(self.name, key, n, **fields)


Table = Mapping[str, Entry]
COMMON = Vocabulary("common")


def say(table: Table, key: str, **fields: Any) -> str:
    """The entry `key` of `table`, its placeholders filled from `fields` (a plural entry
    picks its form by `fields["n"]`, or `fields["count"]`). A missing key is a bug of the
    catalogue: KeyError, found by the tests that render every event and refusal."""
    n = fields.pop("n", fields.get("count"))
    if isinstance(table, Vocabulary):
        return table.say(key, n, **fields)
    entry = table[key]
    if isinstance(entry, Plural):
        entry = entry.one if n == 1 else entry.other
    return entry.format(n=n, **fields)


def seat_names(seats: Iterable[Mapping[str, Any]]) -> dict[str, str]:
    """Seat id -> what people call it, in the terminal's language: the name, `Ada (2)` for
    a second Ada, `Player 3` for a seat with no name (protocol/words/seat_names.py, the rule
    the pages and the report follow); never the id."""
    return _seat_names(seats, catalogue(language()))


def view_seat_names(view: Mapping[str, Any]) -> dict[str, str]:
    """`seat_names` of the people a view seats: its `seats`, then a Tjugoett table's person
    dealer (`view["dealer"]` with a seat), named among them (as js/words.js `viewSeats`)."""
    seats = list(view.get("seats", []))
    dealer = view.get("dealer")
    known = {None, *(seat.get("seat") for seat in seats)}
    if isinstance(dealer, Mapping) and dealer.get("seat") not in known:
        seats.append(dealer)
    return seat_names(seats)


def seat_name(view: Mapping[str, Any], seat: Any) -> str:
    """One seat of `view` as people call it (`view_seat_names`)."""
    return name_in(view_seat_names(view), seat)


def name_in(names: Mapping[str, str], seat: Any) -> str:
    """A seat by its entry in `names` (a `seat_names` map); a seat missing there reads as
    "an unknown player", never as its id."""
    return names.get(str(seat)) or COMMON.say("seat.unknown")


def names_list(names: list[str]) -> str:
    """`Ada`, `Ada and Bo`, `Ada, Bo and Cy`; `nobody` for none."""
    if not names:
        return COMMON.say("list.nobody")
    if len(names) == 1:
        return names[0]
    return COMMON.say("list.and", first=", ".join(names[:-1]), last=names[-1])


def either(choices: list[str]) -> str:
    """`proctor`, `proctor or director`, `a, b or c`: one of these."""
    if len(choices) < 2:
        return "".join(choices)
    return COMMON.say("list.or", first=", ".join(choices[:-1]), last=choices[-1])


# The protocol's error codes (docs/protocol.md, "Error codes"), for a refusal of any game, and
# the judge's verdicts on a typed answer (docs/puzzles.md, "Refusal reasons"): `refusal.<code>`
# and `reason.<code>` of the `common` vocabulary.
PROTOCOL: Table = COMMON
ANSWER_REASONS: Table = COMMON


def role_words(role: str) -> str:
    """A role as a person reads it (`role.<role>` of `common`: "proctor", "tilsynsvakt"), or
    the role's own name for one the catalogue does not know."""
    key = f"role.{role}"
    return COMMON.say(key) if key in COMMON else role


def decimal(value: float, digits: int = 1) -> str:
    """A number with `digits` decimals in the language's own form ("4.5", "4,5")."""
    # Babel's numbers where used: a `t24` process that prints none does without (issue 29)
    from babel import UnknownLocaleError
    from babel.numbers import format_decimal

    pattern = "0." + "0" * digits if digits else "0"
    try:
        return str(format_decimal(value, format=pattern, locale=language()))
    except (UnknownLocaleError, ValueError):  # a language Babel does not know (a toy)
        return f"{value:.{digits}f}"


# The operating system's errors a person meets (a file not there, not allowed): its own text
# is in the language of the C library, English on most machines.
OS_ERRORS = {
    errno.ENOENT: "os.not_found",
    errno.EACCES: "os.not_allowed",
    errno.EISDIR: "os.is_directory",
}


def os_error_words(error: OSError) -> str:
    """Why a file could not be read or written, in words (`os.<cause>`), else the system's."""
    key = OS_ERRORS.get(error.errno or 0)
    return COMMON.say(key) if key else str(error.strerror or error)


def status_words(status: str) -> str:
    """The connection's state in words: a state the link reports by its code (`connecting`,
    `authenticating`, `connected`) as `status.<code>` says it, else the link's own words."""
    key = f"status.{status}"
    return COMMON.say(key) if key in COMMON else status


def error_line(command: str, error: object) -> str:
    """A command's one-line error for stderr: `t24 admin create-table: error: ...` (exit 2)."""
    return COMMON.say("cli.error", command=command, error=error)


def command_words(table: Table, name: str) -> str:
    """A game command as a person reads it: the game's `command.<name>` sentence, else the
    name in words (`fix_solution` -> `fix solution`), never the code."""
    key = f"command.{name}"
    return say(table, key) if key in table else name.replace("_", " ")


def unknown_event(kind: str) -> str:
    """An event this client has no words for (a newer server's): said so, never by its name
    (docs/protocol.md: clients ignore what they do not know)."""
    return COMMON.say("event.unknown")


def answer_reason(reason: str, message: str = "") -> str:
    """Why an answer is wrong, in words: the judge's reason code, else its message."""
    key = f"reason.{reason}"
    return say(COMMON, key) if key in COMMON else (message or COMMON.say("reason.unknown"))


def refusal_sentence(table: Table, code: str, message: str = "", rule: str | None = None) -> str:
    """A refused request in words: the game's sentence for `code`, else the protocol's, else
    the server's own message; the rule it applies in brackets (`(R-POCKET-3)`)."""
    key = f"refusal.{code}"
    if key in table:
        text = say(table, key)
    elif key in PROTOCOL:
        text = say(PROTOCOL, key)
    else:
        text = message or COMMON.say("refusal.unknown")
    return f"{text} ({rule})" if rule and rule not in text else text
