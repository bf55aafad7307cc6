"""The proctor's command line in `t24 proctor`: one typed line -> one table command.

The proctor runs the table (R-PLAY-1: place, then reveal), records what students do at a
physical table (`mode: proctored`, R-PLAY-2: touches, patterns, steps, fixes, stumped),
issues flags with a cause (R-FLAG-1), rules on who touched first (R-PLAY-2), pauses and
resumes, and ends the round. `PROCTOR_COMMANDS` is the whole language, as data; `parse_line`
turns a line into a `Send` (or a `Notice` saying what is wrong, in words).

A seat is named by its id (`s2`), its number at the table (`2`) or its student's name. The
answer commands (pattern, steps, fix) default to the seat that holds the card when the seat
is left out (`pattern 3x8` records the pattern for the toucher); there a seat is named by id
or name only, since `pattern 3 x 8` starts with a number of the pattern.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from clients.reference_cli.games.challenge.hearing import (
    CONTINUED,
    HEARING_HELP,
    HearingLineError,
    hearing_line,
)
from clients.reference_cli.games.challenge.words import WORDS, help_text, help_usage
from clients.reference_cli.keyboard import (
    CTRL_D,
    ENTER,
    ESC,
    Ask,
    Effect,
    Notice,
    Quit,
    Send,
    edit_line,
)
from clients.reference_cli.words import say, view_seat_names

FLAG_CAUSES = (
    "no_pattern",
    "no_solution",
    "incorrect_solution",
    "too_many_fingertips",
    "touched_before_reveal",
)


@dataclass(frozen=True)
class ProctorCommand:
    """One line command: the words that type it, the game command it sends, and how to read
    its args. Its usage line and what it does are words of the catalogue (`help.<word>.usage`
    and `help.<word>` of the `challenge` vocabulary): the commands typed stay as they are."""

    words: tuple[str, ...]
    command: str
    takes: str  # none | seat | seat_text | seat_steps | seat_fingers | seat_cause | text

    @property
    def usage(self) -> str:
        """`touch SEAT [FINGERTIPS]`, in the language spoken now (`touch PLASS [FINGRAR]`)."""
        return help_usage(self.words[0])


PROCTOR_COMMANDS: tuple[ProctorCommand, ...] = (
    ProctorCommand(("start",), "start_round", "none"),
    ProctorCommand(("place", "p"), "place_card", "none"),
    ProctorCommand(("reveal", "r"), "reveal_card", "none"),
    ProctorCommand(("touch", "t"), "touch_card", "seat_fingers"),
    ProctorCommand(("pattern",), "declare_pattern", "seat_text"),
    ProctorCommand(("steps",), "state_steps", "seat_steps"),
    ProctorCommand(("fix",), "fix_solution", "seat_steps"),
    ProctorCommand(("stumped",), "declare_stumped", "seat"),
    ProctorCommand(("flag",), "issue_flag", "seat_cause"),
    ProctorCommand(("override",), "override_first_touch", "seat"),
    ProctorCommand(("pause",), "pause_table", "text"),
    ProctorCommand(("resume",), "resume_table", "none"),
    ProctorCommand(("end",), "end_round", "none"),
    ProctorCommand(("slap",), "rule_slap", "seat"),
)
BY_WORD = {word: command for command in PROCTOR_COMMANDS for word in command.words}
STUDENT_TAKES = ("seat_text", "seat_steps")


def help_lines(lang: str | None = None) -> list[str]:
    """The command list shown by `help`, in the language spoken now (`lang`: another, as
    `t24 proctor --help` asks for English, docs/translating.md)."""
    names = [command.words[0] for command in PROCTOR_COMMANDS] + list(HEARING_HELP)
    lines = []
    for name in names:
        usage = "" if name in CONTINUED else help_usage(name, lang)
        text = help_text(name, lang, causes=", ".join(FLAG_CAUSES))  # only `flag` names them
        lines.append(f"  {usage:34} {text}")
    return lines


class BadLine(ValueError):
    """A line the proctor typed that cannot become a command; the message says why."""


def resolve_seat(word: str, view: Mapping[str, Any], by_number: bool = True) -> str | None:
    """A seat named by id, by its 1-based place at the table, or by name (any case)."""
    seats = view.get("seats", [])
    for seat in seats:
        if seat["seat"] == word:
            return seat["seat"]
    if by_number and word.isdigit() and 1 <= int(word) <= len(seats):
        return seats[int(word) - 1]["seat"]
    for seat in seats:
        if (seat.get("name") or "").lower() == word.lower():
            return seat["seat"]
    return None


def _seat_or_toucher(words: list[str], view: Mapping[str, Any]) -> tuple[str, list[str]]:
    # Not by number here: in `pattern 3 x 8` the 3 is the pattern's, not seat 3.
    if words:
        seat = resolve_seat(words[0], view, by_number=False)
        if seat is not None:
            return seat, words[1:]
    toucher = view.get("toucher")
    if toucher is None:
        raise BadLine(say(WORDS, "line.name_seat_nobody"))
    return toucher, words


def _required_seat(words: list[str], view: Mapping[str, Any]) -> tuple[str, list[str]]:
    if not words:
        raise BadLine(say(WORDS, "line.name_seat"))
    seat = resolve_seat(words[0], view)
    if seat is None:
        names = view_seat_names(view)
        known = ", ".join(f"{place} {names[s['seat']]}" for place, s in enumerate(view["seats"], 1))
        raise BadLine(say(WORDS, "line.no_seat_known", seat=repr(words[0]), known=known))
    return seat, words[1:]


def split_steps(text: str) -> list[str]:
    """`8/3; 3-8/3; 8/(1/3)` -> three steps (`;` or `,` between them)."""
    return [step.strip() for step in text.replace(",", ";").split(";") if step.strip()]


def parse_line(line: str, view: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """One typed line -> (game command, args); raises `BadLine` with the reason."""
    words = line.split()
    if not words:
        raise BadLine(say(WORDS, "line.type_command"))
    command = BY_WORD.get(words[0].lower())
    if command is None:
        raise BadLine(say(WORDS, "line.unknown_command", word=repr(words[0])))
    rest = words[1:]
    args: dict[str, Any] = {}
    if command.takes == "none":
        if rest:
            raise BadLine(
                say(WORDS, "line.takes_nothing", word=command.words[0], usage=command.usage)
            )
    elif command.takes == "text":
        if rest:
            args["cause"] = " ".join(rest)
    elif command.takes == "seat":
        args["seat"], rest = _required_seat(rest, view)
    elif command.takes == "seat_fingers":
        args["seat"], rest = _required_seat(rest, view)
        if rest:
            if not rest[0].isdigit() or not 1 <= int(rest[0]) <= 10:
                raise BadLine(say(WORDS, "line.fingertips"))
            args["fingertips"] = int(rest[0])
    elif command.takes == "seat_cause":
        args["seat"], rest = _required_seat(rest, view)
        cause = rest[0] if rest else ""
        matches = [c for c in FLAG_CAUSES if c.startswith(cause)] if cause else []
        if len(matches) != 1:
            raise BadLine(say(WORDS, "line.flag_cause", causes=", ".join(FLAG_CAUSES)))
        args["cause"] = matches[0]
    elif command.takes == "seat_text":
        args["seat"], rest = _seat_or_toucher(rest, view)
        if not rest:
            raise BadLine(say(WORDS, "line.usage", usage=command.usage))
        args["pattern"] = " ".join(rest)
    elif command.takes == "seat_steps":
        args["seat"], rest = _seat_or_toucher(rest, view)
        steps = split_steps(" ".join(rest))
        if steps:
            args["steps"] = steps
        elif command.command == "state_steps":
            raise BadLine(say(WORDS, "line.usage", usage=command.usage))
    return command.command, args


@dataclass(frozen=True)
class ProctorInput:
    """The line being typed."""

    buffer: str = ""

    def prompt(self) -> str:
        return say(WORDS, "proctor.prompt", typed=self.buffer)

    def keys_help(self, view: Mapping[str, Any] | None) -> str:
        """The commands that apply now (none that the table would refuse as out of turn)."""

        # the typed commands stay as they are (they are what the proctor types)
        def lead(commands: str) -> str:
            return say(WORDS, "proctor.keys", commands=commands)

        if view is None:
            return lead("help, quit")
        if view.get("phase") == "ended":
            signed = (view.get("score_card") or {}).get("signed")
            if signed:
                return say(WORDS, "proctor.keys.signed")
            return lead(say(WORDS, "proctor.keys.ended"))
        if view.get("paused"):
            return lead(say(WORDS, "proctor.keys.paused"))
        if view.get("phase") == "setup":
            return lead("start, help, quit")
        return lead("place, reveal, touch 2, pattern 3x8, fix, protest, rule, help, quit")


def press(state: ProctorInput, key: str, view: Mapping[str, Any] | None):
    """One key of the command line: edit, or on Enter, parse and send."""
    effects: list[Effect] = []
    if key == CTRL_D:
        return state, [Quit()]
    if key == ESC:
        return ProctorInput(), effects
    edited = edit_line(state.buffer, key)
    if edited is not None:
        return replace(state, buffer=edited), effects
    if key not in ENTER:
        return state, effects
    line = state.buffer.strip()
    cleared = ProctorInput()
    if not line:
        return cleared, effects
    if line.lower() in ("q", "quit", "exit"):
        return cleared, [Quit()]
    if line.lower() in ("help", "?", "h"):
        return cleared, [Notice(say(WORDS, "help.heading") + "\n" + "\n".join(help_lines()))]
    if view is None:
        return cleared, [Notice(say(WORDS, "line.not_joined", line=line), True)]
    words = line.split()
    try:
        hearing = hearing_line(words[0].lower(), words[1:], lambda word: resolve_seat(word, view))
    except HearingLineError as error:
        return cleared, [Notice(f"{line}: {error}", True)]
    if hearing is not None:  # R-ROUND-7/8: protest, rule, preview, sign, reopen
        name, args, is_query = hearing
        return cleared, [Ask(name, args, line) if is_query else Send(name, args, line)]
    try:
        name, args = parse_line(line, view)
    except BadLine as error:
        return cleared, [Notice(f"{line}: {error}", True)]
    return cleared, [Send(name, args, line)]


def replied(state: ProctorInput, tag: str, error: str | None, code: str | None = None):
    """A reply to the line `tag`: refusals are shown in words; the table shows the rest."""
    if error is not None:
        return state, [Notice(f"{tag}: {error}", True)]
    return state, []


def reconcile(state: ProctorInput, view: Mapping[str, Any] | None, me: str | None) -> ProctorInput:
    """Nothing to bring in line: the proctor's line does not depend on the table."""
    return state
