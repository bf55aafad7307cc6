"""Instructions per command of a t24 server under a small flat-out load (valgrind's callgrind).

    .venv/bin/python bench/callgrind_load.py [--tables 4] [--seconds 40] [--tree DIR] [--keep]

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--tree", type=Path, help="run the server from this source tree")
    parser.add_argument("--keep", action="store_true", help="keep callgrind.out.* here")
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
                flat_out=1,
            )
            try:
                client.idle(timeout=600)
                time.sleep(1.0)
                before = commands_answered(info["port"])
                control(info["pid"], "--instr=on")
                client.go()
                played = client.result()
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
        instructions = int(totals.group(1))
        commands = after - before
        figures = {
            "tree": str(args.tree or ROOT),
            "tables": args.tables,
            "instructions": instructions,
            "commands": commands,
            "client_commands_per_second": round(played["per_second"], 1),
            "errors": played["errors"],
            "instructions_per_command": round(instructions / max(commands, 1)),
        }
        if args.keep:
            figures["out"] = str(out)
        print(json.dumps(figures), flush=True)


if __name__ == "__main__":
    main()
