"""The full-screen views drawn by rich (issue 17): lines cut with an ellipsis, nothing
spills into the next row, no colour unless asked, redrawn only on a change."""

from __future__ import annotations

import io
import re

from clients.reference_cli.screen import LiveScreen, make_console


def drawn(color: bool = False, width: int = 20, height: int = 5):
    out = io.StringIO()
    screen = LiveScreen(make_console(color, out, width=width, height=height))
    return screen, out


def rows(text: str) -> list[str]:
    """The rows of the last frame written: after the last erase (or cursor-home), without the
    control sequences."""
    last = re.split(r"\x1b\[2K|\x1b\[H", text)[-1]
    return [row.rstrip() for row in re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", last).split("\n")]


def test_a_long_line_ends_with_an_ellipsis_and_rows_never_spill():
    screen, out = drawn()
    screen.start()
    assert screen.show(["a" * 30, "short", "\x1b[31mred\x1b[0m text"])
    assert rows(out.getvalue())[:3] == ["a" * 19 + "…", "short", "red text"]
    # A second frame erases the rows drawn and writes the new ones, unpadded.
    screen.show(["b", "short"])
    assert rows(out.getvalue()) == ["b", "short"]
    assert out.getvalue().endswith("b\nshort")
    assert "\x1b[31m" not in out.getvalue()  # no colour unless asked
    screen.stop()
    assert out.getvalue().startswith("\x1b[?1049h") and out.getvalue().endswith("\x1b[?1049l")


def test_it_redraws_only_when_the_lines_change_and_keeps_to_the_height():
    screen, out = drawn(height=3)
    assert not screen.show(["before start"])  # nothing to draw on yet
    screen.start()
    assert screen.show(["1", "2", "3", "4", "5"])
    assert screen.last == ["1", "2", "3"]
    written = len(out.getvalue())
    assert not screen.show(["1", "2", "3"])
    assert len(out.getvalue()) == written
    assert screen.show(["1", "2", "x"])
    screen.stop()
    screen.stop()  # twice is harmless


def test_colour_when_asked():
    screen, out = drawn(color=True)
    screen.start()
    screen.show(["\x1b[31mred\x1b[0m"])
    screen.stop()
    assert "\x1b[31mred" in out.getvalue()
