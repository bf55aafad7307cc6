"""docs/operations.md, "With pipx", run as written (issue 34): the `pipx install` block from
a folder holding `dist/` with the wheel built from this checkout, then `t24-server --demo`
of that environment serving `/`, then the `pipx upgrade` block with a later version's wheel
alone in `dist/`. pipx is the test run's (the `dev` extra, `python -m pipx` for the doc's
`pipx`); its folders (`PIPX_HOME`, `PIPX_BIN_DIR`, ...) are in a temporary folder whose
`bin` comes first on `PATH`, and no other folder on `PATH` holds a `t24` or `t24-server`,
so the doc's bare `t24-server` can only be pipx's.

Unlike tests/e2e/installed_wheel.py's installs, nothing is shared with the test run: pipx
fetches a pip of its own and the dependencies come from PyPI (pip's cache, ~/.cache/pip,
serves a second run). Without an index this test skips on a developer's machine and fails
in CI, as the nginx and browser tests do.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from installed_wheel import (
    ROOT,
    InstalledServer,
    Workspace,
    clean_env,
    project_version,
    run,
    site_packages,
)

# `make test-install`, run by .ci/run after `make test` (docs/testing.md, "Suite time")
pytestmark = [pytest.mark.e2e, pytest.mark.install]

DOC = ROOT / "docs" / "operations.md"
WEB = ROOT / "clients" / "web" / "public"
UPGRADED = f"{project_version()}.post1"
COMMANDS = ("t24", "t24-server")
PIPX_TIMEOUT = 600.0  # a first install downloads ~30 wheels: 58 s measured at load 19


def pipx_blocks() -> dict[str, list[str]]:
    """The shell blocks of "With pipx", by their first line's comment: their command lines."""
    text = DOC.read_text().split("#### With pipx\n", 1)[1].split("\n#### ", 1)[0]
    blocks: dict[str, list[str]] = {}
    for body in re.findall(r"```sh\n(.*?)```", text, re.DOTALL):
        name, *lines = body.splitlines()
        blocks[name.removeprefix("# ")] = [line for line in lines if line and line[0] != "#"]
    assert list(blocks) == ["pipx install", "pipx upgrade"], list(blocks)
    return blocks


def index_reachable() -> bool:
    """Whether pip's index answers (only asked outside CI, to skip rather than fail)."""
    index = os.environ.get("PIP_INDEX_URL", "https://pypi.org/simple").rstrip("/")
    try:
        with urllib.request.urlopen(f"{index}/pip/", timeout=10) as response:
            return bool(response.status == 200)
    except OSError:
        return False


class PipxHome:
    """pipx's folders in `root`, and the doc's command lines run with them."""

    def __init__(self, root: Path) -> None:
        self.home, self.bin = root / "home", root / "bin"
        others = [
            folder
            for folder in os.environ.get("PATH", os.defpath).split(os.pathsep)
            if folder and not any((Path(folder) / name).exists() for name in COMMANDS)
        ]
        env = {k: v for k, v in clean_env().items() if not k.startswith("PIPX_")}
        env.update(
            PIPX_HOME=str(self.home),
            PIPX_BIN_DIR=str(self.bin),
            PIPX_MAN_DIR=str(root / "man"),
            PIPX_COMPLETION_DIR=str(root / "completions"),
            PATH=os.pathsep.join([str(self.bin), *others]),
        )
        self.env = env
        self.venv = self.home / "venvs" / "t24"

    def run(self, command: str, cwd: Path) -> subprocess.CompletedProcess:
        """One documented command line, by bash (the glob of `./dist/t24-*.whl`); `pipx` is
        the test run's."""
        if command.startswith("pipx "):
            command = f"{shlex.quote(sys.executable)} -m {command}"
        return run(["bash", "-c", command], cwd=cwd, timeout=PIPX_TIMEOUT, env=self.env)

    def sh(self, command: str, cwd: Path) -> str:
        done = self.run(command, cwd)
        assert done.returncode == 0, (command, done.stdout, done.stderr)
        return done.stdout


def put_alone_in_dist(wheel: Path, dist: Path) -> None:
    shutil.rmtree(dist, ignore_errors=True)
    dist.mkdir()
    shutil.copy2(wheel, dist)


PRINT_ORIGINS = (
    "import importlib.util, server.net.static as s; "
    "print(s.WEB_ROOT); print(importlib.util.find_spec('pytest'))"
)


def test_the_documented_pipx_install_serves_the_demo_and_upgrades():
    if importlib.util.find_spec("pipx") is None:
        pytest.fail("pipx is not installed: `make install` (pyproject.toml, the dev extra)")
    in_ci = os.environ.get("CI", "").lower() in ("1", "true", "yes")
    if not in_ci and not index_reachable():
        pytest.skip("pip's index is not reachable: pipx downloads t24's dependencies")
    blocks = pipx_blocks()
    workspace = Workspace(prefix="t24-pipx-")
    server: InstalledServer | None = None
    try:
        pipx = PipxHome(workspace.folder("pipx"))
        folder = workspace.folder("host")  # the folder holding dist/
        put_alone_in_dist(workspace.build_wheel(), folder / "dist")

        install, *shown = blocks["pipx install"]
        pipx.sh(install, cwd=folder)
        versions = [pipx.sh(command, cwd=folder).split() for command in shown]
        assert versions == [[name, project_version()] for name in ("t24-server", "t24")]
        for name in COMMANDS:  # the commands on PATH are links into pipx's environment
            assert shutil.which(name, path=pipx.env["PATH"]) == str(pipx.bin / name)
            assert (pipx.bin / name).resolve() == pipx.venv / "bin" / name

        # Next to nothing else: the code and the web client from pipx's environment, nothing
        # of the test run's (no pytest), and the demo serves the page.
        python = str(pipx.venv / "bin" / "python")
        origins = run([python, "-c", PRINT_ORIGINS], cwd=folder, env=pipx.env)
        assert origins.returncode == 0, origins.stderr
        web_root, pytest_spec = origins.stdout.splitlines()
        assert web_root == str(site_packages(pipx.venv) / "clients" / "web" / "public")
        assert pytest_spec == "None"
        empty = workspace.folder("empty")
        server = InstalledServer(
            pipx.bin / "t24-server", empty, "--demo", "--port", "0", env=pipx.env
        ).start()
        status, body, headers = server.get("/")
        assert status == 200 and headers["Content-Type"].startswith("text/html")
        assert body == (WEB / "index.html").read_bytes()
        assert server.stop() == 0, server.log_text()

        # The upgrade: the next version's wheel alone in dist/. `pipx upgrade t24` fails
        # (the doc says why): it reinstalls the recorded path of the old wheel, now gone.
        put_alone_in_dist(workspace.build_wheel(UPGRADED), folder / "dist")
        refused = pipx.run("pipx upgrade t24", cwd=folder)
        assert refused.returncode != 0, (refused.stdout, refused.stderr)
        assert f"t24-{project_version()}-py3-none-any.whl" in refused.stdout + refused.stderr
        install, *shown = blocks["pipx upgrade"]
        pipx.sh(install, cwd=folder)
        assert [pipx.sh(command, cwd=folder).split() for command in shown] == [
            ["t24-server", UPGRADED]
        ]
        assert pipx.sh("t24 --version", cwd=folder).split() == ["t24", UPGRADED]
    finally:
        if server is not None:
            server.stop()
        workspace.remove()
