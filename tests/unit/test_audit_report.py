"""The officials' report (server/audit/report.py): a document for people, from the bundle's data.

Given a tournament played through the real Deciders (tests/report_tournament.py: a slap
disqualification, a withdrawal, a protest upheld, a tie-break, Double Digits cards), its bundle
is written and verified, and its report.html read as a person would: every event in words (no
event name, no dict, no code, no seat id where the name is known), the disqualified and the
withdrawn marked in the standings, the champions by name, the contents' links all landing, the
chain heads of the manifest all shown, every card's numbers apart.
"""

from __future__ import annotations

import re
from dataclasses import replace
from html.parser import HTMLParser
from types import SimpleNamespace

import pytest
from challenge_tables import PROCTOR, Table, options, player
from report_tournament import TID, played

import server.tournament as tournament
from server.audit import report_events
from server.audit.bundle import build_bundle, verify_bundle, write_bundle
from server.audit.report_events import (
    TABLE_SENTENCES,
    TOURNAMENT_SENTENCES,
    Names,
    TableContext,
    table_sentence,
    tournament_sentence,
)
from server.audit.report_timeline import timeline
from server.audit.report_words import CHALLENGE, CHALLENGE_EVENTS, TOURNAMENT, say
from server.audit.signing import load_or_create_signing_key
from server.games import challenge
from server.games.base import Command

EVENT_NAMES = challenge.EVENT_TYPES | tournament.EVENT_TYPES | {"TableCreated"}


class Text(HTMLParser):
    """The page as a reader sees it: the visible text (no style sheet, no markup), each
    element's id, each link's target; `skip_class` drops the text of elements of a class
    (the ids shown beside names, the stream names of the chain heads)."""

    def __init__(self, skip_classes: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.skip_classes = skip_classes
        self.parts: list[str] = []
        self.ids: list[str] = []
        self.links: list[str] = []
        self.stack: list[bool] = []  # per open element: is its text skipped

    def handle_starttag(self, tag, attrs):
        found = dict(attrs)
        if "id" in found:
            self.ids.append(found["id"])
        if tag == "a" and "href" in found:
            self.links.append(found["href"])
        if tag in ("meta", "br", "link"):
            return
        classes = (found.get("class") or "").split()
        skipped = tag in ("style", "script") or any(c in self.skip_classes for c in classes)
        self.stack.append(skipped or bool(self.stack and self.stack[-1]))

    def handle_endtag(self, tag):
        if tag not in ("meta", "br", "link") and self.stack:
            self.stack.pop()

    def handle_data(self, data):
        if not (self.stack and self.stack[-1]):
            self.parts.append(data)

    @property
    def text(self) -> str:
        return re.sub(r"\s+", " ", " ".join(self.parts))


def read(page: str, *skip: str) -> Text:
    parsed = Text(skip)
    parsed.feed(page)
    return parsed


@pytest.fixture(scope="module")
def source():
    return played()


@pytest.fixture(scope="module")
def bundle(source, tmp_path_factory):
    directory = tmp_path_factory.mktemp("report")
    key = load_or_create_signing_key(directory / "key")
    store = source.stored()
    files = build_bundle(store, TID, key)
    write_bundle(files, directory / "bundle")
    manifest = verify_bundle(directory / "bundle")
    streams = {stream: store.load(stream) for stream in manifest["streams"]}
    return files["report.html"].decode("utf-8"), manifest, streams


def names_of(source) -> Names:
    return Names({s: info.name for s, info in source.tourney.state.students.items()})


NEXT = {
    "summary": "contents",
    "contents": "standings",
    "standings": "rounds",
    "section-1": "section-2",
    "protests": "log",
    "heads": "rules",
}


def section(page: str, anchor: str) -> str:
    """The HTML from the element `id=anchor` to the part after it (`NEXT`)."""
    start = page.index(f'id="{anchor}"')
    return page[start : page.index(f'id="{NEXT[anchor]}"', start)]


# -- every event in words ---------------------------------------------------------------------


def test_the_played_tournament_has_what_the_report_must_word(source, bundle):
    """The given: a slap, a withdrawal, an upheld protest, a tie-break, Double Digits."""
    _page, _manifest, streams = bundle
    present = {e.type for events in streams.values() for e in events}
    for needed in (
        "PlayerDisqualified",
        "StudentWithdrawn",
        "ProtestRuled",
        "FlagRescinded",
        "ScoreAdjusted",
        "TieBreakSeated",
        "TouchRefused",
        "FirstTouchOverridden",
        "TablePaused",
        "StepsStated",
        "ScoreCardReopened",
        "SeatsSwapped",
        "GradesMerged",
    ):
        assert needed in present, needed
    slaps = [e for events in streams.values() for e in events if e.type == "PlayerDisqualified"]
    assert {e.data["cause"] for e in slaps} == {"slap", "flag_limit"}
    round_three = source.tourney.state.round(3).deck
    assert all(any(n >= 10 for n in card["numbers"]) for card in round_three)  # Double Digits


def test_every_recorded_event_is_in_the_report_in_words(source, bundle):
    page, _manifest, streams = bundle
    names, text = names_of(source), read(page).text
    for stream, events in streams.items():
        started = [
            e.data["options"] for e in events if e.type == "RoundStarted" and "options" in e.data
        ]
        ctx = TableContext(names, flag_limit=started[0]["flag_limit"] if started else None)
        for event in events:
            if stream.startswith("tournament/"):
                sentence = tournament_sentence(event.type, event.data, names)
                assert sentence != say(TOURNAMENT, "unknown"), event.type
            else:
                sentence = table_sentence(event.type, event.data, ctx)
                assert sentence != say(CHALLENGE, "unknown"), event.type
            assert f"#{event.seq} " in text and sentence in text, (stream, event.seq, sentence)


def test_no_event_name_dict_code_or_seat_id_reaches_the_reader(source, bundle):
    page, _manifest, _streams = bundle
    text = read(page, "id", "stream").text
    for name in EVENT_NAMES:
        assert not re.search(rf"\b{name}\b", text), name
    assert "{" not in text and "}" not in text
    assert not re.search(r"'\w+':", text)
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", text), re.findall(r"\b[a-z]+_[a-z_]+\b", text)
    seat_ids = set(source.tourney.state.students)
    shown = set(re.findall(r"\bp\d+\b", text))
    assert not shown & seat_ids, shown & seat_ids
    assert "True" not in text.split() and "None" not in text.split()


def test_a_seat_id_is_shown_beside_its_name_only(source, bundle):
    page, _manifest, _streams = bundle
    for student in source.tourney.state.students.values():
        shown = (
            f'<span class="name">{student.name}</span> <span class="id">{student.student_id}</span>'
        )
        assert shown in page, student


def test_the_tables_word_every_event_type_of_both_games():
    assert set(TABLE_SENTENCES) == challenge.EVENT_TYPES | {"TableCreated"}
    assert set(TOURNAMENT_SENTENCES) == tournament.EVENT_TYPES | {"TableCreated"}
    for cause in challenge.FLAG_CAUSES:
        assert f"reason.{cause}" in CHALLENGE_EVENTS  # the game's own words (the terminal's)


def test_a_compensated_table_and_an_unknown_event_are_worded_too():
    """R-PLAY-2 under compensation (no tournament table has it): claims and the grant."""
    table = Table(options(touch_compensation=True))
    table.do("start_round", PROCTOR)
    table.next_card()
    table.advance(1)
    for seat, delay in (("s1", 5_000), ("s2", 60_000)):
        command = Command("touch_card", {}, player(seat), delay_us=delay)
        for event in challenge.decide(table.state, command, table.now):
            table.state = challenge.evolve(table.state, event)
            table.events.append(event)
        table.advance(0.030)
    table.fire("grant_first_touch")
    recorded = [
        SimpleNamespace(type=e.type, data=e.data, seq=n, at=e.data["at"])
        for n, e in enumerate(table.events, 2)
    ]
    recorded.append(SimpleNamespace(type="NotYetInvented", data={"a_b": 1}, seq=99, at=0))
    names = Names({"s1": "Ada", "s2": "Bo", "s3": "Cy", "s4": "Di"})
    lines = [line.text for group in timeline(recorded, names) for line in group.lines]
    assert "Bo touched: arrived 1.030 s after the reveal" in lines[-3]
    assert "lag 60 ms, credit 60 ms, compensated 0.970 s after the reveal" in lines[-3]
    assert lines[-2] == (
        "Bo touched first, lag compensated (R-PLAY-2): compensated order Bo, Ada; "
        "arrival order Ada, Bo"
    )
    assert lines[-1] == say(CHALLENGE, "unknown")
    assert not any(re.search(r"\bs\d\b|[{}_]", line) for line in lines)


def test_a_code_no_table_knows_is_quoted_not_shown_raw():
    names = Names({"p1": "Ada"})
    paused = table_sentence("TablePaused", {"cause": "fire drill"}, TableContext(names))
    assert paused == "Table paused (“fire drill”)"
    assert report_events.numbers_text([21, 16, 8, 21]) == "21 16 8 21"


# -- the document -----------------------------------------------------------------------------


def test_the_disqualified_and_the_withdrawn_are_marked_in_the_standings(source, bundle):
    page, _manifest, _streams = bundle
    standings = section(page, "standings")
    state = source.tourney.state
    ivy = next(s for s in state.students.values() if s.name == "Ivy Baker")
    hal = next(s for s in state.students.values() if s.name == "Hal Jordan")
    slap_table = next(t.table for t in state.round(1).tables if ivy.student_id in t.students)
    row = next(r for r in standings.split("<tr") if f">{ivy.student_id}<" in r)
    assert (
        f'<span class="mark dq">disqualified in round 1, table {slap_table}: '
        "a slap with the whole hand (R-PLAY-3)</span>"
    ) in row
    row = next(r for r in standings.split("<tr") if f">{hal.student_id}<" in r)
    assert '<span class="mark withdrawn">withdrew after round 1 started</span>' in row
    assert "<td>withdrew</td>" in row
    # the semi-final's flag-limit disqualification is marked at its own table
    semi = next(t for t in state.round(3).tables if t.section == "5th + 6th")
    flagged = semi.students[2]
    rows = [r for r in standings.split("<tr") if f">{flagged}<" in r]
    assert any("disqualified: the flag limit (R-FLAG-3)</span>" in r for r in rows)
    assert state.results[semi.table].disqualified == (flagged,)


def test_the_champions_are_named_not_numbered(source, bundle):
    page, _manifest, _streams = bundle
    cover = read(section(page, "summary")).text
    for section_name, student in source.tourney.state.champions.items():
        name = source.tourney.state.students[student].name
        assert f"{section_name} Champion {name} {student}" in cover, cover
    assert not re.search(r"Champion:? p\d", read(page).text)


def test_the_contents_links_all_land_and_the_ids_are_unique(bundle):
    page, _manifest, _streams = bundle
    parsed = read(page)
    assert len(parsed.ids) == len(set(parsed.ids))
    targets = [link[1:] for link in parsed.links if link.startswith("#")]
    assert targets and set(targets) <= set(parsed.ids), set(targets) - set(parsed.ids)
    contents = section(page, "contents")
    for anchor in ("standings", "rounds", "protests", "log", "heads", "rules", "tie-breaks"):
        assert f'href="#{anchor}"' in contents


def test_the_chain_heads_of_the_manifest_are_in_the_report(bundle):
    page, manifest, _streams = bundle
    heads = section(page, "heads")
    for stream, head in manifest["streams"].items():
        row = (
            f'<td class="stream">{stream}</td><td class="num">{head["last_seq"]}</td>'
            f'<td class="hash">{head["head"]}</td>'
        )
        assert row in heads, stream


def test_every_card_shows_four_separate_numbers(source, bundle):
    page, _manifest, _streams = bundle
    dealt = [c for n in (1, 2, 3) for c in source.tourney.state.round(n).deck]
    assert any(any(n >= 10 for n in card["numbers"]) for card in dealt)
    for card in dealt:
        boxed = " ".join(f'<span class="n">{n}</span>' for n in card["numbers"])
        assert f'<span class="numbers">{boxed}</span>' in page, card
    for run in re.findall(r'<span class="numbers">(.*?)</span></span>', page):
        assert re.fullmatch(r'(<span class="n">\d+</span> ){3}<span class="n">\d+', run), run


def test_the_protest_upheld_is_in_words_with_its_ruling_and_corrections(source, bundle):
    page, _manifest, _streams = bundle
    protests = read(section(page, "protests")).text
    assert "Protest 1 at table r2.s1.t01" in protests
    assert "“the proctor misheard my steps”" in protests
    assert "UPHELD: the steps were right as said" in protests
    assert "CORRECTION: " in protests and "rescinded, 0 flags left" in protests
    assert "REJECTED: the flag was not yours" in protests


def test_the_tie_break_is_in_the_standings_and_has_its_score_card(source, bundle):
    page, _manifest, _streams = bundle
    (tie,) = source.tourney.state.tie_breaks
    standing = read(section(page, "section-1")).text
    state = source.tourney.state
    scores = state.results[tie.tables[0].table].scores
    players = ", ".join(f"{state.students[s].name} {scores[s]}" for s in tie.students)
    assert f"Tie-break 1 (round 2, for 1 place, R-ROUND-6): {players}." in standing
    assert f'id="table-{tie.tables[0].table}"' in page


def test_timelines_are_collapsed_and_every_table_has_one(source, bundle):
    page, _manifest, _streams = bundle
    assert "<details open" not in page
    assert page.count('<details class="timeline">') == len(source.tables) + 1  # + the log


def test_names_are_escaped_never_markup(source):
    """Autoescape: a name is text, whatever it holds."""
    from server.audit.report import report_html

    state = source.tourney.state
    students = dict(state.students)
    first = next(iter(students))
    students[first] = replace(students[first], name="<b>Bold</b> & Co")
    page = report_html(replace(state, students=students), [], {})
    assert "&lt;b&gt;Bold&lt;/b&gt; &amp; Co" in page and "<b>Bold" not in page


def test_two_students_of_one_name_read_apart_in_the_report(tmp_path):
    """Ada Lovelace of Hill School and a second Ada Lovelace (Eli Whitney of Park School,
    renamed): the report tells them apart in words, `Ada Lovelace (2)`, everywhere."""
    source = played()
    eli = next(s for s in source.tourney.state.students.values() if s.name == "Eli Whitney")
    (registered,) = [e for e in source.tourney.events if e.type == "StudentsRegistered"]
    for row in registered.data["students"]:  # as if registered so (another school: allowed)
        row["name"] = "Ada Lovelace" if row["name"] == "Eli Whitney" else row["name"]
    key = load_or_create_signing_key(tmp_path / "key")
    page = build_bundle(source.stored(), TID, key)["report.html"].decode("utf-8")
    second = f'<span class="name">Ada Lovelace (2)</span> <span class="id">{eli.student_id}</span>'
    assert second in page
    assert '<span class="name">Ada Lovelace</span> <span class="id">p1</span>' in page
    text = read(page, "id", "stream").text
    assert "Ada Lovelace (2)" in section(page, "standings")
    assert re.search(r"Scores: Ada Lovelace 3, Cy Young 0, Ada Lovelace \(2\) 0", text), text
