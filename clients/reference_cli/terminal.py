"""The terminal itself: keys without echo, UTF-8 output, the window size. The only I/O of
the interactive views besides the socket.

What it keeps:
- `cbreak(fd)`: a context manager that turns off echo and line buffering on a terminal (so
  one key touches the card) and always restores the saved mode, even after an exception.
  Ctrl-C still sends SIGINT (the command then exits with code 130).
- `StdinReader`: standard input as a Twisted read descriptor. It does not switch the file
  descriptor to non-blocking mode (Twisted's `StandardIO` would, and a terminal's stdin and
  stdout share that flag), so output stays plain blocking writes. End of input is reported
  once (`on_eof`).
- `write_out(text)`: UTF-8 bytes to stdout whatever the locale says, flushed.
"""

from __future__ import annotations

import codecs
import contextlib
import os
import sys
import termios
import tty
from collections.abc import Callable, Iterator
from typing import Any

from twisted.internet.interfaces import IReadDescriptor
from zope.interface import implementer

READ_SIZE = 4096


@contextlib.contextmanager
def cbreak(fd: int) -> Iterator[None]:
    """No echo, no line buffering on terminal `fd` for the duration; restored afterwards."""
    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd, termios.TCSANOW)
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


@implementer(IReadDescriptor)
class StdinReader:
    """Calls `on_text(str)` with decoded input and `on_eof()` once input ends."""

    def __init__(
        self, on_text: Callable[[str], None], on_eof: Callable[[], None], fd: int = 0
    ) -> None:
        self.fd = fd
        self.on_text = on_text
        self.on_eof = on_eof
        self.decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self.ended = False

    def fileno(self) -> int:
        return self.fd

    def doRead(self) -> Any:  # noqa: N802 - Twisted's name
        try:
            data = os.read(self.fd, READ_SIZE)
        except (BlockingIOError, InterruptedError):
            return None
        except OSError:
            data = b""
        if not data:
            self._end()
            return None
        self.on_text(self.decoder.decode(data))
        return None

    def _end(self) -> None:
        if not self.ended:
            self.ended = True
            from twisted.internet import reactor

            reactor.removeReader(self)
            self.on_eof()

    def connectionLost(self, reason: Any) -> None:  # noqa: N802
        self._end()

    def logPrefix(self) -> str:  # noqa: N802
        return "stdin"


def write_out(text: str) -> None:
    """Write `text` to stdout as UTF-8 and flush (the views draw block digits and dots)."""
    sys.stdout.buffer.write(text.encode("utf-8", errors="replace"))
    sys.stdout.buffer.flush()


def is_terminal() -> bool:
    """Both standard input and output are terminals (the full-screen views need both)."""
    return sys.stdin.isatty() and sys.stdout.isatty()
