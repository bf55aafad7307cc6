"""Installed as a package, t24 works (issue 34): the wheel built from this checkout,
installed (not editable) into a fresh virtual environment outside it, `t24-server --demo`
started from an empty folder. The web client's files, the vendored msgpack library and the
difficulty data come from the installed package, a bot of the installed `t24` plays a card
over the wire, and `t24 --version` is the project's version. How the wheel is built and
installed: tests/e2e/installed_wheel.py.

And the import-name decision (docs/architecture.md, docs/operations.md "Import names"): a
distribution with its own top-level `server` package installed beside t24 is installed by pip
without a word, over t24's files; t24's commands then refuse to start, naming it.
"""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import json
import subprocess
import zipfile
from pathlib import Path

import pytest
from installed_wheel import (
    ROOT,
    InstalledServer,
    Workspace,
    clean_env,
    fresh_venv,
    pip,
    pip_install,
    project_version,
    run,
    shipped_files,
    site_packages,
)
from web_browser import Pages
from wsclients import AutobahnClient

# `make test-install`, run by .ci/run after `make test` (docs/testing.md, "Suite time")
pytestmark = [pytest.mark.e2e, pytest.mark.install]

WEB = ROOT / "clients" / "web" / "public"


@pytest.fixture(scope="module")
def workspace():
    made = Workspace()
    yield made
    made.remove()


@pytest.fixture(scope="module")
def wheel(workspace) -> Path:
    return workspace.build_wheel()


@pytest.fixture(scope="module")
def venv(workspace, wheel) -> Path:
    return fresh_venv(workspace.root / "venv", wheel)


@pytest.fixture(scope="module")
def demo(workspace, venv):
    """`t24-server --demo` of the installed package, started from an empty folder."""
    folder = workspace.folder("empty")
    assert not any(folder.iterdir())
    server = InstalledServer(
        venv / "bin" / "t24-server", folder, "--demo", "--port", "0", "--demo-auto-proctor", "0.2"
    ).start()
    yield server
    assert server.stop() == 0, server.log_text()


def test_the_wheel_holds_every_file_of_the_packages_and_nothing_else(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    files = {name for name in names if ".dist-info/" not in name}
    missing, extra = shipped_files() - files, files - shipped_files()
    assert not missing, (
        f"not in the wheel (pyproject.toml, [tool.setuptools.package-data]): {missing}"
    )
    assert not extra, f"in the wheel but not in the checkout: {extra}"
    assert "clients/web/public/vendor/msgpack/index.mjs" in files
    assert "server/puzzles/data/LICENSE-4nums-difficulty.txt" in files  # the data's licence


def test_the_installed_server_serves_the_web_client_from_its_package(demo, venv):
    status, body, headers = demo.get("/")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert body == (WEB / "index.html").read_bytes()
    for path in ("/js/main.js", "/vendor/msgpack/index.mjs", "/vendor/msgpack/Decoder.mjs"):
        status, body, headers = demo.get(path)
        assert status == 200 and headers["Content-Type"].startswith("text/javascript"), path
        assert body == (WEB / path.lstrip("/")).read_bytes()
    # from the environment's copy, not the checkout's: the demo ran in an empty folder
    served = run([str(venv / "bin" / "python"), "-c", PRINT_WEB_ROOT], cwd=demo.folder)
    assert served.stdout.strip() == str(site_packages(venv) / "clients" / "web" / "public")


PRINT_WEB_ROOT = "from server.net.static import WEB_ROOT; print(WEB_ROOT)"


def test_the_installed_server_serves_the_words_of_every_language(demo):
    """The catalogues (protocol/words/*.po) are package data too: the pages' words and the
    officials' report in Norwegian and Swedish come from the installed copy."""
    for lang in ("en", "nb", "sv"):
        status, body, headers = demo.get(f"/words/{lang}.json")
        assert status == 200 and headers["Content-Type"].startswith("application/json"), lang
        data = json.loads(body)
        assert data["lang"] == lang
        assert data["languages"] == {"en": "English", "nb": "Norsk bokmål", "sv": "Svenska"}


FIND_WORDS_AND_REPORT = (
    "from protocol import words; from server.audit import report; "
    "print(words.words_dir()); print(' '.join(words.languages())); "
    "from importlib.resources import files; report._environment().get_template('report.html.j2'); "
    "print(files(report.TEMPLATES) / 'report.html.j2')"
)


def test_the_installed_catalogues_and_report_templates_are_the_package_s(venv, workspace):
    found = run(
        [str(venv / "bin" / "python"), "-c", FIND_WORDS_AND_REPORT],
        cwd=workspace.folder("elsewhere"),
    )
    assert found.returncode == 0, found.stderr
    folder, langs, templates = found.stdout.splitlines()
    assert folder == str(site_packages(venv) / "protocol" / "words")
    assert langs.split() == ["en", "nb", "sv"]
    # the report's template was read from the package and compiled
    assert templates == str(
        site_packages(venv) / "server" / "audit" / "templates" / "report.html.j2"
    )


def test_the_installed_page_loads_its_modules_and_msgpack_in_a_browser(demo, pages: Pages):
    spectator = json.loads((demo.folder / "var" / "demo-tokens" / "spectator.json").read_text())
    page = pages.open(f"http://127.0.0.1:{demo.port}", spectator["spectator"])
    # "Connected": main.js and its imports ran, and the vendored msgpack decoded the welcome
    page.locator("#status", has_text="Connected").wait_for(timeout=15_000)


def test_a_bot_of_the_installed_cli_plays_a_card_over_the_wire(demo, venv):
    tokens = demo.folder / "var" / "demo-tokens"
    proctor = AutobahnClient(demo.url)
    bot = subprocess.Popen(
        [
            str(venv / "bin" / "t24"),
            "bot",
            "--tokens",
            str(tokens / "s1.json"),
            "--skill",
            "perfect",
        ],
        cwd=demo.folder,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=clean_env(),
    )
    try:
        proctor.hello(json.loads((tokens / "proctor.json").read_text())["proctor"])
        assert proctor.request("join", table="demo")["type"] == "snapshot"
        reply = proctor.request("command", table="demo", name="start_round", args={})
        assert reply["type"] == "accepted", reply
        won = proctor.event("CardWon", timeout=30)
        assert won["data"]["seat"] == "s1", won
        reply = proctor.request("command", table="demo", name="end_round", args={})
        assert reply["type"] == "accepted", reply
        output, _ = bot.communicate(timeout=30)
        assert bot.returncode == 0, output
    finally:
        proctor.close()
        if bot.poll() is None:
            bot.kill()
            bot.wait()


def test_the_installed_version_is_the_project_s(venv, workspace):
    folder = workspace.folder("elsewhere")
    for program in ("t24", "t24-server"):
        shown = run([str(venv / "bin" / program), "--version"], cwd=folder)
        assert shown.returncode == 0, shown.stderr
        assert shown.stdout.split() == [program, project_version()]


FIND_DATA = (
    "from server.puzzles import calibration; "
    "print(calibration.DEFAULT_CSV); print(len(calibration.csv_rows()))"
)


def test_the_installed_difficulty_data_is_found(venv, workspace):
    found = run([str(venv / "bin" / "python"), "-c", FIND_DATA], cwd=workspace.folder("elsewhere"))
    assert found.returncode == 0, found.stderr
    path, rows = found.stdout.split()
    assert path == str(
        site_packages(venv) / "server" / "puzzles" / "data" / "4nums-difficulty-train.csv"
    )
    checkout = ROOT / "server" / "puzzles" / "data" / "4nums-difficulty-train.csv"
    assert int(rows) == len(list(csv.DictReader(io.StringIO(checkout.read_text())))) == 681


# -- the import-name decision ------------------------------------------------------------------

OTHER_INIT = b'"""webthing\'s own server package."""\nNAME = "webthing"\n'


def other_wheel(folder: Path) -> Path:
    """A wheel of another distribution, `webthing`, whose top-level package is `server`: as
    a hatchling or flit wheel is made (no top_level.txt; its RECORD names its files)."""
    files = {
        "server/__init__.py": OTHER_INIT,
        "server/webthing.py": b"def serve():\n    return 'webthing'\n",
        "webthing-1.0.dist-info/METADATA": b"Metadata-Version: 2.1\nName: webthing\nVersion: 1.0\n",
        "webthing-1.0.dist-info/WHEEL": b"Wheel-Version: 1.0\nGenerator: hand\n"
        b"Root-Is-Purelib: true\nTag: py3-none-any\n",
    }
    record = []
    for name, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{name},sha256={digest},{len(data)}")
    record.append("webthing-1.0.dist-info/RECORD,,")
    path = folder / "webthing-1.0-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
        archive.writestr("webthing-1.0.dist-info/RECORD", "\n".join(record) + "\n")
    return path


def test_beside_another_server_package_pip_overwrites_and_t24_refuses_to_start(wheel, workspace):
    venv = fresh_venv(workspace.root / "venv-shared", wheel)
    ours = site_packages(venv) / "server" / "__init__.py"
    assert ours.read_bytes() != OTHER_INIT
    # pip installs it over t24 without a word (pip 26.3 measured): one `server` folder,
    # webthing's __init__.py in it, t24's modules beside webthing's
    installed = pip_install(venv, str(other_wheel(workspace.folder("other"))))
    assert installed.returncode == 0, installed.stderr
    assert ours.read_bytes() == OTHER_INIT
    assert (ours.parent / "webthing.py").is_file() and (ours.parent / "app.py").is_file()

    folder = workspace.folder("shared-empty")
    for program in ("t24", "t24-server"):
        refused = run(
            [str(venv / "bin" / program), "--demo" if program == "t24-server" else "--version"],
            cwd=folder,
        )
        assert refused.returncode == 1, (refused.stdout, refused.stderr)
        assert refused.stderr.startswith(f"{program}: cannot start: ")
        assert "`server` also by webthing 1.0" in refused.stderr
        assert "pipx install" in refused.stderr and refused.stdout == ""
    assert not any(folder.iterdir())  # the server wrote nothing: no store, no secret

    # Uninstalling webthing takes the shared file with it; reinstalling t24 repairs it.
    removed = pip(venv, "uninstall", "-y", "-q", "webthing")
    assert removed.returncode == 0, removed.stderr
    assert not ours.exists()
    repaired = pip_install(venv, "--force-reinstall", str(wheel))
    assert repaired.returncode == 0, repaired.stderr
    shown = run([str(venv / "bin" / "t24"), "--version"], cwd=folder)
    assert shown.returncode == 0 and shown.stdout.split() == ["t24", project_version()], shown
