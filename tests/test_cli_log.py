"""`t24 log streams|show|verify` against a real SQLite file, with the documented exit codes."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys

import pytest

from clients.reference_cli.cli import main
from server.eventlog.backends import open_blocking_store
from server.eventlog.envelope import NewEvent

PLAYER = {"role": "player", "id": "seat-1"}


@pytest.fixture
def store_url(tmp_path):
    url = f"sqlite:///{tmp_path / 'log.sqlite'}"
    clock = iter(range(1_700_000_000, 1_800_000_000, 2))
    engine = open_blocking_store(url, clock=lambda: next(clock))
    engine.append(
        "table/t1",
        0,
        [
            NewEvent("TableCreated", {"game": "challenge", "options": {}}),
            NewEvent("CardTouched", {"card": 7, "raw": b"\x01\x02"}, PLAYER, "c-1:r-2"),
        ],
    )
    engine.append("table/日本", 0, [NewEvent("TableCreated", {"game": "pocket"})])
    engine.append("tournament/spring", 0, [NewEvent("TournamentOpened")])
    engine.close()
    return url


def run(capsys, *argv):
    code = main(["log", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_streams_lists_names_and_last_seq(capsys, store_url):
    code, out, _ = run(capsys, "streams", "--store", store_url)
    assert code == 0
    assert out.splitlines() == ["table/t1\t2", "table/日本\t1", "tournament/spring\t1"]
    code, out, _ = run(capsys, "streams", "--store", store_url, "--prefix", "tour")
    assert (code, out) == (0, "tournament/spring\t1\n")


def test_show_prints_events_for_people_and_as_json_lines(capsys, store_url):
    code, out, _ = run(capsys, "show", "--store", store_url, "table/t1")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == [
        "1",
        "2023-11-14T22:13:20.000000Z",
        "TableCreated",
        "server:server",
        "-",
        '{"game":"challenge","options":{}}',
    ]
    assert lines[1].split()[2:5] == ["CardTouched", "player:seat-1", "c-1:r-2"]
    code, out, _ = run(capsys, "show", "--store", store_url, "table/t1", "--json", "--after", "1")
    [line] = out.splitlines()
    event = json.loads(line)
    assert event["seq"] == 2 and event["data"] == {"card": 7, "raw": {"$bytes": "AQI="}}
    assert event["actor"] == PLAYER and len(event["hash"]) == 64
    assert event["at"] == 1_700_000_000_000_000  # one append, one moment


def test_verify_every_stream_and_one_stream(capsys, store_url):
    code, out, _ = run(capsys, "verify", "--store", store_url)
    assert code == 0
    assert out.splitlines()[-1] == "3 of 3 streams verify"
    assert all(line.startswith("ok ") for line in out.splitlines()[:-1])
    code, out, _ = run(capsys, "verify", "--store", store_url, "table/日本")
    assert code == 0 and out.startswith("ok table/日本 1 events head ")


def test_verify_exits_1_with_the_first_broken_seq(capsys, store_url):
    path = store_url[len("sqlite:///") :]
    connection = sqlite3.connect(path)
    connection.execute("UPDATE events SET body = CAST(body || x'00' AS BLOB) WHERE seq = 2")
    connection.commit()
    connection.close()
    code, out, _ = run(capsys, "verify", "--store", store_url)
    assert code == 1
    assert "BROKEN table/t1 at seq 2: hash does not match the recorded bytes" in out
    assert out.splitlines()[-1] == "2 of 3 streams verify"
    code, out, _ = run(capsys, "verify", "--store", store_url, "table/t1")
    assert code == 1 and "at seq 2" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["show", "--store", "{url}", "table/none"], "no stream 'table/none'"),
        (["verify", "--store", "{url}", "table/none"], "no stream 'table/none'"),
        (["streams", "--store", "mysql://x/y"], "unknown store URL"),
        (["streams", "--store", "sqlite:///{missing}"], "no SQLite event log"),
        (["show", "--store", "{url}", "bad\tname"], "control characters"),
        (["streams", "--store", "postgresql://nobody@127.0.0.1:1/db"], "does not answer"),
    ],
)
def test_bad_input_exits_2_with_a_message(capsys, store_url, tmp_path, argv, message):
    argv = [a.format(url=store_url, missing=tmp_path / "missing.sqlite") for a in argv]
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    assert message in err
    assert not (tmp_path / "missing.sqlite").exists()


def test_log_without_a_subcommand_prints_usage_and_exits_2(capsys):
    code, _, err = run(capsys)
    assert code == 2 and "streams" in err


def test_the_installed_entry_point_runs(store_url):
    done = subprocess.run(
        [sys.executable, "-m", "clients.reference_cli", "log", "verify", "--store", store_url],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and done.stdout.endswith("3 of 3 streams verify\n")


def test_show_of_an_undecodable_event_exits_1_with_the_broken_seq(capsys, store_url):
    path = store_url[len("sqlite:///") :]
    connection = sqlite3.connect(path)
    connection.execute("UPDATE events SET body = x'c1' WHERE seq = 2")  # not msgpack
    connection.commit()
    connection.close()
    code, out, _ = run(capsys, "show", "--store", store_url, "table/t1")
    assert code == 1
    assert out == "BROKEN table/t1 at seq 2: hash does not match the recorded bytes\n"


def test_show_of_a_truncated_stream_prints_it_then_exits_1(capsys, store_url):
    path = store_url[len("sqlite:///") :]
    connection = sqlite3.connect(path)
    connection.execute("DELETE FROM events WHERE stream = 'table/t1' AND seq = 2")
    connection.commit()
    connection.close()
    code, out, err = run(capsys, "show", "--store", store_url, "table/t1")
    assert code == 1
    assert [line.split()[0] for line in out.splitlines()] == ["1"]
    assert err.startswith("BROKEN table/t1 at seq 2")
