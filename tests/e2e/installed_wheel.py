"""t24 as a school's IT person installs it: a wheel built from this checkout, installed (not
editable) into a fresh virtual environment outside the checkout, its commands run from a
folder of their own (issue 34).

What it shares: the wheel is built by pip with build isolation (`pip wheel`, the
`[build-system]` of pyproject.toml, as `python -m build` would) from a copy of the checkout's
files (`git ls-files`: tracked and new, never what .gitignore names), so a build leaves
nothing in the checkout. t24 itself is installed from that wheel with `--no-deps`; its
dependencies come from the environment running the tests, named by one `.pth` line in the
new environment (a `.pth` in a folder added that way is not read, so the checkout's editable
install of t24 never leaks in: `server` is imported from the wheel's files). Why: the same
install with its dependencies downloaded took 19 s, this one 1.3 s; what it checks is t24's
own files, entry points and metadata.

Every folder is a `tempfile` one that the caller removes (`Workspace`).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import sysconfig
import tempfile
import time
import tomllib
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 30.0
# The folders whose files the wheel ships (its top-level import names) ...
PACKAGE_FOLDERS = ("server/", "protocol/", "clients/")
# ... but for these, which build the web client's vendored library (`make web`) and are not
# read at run time.
BUILD_ONLY = frozenset(
    {"clients/web/package.json", "clients/web/package-lock.json", "clients/web/build.mjs"}
)


def project_version() -> str:
    """The version pyproject.toml gives (its one source)."""
    return str(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"])


def checkout_files() -> list[str]:
    """The checkout's files a build may see: tracked or new, not ignored, present."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    return sorted(name for name in listed.split("\0") if name and (ROOT / name).is_file())


def shipped_files() -> set[str]:
    """What the wheel must hold besides its metadata: every file under the package folders
    (Python and package data alike) but the build-only ones."""
    return {
        name
        for name in checkout_files()
        if name.startswith(PACKAGE_FOLDERS) and name not in BUILD_ONLY
    }


def clean_env(**more: str) -> dict[str, str]:
    """The environment of an installed command: no T24_* settings, no PYTHONPATH or
    VIRTUAL_ENV of the test run's own."""
    dropped = ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")
    env = {k: v for k, v in os.environ.items() if not k.startswith("T24_") and k not in dropped}
    env.update(more)
    return env


def run(command: list[str], timeout: float = 120.0, **kwargs) -> subprocess.CompletedProcess:
    """Run a command to its end, its output captured as text."""
    kwargs.setdefault("env", clean_env())
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, **kwargs)


class Workspace:
    """One temporary folder outside the checkout, removed by `remove()`."""

    def __init__(self, prefix: str = "t24-installed-") -> None:
        self.root = Path(tempfile.mkdtemp(prefix=prefix))

    def folder(self, name: str) -> Path:
        path = self.root / name
        path.mkdir(parents=True, exist_ok=True)
        return path

    def build_wheel(self, version: str | None = None) -> Path:
        """The wheel of the checkout's files (with another version when given: an upgrade)."""
        source = self.root / f"source-{version or 'checkout'}"
        for name in checkout_files():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
        if version is not None:
            pyproject = source / "pyproject.toml"
            text = pyproject.read_text()
            pyproject.write_text(
                text.replace(f'version = "{project_version()}"', f'version = "{version}"', 1)
            )
        dist = self.folder(f"dist-{version or 'checkout'}")
        built = run(
            [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), "."],
            cwd=source,
            timeout=300,
        )
        assert built.returncode == 0, built.stderr
        [wheel] = dist.glob("t24-*.whl")
        return wheel

    def remove(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)


def site_packages(venv: Path) -> Path:
    """A virtual environment's site-packages."""
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    return venv / "lib" / version / "site-packages"


def share_dependencies(venv: Path) -> None:
    """Let `venv` import t24's dependencies from the test run's environment (module doc)."""
    purelib = sysconfig.get_paths()["purelib"]
    (site_packages(venv) / "t24-test-dependencies.pth").write_text(purelib + "\n")


def pip(venv: Path, *args: str) -> subprocess.CompletedProcess:
    """`pip ARGS` on `venv` (the test run's pip, `--python`: the venv needs no pip of its own)."""
    return run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), *args])


def pip_install(venv: Path, *args: str) -> subprocess.CompletedProcess:
    """`pip install --no-deps ARGS` into `venv`."""
    return pip(venv, "install", "--no-deps", "-q", *args)


def fresh_venv(venv: Path, wheel: Path) -> Path:
    """A new virtual environment with the wheel installed and the dependencies shared."""
    made = run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    assert made.returncode == 0, made.stderr
    installed = pip_install(venv, str(wheel))
    assert installed.returncode == 0, installed.stderr
    share_dependencies(venv)
    return venv


class InstalledServer:
    """An installed `t24-server` (any command line) started in `folder`, waited for by its
    ready file, never a fixed sleep."""

    def __init__(self, program: Path, folder: Path, *flags: str, env: dict | None = None):
        self.program, self.folder, self.flags = program, folder, list(flags)
        self.env = env or clean_env()
        self.ready_file = folder / "ready.json"
        self.log_file = folder.parent / f"{folder.name}-server.log"
        self.process: subprocess.Popen | None = None
        self.url, self.port = "", 0

    def start(self) -> InstalledServer:
        self.ready_file.unlink(missing_ok=True)
        command = [str(self.program), *self.flags, "--ready-file", str(self.ready_file)]
        with open(self.log_file, "a") as log:
            self.process = subprocess.Popen(
                command, cwd=self.folder, stdout=log, stderr=subprocess.STDOUT, env=self.env
            )
        deadline = time.monotonic() + START_TIMEOUT
        while not self.ready_file.exists():
            if self.process.poll() is not None:
                raise RuntimeError(f"t24-server exited early:\n{self.log_text()}")
            if time.monotonic() > deadline:
                self.process.kill()
                raise RuntimeError(f"t24-server did not start:\n{self.log_text()}")
            time.sleep(0.02)
        ready = json.loads(self.ready_file.read_text())
        self.url, self.port = ready["url"], ready["port"]
        return self

    def get(self, path: str) -> tuple[int, bytes, dict[str, str]]:
        """GET a path of the server's port: (status, body, headers)."""
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=10) as r:
                return r.status, r.read(), dict(r.headers)
        except urllib.error.HTTPError as error:
            return error.code, error.read(), dict(error.headers)

    def stop(self) -> int | None:
        """SIGTERM and wait: the exit code (None if it was not running)."""
        if self.process is None or self.process.poll() is not None:
            return None if self.process is None else self.process.returncode
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait(timeout=10)

    def log_text(self) -> str:
        return self.log_file.read_text() if self.log_file.exists() else ""
