"""Colour and emphasis for terminal output, off when `NO_COLOR` is set or output is not a tty.

What it keeps: the one decision "may this output carry ANSI colour?" (`color_enabled`,
following https://no-color.org: a non-empty `NO_COLOR` turns colour off, whatever the
terminal) and a `Style` whose methods wrap text in SGR codes, or return it unchanged when
colour is off. Rendering code calls `Style` unconditionally, so a test renders the same
lines with colour on and off and compares them after `strip_ansi`.

Cursor movement of the full-screen view is not colour and is not affected: NO_COLOR governs
colour only (no-color.org is explicit about that).
"""

from __future__ import annotations

import argparse
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TextIO

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
COLOR_CHOICES = ("auto", "always", "never")


def color_enabled(
    choice: str = "auto", stream: TextIO | None = None, environ: Mapping[str, str] | None = None
) -> bool:
    """Whether to emit colour: `always`/`never` win; `auto` means a tty and no `NO_COLOR`.

    Why `NO_COLOR` beats `always` too: it is the user's standing wish for every program
    (no-color.org), while `--color always` is usually baked into a script or an alias.
    """
    environ = os.environ if environ is None else environ
    if environ.get("NO_COLOR", ""):
        return False
    if choice == "always":
        return True
    if choice == "never":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def add_color_argument(parser: argparse.ArgumentParser) -> None:
    """The `--color` option every command that prints for people shares."""
    parser.add_argument(
        "--color",
        choices=COLOR_CHOICES,
        default="auto",
        help="colour output: auto (a terminal, and NO_COLOR unset), always, never",
    )


def strip_ansi(text: str) -> str:
    """The text without ANSI escape sequences (tests, and width computations)."""
    return _ANSI.sub("", text)


@dataclass(frozen=True)
class Style:
    """SGR wrappers that do nothing when `color` is False."""

    color: bool = False

    def _wrap(self, code: str, text: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.color and text else text

    def bold(self, text: str) -> str:
        return self._wrap("1", text)

    def dim(self, text: str) -> str:
        return self._wrap("2", text)

    def red(self, text: str) -> str:
        return self._wrap("31", text)

    def green(self, text: str) -> str:
        return self._wrap("32", text)

    def yellow(self, text: str) -> str:
        return self._wrap("33", text)

    def cyan(self, text: str) -> str:
        return self._wrap("36", text)

    def reverse(self, text: str) -> str:
        return self._wrap("7", text)
