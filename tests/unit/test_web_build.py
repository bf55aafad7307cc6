"""The committed web-client build equals a fresh one (issue 13): `make web` copies the ES
modules of @msgpack/msgpack, installed by `npm ci` from the committed package-lock.json, into
clients/web/public/vendor/msgpack/. Skipped without Node.js and npm (and so without network
access to the npm registry, which `npm ci` needs); `make run` never needs them."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[2] / "clients" / "web"
VENDOR = WEB / "public" / "vendor" / "msgpack"
NETWORK_ERRORS = ("ENOTFOUND", "EAI_AGAIN", "ETIMEDOUT", "ECONNREFUSED", "ECONNRESET")


def tree(root: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(root)): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


def test_the_vendored_library_is_committed_with_its_licence():
    files = tree(VENDOR)
    assert "index.mjs" in files and "LICENSE" in files
    assert b"ISC" in files["LICENSE"] or b"Permission to use" in files["LICENSE"]
    assert all(name.endswith(".mjs") for name in files if name != "LICENSE")


def test_the_committed_build_equals_a_fresh_npm_ci_and_build(tmp_path):
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("Node.js and npm are not installed")
    work = tmp_path / "web"
    work.mkdir()
    for name in ("package.json", "package-lock.json", "build.mjs"):
        shutil.copy(WEB / name, work / name)
    # --prefer-offline: a tarball already in npm's cache is not revalidated with the registry
    # (two round trips of 150-200 ms here, more on a slow link); npm ci checks it against the
    # lockfile's sha512 wherever it came from, so the build is the same fresh one.
    installed = subprocess.run(
        ["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--prefer-offline"],
        cwd=work,
        capture_output=True,
        text=True,
        timeout=180,
    )
    said = installed.stderr + installed.stdout
    if installed.returncode != 0 and any(code in said for code in NETWORK_ERRORS):
        pytest.skip("the npm registry cannot be reached")
    assert installed.returncode == 0, installed.stderr
    out = tmp_path / "fresh"
    built = subprocess.run(
        ["node", "build.mjs", str(out)], cwd=work, capture_output=True, text=True, timeout=60
    )
    assert built.returncode == 0, built.stderr
    fresh, committed = tree(out), tree(VENDOR)
    differ = sorted(
        name for name in fresh.keys() | committed.keys() if fresh.get(name) != committed.get(name)
    )
    assert differ == [], f"run `make web` and commit: these differ: {differ}"
