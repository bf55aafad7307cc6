"""`t24 tournament` one-shot commands against a real server process (the director's side of
README "Run a tournament"): a CSV with bad rows is refused whole, each bad row named by its
line (exit 3); a good one registers; seating, standings per grade, starting a round creates
its tables; closing it before every table has a result is refused with its code."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytestmark = pytest.mark.e2e


@pytest.fixture
def director(server):
    token = server.token("director")

    def t24(*args: str) -> subprocess.CompletedProcess:
        command = [sys.executable, "-m", "clients.reference_cli", "tournament"]
        command += ["--url", server.url, "--token", token, *args]
        return subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)

    return t24


def test_the_director_runs_registration_seating_and_a_round(director, tmp_path, server):
    created = director(
        "create", "--id", "cli-cup", "--name", "CLI Cup", "--date", "2026-03-14",
        "--grades", "4th,5th", "--seed", "3",
    )  # fmt: skip
    assert created.returncode == 0, created.stderr
    assert "created tournament/cli-cup" in created.stdout
    bad = tmp_path / "bad.csv"
    bad.write_text("name,school,grade\nAda,Hill,4th\nBo,Hill,9th\nCy,Hill\n")
    refused = director("import", "--id", "cli-cup", str(bad))
    assert refused.returncode == 3
    assert "bad_rows" in refused.stderr and "line 3:" in refused.stderr
    assert "line 4:" in refused.stderr and "line 2:" not in refused.stderr
    good = tmp_path / "good.csv"
    rows = [f"S{i},Hill,{'4th' if i < 4 else '5th'}" for i in range(7)]
    good.write_text("name,school,grade\n" + "\n".join(rows) + "\n")
    assert director("import", "--id", "cli-cup", str(good)).returncode == 0
    assert director("close-registration", "--id", "cli-cup").returncode == 0
    assert director("seat", "--id", "cli-cup", "--round", "1").returncode == 0
    standings = director("standings", "--id", "cli-cup")
    assert standings.returncode == 0
    assert "== 4th" in standings.stdout and "== 5th" in standings.stdout
    assert "round 1 (seated)" in standings.stdout
    assert director("start-round", "--id", "cli-cup", "--round", "1").returncode == 0
    early = director("close-round", "--id", "cli-cup", "--round", "1")
    assert early.returncode == 3 and "tables_unsigned" in early.stderr
    token = director("proctor", "--id", "cli-cup", "--table", "r1.s1.t01", "--name", "Ada L")
    assert token.returncode == 0 and token.stdout.startswith("t24v1.")
    assert director("advance", "--id", "nowhere", "--round", "2").returncode == 3
