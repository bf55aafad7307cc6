"""The reference CLI's protests, rulings and score card (R-ROUND-7, R-ROUND-8): the lines the
proctor and the student type, the words of their events, and `t24 replay`'s marks, on a round
played by the real game and stored in a real SQLite file (an audit export too)."""

from __future__ import annotations

import json

import pytest
from challenge_tables import ANSWERS, DIRECTOR, PROCTOR, Table, player, types
from shell_testcase import ShellTestCase
from test_cli_app import FakeLink, Feed, make_app, welcome
from twisted.internet.defer import Deferred

from clients.reference_cli import cli, exit_codes
from clients.reference_cli.connection import ServerRefused
from clients.reference_cli.games.challenge import play_input, proctor_input
from clients.reference_cli.games.challenge.event_words import describe_event
from clients.reference_cli.games.challenge.hearing import (
    HearingLineError,
    describe_preview,
    protest_args,
    ruling_args,
)
from clients.reference_cli.keyboard import Ask, Notice, Send
from server.audit.export import export_stream
from server.eventlog.backends import open_blocking_store
from server.eventlog.envelope import NewEvent
from server.games import challenge

VIEW = {"seats": [{"seat": "s1", "name": "Ada"}, {"seat": "s2", "name": "Bo"}], "toucher": None}
NAMES = {"s1": "Ada", "s2": "Bo"}


def typed(press, state, line: str, view=VIEW):
    """Type `line` and Enter; return the effects of the Enter."""
    effects = []
    for key in line:
        state, effects = press(state, key, view)
    return press(state, "\r", view)


class HearingPromptTests(ShellTestCase):
    def test_the_proctor_files_rules_previews_and_signs_from_the_prompt(self):
        state = proctor_input.ProctorInput()
        _state, effects = typed(proctor_input.press, state, "protest Bo 7,9 the touch was late")
        assert effects == [
            Send(
                "file_protest",
                {"seat": "s2", "seqs": [7, 9], "reason": "the touch was late"},
                "protest Bo 7,9 the touch was late",
            )
        ]
        line = (
            "rule 1 uphold the steps were right | rescind 2 7; award Ada c3; adjust s1 -1 tie;"
            " rescind Bo SLAP"
        )
        _state, (effect,) = typed(proctor_input.press, state, line)
        assert isinstance(effect, Send) and effect.name == "rule_protest"
        assert effect.args == {
            "protest": 1,
            "upheld": True,
            "ruling_text": "the steps were right",
            "corrections": [
                {"kind": "rescind_flag", "seat": "s2", "flag": 7},
                {"kind": "award_card", "seat": "s1", "card": "c3"},
                {"kind": "adjust_score", "seat": "s1", "delta": -1, "why": "tie"},
                {"kind": "rescind_slap", "seat": "s2"},  # R-PLAY-3: a slap ruled wrong
            ],
        }
        _state, (effect,) = typed(proctor_input.press, state, "preview 1 reject no")
        assert isinstance(effect, Ask) and effect.name == "preview_ruling"  # a query: not recorded
        assert effect.args["upheld"] is False and effect.args["corrections"] == []
        _state, effects = typed(proctor_input.press, state, "sign PK")
        assert effects == [Send("sign_score_card", {"initials": "PK"}, "sign PK")]
        _state, effects = typed(proctor_input.press, state, "reopen a late protest")
        assert effects == [
            Send("reopen_score_card", {"reason": "a late protest"}, "reopen a late protest")
        ]
        _state, effects = typed(proctor_input.press, state, "slap 2")
        assert effects == [Send("rule_slap", {"seat": "s2"}, "slap 2")]
        assert any("protest [SEAT] SEQ" in line for line in proctor_input.help_lines())

    def test_a_hearing_line_that_cannot_be_read_says_why(self):
        for line, words in [
            ("protest Bo", "usage: protest"),
            ("protest Zed 7 why", "no seat 'Zed'"),
            ("protest 7x why", "by seq"),
            ("rule one uphold x", "usage: rule"),
            ("rule 1 maybe x", "usage: rule"),
            ("rule 1 uphold | award Bo c1", "say why"),
            ("rule 1 uphold ok | award Zed c1", "no seat 'Zed'"),
            ("rule 1 uphold ok | pardon Bo c1", "rescind SEAT FLAG_SEQ"),
            ("rule 1 uphold ok | adjust Bo +1", "rescind SEAT FLAG_SEQ"),
            ("sign P K", "usage: sign"),
            ("reopen", "usage: reopen"),
        ]:
            _state, (effect,) = typed(proctor_input.press, proctor_input.ProctorInput(), line)
            assert isinstance(effect, Notice) and effect.error and words in effect.text

    def test_a_student_files_a_protest_from_the_play_keys(self):
        view = {**VIEW, "phase": "between_cards", "card": None}
        state, effects = play_input.press(play_input.PlayInput(), "p", view)
        assert state.mode == "protest" and effects == [] and state.prompt() == "protest> ▌"
        assert "[p] protest" in play_input.PlayInput().keys_help(view)
        # The card in play may change while the student types: the line stays.
        assert play_input.reconcile(state, {**view, "card": {"play": 3}}, "s1") == state
        _state, effects = typed(play_input.press, state, "5,6 I touched first", view)
        assert effects == [
            Send("file_protest", {"seqs": [5, 6], "reason": "I touched first"}, "protest")
        ]
        state, effects = typed(play_input.press, state, "five why", view)
        assert effects[0].error and "which event?" in effects[0].text and state.mode == "protest"
        assert play_input.press(state, "\x1b", view)[0].mode == "idle"  # Esc leaves the line

    def test_protest_args_for_a_student_never_name_a_seat(self):
        assert protest_args(["7", "why", "not"], None) == {"seqs": [7], "reason": "why not"}
        with pytest.raises(HearingLineError):
            protest_args(["Bo", "7", "why"], None)
        with pytest.raises(HearingLineError):
            ruling_args(["1", "uphold", "x", "|", "rescind", "Bo", "x"], lambda word: "s2")


def hearing_round() -> Table:
    """A round with a flag for a right answer, a protest, an upheld ruling, the signature."""
    table = Table.started(seats=3, cards=["c1", "c2"])
    table.next_card()
    table.do("touch_card", player("s2"))
    table.do("declare_pattern", player("s2"), pattern=ANSWERS["c1"][2])
    table.do("fix_solution", player("s2"), steps=["1 + 1 = 2", "2 + 1 = 3", "3 + 8 = 11"])
    flag = table.seq_of("FlagIssued")
    table.do("file_protest", player("s2"), seqs=[flag], reason="the judge misread my steps")
    table.do(
        "rule_protest",
        protest=1,
        upheld=True,
        ruling_text="the steps were right",
        corrections=[
            {"kind": "rescind_flag", "seat": "s2", "flag": flag},
            {"kind": "award_card", "seat": "s2", "card": "c1"},
            {"kind": "adjust_score", "seat": "s3", "delta": 1, "why": "a tie-break point"},
        ],
    )
    table.do("end_round")
    table.do("sign_score_card", initials="PK")
    table.do("reopen_score_card", DIRECTOR, reason="a late protest")
    return table


class HearingWordsTests(ShellTestCase):
    def test_every_hearing_event_reads_as_words(self):
        table = hearing_round()
        names = {"s1": "Ada", "s2": "Bo", "s3": "Cy"}
        words = {
            event.type: describe_event(event.type, event.data, names) for event in table.events
        }
        flag = table.seq_of("FlagIssued")
        assert words["ProtestFiled"] == (
            f"PROTEST 1 by Bo disputes #{flag}: the judge misread my steps (R-ROUND-8)"
        )
        assert words["ProtestRuled"].startswith(
            "ruling by the proctor on protest 1: UPHELD: the steps were right"
        )
        assert f"rescind Bo's flag #{flag}" in words["ProtestRuled"]
        assert words["FlagRescinded"] == f"CORRECTION: Bo's flag #{flag} rescinded, 0 flags left"
        assert words["CardAwarded"] == "CORRECTION: Bo is awarded card c1 (+1 point)"
        assert words["ScoreAdjusted"] == "CORRECTION: Cy +1: a tie-break point"
        assert words["ScoreCardSigned"] == "score card signed by PK: Ada 0, Bo 1, Cy 1 (R-ROUND-7)"
        assert words["ScoreCardReopened"] == "score card reopened by the director: a late protest"
        slap = describe_event("PlayerDisqualified", {"seat": "s1", "cause": "slap"}, names)
        assert slap == "Ada is disqualified: a slap with the whole hand (R-PLAY-3)"
        lifted = describe_event(
            "ProtestRuled",
            {
                "protest": 2,
                "upheld": True,
                "ruling_text": "a typing error",
                "corrections": [{"kind": "rescind_slap", "seat": "s1"}],
            },
            names,
        )
        assert lifted == (
            "ruling by the director on protest 2: UPHELD: a typing error; "
            "corrections: lift Ada's slap"
        )

    def test_the_preview_answer_reads_as_what_would_change(self):
        table = Table.started(seats=3, cards=["c1", "c2"], flag_limit=1)
        table.do("issue_flag", seat="s1", cause="no_pattern")
        table.do("file_protest", player("s1"), seqs=[3], reason="x")
        args = {
            "protest": 1,
            "upheld": True,
            "ruling_text": "y",
            "corrections": [{"kind": "rescind_flag", "seat": "s1", "flag": 3}],
        }
        result = challenge.query(table.state, "preview_ruling", args, PROCTOR, table.now)
        text = describe_preview(result, {"s1": "Ada"})
        assert text == "preview (not recorded): Ada 0->0 points, 1->0 flags; Ada reinstated"
        assert describe_preview({"before": {}, "after": {}}, {}).endswith(
            "no score, flag or disqualification changes"
        )


def stored(tmp_path, table: Table) -> str:
    url = f"sqlite:///{tmp_path / 'hearing.sqlite'}"
    store = open_blocking_store(url)
    created = NewEvent("TableCreated", {"game": "challenge", "options": table.raw_options})
    store.append("table/h1", 0, [created, *(NewEvent(e.type, dict(e.data)) for e in table.events)])
    store.close()
    return url


class HearingReplayTests(ShellTestCase):
    def test_replay_marks_protests_and_corrections_and_lists_the_evidence(self):
        tmp_path, capsys = self.tmp_path, self.capsys
        table = hearing_round()
        url = stored(tmp_path, table)
        assert cli.main(["replay", "--store", url, "h1", "--print", "--color", "never"]) == 0
        out = capsys.readouterr().out
        flag = table.seq_of("FlagIssued")
        flag_line = next(line for line in out.splitlines() if line.startswith(f"#{flag} "))
        assert flag_line.endswith("<- disputed by protest 1")
        assert "[PROTEST]" in out and "[RULING]" in out and out.count("[CORRECTION]") == 3
        assert f"protest 1 open: Bo disputes #{flag}" in out  # under the table until ruled
        assert "score card signed by PK (R-ROUND-7)" in out
        summary = out.split("protests (R-ROUND-8):\n")[1]
        assert summary.startswith("protest 1 (#")
        assert "upheld): the judge misread my steps" in summary
        assert f"    #{flag} " in summary and "penalty flag for Bo" in summary
        assert cli.main(["replay", "--store", url, "h1", "--json"]) == 0
        records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        assert records[flag - 1]["mark"] == "<- disputed by protest 1"
        assert records[-1]["table"]["score_card"] == {
            "signed": False,
            "initials": None,
            "at": None,
            "by": None,
        }

    def test_an_audit_export_shows_protests_and_rulings(self):
        """Protests and rulings are ordinary events: `t24 log export` carries them and
        `t24 replay --export` shows them from the file alone."""
        tmp_path, capsys = self.tmp_path, self.capsys
        table = hearing_round()
        url = stored(tmp_path, table)
        store = open_blocking_store(url, create=False)
        path = tmp_path / "h1.t24export"
        path.write_text(
            "\n".join(export_stream(store, "table/h1", 1_800_000_000_000_000).lines) + "\n"
        )
        store.close()
        exported = [json.loads(line) for line in path.read_text().splitlines()[1:]]
        kinds = [record["event"]["type"] for record in exported]
        assert {"ProtestFiled", "ProtestRuled", "FlagRescinded", "ScoreCardSigned"} <= set(kinds)
        assert types(table.events) == kinds[1:]
        assert cli.main(["replay", "--export", str(path), "--print", "--color", "never"]) == 0
        out = capsys.readouterr().out
        assert "[PROTEST]" in out and "score card signed by PK" in out


class QueryLink(FakeLink):
    """A link that also answers requests (the `query` message) when the test says so."""

    table = "t1"

    def __init__(self):
        super().__init__()
        self.requests: list[tuple[str, dict, Deferred]] = []

    def request(self, kind, **fields):
        deferred = Deferred()
        self.requests.append((kind, fields, deferred))
        return deferred


class HearingPreviewTests(ShellTestCase):
    def test_the_proctor_shell_asks_for_a_preview_and_shows_the_answer(self):
        table = Table.started(seats=3, cards=["c1", "c2"], flag_limit=1)
        table.do("issue_flag", seat="s1", cause="no_pattern")
        table.do("file_protest", player("s1"), seqs=[3], reason="x")
        app, _link, lines, _ = make_app("proctor", allowed=("proctor", "director"))
        app.link = link = QueryLink()
        welcome(app, seat=None, role="proctor")
        app.link_snapshot(Feed(table, PROCTOR).snapshot(), 0)
        app.keys("preview 7 reject no\r")
        link.requests[-1][2].errback(ServerRefused("unknown_protest", "no protest 7"))
        assert "no protest has that number at this table" in "".join(lines)
        app.keys("preview 1 uphold wrong flag | rescind 1 3\r")
        kind, fields, deferred = link.requests[-1]
        assert kind == "query" and fields["name"] == "preview_ruling" and fields["table"] == "t1"
        assert link.sent == []  # nothing was sent as a command
        result = challenge.query(table.state, "preview_ruling", fields["args"], PROCTOR, table.now)
        app.end_of_input()
        assert app.exit_code is None  # a script waits for the answer
        deferred.callback({"type": "answer", "result": result})
        assert "preview (not recorded): Ada 0->0 points, 1->0 flags; Ada reinstated" in "".join(
            lines
        )
        assert app.exit_code == exit_codes.NEGATIVE  # the refused preview counts
