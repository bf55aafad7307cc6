"""`t24 tournament` one-shot commands against a real server process (the director's side of
README "Run a tournament"): a CSV with bad rows is refused whole, each bad row named by its
line (exit 3); a good one registers; seating, standings per grade, starting a round creates
its tables; closing it before every table has a result is refused with its code. Each
success is said in words with counts (issue 26); a date that is no day, an empty roster are
refused; a roster saved by Excel (a byte order mark, `;`, CRLF, Windows-1252) is read."""

from __future__ import annotations

import subprocess

import pytest
from forkserver import t24_command

pytestmark = pytest.mark.e2e


@pytest.fixture
def director(server):
    token = server.token("director")

    def t24(*args: str) -> subprocess.CompletedProcess:
        command = t24_command("tournament")
        command += ["--url", server.url, "--token", token, *args]
        return subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)

    return t24


def test_the_director_runs_registration_seating_and_a_round(director, tmp_path, server):
    created = director(
        "create", "--id", "cli-cup", "--name", "CLI Cup", "--date", "2026-03-14",
        "--grades", "4th,5th", "--seed", "3",
    )  # fmt: skip
    assert created.returncode == 0, created.stderr
    assert created.stdout == (
        "tournament cli-cup created: CLI Cup on 2026-03-14, 2 grades (4th, 5th), 48 cards a round\n"
    )
    bad = tmp_path / "bad.csv"
    bad.write_text("name,school,grade\nAda,Hill,4th\nBo,Hill,9th\nCy,Hill\n")
    refused = director("import", "--id", "cli-cup", str(bad))
    assert refused.returncode == 3
    assert "bad_rows" in refused.stderr and "line 3:" in refused.stderr
    assert "line 4:" in refused.stderr and "line 2:" not in refused.stderr
    good = tmp_path / "good.csv"
    rows = [f"S{i},Hill,{'4th' if i < 4 else '5th'}" for i in range(7)]
    good.write_text("name,school,grade\n" + "\n".join(rows) + "\n")
    imported = director("import", "--id", "cli-cup", str(good))
    assert imported.returncode == 0, imported.stderr
    assert imported.stdout == "7 students imported (4 in 4th, 3 in 5th)\n"
    closed = director("close-registration", "--id", "cli-cup")
    assert closed.stdout == "registration closed: 7 students in 2 sections (4 in 4th, 3 in 5th)\n"
    seated = director("seat", "--id", "cli-cup", "--round", "1")
    assert seated.stdout == "round 1 seated: 2 tables (1 in 4th, 1 in 5th)\n"
    standings = director("standings", "--id", "cli-cup")
    assert standings.returncode == 0
    assert "== 4th" in standings.stdout and "== 5th" in standings.stdout
    assert "round 1 (seated)" in standings.stdout
    started = director("start-round", "--id", "cli-cup", "--round", "1")
    assert started.stdout == "round 1 started: 2 tables created (r1.s1.t01 to r1.s2.t01)\n"
    early = director("close-round", "--id", "cli-cup", "--round", "1")
    assert early.returncode == 3 and "tables_unsigned" in early.stderr
    token = director("proctor", "--id", "cli-cup", "--table", "r1.s1.t01", "--name", "Ada L")
    assert token.returncode == 0 and token.stdout.startswith("t24v1.")
    assert director("advance", "--id", "nowhere", "--round", "2").returncode == 3


def test_a_date_that_is_no_day_and_an_empty_roster_are_refused(director):
    for date in ("2026-13-01", "2026-02-31"):
        refused = director(
            "create", "--id", "no-day", "--name", "N", "--date", date, "--grades", "4th",
            "--seed", "1",
        )  # fmt: skip
        assert refused.returncode == 3
        assert "invalid_options" in refused.stderr and f"not {date!r}" in refused.stderr
    made = director(
        "create", "--id", "empty", "--name", "Empty", "--date", "2026-03-14", "--grades", "4th",
        "--seed", "1", "--cards-per-round", "6",
    )  # fmt: skip
    assert made.returncode == 0 and made.stdout.endswith("6 cards a round\n")
    refused = director("close-registration", "--id", "empty")
    assert refused.returncode == 3 and "no_students" in refused.stderr
    assert "R-ROUND-2" in refused.stderr


def test_a_roster_saved_by_excel_is_read(director, tmp_path):
    made = director(
        "create", "--id", "excel", "--name", "Excel", "--date", "2026-03-14", "--grades", "4th",
        "--seed", "1",
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    utf8 = tmp_path / "utf8.csv"  # Excel's "CSV UTF-8" in Norway: a BOM, `;`, CRLF
    utf8.write_bytes("\ufeffName;School;Grade\r\nÅse;Bergen;4th\r\nBo;Bergen;4th\r\n".encode())
    done = director("import", "--id", "excel", str(utf8))
    assert (done.returncode, done.stdout) == (0, "2 students imported (2 in 4th)\n")
    ansi = tmp_path / "ansi.csv"  # Excel's plain "CSV": Windows-1252
    ansi.write_bytes("Name;School;Grade\r\nØrjan;Ås;4th\r\n".encode("cp1252"))
    done = director("import", "--id", "excel", str(ansi))
    assert done.stdout == "Ørjan (Ås, 4th) registered as p3\n"
    assert "is not UTF-8; read as Windows-1252" in done.stderr
