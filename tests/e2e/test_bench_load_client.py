"""The load client of `make bench` (bench/server_load.py, used by bench/cluster.py) fails,
saying why, when a bot's connection is refused, instead of waiting for ever: the stall of
`bench/cluster.py` at its default size (a bot refused or closed while connecting, and the
client never reported)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from server_process import ServerProcess

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from server_load import LoadClient  # noqa: E402

pytestmark = pytest.mark.e2e


def test_a_refused_bot_fails_the_load_client_instead_of_stalling_it(tmp_path):
    # 10 tables are 41 connections (the director and 4 bots a table): past the 30 allowed,
    # some handshakes are answered HTTP 503
    process = ServerProcess(
        tmp_path, "--max-connections", "30", "--rate-per-second", "10000", "--rate-burst", "10000"
    ).start()
    client = LoadClient(process.url, "t24", 1.0, tables=10, secret_file=process.secret_file)
    try:
        # the client's own answer (a deadline would say "no connected bots within 60 s")
        with pytest.raises(RuntimeError, match="503"):
            client.idle(timeout=60)
    finally:
        client.kill()
        process.kill()
