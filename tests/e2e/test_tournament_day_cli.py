"""The day from a terminal (`t24 tournament preview|rename|begin|mark|sign|links|bundle`):
everything the director's console does is also a one-shot command (issue 26). Against a real
server process of this test's own (the bundle is read from its store)."""

from __future__ import annotations

import json
import subprocess
import time

import pytest
from forkserver import t24_command
from server_process import ServerProcess
from wsclients import AutobahnClient

pytestmark = pytest.mark.e2e

TID = "daycup"


@pytest.fixture
def own(tmp_path):
    process = ServerProcess(tmp_path / "srv").start()
    token = process.token("director", name="director")

    def t24(*args: str) -> subprocess.CompletedProcess:
        command = t24_command("tournament")
        command += ["--url", process.url, "--token", token, *args]
        return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)

    yield process, t24
    if process.running():
        process.terminate()


def test_the_day_s_commands_from_a_terminal(own, tmp_path):
    server, t24 = own
    today = time.strftime("%Y-%m-%d")
    made = t24("create", "--id", TID, "--name", "Day", "--date", today, "--grades", "4th",
               "--seed", "5")  # fmt: skip
    made.check_returncode()
    roster = tmp_path / "roster.csv"
    roster.write_text("name,school,grade\nAda,Hill,4th\nBo,Hill,4th\nCy,Dale,4th\nZed,Hill,9th\n")
    preview = t24("preview", "--id", TID, str(roster))
    assert preview.returncode == 3 and "line 5:" in preview.stdout  # the bad row, by line
    roster.write_text("name,school,grade\nAda,Hill,4th\nBo,Hill,4th\nCy,Dale,4th\n")
    preview = t24("preview", "--id", TID, str(roster))
    assert preview.returncode == 0 and "3 students would be registered" in preview.stdout
    assert t24("import", "--id", TID, str(roster)).returncode == 0
    renamed = t24("rename", "--id", TID, "p1", "Ada Lovelace")
    assert renamed.returncode == 0 and "Ada Lovelace" in renamed.stdout
    for step in (("close-registration",), ("seat", "--round", "1")):
        assert t24(step[0], "--id", TID, *step[1:]).returncode == 0
    links_file = tmp_path / "links.json"
    printed = t24("links", "--id", TID, "--round", "1", "--out", str(links_file))
    assert printed.returncode == 0, printed.stderr
    assert links_file.stat().st_mode & 0o077 == 0  # the links hold tokens
    (sheet,) = json.loads(links_file.read_text())
    assert sheet["table"] == "r1.s1.t01" and len(sheet["seats"]) == 3
    assert all(seat["qr"].startswith("data:image/svg+xml") for seat in sheet["seats"])
    assert {seat["name"] for seat in sheet["seats"]} == {"Ada Lovelace", "Bo", "Cy"}
    unprinted = t24("links", "--id", TID, "--round", "1")  # stdout is no terminal here
    assert unprinted.returncode == 2 and "terminal" in unprinted.stderr
    assert t24("start-round", "--id", TID, "--round", "1").returncode == 0
    table = f"{TID}.r1.s1.t01"
    marked = t24("mark", "--id", TID, "--table", "r1.s1.t01", "p3", "absent")
    assert marked.returncode == 0, marked.stderr
    begun = t24("begin", "--id", TID, "--round", "1")
    assert begun.returncode == 0 and "r1.s1.t01: play begins" in begun.stdout
    again = t24("begin", "--id", TID, "--table", "r1.s1.t01")
    assert again.returncode == 3 and "play_begun" in again.stderr
    director = AutobahnClient(server.url)
    try:
        director.hello(server.token("director", name="director"))
        ended = director.request("command", table=table, name="end_round", args={})
        assert ended["type"] == "accepted", ended
    finally:
        director.close()
    signed = t24("sign", "--id", TID, "--table", "r1.s1.t01", "--initials", "TD")
    assert signed.returncode == 0 and "(the director)" in signed.stdout
    deadline = time.monotonic() + 20
    while t24("close-round", "--id", TID, "--round", "1").returncode != 0:  # the result lands
        assert time.monotonic() < deadline, "the signed result never reached the tournament"
    out = tmp_path / "bundle"
    fetched = t24("bundle", "--id", TID, "--out", str(out))
    assert fetched.returncode == 0, fetched.stderr
    key = fetched.stdout.split("the key to pin (it signed the manifest): ", 1)[1].split()[0]
    verified = subprocess.run(
        t24_command("audit", "verify", str(out), "--key", key),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert verified.returncode == 0, verified.stdout + verified.stderr
    again = t24("bundle", "--id", TID, "--out", str(out))
    assert again.returncode == 2 and "never overwritten" in again.stderr
