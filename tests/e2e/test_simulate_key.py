"""Issue 27: `t24 tournament simulate --bundle` prints the public key its bundle is signed with,
the README's verify line (run here as the README writes it) verifies the bundle with that key,
and the run leaves no secret behind in its temporary folder (no token secret, no signing key).
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from pathlib import Path

import pytest
from forkserver import t24_command

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]


def readme_line(start: str, *words: str) -> str:
    """The README's command line that starts with `start` and holds each of `words`."""
    lines = (ROOT / "README.md").read_text().splitlines()
    (line,) = [
        line for line in lines if line.startswith(start) and all(word in line for word in words)
    ]
    return line


def test_a_simulated_bundle_verifies_with_the_printed_key_and_no_secret_is_left(tmp_path):
    env = {key: value for key, value in os.environ.items() if not key.startswith("T24_")}
    env["PYTHONPATH"] = str(ROOT)
    t24 = shlex.join(t24_command())
    (tmp_path / "var").mkdir()
    # The README's run, smaller: one grade of three students, four cards a round, and a
    # tie-break (when the bots tie for champion) of 1 s, not --fast's 5 s.
    run = readme_line(".venv/bin/t24 tournament simulate", "--bundle").replace(".venv/bin/t24", t24)
    run = run.replace("--students 20 --grades 3", "--students 3 --grades 1 --cards 4")
    run = run.replace("--fast", "--fast --tie-break-seconds 1")
    assert "--bundle var/sim-bundle" in run and "| tee var/sim.txt" in run
    done = subprocess.run(
        ["bash", "-o", "pipefail", "-c", run],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    key = re.search(r"^signing key: ([0-9a-f]{64})$", done.stdout, re.M)
    assert key, done.stdout
    verify = readme_line(".venv/bin/t24 audit verify var/sim-bundle").replace(".venv/bin/t24", t24)
    checked = subprocess.run(
        ["bash", "-c", verify], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert f"signed by {key.group(1)}" in checked.stdout
    store = re.search(r"store sqlite:///(\S+)/sim\.sqlite", done.stdout)
    assert store, done.stdout
    left = sorted(path.name for path in Path(store.group(1)).iterdir())
    assert "t24.secret" not in left and "t24-signing.key" not in left, left
    assert "sim.sqlite" in left  # the store stays, for a replay
