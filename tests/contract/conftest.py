"""The contract tests' fixtures live in `eventlog_backends.py` (a unique module name, so the
child-process tests can import its helpers whatever other conftest files the suite has)."""

from eventlog_backends import backend  # noqa: F401 - the fixture every contract test takes
