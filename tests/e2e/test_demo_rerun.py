"""`make run` a second time on the same store (issue 13): a finished demo table is kept for
its replay and the run sets up a fresh, playable one; a demo still in play is kept, so a
restart resumes it. A real `t24-server --demo` process, started three times on one SQLite
file; clients are raw WebSockets."""

from __future__ import annotations

import json
from typing import Any

import pytest
from server_process import ServerProcess
from wsclients import AutobahnClient

pytestmark = pytest.mark.e2e


def accepted(client: AutobahnClient, table: str, name: str, **args: Any) -> dict[str, Any]:
    reply = client.request("command", table=table, name=name, args=args)
    assert reply["type"] == "accepted", reply
    return reply


def demo_run(process: ServerProcess, tokens_dir) -> dict[str, Any]:
    """Start the server with its demo; what the tokens files and `list_tables` say."""
    process.start()
    proctor = json.loads((tokens_dir / "proctor.json").read_text())
    director = json.loads((tokens_dir / "director.json").read_text())["director"]
    lister = AutobahnClient(process.url)
    try:
        lister.hello(director)
        listed = {t["table"]: t for t in lister.request("list_tables")["tables"]}
    finally:
        lister.close()
    return {"proctor": proctor, "director": director, "listed": listed}


def test_a_second_run_after_the_demo_is_over_sets_up_a_fresh_playable_demo(tmp_path):
    tokens_dir = tmp_path / "demo" / "var" / "demo-tokens"
    process = ServerProcess(tmp_path / "demo", "--demo", "--demo-tokens-dir", str(tokens_dir))
    try:
        first = demo_run(process, tokens_dir)
        assert first["proctor"]["table"] == "demo"
        assert set(first["listed"]) == {"demo", "demo-pocket"}
        # play both demo tables to their end: the round ended, the pocket game ended
        director = AutobahnClient(process.url)
        director.hello(first["director"])
        accepted(director, "demo", "start_round")
        accepted(director, "demo", "end_round")
        accepted(director, "demo-pocket", "start_game")
        accepted(director, "demo-pocket", "end_game")
        director.close()
        process.terminate()

        second = demo_run(process, tokens_dir)
        assert second["proctor"]["table"] == "demo-2"  # the tokens files name the fresh one
        assert set(second["listed"]) == {"demo", "demo-2", "demo-pocket", "demo-pocket-2"}
        assert second["listed"]["demo-pocket"]["over"] is True  # kept, for its replay
        assert "this run's is 'demo-2'" in process.log_text()
        proctor = AutobahnClient(process.url)
        proctor.hello(second["proctor"]["proctor"])
        assert proctor.request("join", table="demo-2")["view"]["phase"] == "setup"
        accepted(proctor, "demo-2", "start_round")  # playable, as "demo" no longer is:
        proctor.close()
        director = AutobahnClient(process.url)
        director.hello(second["director"])
        refused = director.request("command", table="demo", name="start_round", args={})
        assert refused["type"] == "error" and refused["code"] == "round_over", refused
        director.close()
        pocket = AutobahnClient(process.url)
        pocket.hello(process.token("player", table="demo-pocket-2", seat="s1"))
        accepted(pocket, "demo-pocket-2", "start_game")
        pocket.close()
        process.terminate()

        third = demo_run(process, tokens_dir)  # demo-2 is in play: kept, resumed
        assert third["proctor"]["table"] == "demo-2"
        assert set(third["listed"]) == {"demo", "demo-2", "demo-pocket", "demo-pocket-2"}
    finally:
        if process.running():
            process.terminate()
