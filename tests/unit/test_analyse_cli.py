"""`t24 analyse` (clients/reference_cli/analyse_commands.py, docs/cli.md) on a real SQLite
store and an audit export: a table's cards and students, one student's report, JSON; every
error path with its exit code (2 bad input, 1 a broken chain)."""

from __future__ import annotations

import json

import pytest
from challenge_tables import PROCTOR, T0, Table

from clients.reference_cli.cli import main
from server.audit.export import export_stream
from server.eventlog.backends import open_blocking_store
from server.eventlog.envelope import NewEvent

STREAM = "table/first"


@pytest.fixture
def recorded(tmp_path):
    """A round of two cards: Bo wins c1, then c2 is stumped; stored and exported."""
    table = Table.started(seats=4, cards=["c1", "c2"], stumped_cards="set_aside")
    table.next_card()
    table.advance(1.5).win("s2")
    table.next_card()
    table.fire("no_touch_deadline")
    url = f"sqlite:///{tmp_path / 'log.sqlite'}"
    store = open_blocking_store(url)
    new = [NewEvent("TableCreated", {"game": "challenge", "options": table.raw_options})]
    new += [NewEvent(event.type, dict(event.data), PROCTOR) for event in table.events]
    store.append(STREAM, 0, new)
    export = tmp_path / "first.t24export"
    export.write_text("".join(f"{line}\n" for line in export_stream(store, STREAM, T0).lines))
    store.close()
    return url, export


def test_a_table_from_the_store_and_from_its_export_prints_the_same(recorded, capsys):
    url, export = recorded
    assert main(["analyse", "--store", url, STREAM]) == 0
    from_store = capsys.readouterr().out
    assert main(["analyse", str(export)]) == 0
    assert capsys.readouterr().out == from_store
    assert "c1" in from_store and "Bo 1.5 s" in from_store and "stumped" in from_store


def test_one_students_report_and_json(recorded, capsys):
    _url, export = recorded
    assert main(["analyse", str(export), "--student", "s2"]) == 0
    assert "Bo" in capsys.readouterr().out
    assert main(["analyse", str(export), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["cards"][0]["solved_by"] == "s2" and data["cards"][1]["stumped"]


def test_bad_input_exits_2_and_a_broken_chain_exits_1(recorded, tmp_path, capsys):
    url, export = recorded
    assert main(["analyse", str(tmp_path / "nothing")]) == 2
    assert main(["analyse", str(export), "--student", "s9"]) == 2
    assert main(["analyse", "--store", url]) == 2
    assert main(["analyse"]) == 2
    assert main(["analyse", "--store", url, "table/none"]) == 2
    lines = export.read_text().splitlines()
    event = json.loads(lines[2])
    event["hash"] = "00" * 32  # a changed link
    broken = tmp_path / "broken.t24export"
    broken.write_text("\n".join([lines[0], lines[1], json.dumps(event), *lines[3:]]) + "\n")
    assert main(["analyse", str(broken)]) == 1
    assert "the chain breaks" in capsys.readouterr().err
