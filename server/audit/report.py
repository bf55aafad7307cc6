"""The officials' report (`report.html` of the bundle): a document made from the events alone.

What it holds, in this order (the template is server/audit/templates/report.html.j2):
- the summary: the tournament, the champion of each section by name, the counts;
- the contents, linking every part below;
- per section the standings (R-ROUND-3..5): rounds 1 + 2 with shared ranks, the semi-final
  and final tables, the tie-breaks; every student by name with their id, and marked where
  disqualified (which table, why) or withdrawn (when);
- per round, then per tie-break, each table's score card (R-ROUND-7: points, flags, cards
  won, the proctor and the signature) and its timeline, collapsed (`<details>`): every event
  in words, grouped by card, in seconds from the card's reveal;
- the protests and rulings in words (R-ROUND-8), with the events they dispute;
- the tournament's own log in words;
- the chain heads the report vouches for (each stream's last seq and hash: those of
  manifest.json), and the rules cited, in words.

Why it is a pure function of the events: `t24 audit verify` renders it again from the
exported streams and compares the bytes, so the same logs always give the same report. Times
are the events' own (`at`, UTC); nothing reads a clock.

The words: event sentences come from server/audit/report_events.py (the games' own sentences
of the shared catalogue, protocol/words, read by report_words.py), a table's timeline from
report_timeline.py; the template's headings are `report` keys said by its `_()` and
`ngettext()`. `report_html(..., lang)` words it all in one language (the bundle's copy is
English; `t24 audit report --lang` renders another from the same bundle).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Any

import jinja2

from protocol.words import FALLBACK, catalogue
from protocol.words.seat_names import seat_names
from server.audit.report_events import Names, tournament_sentence
from server.audit.report_timeline import CORRECTIONS, Line, clock, event_time, timeline
from server.audit.report_words import (
    CHALLENGE,
    CHALLENGE_EVENTS,
    TOURNAMENT,
    language,
    long_date,
    say,
    speaking,
)
from server.tournament.standings import standings
from server.tournament.state import SeatedTable, TournamentState

TEMPLATES = "server.audit.templates"
TEMPLATE = "report.html.j2"


@cache
def _environment() -> jinja2.Environment:
    """The templates, read from the package (importlib.resources: a wheel has them too)."""
    folder = files(TEMPLATES)

    def load(name: str) -> str:
        return (folder / name).read_text(encoding="utf-8")

    environment = jinja2.Environment(
        loader=jinja2.FunctionLoader(load),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    environment.globals["_"] = _text
    environment.globals["ngettext"] = _plural_text
    return environment


def _text(key: str, **values: Any) -> str:
    """A heading of the template: the `report` vocabulary's `key`, in the report's language
    (autoescaped by the template like any value)."""
    return catalogue(language()).say("report", key, None, **values)


def _plural_text(key: str, n: int, **values: Any) -> str:
    """A heading with a count: the language's plural form of `key` for `n`."""
    return catalogue(language()).say("report", key, n, **values)


# -- score cards ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Mark:
    """A disqualification or a withdrawal, shown beside the student's name."""

    kind: str  # "dq" or "withdrawn"
    text: str


def _last_signed(events: Sequence[Any], seq: int) -> Mapping[str, Any]:
    signed: Mapping[str, Any] = {}
    for event in events:
        if event.type == "ScoreCardSigned" and event.seq <= seq:
            signed = event.data
    return signed


def _disqualifications(
    state: TournamentState, tables: Mapping[str, Sequence[Any]]
) -> dict[str, dict[str, str]]:
    """Student -> {table: the cause in words} for every signed result that lists them
    disqualified (R-FLAG-4: they keep their points; a reinstated student is not listed)."""
    out: dict[str, dict[str, str]] = {}
    for name, result in state.results.items():
        signed = _last_signed(tables.get(name, ()), result.seq)
        causes = {
            seat.get("seat"): seat.get("disqualified_cause")
            for seat in signed.get("seats", ())
            if isinstance(seat, Mapping)
        }
        for student in result.disqualified:
            key = f"reason.{causes.get(student)}"
            cause = (
                say(CHALLENGE_EVENTS, key) if key in CHALLENGE_EVENTS else say(CHALLENGE, "none")
            )
            out.setdefault(student, {})[name] = cause
    return out


@dataclass
class Facts:
    """What several parts of the report need, computed once."""

    state: TournamentState
    tables: Mapping[str, Sequence[Any]]
    names: Names
    disqualified: dict[str, dict[str, str]]
    withdrawn: dict[str, str]
    round_of_table: dict[str, str]

    def marks(self, student: str, only: Sequence[str], here: bool = False) -> list[Mark]:
        """The student's marks: disqualifications at the tables `only` (`here`: at the one
        table shown, so without its name) and a withdrawal."""
        marks = []
        for table, cause in self.disqualified.get(student, {}).items():
            if table not in only:
                continue
            if here:
                text = say(TOURNAMENT, "disqualified.here", cause=cause)
            else:
                where = self.round_of_table.get(table, table)
                text = say(TOURNAMENT, "disqualified", table=where, cause=cause)
            marks.append(Mark("dq", text))
        if student in self.withdrawn:
            marks.append(Mark("withdrawn", self.withdrawn[student]))
        return marks

    def person(self, student: str) -> dict[str, Any]:
        info = self.state.students.get(student)
        return {
            "id": student,
            "name": self.names.of(TOURNAMENT, student),
            "school": info.school if info else "",
        }


def _withdrawals(events: Sequence[Any]) -> dict[str, str]:
    """Student -> when they withdrew, in words (counting the rounds started before)."""
    started = 0
    out: dict[str, str] = {}
    for event in events:
        if event.type == "RoundStarted":
            started = max(started, int(event.data.get("round") or 0))
        elif event.type == "StudentWithdrawn":
            student = event.data.get("student")
            if started:
                out[student] = say(TOURNAMENT, "withdrawn.after", round=started)
            else:
                out[student] = say(TOURNAMENT, "withdrawn.before")
    return out


def _table_labels(state: TournamentState) -> dict[str, str]:
    """Table name -> how the report names it in a mark (`round 1, table r1.s1.t01`)."""
    labels = {
        t.table: say(TOURNAMENT, "label.table", label=_round_label(number), table=t.table)
        for number in sorted(state.rounds)
        for t in state.round(number).tables
    }
    for tie in state.tie_breaks:
        label = _tie_break_label(tie.number)
        for t in tie.tables:
            labels[t.table] = say(TOURNAMENT, "label.table", label=label, table=t.table)
    return labels


def _round_label(number: int) -> str:
    return say(TOURNAMENT, "label.round", round=number)


def _tie_break_label(number: int) -> str:
    return say(TOURNAMENT, "label.tie_break", number=number)


def _score_card(facts: Facts, seated: SeatedTable, round_label: str) -> dict[str, Any]:
    state, name = facts.state, seated.table
    events = facts.tables.get(name, ())
    result = state.results.get(name)
    signed = _last_signed(events, result.seq) if result else {}
    won = {
        seat.get("seat"): len(seat.get("cards_won") or ())
        for seat in signed.get("seats", ())
        if isinstance(seat, Mapping)
    }
    rows = []
    for student in seated.students:
        rows.append(
            {
                **facts.person(student),
                "points": result.scores.get(student) if result else None,
                "flags": result.flags.get(student, 0) if result else None,
                "won": won.get(student),
                "marks": facts.marks(student, only=[name], here=True),
            }
        )
    protests = signed.get("protests") or {}
    end_reason = signed.get("end_reason")
    proctor = state.proctors.get(name) or {}
    groups = timeline(events, facts.names)
    return {
        "id": f"table-{name}",
        "name": name,
        "round": round_label,
        "section": seated.section,
        "proctor": proctor.get("name"),
        "proctor_initials": proctor.get("initials"),
        "signed_by": result.initials if result else None,
        "end_reason": say(CHALLENGE_EVENTS, f"reason.{end_reason}")
        if f"reason.{end_reason}" in CHALLENGE_EVENTS
        else None,
        "protests": protests.get("filed", 0),
        "upheld": protests.get("upheld", 0),
        "rows": rows,
        "timeline": groups,
        "cards": sum(1 for group in groups if group.kind == "card"),
        "events": len(events),
    }


# -- standings --------------------------------------------------------------------------------


def _result_words(code: Any) -> str:
    if code is None:
        return say(TOURNAMENT, "advanced.pending")
    if str(code).startswith("tie_break"):
        return say(TOURNAMENT, "advanced.tie_break", number=str(code).split()[-1])
    return say(TOURNAMENT, f"advanced.{code}")


def _face_off(
    facts: Facts, stage: str, table: Mapping[str, Any], champion: str | None
) -> dict[str, Any]:
    """A semi-final or final table of the standings (R-ROUND-4/5)."""
    return {
        "title": say(TOURNAMENT, f"stage.{stage}"),
        "table": table["table"],
        "rows": [
            {
                **facts.person(row["student"]),
                "rank": row["rank"],
                "points": row["points"],
                "champion": row["student"] == champion,
                "result": _result_words(row["advanced"]),
                "marks": facts.marks(row["student"], only=[table["table"]], here=True),
            }
            for row in table["rows"]
        ],
    }


def _standings(facts: Facts) -> list[dict[str, Any]]:
    state = facts.state
    qualifying_tables = [t.table for n in (1, 2) for t in state.round(n).tables] + [
        t.table for tie in state.tie_breaks if tie.round <= 2 for t in tie.tables
    ]
    out = []
    for index, (section, standing) in enumerate(standings(state).items(), 1):
        champion = standing["champion"]
        qualifying = [
            {
                **facts.person(row["student"]),
                "rank": row["rank"],
                "r1": row["r1"],
                "r2": row["r2"],
                "total": row["total"],
                "result": say(TOURNAMENT, "advanced.withdrawn")
                if row["withdrawn"]
                else _result_words(row["advanced"]),
                "out": row["withdrawn"] or row["advanced"] == "eliminated",
                "marks": facts.marks(row["student"], only=qualifying_tables),
            }
            for row in standing["qualifying"]
        ]
        stages = [
            _face_off(facts, stage, table, champion)
            for stage in ("semi_final", "final")
            for table in standing[stage]
        ]
        ties = [
            {
                "number": tie["number"],
                "round": tie["round"],
                "places": tie["places"],
                "tables": tie["tables"],
                "students": [
                    {**facts.person(s), "points": (tie["points"] or {}).get(s)}
                    for s in tie["students"]
                ],
            }
            for tie in standing["tie_breaks"]
        ]
        out.append(
            {
                "id": f"section-{index}",
                "name": section,
                "champion": facts.person(champion) if champion else None,
                "qualifying": qualifying,
                "stages": stages,
                "tie_breaks": ties,
            }
        )
    return out


# -- rounds, protests, the log, the heads -----------------------------------------------------


def _rounds(facts: Facts, tournament_events: Sequence[Any]) -> list[dict[str, Any]]:
    state = facts.state
    decks = {
        event.data.get("round"): event.data
        for event in tournament_events
        if event.type == "RoundStarted"
    }
    out = []
    for number in sorted(state.rounds):
        round_ = state.round(number)
        if not round_.started:
            continue
        deck = decks.get(number, {})
        half, side = deck.get("half"), deck.get("side")
        out.append(
            {
                "id": f"round-{number}",
                "title": f"{number}",
                "number": number,
                "edition": say(TOURNAMENT, f"edition.{half}")
                if f"edition.{half}" in TOURNAMENT
                else "",
                "side": say(TOURNAMENT, f"side.{side}") if f"side.{side}" in TOURNAMENT else "",
                "tables": [_score_card(facts, t, _round_label(number)) for t in round_.tables],
            }
        )
    return out


def _tie_break_rounds(facts: Facts) -> list[dict[str, Any]]:
    return [
        {
            "id": f"tie-break-{tie.number}",
            "number": tie.number,
            "round": tie.round,
            "section": tie.section,
            "places": tie.places,
            "students": [facts.person(s) for s in tie.students],
            "tables": [
                _score_card(facts, t, _tie_break_label(tie.number))
                for t in tie.tables
                if t.table in facts.tables
            ],
        }
        for tie in facts.state.tie_breaks
    ]


def _protests(facts: Facts, order: Sequence[str]) -> list[dict[str, Any]]:
    """Every protest of every table, with the events it disputes and its ruling, in words."""
    out: list[dict[str, Any]] = []
    for name in order:
        events = facts.tables.get(name, ())
        if not any(event.type == "ProtestFiled" for event in events):
            continue
        lines = {line.seq: line for group in timeline(events, facts.names) for line in group.lines}
        filed: dict[Any, dict[str, Any]] = {}
        ruling_of: dict[str, Any] | None = None
        for event in events:
            data = event.data
            if event.type == "ProtestFiled":
                filed[data.get("protest")] = {
                    "number": data.get("protest"),
                    "table": name,
                    "table_id": f"table-{name}",
                    "seq": event.seq,
                    "time": clock(event_time(event)),
                    "by": facts.names.of(CHALLENGE_EVENTS, data.get("by")),
                    "reason": data.get("reason"),
                    "disputes": [lines[s] for s in data.get("seqs") or () if s in lines],
                    "ruling": None,
                    "corrections": [],
                }
                ruling_of = None
            elif event.type == "ProtestRuled" and data.get("protest") in filed:
                ruling_of = filed[data.get("protest")]
                ruling_of["ruling"] = lines[event.seq]
                ruling_of["upheld"] = bool(data.get("upheld"))
            elif event.type in CORRECTIONS and ruling_of is not None:
                ruling_of["corrections"].append(lines[event.seq])
            else:
                ruling_of = None
        out += filed.values()
    return out


def _log(events: Sequence[Any], names: Names) -> list[Line]:
    return [
        Line(
            seq=event.seq,
            time=clock(event_time(event)),
            text=tournament_sentence(event.type, event.data, names),
            kind="info",
            rule=str(event.data.get("rule") or ""),
        )
        for event in events
    ]


def _heads(
    tournament_events: Sequence[Any], tables: Mapping[str, Sequence[Any]], order: Sequence[str]
) -> list[dict[str, Any]]:
    heads = []
    for events in [tournament_events, *(tables[name] for name in order if name in tables)]:
        if events:
            last = events[-1]
            heads.append({"stream": last.stream, "seq": last.seq, "hash": last.hash.hex()})
    return heads


def _rules(
    tournament_events: Sequence[Any], tables: Mapping[str, Sequence[Any]]
) -> list[dict[str, str]]:
    cited = {
        str(event.data.get("rule"))
        for events in [tournament_events, *tables.values()]
        for event in events
        if event.data.get("rule")
    }
    return [
        {
            "id": rule,
            "words": say(TOURNAMENT, f"rule.{rule}") if f"rule.{rule}" in TOURNAMENT else "",
        }
        for rule in sorted(cited, key=_rule_order)
    ]


def _rule_order(rule: str) -> tuple[int, str, int]:
    families = ["R-PUZ", "R-DECK", "R-PLAY", "R-FLAG", "R-ROUND"]
    family, _, number = rule.rpartition("-")
    rank = families.index(family) if family in families else len(families)
    return rank, family, int(number) if number.isdigit() else 0


def report_html(
    state: TournamentState,
    tournament_events: Sequence[Any],
    tables: Mapping[str, Sequence[Any]],
    lang: str = FALLBACK,
) -> str:
    """The report (see the module doc) of the replayed tournament, its stream and its
    tables' events by table name, worded in `lang` (English by default: the bundle's copy)."""
    with speaking(lang):
        return _report_html(state, tournament_events, tables)


def _report_html(
    state: TournamentState,
    tournament_events: Sequence[Any],
    tables: Mapping[str, Sequence[Any]],
) -> str:
    # Two students of one name read as "Ada" and "Ada (2)" (protocol/words/seat_names.py)
    roster = [{"seat": sid, "name": student.name} for sid, student in state.students.items()]
    names = Names(seat_names(roster, catalogue(language())))
    facts = Facts(
        state=state,
        tables=tables,
        names=names,
        disqualified=_disqualifications(state, tables),
        withdrawn=_withdrawals(tournament_events),
        round_of_table=_table_labels(state),
    )
    rounds = _rounds(facts, tournament_events)
    ties = _tie_break_rounds(facts)
    order = [card["name"] for r in rounds for card in r["tables"]]
    order += [card["name"] for tie in ties for card in tie["tables"]]
    options = state.options
    sections = _standings(facts)
    times = [
        event_time(event) for event in tournament_events if isinstance(event.data.get("at"), int)
    ]
    context = {
        "name": options.name,
        "date": long_date(options.date),
        "rules": say(TOURNAMENT, f"rules.{options.rules}"),
        "first": clock(min(times)) if times else "",
        "last": clock(max(times)) if times else "",
        "students": len(state.students),
        "withdrawn": sum(1 for s in state.students.values() if s.withdrawn),
        "table_count": len(order),
        "finished": state.finished,
        "sections": sections,
        "rounds": rounds,
        "tie_breaks": ties,
        "protests": _protests(facts, order),
        "log": _log(tournament_events, names),
        "heads": _heads(tournament_events, tables, order),
        "rules_cited": _rules(tournament_events, tables),
    }
    context["lang"] = language()
    return _environment().get_template(TEMPLATE).render(context)
