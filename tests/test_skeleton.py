"""The fixed shape of the project: entry points exist and answer."""

import subprocess
import sys


def test_t24_help_lists_exit_codes():
    out = subprocess.run(
        [sys.executable, "-m", "clients.reference_cli", "--help"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "exit codes" in out.stdout


def test_core_packages_do_not_import_twisted():
    code = (
        "import sys, server.puzzles, server.games, server.tournament, protocol;"
        "assert 'twisted' not in sys.modules, 'twisted imported by the core'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
