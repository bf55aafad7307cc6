"""server/entry_points.py: the installed commands refuse to start beside another distribution
that installs t24's import names (`server`, `protocol`, `clients`), issue 34.

The distributions are real `.dist-info` folders read by `importlib.metadata`, as pip leaves
them; tests/e2e/test_installed_package.py installs such a distribution with pip beside a
built wheel and runs the commands.
"""

from __future__ import annotations

from importlib.metadata import PathDistribution
from pathlib import Path

import pytest

from server import entry_points


def dist_info(
    root: Path, name: str, *, top_level: str | None = None, record: str = ""
) -> PathDistribution:
    """A `.dist-info` folder as pip writes it: METADATA, RECORD and maybe top_level.txt."""
    folder = root / f"{name.replace('-', '_')}-1.0.dist-info"
    folder.mkdir(parents=True)
    (folder / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    (folder / "RECORD").write_text(record)
    if top_level is not None:
        (folder / "top_level.txt").write_text(top_level)
    return PathDistribution(folder)


def test_a_distribution_naming_server_in_its_top_level_shares_the_name(tmp_path):
    other = dist_info(tmp_path, "webthing", top_level="server\nwebthing\n")
    ours = dist_info(tmp_path, "t24", top_level="clients\nprotocol\nserver\n")
    assert entry_points.shared_names([ours, other]) == {"server": ["webthing 1.0"]}


def test_without_top_level_txt_the_record_tells_modules_folders_and_extensions(tmp_path):
    record = (
        "protocol.py,sha256=x,10\n"
        "clients/__init__.py,sha256=y,0\n"
        "server.cpython-311-x86_64-linux-gnu.so,sha256=z,99\n"
        "flit_thing-1.0.dist-info/RECORD,,\n"
    )
    other = dist_info(tmp_path, "flit-thing", record=record)
    assert entry_points.provided_names(other) == {"protocol", "clients", "server"}
    shared = entry_points.shared_names([other])
    assert shared == {name: ["flit-thing 1.0"] for name in ("clients", "protocol", "server")}


@pytest.mark.parametrize(
    "line",
    [
        "clients.pth,sha256=x,10",  # a path file, not an importable `clients`
        "server-1.0.dist-info/METADATA,,",  # a distribution named "server": its metadata
        "serverless/__init__.py,,",
        "myproject/server/__init__.py,,",  # `myproject.server`, not `server`
    ],
)
def test_files_that_install_no_such_import_name_do_not_count(tmp_path, line):
    other = dist_info(tmp_path, "innocent", record=line + "\n")
    assert entry_points.shared_names([other]) == {}


def test_t24_itself_never_counts_however_its_name_is_spelled(tmp_path):
    ours = dist_info(tmp_path, "T24", top_level="server\n")
    assert entry_points.shared_names([ours, ours]) == {}


def test_the_refusal_names_the_other_distribution_the_environment_and_the_fix():
    message = entry_points.refusal("t24", {"server": ["webthing 1.0"]})
    assert "`server` also by webthing 1.0" in message
    assert "pipx install" in message and "docs/operations.md" in message


def test_this_environment_has_t24_s_names_to_itself():
    # The project's own .venv (or CI's): nothing else installs server, protocol or clients,
    # so `make run` and the e2e tests' commands start.
    assert entry_points.shared_names() == {}


def test_both_commands_refuse_to_start_with_the_message_on_stderr(tmp_path, monkeypatch, capsys):
    other = dist_info(tmp_path, "webthing", top_level="server\n")
    monkeypatch.setattr(entry_points, "distributions", lambda: [other])
    assert entry_points.cli() == entry_points.SHARED_NAMES_EXIT == 1
    assert entry_points.server() == 1
    printed = capsys.readouterr().err.splitlines()
    assert printed[0].startswith("t24: cannot start: ")
    assert printed[1].startswith("t24-server: cannot start: ")
