"""docs/protocol.md cannot drift from the code: every example decodes and checks against
`protocol.messages`, every message, field, error code, close code and default limit is
listed exactly as the code has it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from protocol.codec import decode, encode
from protocol.messages import (
    CLOSE_CODES,
    ERROR_CODES,
    MESSAGES,
    ROLES,
    validate_message,
)
from server.config import ServerConfig
from server.net.session import NetConfig

DOC = (Path(__file__).resolve().parents[1] / "docs" / "protocol.md").read_text()


def sections() -> dict[str, str]:
    """`### \\`type\\`` heading -> its text up to the next heading."""
    parts = re.split(r"^### `([a-z_]+)`\n", DOC, flags=re.M)
    found = {}
    for name, body in zip(parts[1::2], parts[2::2], strict=True):
        found[name] = re.split(r"^#{2,3} ", body, maxsplit=1, flags=re.M)[0]
    return found


def examples(text: str) -> list[dict]:
    return [json.loads(block) for block in re.findall(r"```json\n(.*?)```", text, flags=re.S)]


def table_rows(text: str) -> list[list[str]]:
    rows = []
    for line in text.splitlines():
        if line.startswith("|") and not line.startswith("|---"):
            rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows[1:]  # without the header


def section(title: str) -> str:
    return DOC.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]


def test_every_example_is_a_valid_message_that_round_trips():
    found = examples(DOC)
    assert len(found) >= len(MESSAGES)
    for message in found:
        validate_message(message)
        assert decode(encode(message)) == message


@pytest.mark.parametrize("spec", MESSAGES, ids=lambda spec: spec.type)
def test_every_message_has_its_section_fields_and_example(spec):
    text = sections().get(spec.type)
    assert text is not None, f"docs/protocol.md has no section for {spec.type}"
    own = [m for m in examples(text) if m["type"] == spec.type]
    assert own, f"no example of {spec.type} in its section"
    rows = {row[0].strip("`"): row for row in table_rows(text) if row[0].startswith("`")}
    assert set(rows) == {f.name for f in spec.fields}, spec.type
    for f in spec.fields:
        _, kind, required, _meaning = rows[f.name]
        assert kind == f.kind, (spec.type, f.name)
        assert required.startswith("yes" if f.required else "no"), (spec.type, f.name)
        assert ("may be nil" in required) == f.nullable, (spec.type, f.name)


@pytest.mark.parametrize(
    "spec", [s for s in MESSAGES if s.sender == "client"], ids=lambda spec: spec.type
)
def test_who_may_send_each_request(spec):
    line = re.search(r"^Sent by: ([^.]*?)(?: \(|\.)", sections()[spec.type], flags=re.M)
    assert line, f"{spec.type}: no 'Sent by:' line"
    said = line.group(1)
    if said == "every role":
        roles = set(ROLES)
    else:
        roles = {word.strip() for word in said.split(",")}
    assert roles == set(spec.roles), spec.type


def test_error_codes_are_exactly_the_code_s():
    codes = {row[0].strip("`") for row in table_rows(section("Error codes"))}
    assert codes == set(ERROR_CODES)


def test_close_codes_are_exactly_the_code_s():
    codes = {int(row[0]) for row in table_rows(section("Close codes"))}
    assert codes == set(CLOSE_CODES)


def test_limits_table_states_the_defaults():
    defaults = ServerConfig()
    checked = set()
    for row in table_rows(section("Limits")):
        for name in re.findall(r"`([a-z_]+)`", row[0]):
            value = getattr(defaults, name, None)
            if isinstance(value, int | float) and not isinstance(value, bool):
                assert f"{value:g}" in row[1].replace(",", ""), (name, row[1])
                checked.add(name)
    assert checked >= {
        "max_message_bytes",
        "rate_per_second",
        "rate_burst",
        "abuse_strikes",
        "hello_timeout",
        "max_joins",
        "open_handshake_timeout",
        "auto_ping_interval",
        "auto_ping_timeout",
        "max_connections",
    }


def test_welcome_example_announces_the_limits_the_server_announces():
    [welcome] = [m for m in examples(DOC) if m["type"] == "welcome"]
    assert welcome["limits"] == NetConfig().announced()


def test_the_doc_links_the_game_rules():
    assert "(rules.md)" in DOC
    assert (Path(__file__).resolve().parents[1] / "docs" / "rules.md").exists()
