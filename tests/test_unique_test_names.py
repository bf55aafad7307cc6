"""Every module under tests/ but conftest.py has a file name of its own (issue 18's budget
tests once had the same name in tests/unit and tests/e2e).

Why: pytest's default import mode imports a test file by its base name (the directories have
no `__init__.py`), so two files of one name stop the whole run at collection ("import file
mismatch"), though each passes when run alone."""

from collections import Counter
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def test_no_two_test_modules_share_a_file_name():
    names = Counter(
        path.name for path in TESTS.rglob("*.py") if path.name not in ("__init__.py", "conftest.py")
    )
    assert sorted(name for name, count in names.items() if count > 1) == []
