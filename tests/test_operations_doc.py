"""The operator's docs cannot drift from the server: every metric a running server exposes is
listed in docs/protocol.md ("HTTP on the same port", `/metrics`), and every setting of
`ServerConfig` is a row of docs/operations.md's settings table, with its environment variable
and its default (issue 18 added settings and gauges; nothing checked that the docs followed).

The metrics are read from a real `T24Server` started in process on PostgreSQL (a node of
several exposes the lease metrics too), as `/metrics` renders them: not from a list in the
test, so a new metric fails here until it is documented.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

from postgres_schemas import fresh_schema
from prometheus_client.parser import text_string_to_metric_families
from shell_testcase import ShellTestCase
from twisted.internet import reactor
from twisted.internet.defer import inlineCallbacks

from server.app import T24Server
from server.config import ENV_PREFIX, ServerConfig, load_config

DOCS = Path(__file__).resolve().parents[1] / "docs"


def documented_metrics() -> set[str]:
    """The names in the `/metrics` row of docs/protocol.md's HTTP table."""
    [row] = [
        line for line in (DOCS / "protocol.md").read_text().splitlines() if "| `/metrics`" in line
    ]
    return set(re.findall(r"`(t24_[a-z_]+)", row))


def exposed(rendered: str) -> set[str]:
    """The metric names a scrape shows, as Prometheus names them (a counter with `_total`;
    without the `_created` series prometheus_client adds to counters and histograms)."""
    names = set()
    for family in text_string_to_metric_families(rendered):
        names.add(family.name + "_total" if family.type == "counter" else family.name)
    return {name for name in names if not name.endswith("_created")}


def settings_table() -> dict[str, list[str]]:
    """docs/operations.md, "Settings": setting -> its row's cells."""
    text = (DOCS / "operations.md").read_text().split("### Settings\n", 1)[1]
    text = text.split("\n#", 1)[0]
    rows = {}
    for line in text.splitlines():
        if line.startswith("| `"):
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            rows[cells[0].strip("`")] = cells
    return rows


def documented_default(cell: str) -> str:
    """The default as the table writes it: its first backticked word, or `(empty)`."""
    found = re.match(r"`([^`]*)`", cell)
    return found.group(1) if found else cell


def written(value: Any) -> str:
    """A default as the settings table writes it (TOML-ish: lower-case booleans, a list
    joined by commas, an empty string as `""`)."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, tuple):
        return ",".join(value)
    if value == "":
        return '""'
    return str(value)


def test_every_setting_is_a_row_of_the_settings_table_with_its_env_var_and_default():
    rows = settings_table()
    fields = {field.name: field for field in dataclasses.fields(ServerConfig)}
    assert set(rows) == set(fields), (set(fields) - set(rows), set(rows) - set(fields))
    for name, field in fields.items():
        _setting, env, default, _meaning = rows[name]
        assert env == f"`{ENV_PREFIX}{name.upper()}`", (name, env)
        shown = documented_default(default)
        if shown != "(empty)":
            assert shown == written(field.default), (name, default, field.default)
        else:
            assert field.default == "", (name, field.default)


class MetricsDocTests(ShellTestCase):
    timeout = 60

    @inlineCallbacks
    def test_every_metric_of_a_running_node_is_listed_in_the_protocol_doc(self):
        url, _schema = self.enterContext(fresh_schema())
        flags = {
            "host": "127.0.0.1",
            "port": "0",
            "store": url,
            "secret_file": str(self.tmp_path / "secret"),
        }
        server = T24Server(load_config(flags, {}), reactor)
        yield server.start()
        self.addCleanup(server.stop)
        body, _content_type = server.metrics.exposition()
        names = exposed(body.decode())
        assert {"t24_output_buffered_bytes", "t24_leases_held", "t24_connections"} <= names
        listed = documented_metrics()
        assert names - listed == set(), f"docs/protocol.md's /metrics omits {names - listed}"
        assert listed - names == set(), f"docs/protocol.md lists {listed - names}, not exposed"
