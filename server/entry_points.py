"""The installed commands' entry points: `t24-server` and `t24` (pyproject.toml, scripts).

What it keeps: the one check both commands run before they import anything else of t24,
that no other distribution in their environment installs t24's top-level import names
(`server`, `protocol`, `clients`); then the command itself (`server.__main__.main`,
`clients.reference_cli.cli.main`), imported only once the check passed.

Why: those three names are generic, and pip never checks that two distributions install the
same top-level name. Installed beside one that does (in either order), both are written into
one folder of site-packages: the last `__init__.py` wins, and uninstalling either removes
files the other needs (docs/operations.md, "Import names"). t24 is meant to be installed as
an application, in an environment of its own (`pipx install`, or a virtual environment of
its own); where the names are shared anyway, its commands refuse to start with a message
that names the other distribution and the fix, rather than failing later on a missing name
or serving another package's code. The decision and its trade-offs: docs/architecture.md,
"Deliberate choices".

The check reads each installed distribution's `top_level.txt` (or, when it has none, the
first folder of each line of its `RECORD`), as `importlib.metadata.packages_distributions`
does, but only for these three names: 4 to 6 ms in an environment of 29 distributions,
where `packages_distributions` took 70 to 100 ms of a 0.5 s start. Stdlib only, so it runs
even when another distribution's `server/__init__.py` has replaced ours.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping
from importlib.metadata import Distribution, distributions

DISTRIBUTION = "t24"
IMPORT_NAMES = ("server", "protocol", "clients")
SHARED_NAMES_EXIT = 1  # the command could not start (as t24-server's own exit 1)


def _names_in_record(record: str) -> set[str]:
    """The import names among IMPORT_NAMES that a RECORD's files install: a folder
    (`server/...`) or a module (`server.py`, `server.cpython-311-x86_64-linux-gnu.so`)."""
    found = set()
    for line in record.splitlines():
        path = line.split(",", 1)[0]
        for name in IMPORT_NAMES:
            if path.startswith(name + "/") or (
                path.startswith(name + ".") and path.endswith((".py", ".so", ".pyd"))
            ):
                found.add(name)
    return found


def provided_names(dist: Distribution) -> set[str]:
    """Which of IMPORT_NAMES this distribution installs."""
    top_level = dist.read_text("top_level.txt")
    if top_level is not None:
        return set(top_level.split()) & set(IMPORT_NAMES)
    return _names_in_record(dist.read_text("RECORD") or "")


def _canonical(name: str) -> str:
    return name.lower().replace("_", "-").replace(".", "-")


def shared_names(installed: Iterable[Distribution] | None = None) -> dict[str, list[str]]:
    """Each of t24's import names that another distribution installs too -> those
    distributions ("name version"); empty when t24 has its names to itself."""
    shared: dict[str, list[str]] = {}
    for dist in distributions() if installed is None else installed:
        names = provided_names(dist)
        if not names or _canonical(dist.metadata["Name"] or "") == DISTRIBUTION:
            continue
        for name in sorted(names):
            shared.setdefault(name, []).append(f"{dist.metadata['Name']} {dist.version}")
    return shared


def refusal(program: str, shared: Mapping[str, list[str]]) -> str:
    """What a command prints when it will not start beside another owner of its names."""
    owners = "; ".join(f"`{name}` also by {', '.join(dists)}" for name, dists in shared.items())
    return (
        f"{program}: cannot start: this Python environment ({sys.prefix}) has t24's import "
        f"names installed by other distributions too ({owners}). pip writes both into the "
        "same folders without a warning, so one overwrote the other's files. Install t24 "
        "into an environment of its own: `pipx install t24-<version>-py3-none-any.whl`, or "
        "`python3 -m venv /opt/t24 && /opt/t24/bin/pip install t24-<version>-py3-none-any.whl` "
        '(docs/operations.md, "Installing on a server").'
    )


def _refused(program: str) -> bool:
    shared = shared_names()
    if shared:
        print(refusal(program, shared), file=sys.stderr)
    return bool(shared)


def server() -> int:
    """`t24-server`: the check, then `server.__main__.main`."""
    if _refused("t24-server"):
        return SHARED_NAMES_EXIT
    from server.__main__ import main

    return main()


def cli() -> int:
    """`t24`: the check, then `clients.reference_cli.cli.main`."""
    if _refused("t24"):
        return SHARED_NAMES_EXIT
    from clients.reference_cli.cli import main

    return main()
