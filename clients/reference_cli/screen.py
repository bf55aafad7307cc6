"""The full-screen views on the terminal, drawn by `rich` (docs/architecture.md says why).

What it keeps: one `rich` console and `Live` display in the alternate screen, and the last
lines shown (a redraw happens only when they change). The layout itself stays the pure
`render.render(frame, now, width, height)`: lines a test compares. `rich` does what was done
by hand before, and went wrong: moving the cursor and clearing, cutting a line that is too
long with an ellipsis (`…`), never letting a long or multi-line text spill into the next
row, following the terminal's size, and colour (off with NO_COLOR or `--color never`).

Driven from the reactor: `Live` is made with `auto_refresh=False`, so it starts no thread of
its own; the views call `refresh` from their `LoopingCall` (ten times a second, for the
countdowns) and after every push or key, always on the reactor thread. Keys are read by the
views themselves (`terminal.StdinReader` in cbreak mode), not by `rich`.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import IO, Any

from rich.console import Console, Group
from rich.live import Live
from rich.text import Text


def utf8_stdout() -> IO[str]:
    """Standard output as UTF-8 text whatever the locale says (block digits, dots, `…`)."""
    return open(sys.stdout.fileno(), "w", encoding="utf-8", closefd=False, buffering=1)  # noqa: SIM115


def make_console(color: bool, file: IO[str] | None = None, **size: Any) -> Console:
    """A console for the full-screen views: colour only when asked (NO_COLOR is decided by
    `styling.color_enabled` before this), no highlighting or emoji of rich's own."""
    return Console(
        file=file if file is not None else utf8_stdout(),
        force_terminal=True,
        color_system="standard" if color else None,
        highlight=False,
        emoji=False,
        markup=False,
        **size,
    )


def screen_of(lines: Sequence[str]) -> Group:
    """The screen's renderable: one row per line, never wrapped, cut with `…` at the edge.
    Lines may carry the ANSI colours of `styling.Style`; rich reads them as styles."""
    return Group(*(Text.from_ansi(line, no_wrap=True, overflow="ellipsis") for line in lines))


@dataclass
class LiveScreen:
    """The alternate screen, redrawn by `rich` when the lines change (see module doc)."""

    console: Console
    live: Live | None = None
    last: list[str] | None = None
    last_size: tuple[int, int] | None = None

    def start(self) -> None:
        # The alternate screen, then a `Live` that redraws in place: it erases the lines it
        # drew and writes the new ones, unpadded (rich's own full-screen mode pads every row
        # to the width and the height: three times the bytes for the same screen, ten times
        # a second with the countdowns).
        self.console.set_alt_screen(True)
        self.live = Live(
            console=self.console,
            auto_refresh=False,
            transient=True,
            vertical_overflow="crop",
            redirect_stdout=False,
            redirect_stderr=False,
        )
        self.live.start()

    def stop(self) -> None:
        if self.live is not None:
            self.live.stop()
            self.live = None
            self.console.set_alt_screen(False)

    def size(self) -> tuple[int, int]:
        """(columns, lines) of the terminal now."""
        width, height = self.console.size
        return width, height

    def show(self, lines: Sequence[str]) -> bool:
        """Draw `lines` (at most the screen's height of them); False when nothing changed."""
        size = self.size()
        shown = list(lines)[: size[1]]
        if self.live is None or (shown == self.last and size == self.last_size):
            return False
        self.last, self.last_size = shown, size
        self.live.update(screen_of(shown), refresh=True)
        return True
