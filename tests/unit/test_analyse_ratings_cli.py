"""`t24 analyse --ratings` (clients/reference_cli/analyse_commands.py, docs/cli.md) on a real
SQLite store and an audit export: every student's rating across the log and the cards',
one student's history by name, JSON, and every error path with its exit code."""

from __future__ import annotations

import json

import pytest
from challenge_tables import PROCTOR, T0, S, Table

from clients.reference_cli.cli import main
from server.analysis.log_ratings import rate_log
from server.audit.export import export_stream
from server.eventlog.backends import open_blocking_store
from server.eventlog.envelope import NewEvent

HOUR = 3600 * S


@pytest.fixture
def recorded(tmp_path):
    """Ada wins a signed 24 Challenge round (table r1), then beats Bo at pocket (pk, as
    "ada"); stored, and r1 exported."""
    table = Table.started(seats=4, cards=["c1", "c9"])
    for _ in range(2):
        table.next_card()
        table.advance(2).win("s1")
    table.do("sign_score_card", initials="PK")
    url = f"sqlite:///{tmp_path / 'log.sqlite'}"
    store = open_blocking_store(url)
    new = [NewEvent("TableCreated", {"game": "challenge", "options": table.raw_options})]
    new += [NewEvent(event.type, dict(event.data), PROCTOR) for event in table.events]
    store.append("table/r1", 0, new)
    seats = [{"seat": "s1", "name": "Bo"}, {"seat": "s2", "name": "ada"}]
    ended = {"at": T0 + HOUR, "reason": "stack_used_up", "scores": {"s1": 1, "s2": 4}}
    pocket = [
        NewEvent("TableCreated", {"game": "pocket", "options": {"seats": seats}}),
        NewEvent("GameEnded", ended),
    ]
    store.append("table/pk", 0, pocket)
    loaded = {name: store.load(name) for name in ("table/r1", "table/pk")}
    export = tmp_path / "r1.t24export"
    export.write_text("".join(f"{line}\n" for line in export_stream(store, "table/r1", T0).lines))
    store.close()
    return url, export, rate_log(loaded)


def test_every_student_and_the_cards_across_the_store(recorded, capsys):
    url, _export, rated = recorded
    assert main(["analyse", "--ratings", "--store", url]) == 0
    out = capsys.readouterr().out
    assert "Ratings across the log: 4 students, 2 cards" in out
    ada = rated.student("Ada")
    rows = [line for line in out.splitlines() if line.startswith(("Ada", "Bo", "Cy", "Di"))]
    assert rows[0].split()[:4] == [
        "Ada",
        str(round(ada.rating.mu)),
        "±",
        str(round(ada.rating.sigma)),
    ]
    assert "1 1 1 8" in out and "2 2 2 3" in out


def test_one_students_history_by_name_and_json(recorded, capsys):
    url, export, rated = recorded
    assert main(["analyse", "--ratings", "--store", url, "--student", "ADA"]) == 0
    out = capsys.readouterr().out
    assert "2 steps at 2 tables" in out
    assert "24 Challenge: 1st of 4 with 3 points" in out and "pocket 24: 1st of 2" in out
    assert main(["analyse", "--ratings", "--store", url, "--student", "ada", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(
        json.dumps(rated.student("ada").as_data())
    )
    assert main(["analyse", "--ratings", str(export), "--json"]) == 0  # one table's export
    data = json.loads(capsys.readouterr().out)
    assert sorted(s["name"] for s in data["students"]) == ["Ada", "Bo", "Cy", "Di"]


def test_bad_input_exits_2_and_a_broken_chain_exits_1(recorded, tmp_path, capsys):
    url, export, _rated = recorded
    assert main(["analyse", "--ratings", "--store", url, "table/r1"]) == 2
    assert main(["analyse", "--ratings", "--store", url, "--grade", "4th"]) == 2
    assert main(["analyse", "--ratings", "--store", url, "--student", "Zed"]) == 2
    assert main(["analyse", "--ratings"]) == 2
    assert main(["analyse", "--ratings", str(tmp_path / "nothing")]) == 2
    assert "no table rated a student named 'Zed'" in capsys.readouterr().err
    lines = export.read_text().splitlines()
    event = json.loads(lines[2])
    event["hash"] = "00" * 32  # a changed link
    broken = tmp_path / "broken.t24export"
    broken.write_text("\n".join([lines[0], lines[1], json.dumps(event), *lines[3:]]) + "\n")
    assert main(["analyse", "--ratings", str(broken)]) == 1
