"""Protests, rulings and the score card over the wire (R-ROUND-7, R-ROUND-8): a real server
process, real sockets, a temp SQLite file. A student protests a flag, the proctor previews
the ruling (a `query`: answered, never recorded), rules, signs; the table is then over."""

from __future__ import annotations

import pytest
from test_server_play import command, new_table, seat_client

pytestmark = pytest.mark.e2e


def test_a_protest_heard_and_the_score_card_signed_over_the_wire(server, connect):
    table, director = new_table(server, connect)
    proctor = connect(server.token("proctor", name="p", table=table))
    s1 = seat_client(server, connect, table, "s1")
    spectator = connect(server.token("spectator", name="w", table=table))
    for client in (proctor, s1, spectator):
        assert client.request("join", table=table)["type"] == "snapshot"
    command(proctor, table, "start_round")
    flagged = command(proctor, table, "issue_flag", seat="s1", cause="no_pattern")
    flag_seq = spectator.event("FlagIssued")["seq"]
    assert flag_seq <= flagged["seq"]

    filed = command(s1, table, "file_protest", seqs=[flag_seq], reason="I said 4 x 6")
    assert spectator.event("ProtestFiled")["data"]["by"] == "s1"
    ruling = {
        "protest": 1,
        "upheld": True,
        "ruling_text": "the pattern was heard",
        "corrections": [{"kind": "rescind_flag", "seat": "s1", "flag": flag_seq}],
    }
    answer = proctor.request("query", table=table, name="preview_ruling", args=ruling)
    assert answer["type"] == "answer" and answer["seq"] == filed["seq"]  # nothing recorded
    assert answer["result"]["after"]["flags"]["s1"] == 0
    refused = s1.request("query", table=table, name="preview_ruling", args=ruling)
    assert refused["type"] == "error" and refused["code"] == "not_allowed"

    command(proctor, table, "rule_protest", **ruling)
    assert spectator.event("FlagRescinded")["data"]["flags"] == 0
    command(proctor, table, "end_round")
    rows = {row["table"]: row for row in director.request("list_tables")["tables"]}
    assert rows[table]["over"] is False  # not signed yet (the shared server lists others too)
    signed = command(proctor, table, "sign_score_card", initials="PK")
    pushed = spectator.event("ScoreCardSigned")
    assert pushed["seq"] == signed["seq"] and pushed["data"]["flags"]["s1"] == 0
    rows = {row["table"]: row for row in director.request("list_tables")["tables"]}
    assert rows[table]["over"] is True
    late = s1.request(
        "command", table=table, name="file_protest", args={"seqs": [2], "reason": "x"}
    )
    assert late["type"] == "error" and late["code"] == "score_card_signed"
    assert late["rule"] == "R-ROUND-7"
