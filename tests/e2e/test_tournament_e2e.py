"""A whole tournament end to end: 3 grades x 20 students on a real `t24-server` process with
bots, registration to champions (`t24 tournament simulate`), then the officials' bundle.

- A forced tie-break: grade G1's round 1 and 2 tables are ended before any card is won, so
  its 20 students tie at 0 for 16 places and play timed tie-breaks (R-ROUND-3, R-ROUND-6),
  repeated while still tied, before round 2 can advance.
- An upheld protest after round 2 (R-ROUND-8): the best student below the cut of G3 protests
  at their round-2 table, the proctor upholds it with a score adjustment, the card is signed
  again, and the tournament, which learns the new result from the table's events, advances
  that student (it would not have before).
- The bundle verifies with `t24 audit verify`; a byte changed in any of its files makes it
  fail naming that file.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from server.games import challenge

pytestmark = pytest.mark.e2e

PROTESTS = "file_protest" in challenge.COMMANDS  # issue 10 (protests and rulings)


def t24(*args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "clients.reference_cli", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)


@pytest.fixture(scope="module")
def tournament(tmp_path_factory):
    bundle = tmp_path_factory.mktemp("tournament") / "bundle"
    args = ["tournament", "simulate", "--students", "20", "--grades", "3", "--seed", "11"]
    args += ["--fast", "--cards", "12", "--tie-break-seconds", "3"]  # lean: 12 cards a round
    args += ["--force-tie", "G1", "--bundle", str(bundle), "--json"]
    if PROTESTS:
        args.append("--protest")
    done = t24(*args)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1]), bundle


def test_registration_to_champions_one_per_grade(tournament):
    summary, _bundle = tournament
    assert set(summary["champions"]) == {"G1", "G2", "G3"}
    for section, champion in summary["champions"].items():
        assert champion in summary["advanced"][section]  # a champion came through round 2
        assert len(summary["advanced"][section]) == 16  # R-ROUND-3: the 16 highest of 20
    assert summary["latency"]["count"] > 0


def test_a_forced_tie_for_the_last_places_is_played_off(tournament):
    summary, _bundle = tournament
    first = [t for t in summary["tie_breaks"] if t["section"] == "G1" and t["round"] == 2][0]
    assert len(first["students"]) == 20 and first["places"] == 16


@pytest.mark.skipif(not PROTESTS, reason="protests (issue 10) are not in this build yet")
def test_an_upheld_protest_after_round_two_changes_who_advances(tournament):
    summary, bundle = tournament
    protest = summary["protest"]
    # outside the 16 before the ruling: below the cut, or tied at it (bot timing decides)
    assert protest["total_before"] <= protest["cut"]
    assert protest["total_before"] + protest["delta"] > protest["cut"]
    assert protest["advanced"] is True
    report = (bundle / "report.html").read_text()  # the officials see the hearing
    assert "ProtestFiled" in report and "ProtestRuled" in report and "ScoreAdjusted" in report


def test_the_bundle_verifies_and_any_changed_byte_fails_naming_the_file(tournament, tmp_path):
    _summary, bundle = tournament
    done = t24("audit", "verify", str(bundle))
    assert done.returncode == 0, done.stdout + done.stderr
    manifest = json.loads((bundle / "manifest.json").read_text())
    for path in ["manifest.json", *sorted(manifest["files"])[:3], "standings.csv"]:
        copy = tmp_path / f"copy-{len(list(tmp_path.iterdir()))}"
        subprocess.run(["cp", "-r", str(bundle), str(copy)], check=True)
        target = copy / path
        data = bytearray(target.read_bytes())
        data[len(data) // 2] ^= 0x20
        target.write_bytes(bytes(data))
        failed = t24("audit", "verify", str(copy))
        assert failed.returncode == 1, (path, failed.stdout)
        assert f"FAILED: {path}" in failed.stdout, (path, failed.stdout)
    assert Path(bundle / "report.html").read_text().count("<h2>") >= 4
