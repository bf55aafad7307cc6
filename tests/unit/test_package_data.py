"""Files read at run time are package data, found with `importlib.resources` (issue 34).

A path built from `__file__` (`Path(__file__).parents[2] / "clients" / ...`) points into the
checkout: it worked under `make run` and answered 404 in an installed wheel. This keeps the
installed code free of it; tests/e2e/test_installed_package.py checks that the wheel holds
every file under the package folders.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_no_installed_module_locates_files_from_its_own_path():
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for folder in ("server", "protocol", "clients")
        for path in sorted((ROOT / folder).rglob("*.py"))
        if "node_modules" not in path.parts
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if "__file__" in line
    ]
    assert not found, "use importlib.resources.files(package) instead:\n" + "\n".join(found)
