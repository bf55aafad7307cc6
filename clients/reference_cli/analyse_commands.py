"""`t24 analyse`: the analysis after a round, from a bundle, an export or a store.

What it reads (docs/analysis.md): an officials' bundle directory (`t24 audit bundle`): every
grade's per-student summary; an audit export of one table (`t24 log export`): the table's
cards and students; or a store and a stream (`--store URL table/ID` or `tournament/ID`). The
analysis itself is `server.analysis`, a pure function of the events: this module only reads
them. An export's or a bundle's chains are checked first (`check_export`), and only events
that verify are analysed; `t24 audit verify` checks a bundle's signature and figures.

`--ratings`: every student's rating across the log and the cards' ratings
(`server.analysis.log_ratings`), from every table of a store (`--store URL`, no stream), of
a bundle, or of one export; `--student NAME` one student's history.

Exit codes: 0 analysed; 1 a chain breaks (nothing is analysed past a broken link, and the
command says so); 2 bad input (no such file, stream, grade or student; not a 24 Challenge
table or a tournament).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from clients.reference_cli import exit_codes
from clients.reference_cli.words import COMMON
from protocol.messages import TABLE_STREAM_PREFIX

EXAMPLES = """\
examples:
  t24 analyse var/spring-bundle                       every grade's per-student summary
  t24 analyse var/spring-bundle --table r1.s1.t01 --student p3
  t24 analyse var/first.t24export                     one table's cards and students
  t24 analyse var/first.t24export --student s1        one student's own report
  t24 analyse --store sqlite:///var/t24.sqlite tournament/spring --json
  t24 analyse --ratings --store sqlite:///var/t24.sqlite  every student's rating, the cards'
  t24 analyse --ratings var/spring-bundle --student "Ada Lovelace"
"""


class AnalyseError(Exception):
    """What the command cannot analyse, and why (exit 2)."""


class BrokenChain(Exception):
    """A chain did not verify (exit 1)."""


def _checked_file(path: Path) -> tuple[str, list[Any]]:
    from server.audit.export import ExportError, check_export

    try:
        with path.open(encoding="utf-8") as handle:
            checked = check_export(handle)
    except (OSError, UnicodeDecodeError, ExportError) as error:
        raise AnalyseError(f"{path}: {error}") from None
    if not checked.report.ok:
        raise BrokenChain(f"{path}: {checked.report.describe()}")
    return str(checked.header.get("stream", "")), list(checked.events)


def _from_bundle(directory: Path) -> tuple[list[Any], dict[str, list[Any]]]:
    from server.analysis.grades import replay_tournament
    from server.audit.bundle import MANIFEST, export_name, table_streams

    try:
        manifest = json.loads((directory / MANIFEST).read_text(encoding="utf-8"))
        tournament = str(manifest["tournament"])
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise AnalyseError(
            COMMON.say("analyse.not_a_bundle", path=directory, error=error)
        ) from None
    _stream, events = _checked_file(directory / export_name(f"tournament/{tournament}"))
    state = replay_tournament(events)
    tables = {}
    for name, stream in table_streams(state, tournament).items():
        _table_stream, tables[name] = _checked_file(directory / export_name(stream))
    return events, tables


def _from_store(url: str, stream: str) -> tuple[str, list[Any], dict[str, list[Any]]]:
    from server.analysis.grades import replay_tournament
    from server.audit.bundle import table_streams
    from server.eventlog.backends import open_blocking_store
    from server.eventlog.store import EventLogError

    try:
        store = open_blocking_store(url, create=False)
    except EventLogError as error:
        raise AnalyseError(str(error)) from None
    try:
        report = store.verify(stream)
        if not report.ok:
            raise BrokenChain(report.describe())
        events = store.load(stream)
        if not events:
            raise AnalyseError(COMMON.say("analyse.no_stream", stream=repr(stream)))
        tables = {}
        if stream.startswith("tournament/"):
            tournament = stream.removeprefix("tournament/")
            for name, table in table_streams(replay_tournament(events), tournament).items():
                tables[name] = store.load(table)
        return stream, events, tables
    except EventLogError as error:
        raise AnalyseError(str(error)) from None
    finally:
        store.close()


def _table_output(args: argparse.Namespace, title: str, events: list[Any]) -> list[str]:
    from clients.reference_cli.analysis_render import student_lines, table_lines
    from server.analysis.table import analyse_table

    try:
        analysis = analyse_table(events)
    except (ValueError, KeyError) as error:
        raise AnalyseError(f"{title}: {error}") from None
    if args.student and args.student not in dict(analysis.seats):
        raise AnalyseError(
            COMMON.say("analyse.no_student_here", table=title, student=repr(args.student))
        )
    if args.json:
        data = analysis.as_data()
        if args.student:
            data = {**data, "students": [analysis.student(args.student).as_data()]}
        return [json.dumps(data, ensure_ascii=False, indent=1)]
    if args.student:
        return student_lines(analysis, args.student, title)
    return table_lines(analysis, title)


def _tournament_output(
    args: argparse.Namespace, events: list[Any], tables: dict[str, list[Any]]
) -> list[str]:
    from clients.reference_cli.analysis_render import tournament_lines
    from server.analysis.grades import analyse_tournament

    if args.table:
        if args.table not in tables:
            known = ", ".join(sorted(tables)) or COMMON.say("connect.no_seats")
            raise AnalyseError(COMMON.say("analyse.no_table", table=repr(args.table), known=known))
        return _table_output(args, args.table, tables[args.table])
    analysis = analyse_tournament(events, tables)
    grades = [grade for grade, _ in analysis.grades]
    if args.grade and args.grade not in grades:
        raise AnalyseError(
            COMMON.say("analyse.no_grade", grade=repr(args.grade), known=", ".join(grades))
        )
    if args.student:
        raise AnalyseError(COMMON.say("analyse.student_needs_table"))
    if args.json:
        data = analysis.as_data()
        if args.grade:
            data["grades"] = [g for g in data["grades"] if g["grade"] == args.grade]
        return [json.dumps(data, ensure_ascii=False, indent=1)]
    return tournament_lines(analysis, args.grade)


def _all_tables(url: str) -> dict[str, list[Any]]:
    """Every table stream of a store and every tournament's (its students' names now),
    each chain verified."""
    from server.eventlog.backends import open_blocking_store
    from server.eventlog.store import EventLogError

    try:
        store = open_blocking_store(url, create=False)
    except EventLogError as error:
        raise AnalyseError(str(error)) from None
    try:
        streams = {}
        for stream in store.streams(TABLE_STREAM_PREFIX) + store.streams("tournament/"):
            report = store.verify(stream)
            if not report.ok:
                raise BrokenChain(f"{stream}: {report.describe()}")
            streams[stream] = store.load(stream)
        return streams
    except EventLogError as error:
        raise AnalyseError(str(error)) from None
    finally:
        store.close()


def _ratings_output(args: argparse.Namespace) -> list[str]:
    """`--ratings`: the ratings across the tables of a store, a bundle or an export."""
    from clients.reference_cli.ratings_render import log_lines, student_lines
    from server.analysis.log_ratings import rate_log
    from server.audit.bundle import table_streams

    if args.grade or args.table:
        raise AnalyseError(COMMON.say("analyse.ratings_every_table"))
    if args.store:
        if args.source:
            raise AnalyseError(COMMON.say("analyse.ratings_no_stream"))
        streams = _all_tables(args.store)
    elif args.source is None:
        raise AnalyseError(COMMON.say("analyse.name_a_source"))
    else:
        source = Path(args.source)
        if source.is_dir():
            from server.analysis.grades import replay_tournament
            from server.audit.bundle import MANIFEST

            events, tables = _from_bundle(source)
            manifest = json.loads((source / MANIFEST).read_text(encoding="utf-8"))
            names = table_streams(replay_tournament(events), str(manifest["tournament"]))
            streams = {names[name]: table for name, table in tables.items()}
            streams[f"tournament/{manifest['tournament']}"] = events
        elif source.is_file():
            stream, events = _checked_file(source)
            streams = {stream: events}
        else:
            raise AnalyseError(COMMON.say("analyse.no_source", path=source))
    rated = rate_log(streams)
    if args.student:
        found = rated.student(args.student)
        if found is None:
            raise AnalyseError(COMMON.say("analyse.no_rated_student", student=repr(args.student)))
        if args.json:
            return [json.dumps(found.as_data(), ensure_ascii=False, indent=1)]
        return student_lines(found)
    if args.json:
        data = {
            "students": [s.as_data() for s in rated.students.values()],
            "cards": [c.as_data() for c in rated.cards.values()],
        }
        return [json.dumps(data, ensure_ascii=False, indent=1)]
    return log_lines(rated)


def _analyse(args: argparse.Namespace) -> int:
    try:
        if args.ratings:
            lines = _ratings_output(args)
        elif args.store:
            if not args.source:
                raise AnalyseError(COMMON.say("analyse.store_needs_stream"))
            stream, events, tables = _from_store(args.store, args.source)
            if stream.startswith("tournament/"):
                lines = _tournament_output(args, events, tables)
            else:
                lines = _table_output(args, stream, events)
        elif args.source is None:
            raise AnalyseError(COMMON.say("analyse.name_a_source_stream"))
        else:
            source = Path(args.source)
            if source.is_dir():
                events, tables = _from_bundle(source)
                lines = _tournament_output(args, events, tables)
            elif source.is_file():
                stream, events = _checked_file(source)
                if not stream.startswith(TABLE_STREAM_PREFIX):
                    raise AnalyseError(
                        COMMON.say("analyse.not_a_table", path=source, stream=stream)
                    )
                lines = _table_output(args, stream, events)
            else:
                raise AnalyseError(COMMON.say("analyse.no_source", path=source))
    except AnalyseError as error:
        print(f"t24 analyse: {error}", file=sys.stderr)
        return exit_codes.BAD_INPUT
    except BrokenChain as error:
        print(COMMON.say("analyse.chain_breaks", error=error), file=sys.stderr)
        return exit_codes.NEGATIVE
    print("\n".join(lines))
    return exit_codes.OK


def add_parsers(subparsers: argparse._SubParsersAction) -> None:
    """Register `analyse`."""
    parser = subparsers.add_parser(
        "analyse",
        help="the analysis after a round: cards, students, grades",
        description="t24 analyse: per card, per student and per grade, from the log alone.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "source",
        nargs="?",
        help="a bundle directory, an export file, or "
        "with --store a stream (table/ID, tournament/ID)",
    )
    parser.add_argument("--store", help="read the stream from this store URL")
    parser.add_argument("--grade", help="only this grade's summary")
    parser.add_argument("--table", help="one table of the tournament (its name)")
    parser.add_argument(
        "--student",
        help="one student's own report (their seat id); with --ratings, their name",
    )
    parser.add_argument(
        "--ratings",
        action="store_true",
        help="every student's rating across the log and the cards' ratings",
    )
    parser.add_argument("--json", action="store_true", help="the analysis as JSON")
    parser.set_defaults(func=_analyse)
