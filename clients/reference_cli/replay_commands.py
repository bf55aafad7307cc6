"""`t24 replay --store URL STREAM [--to SEQ] [--json]`: a recorded round, event by event.

A local command: it reads the store with plain blocking calls (`open_blocking_store`,
`create=False`: a missing store is an error, never a new empty one), or an audit export
with `--export FILE` (`t24 log export`; no store needed). It verifies the stream's hash
chain and folds the events with the game's own `evolve` (`server.games`), so the table it
shows after each event is exactly what the server held at that seq: the auditor's view
(`view(state, auditor)`, every card visible).

After each event it shows the table as it stood and the time relative to the reveal of the
card in play (`+2.31s  Bo touched (2 fingertips)`), and the countdowns as they stood at
that instant (R-PLAY-4's 3 s, R-PLAY-5's 15 s), so a disputed moment can be read exactly.
Protests, rulings and corrections (R-ROUND-8) are marked in the margin, every event a protest
disputes says which, and the printed replay ends with the protests and their evidence.

Three ways to read it: on a terminal, step through it (next, previous, jump to a seq);
otherwise (or `--print`) print every event with the table after it; `--json` prints JSON
Lines (one event and the table after it per line). A chain that does not verify is
replayed up to its last good event and the command exits 1 with the first broken seq.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from clients.reference_cli import exit_codes
from clients.reference_cli.games import part_for
from clients.reference_cli.keyboard import BACKSPACE, CTRL_D, ENTER, ESC, split_keys
from clients.reference_cli.render import Frame, compact, render
from clients.reference_cli.styling import Style, add_color_argument, color_enabled
from clients.reference_cli.table_model import FeedLine, TableModel, apply_push, from_snapshot
from clients.reference_cli.words import COMMON, error_line
from protocol.messages import stream_table, table_stream

if TYPE_CHECKING:
    from server.audit.replay import Moment, TableReplay

EPILOG = """\
keys (on a terminal):
  n, space, →, Enter   next event          p, ←   previous event
  g SEQ Enter          go to event SEQ     Home/End (or a/z)   first/last
  q                    quit

examples:
  t24 replay --store sqlite:///var/t24.sqlite table/demo
  t24 replay --store sqlite:///var/t24.sqlite first --to 42
  t24 replay --store postgresql://postgres@127.0.0.1:5432/postgres table/first --json | jq .text
  t24 replay --export first.t24export           an audit export (t24 log export), no store
"""


@dataclass(frozen=True)
class Step:
    """One recorded event and the table right after it, as the replay screen shows it."""

    seq: int
    at: int
    actor: Mapping[str, str]
    type: str
    data: Mapping[str, Any]
    line: FeedLine
    model: TableModel
    mark: str = ""  # the game part's margin mark (the challenge: protests, R-ROUND-8)


def stream_name(name: str) -> str:
    """`first` -> `table/first`; a name with a slash is a stream id already."""
    return name if "/" in name else table_stream(name)


def replay_steps(game: str, moments: Sequence[Moment], table: str) -> list[Step]:
    """One `Step` per replayed moment: the screen's feed line and the table as it stood.

    The fold itself is `server.audit.replay` (the one an official settles a protest with);
    this adds the feed lines and their times from the card's reveal.
    """
    snapshot = {"table": table, "game": game, "seq": 1, "view": moments[0].view}
    feed_model = from_snapshot(snapshot, after_seq=0)  # the feed follows every event
    marks = part_for(game).event_marks([(m.seq, m.type, m.data) for m in moments])
    steps = []
    for moment in moments:
        push = {
            "seq": moment.seq,
            "event_type": moment.type,
            "data": moment.data,
            "at": moment.recorded_at,
        }
        feed_model, line = apply_push(feed_model, push)
        model = TableModel(table, game, moment.seq, moment.view, moment.deadlines)
        step = Step(moment.seq, moment.at, moment.actor, moment.type, moment.data, line, model)
        steps.append(replace(step, mark=marks.get(moment.seq, "")))
    return steps


def clock_text(at_us: int) -> str:
    """Local wall-clock time of an event, to the millisecond."""
    return datetime.fromtimestamp(at_us / 1e6).strftime("%H:%M:%S.%f")[:-3]


def event_line(step: Step) -> str:
    """`#12  19:12:45.123   +2.31s  Bo touched (2 fingertips)`, with its margin mark."""
    text = f"#{step.seq:<4} {clock_text(step.at)} {step.line.stamp()}  {step.line.text}"
    return f"{text}  {step.mark}" if step.mark else text


def json_line(step: Step) -> str:
    """One event and the table after it as one JSON object."""
    since = step.line.since_reveal_us
    record = {
        "seq": step.seq,
        "at": step.at,
        "time": datetime.fromtimestamp(step.at / 1e6, UTC).isoformat(timespec="microseconds"),
        "since_reveal_s": None if since is None else since / 1e6,
        "type": step.type,
        "actor": dict(step.actor),
        "data": dict(step.data),
        "text": step.line.text,
        "mark": step.mark,
        "table": dict(step.model.view),
    }
    from server.audit.export import json_value  # bytes as {"$bytes": ...}, as in exports

    return json.dumps(json_value(record), ensure_ascii=False)


def frame_for(steps: Sequence[Step], index: int, jump: str | None) -> Frame:
    """The interactive screen at `steps[index]`: the table, the events up to it."""
    step = steps[index]
    keys = COMMON.say("replay.keys.last" if index == len(steps) - 1 else "replay.keys")
    return Frame(
        model=step.model,
        role="auditor",
        status=COMMON.say("replay.status", seq=step.seq, last=steps[-1].seq),
        feed=[s.line for s in steps[: index + 1]],
        notice=event_line(step),
        keys=keys,
        prompt=COMMON.say("replay.go_to", typed=jump) if jump is not None else "",
    )


def replay_key(index: int, jump: str | None, key: str, seqs: Sequence[int]):
    """(index, jump buffer, quit) after one key; `seqs` are the steps' seqs, in order."""
    last = len(seqs) - 1
    if jump is not None:
        if key in ENTER:
            if jump.isdigit():
                target = int(jump)
                index = min(range(len(seqs)), key=lambda i: abs(seqs[i] - target))
            return index, None, False
        if key in BACKSPACE:
            return index, jump[:-1], False
        if key == ESC:
            return index, None, False
        if key.isdigit():
            return index, jump + key, False
        return index, jump, False
    if key in ("q", CTRL_D):
        return index, None, True
    if key in ("n", " ", "\x1b[C", "\r", "\n", "j"):
        return min(last, index + 1), None, False
    if key in ("p", "\x1b[D", "k", *BACKSPACE):
        return max(0, index - 1), None, False
    if key in ("a", "\x1b[H", "\x1b[1~"):
        return 0, None, False
    if key in ("z", "\x1b[F", "\x1b[4~"):
        return last, None, False
    if key == "g":
        return index, "", False
    return index, None, False


def interactive(steps: Sequence[Step], index: int, style: Style) -> None:
    """Step through on the terminal (blocking reads; no reactor needed), drawn by `rich`
    (`screen.LiveScreen`, as the live views)."""
    from clients.reference_cli.screen import LiveScreen, make_console
    from clients.reference_cli.terminal import cbreak

    seqs = [step.seq for step in steps]
    jump: str | None = None
    screen = LiveScreen(make_console(style.color))
    screen.start()
    try:
        with cbreak(sys.stdin.fileno()):
            while True:
                width, height = screen.size()
                frame = frame_for(steps, index, jump)
                screen.show(render(frame, steps[index].at, width, height, style))
                data = os.read(sys.stdin.fileno(), 64)
                if not data:
                    return
                for key in split_keys(data.decode("utf-8", errors="replace")):
                    index, jump, leave = replay_key(index, jump, key, seqs)
                    if leave:
                        return
    finally:
        screen.stop()


def run_replay(args: argparse.Namespace) -> int:
    """Load, verify, fold; then step through, print, or print JSON (see module doc)."""
    from server.audit.replay import ReplayError

    try:
        replayed = _from_export(args.export) if args.export else _from_store(args)
        report = replayed.report
        steps = replay_steps(replayed.game, replayed.moments, stream_table(replayed.stream))
    except ReplayError as error:  # the store's and the export's errors arrive as these
        print(error_line("t24 replay", error), file=sys.stderr)
        return exit_codes.BAD_INPUT
    last = steps[-1].seq
    if args.to is not None:
        if not 1 <= args.to <= last:
            why = COMMON.say("replay.to_outside", to=args.to, last=last)
            print(error_line("t24 replay", why), file=sys.stderr)
            return exit_codes.BAD_INPUT
        shown = [step for step in steps if step.seq <= args.to]
    else:
        shown = steps
    style = Style(color_enabled(args.color, sys.stdout))
    on_terminal = sys.stdin.isatty() and sys.stdout.isatty()
    if args.json:
        for step in shown:
            print(json_line(step))
    elif on_terminal and not args.print:
        # Open at the first event (`n` steps on), or at --to when given.
        interactive(steps, len(shown) - 1 if args.to is not None else 0, style)
    else:
        for step in shown:
            print(event_line(step))
            print("\n".join(compact(step.model, style)))
        final = shown[-1]
        print()
        screen = render(frame_for(shown, len(shown) - 1, None), final.at, 100, 60, style)
        print("\n".join(screen[:-1]))
        events = [(step.seq, step.type, step.data) for step in shown]
        lines = {step.seq: event_line(step) for step in shown}
        summary = part_for(replayed.game).replay_summary(events, lines)
        if summary:
            print()
            print("\n".join(summary))
    if not report.ok:
        print(f"t24 replay: {report.describe()}", file=sys.stderr)
        return exit_codes.NEGATIVE
    return exit_codes.OK


def _from_store(args: argparse.Namespace) -> TableReplay:
    from server.audit.replay import ReplayError, replay_table
    from server.eventlog.backends import open_blocking_store
    from server.eventlog.store import EventLogError

    if not args.stream:
        raise ReplayError(COMMON.say("replay.name_a_stream"))
    try:
        store = open_blocking_store(args.store, create=False)
    except EventLogError as error:
        raise ReplayError(str(error)) from error
    try:
        return replay_table(store, stream_name(args.stream))
    except EventLogError as error:
        raise ReplayError(str(error)) from error
    finally:
        store.close()


def _from_export(path: str) -> TableReplay:
    from server.audit.export import ExportError, check_export
    from server.audit.replay import ReplayError, replay_export

    try:
        with open(path, encoding="utf-8") as handle:
            checked = check_export(handle)
    except (OSError, UnicodeDecodeError, ExportError) as error:
        raise ReplayError(f"{path}: {error}") from error
    return replay_export(checked)


def add_parsers(subparsers: argparse._SubParsersAction) -> None:
    """Register `replay`."""
    from server.eventlog.store import DEFAULT_STORE_URL

    parser = subparsers.add_parser(
        "replay",
        help="step through a recorded round: the table after each event, timed from reveals",
        description="t24 replay: fold a table's event log with the game's own rules and show "
        "the table as it stood after each event (local: reads the store directly).",
        epilog=EPILOG + "\n" + exit_codes.EXIT_CODES_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--store",
        default=os.environ.get("T24_STORE", DEFAULT_STORE_URL),
        help=f"store URL (default: $T24_STORE or {DEFAULT_STORE_URL})",
    )
    parser.add_argument("stream", nargs="?", help="the table's stream, table/<id> (or just the id)")
    parser.add_argument(
        "--export", metavar="FILE", help="replay an audit export (t24 log export) instead"
    )
    parser.add_argument("--to", type=int, metavar="SEQ", help="stop at (or start at) this seq")
    parser.add_argument("--json", action="store_true", help="JSON Lines: event + table per line")
    parser.add_argument("--print", action="store_true", help="print everything, even on a tty")
    add_color_argument(parser)
    parser.set_defaults(func=run_replay)
