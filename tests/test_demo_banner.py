"""The demo banner's commands can be pasted as they are (README: `make run`), and name no
token: each reads its holder's own file (issue 17)."""

import os
import shlex

from protocol.token_files import person_files
from server.demo import client_program, demo_banner

FILES = person_files(
    "ws://127.0.0.1:8024/ws",
    "demo",
    proctor="P",
    spectator="S",
    seats=[{"seat": "s1", "name": "Ada", "token": "T1"}, {"seat": "s2", "token": "T2"}],
    director="D",
)


def test_every_client_command_names_a_runnable_t24_and_reads_its_token_from_a_file():
    program = client_program()
    assert os.access(program, os.X_OK), f"{program} is not an executable t24"
    banner = demo_banner(FILES, "var/demo-tokens")
    commands = [shlex.split(line) for line in banner.splitlines() if line.startswith("  ")]
    assert [c[1] for c in commands] == ["proctor", "play", "play", "watch", "bot"]
    assert all(c[0] == program for c in commands)
    assert [c[c.index("--tokens") + 1] for c in commands] == [
        "var/demo-tokens/proctor.json",
        "var/demo-tokens/s1.json",
        "var/demo-tokens/s2.json",
        "var/demo-tokens/spectator.json",
        "var/demo-tokens/s2.json",
    ]
    assert not any("--token" in c for c in commands)
    assert commands[4][-2:] == ["--skill", "human"]
    assert not {"D", "P", "S", "T1", "T2"} & set(banner.split())
