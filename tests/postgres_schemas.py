"""The real PostgreSQL the tests use, one fresh schema per test.

`T24_TEST_POSTGRES_URL` (default postgresql://postgres@127.0.0.1:5432/postgres) names the
server. `fresh_schema()` skips the test, with the reason, when no server answers; under
`T24_REQUIRE_POSTGRES=1` (set by `.ci/run`) it fails instead, so CI never goes green with
the PostgreSQL backend silently untested. Each schema is `t24test_<run>_<n>` and is dropped
afterwards.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

POSTGRES_URL = os.environ.get(
    "T24_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres"
)
RUN_ID = uuid.uuid4().hex[:8]

_postgres_state: dict[str, str] = {}


def postgres_or_skip() -> None:
    """Skip (or fail, under `T24_REQUIRE_POSTGRES=1`) when no PostgreSQL answers; checked once."""
    if "error" not in _postgres_state:
        import psycopg

        try:
            psycopg.connect(POSTGRES_URL, connect_timeout=3).close()
            _postgres_state["error"] = ""
        except psycopg.Error as error:
            _postgres_state["error"] = f"no PostgreSQL answers at {POSTGRES_URL}: {error}"
    if _postgres_state["error"]:
        if os.environ.get("T24_REQUIRE_POSTGRES") == "1":
            pytest.fail(_postgres_state["error"] + " (T24_REQUIRE_POSTGRES=1)")
        pytest.skip(_postgres_state["error"])


def drop_schema(schema: str) -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect(POSTGRES_URL, autocommit=True) as connection:
        drop = sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema))
        connection.execute(drop)


@contextmanager
def fresh_schema() -> Iterator[tuple[str, str]]:
    """`(store_url, schema)` of a schema no test has used; dropped on the way out."""
    postgres_or_skip()
    schema = f"t24test_{RUN_ID}_{uuid.uuid4().hex[:6]}"
    try:
        yield f"{POSTGRES_URL}?schema={schema}", schema
    finally:
        drop_schema(schema)
