"""The demo banner's commands can be pasted as they are (README: `make run`)."""

import os
import shlex

from server.app import client_program, demo_banner

TOKENS = {
    "url": "ws://127.0.0.1:8024/ws",
    "table": "demo",
    "director": "D",
    "proctor": "P",
    "seats": [{"seat": "s1", "token": "T1"}, {"seat": "s2", "token": "T2"}],
    "spectator": "S",
}


def test_every_client_command_names_a_runnable_t24():
    program = client_program()
    assert os.access(program, os.X_OK), f"{program} is not an executable t24"
    commands = [
        shlex.split(line)
        for line in demo_banner(TOKENS, "var/demo-tokens.json").splitlines()
        if line.startswith("  ")
    ]
    assert [c[1] for c in commands] == ["proctor", "play", "play", "watch", "bot"]
    assert all(c[0] == program for c in commands)
    assert [c[c.index("--token") + 1] for c in commands[:4]] == ["P", "T1", "T2", "S"]
    assert commands[4][2:6] == ["--tokens", "var/demo-tokens.json", "--seat", "s2"]
    assert commands[4][-2:] == ["--skill", "human"]
