"""The fixed shape of the project: entry points exist and answer, and the layers hold.

Layering (docs/architecture.md): the pure core (`server.games`, `server.puzzles`,
`server.tournament` once it exists, `server.audit`, `protocol`) never loads Twisted or
Autobahn. The check imports *every* submodule of those packages (found on disk, so a new
module is checked without editing this file) in a fresh interpreter, because inside pytest
Twisted is already loaded by other tests and `sys.modules` would prove nothing.
"""

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORE_PACKAGES = (
    "server.games",
    "server.puzzles",
    "server.tournament",
    "server.audit",
    "server.analysis",
    "protocol",
)
SHELL_LIBRARIES = ("twisted", "autobahn", "txaio")

# Run in a fresh interpreter: import every submodule of the packages named in argv (a package
# that does not exist yet is skipped), then print each shell library that got loaded.
LAYERING_PROBE = """
import importlib, importlib.util, pkgutil, sys
packages, banned = sys.argv[1].split(","), sys.argv[2].split(",")
imported = []
for name in packages:
    if importlib.util.find_spec(name) is None:
        continue
    package = importlib.import_module(name)
    imported.append(name)
    for info in pkgutil.walk_packages(package.__path__, name + "."):
        importlib.import_module(info.name)
        imported.append(info.name)
loaded = sorted({m.split(".")[0] for m in sys.modules} & set(banned))
print("imported", len(imported), " ".join(imported))
print("loaded", " ".join(loaded))
"""


def probe_layering(packages, cwd=ROOT, extra_path=None):
    """(modules imported, shell libraries loaded) in a fresh interpreter."""
    env = None
    if extra_path is not None:
        env = {"PYTHONPATH": f"{extra_path}:{ROOT}", "PATH": "/usr/bin:/bin"}
    out = subprocess.run(
        [sys.executable, "-c", LAYERING_PROBE, ",".join(packages), ",".join(SHELL_LIBRARIES)],
        capture_output=True,
        text=True,
        check=True,
        cwd=cwd,
        env=env,
    ).stdout.splitlines()
    imported = out[0].split()[2:]
    loaded = out[1].split()[1:]
    return imported, loaded


def test_t24_help_lists_exit_codes():
    out = subprocess.run(
        [sys.executable, "-m", "clients.reference_cli", "--help"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "exit codes" in out.stdout


def test_the_core_never_loads_twisted_nor_autobahn():
    imported, loaded = probe_layering(CORE_PACKAGES)
    assert loaded == [], f"the core loaded {loaded}"
    # every submodule was really imported, not only the packages' __init__
    assert {"server.games.challenge.view", "server.puzzles.solver", "protocol.codec"} <= set(
        imported
    )
    assert "server.audit.replay" in imported


def test_the_layering_probe_sees_a_core_module_that_imports_twisted(tmp_path):
    """The probe fails when a submodule deep in a package loads Twisted (the old check only
    imported the packages' `__init__`, so such a module went unnoticed)."""
    package = tmp_path / "fakecore"
    (package / "inner").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "inner" / "__init__.py").write_text("")
    (package / "inner" / "timers.py").write_text("from twisted.internet import task\n")
    imported, loaded = probe_layering(["fakecore"], cwd=tmp_path, extra_path=tmp_path)
    assert "fakecore.inner.timers" in imported
    assert "twisted" in loaded


def test_one_version_everywhere(capsys):
    """pyproject.toml is the one version source: both commands print it. Through each
    command's `main` in this process (a process each cost ~1-2 s of a loaded machine; both
    entry points run as processes in the end-to-end tests and `t24 solve`'s test)."""
    from clients.reference_cli.cli import main as t24_main
    from server.__main__ import main as server_main

    with open(ROOT / "pyproject.toml", "rb") as pyproject:
        expected = tomllib.load(pyproject)["project"]["version"]
    for main, name in ((t24_main, "t24"), (server_main, "t24-server")):
        with pytest.raises(SystemExit) as exited:
            main(["--version"])
        assert exited.value.code == 0
        assert capsys.readouterr().out.strip() == f"{name} {expected}"


def test_the_table_stream_name_is_built_in_one_place():
    """`table/<id>` is built and read back by protocol.messages only (table_stream,
    stream_table, TABLE_STREAM_PREFIX): no other module spells the prefix."""
    spelled = []
    for folder in ("server", "protocol", "clients", "bench"):
        for path in (ROOT / folder).rglob("*.py"):
            text = path.read_text()
            if '"table/' in text and path != ROOT / "protocol" / "messages.py":
                spelled.append(str(path.relative_to(ROOT)))
    assert spelled == []
