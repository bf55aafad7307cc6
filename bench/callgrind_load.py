"""Instructions per command of a t24 server under a small load (valgrind's callgrind).

    .venv/bin/python bench/callgrind_load.py [--tables 4] [--seconds 40] [--tree DIR] [--keep]
    .venv/bin/python bench/callgrind_load.py --paced [--idle-seconds 30] [--tables 8] ...

Why: on a shared 2-core machine a server's CPU seconds say what the machine gave it, not what
a command costs; the instructions the server executed (user space, all its threads) do not
depend on what runs beside it. This runs one `t24-server` (SQLite store in a temp dir) under
`valgrind --tool=callgrind` with collection off while it starts and the bots of
`bench/server_load.py`'s load client connect and join; collection is switched on for the
played seconds only (`callgrind_control`), and the instruction count is divided by the
commands the server answered in that time (its `t24_command_latency_seconds` count). The
server runs some 50 times slower under valgrind, so the load is small (`--tables`, 4 bots
each) and the run long; the mix per card (a touch from each bot, a declaration, a fix) is
the same as in `bench/server_load.py`'s flat-out runs.

`--paced` (issue 32: a paced command cost twice a flat-out one on a quiet machine): the load
of `bench/server_load.py`'s paced runs instead (a card placed 3 s after the last one is
resolved, revealed 1 s later: mostly idle connections, each command nearly alone), and
before play the bots sit connected and joined for `--idle-seconds` with collection on, so
the run reports both the instructions per played command and those per second of one idle
connection (its timers, lag probes, keep-alive pings), read per thread from
`callgrind_control -e` between the phases.

`--tree DIR`: the server from another source tree (A/B: run once per tree). `--keep`: keep
the callgrind output (for `callgrind_annotate`) in the current directory. Prints one JSON line.
"""

from __future__ import annotations

import argparse
import json
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from server_load import LoadClient, start_process  # noqa: E402


def commands_answered(port: int) -> float:
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=60).read().decode()
    match = re.search(r"^t24_command_latency_seconds_count (\S+)$", text, re.MULTILINE)
    assert match, "no command count in /metrics"
    return float(match.group(1))


def control(pid: int, *args: str) -> None:
    subprocess.run(["callgrind_control", *args, str(pid)], check=True, capture_output=True)


def thread_totals(pid: int) -> dict[str, int]:
    """The instructions each thread of a callgrind run executed so far (collection on)."""
    text = subprocess.run(
        ["callgrind_control", "-e", str(pid)], check=True, capture_output=True, text=True
    ).stdout
    found = re.findall(r"^\s*Th (\d+)\s+([\d,]+)\s*$", text, re.MULTILINE)
    return {thread: int(count.replace(",", "")) for thread, count in found}


def spent(before: dict[str, int], after: dict[str, int]) -> dict[str, int]:
    return {thread: count - before.get(thread, 0) for thread, count in after.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--tree", type=Path, help="run the server from this source tree")
    parser.add_argument("--keep", action="store_true", help="keep callgrind.out.* here")
    parser.add_argument("--paced", action="store_true", help="server_load.py's paced load")
    parser.add_argument("--idle-seconds", type=float, default=0.0, help="idle phase (paced)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        run = Path(tmp)
        out = (Path.cwd() if args.keep else run) / f"callgrind.out.t24.{int(time.time())}"
        ready = run / "ready.json"
        command = ["valgrind", "--tool=callgrind", "--instr-atstart=no"]
        command += [f"--callgrind-out-file={out}", sys.executable, "-m", "server"]
        command += ["--port", "0", "--log-level", "warn"]
        command += ["--rate-per-second", "10000", "--rate-burst", "10000"]
        command += ["--store", f"sqlite:///{run / 't24.sqlite'}", "--secret-file", str(run / "s")]
        command += ["--ready-file", str(ready)]
        server, info = start_process(command, ready, run, args.tree, timeout=300.0)  # valgrind
        try:
            client = LoadClient(
                info["url"],
                "t24",
                args.seconds,
                tables=args.tables,
                secret_file=run / "s",
                flat_out=0 if args.paced else 1,
            )
            try:
                connections = client.idle(timeout=600)
                time.sleep(1.0)
                control(info["pid"], "--instr=on")
                idle_threads: dict[str, int] = {}
                if args.idle_seconds > 0:
                    start = thread_totals(info["pid"])
                    time.sleep(args.idle_seconds)
                    idle_threads = spent(start, thread_totals(info["pid"]))
                before = commands_answered(info["port"])
                start = thread_totals(info["pid"])
                client.go()
                played = client.result()
                played_threads = spent(start, thread_totals(info["pid"]))
                control(info["pid"], "--instr=off")
                after = commands_answered(info["port"])
                client.process.wait(timeout=60)
            finally:
                client.kill()
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=300)
        totals = re.search(r"^totals: (\d+)", out.read_text(), re.MULTILINE)
        assert totals, f"no totals in {out}"
        idle = sum(idle_threads.values())
        instructions = int(totals.group(1)) - idle
        commands = after - before
        figures = {
            "tree": str(args.tree or ROOT),
            "load": "paced" if args.paced else "flat out",
            "tables": args.tables,
            "connections": connections,
            "instructions": instructions,
            "commands": commands,
            "client_commands_per_second": round(played["per_second"], 1),
            "errors": played["errors"],
            "instructions_per_command": round(instructions / max(commands, 1)),
            "per_thread_per_command": {
                thread: round(count / max(commands, 1)) for thread, count in played_threads.items()
            },
        }
        if args.idle_seconds > 0:
            figures["idle_seconds"] = args.idle_seconds
            figures["idle_instructions_per_connection_second"] = round(
                idle / (connections * args.idle_seconds)
            )
        if args.keep:
            figures["out"] = str(out)
        print(json.dumps(figures), flush=True)


if __name__ == "__main__":
    main()
