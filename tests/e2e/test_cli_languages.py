"""The terminal client in Swedish, Norwegian and a translator's toy language, against a real
server (issue 30; docs/cli.md, "Languages"; docs/translating.md).

A Tjugoett table created with `lang: nb` (the director's table default): Ada plays at
`t24 --lang sv play` and reads Swedish (her choice beats the table's), a spectator at
`t24 watch` with no language of its own reads Norwegian (the table's), the proctor at
`t24 --lang en proctor` English. Then `t24 replay` of the same table speaks a fourth language
added as docs/translating.md says: one `xx.po` file in a folder named by `T24_WORDS_DIR`.
"""

from __future__ import annotations

import json
import shutil

import pexpect
import pytest

from protocol import words
from server.games.tjugoett.cards import DECK, player_verdict, round_label, shuffled

pytestmark = pytest.mark.e2e


def _seed_with_a_decision() -> str:
    for number in range(1000):
        seed = f"lang-seed-{number:04d}"
        order = shuffled(DECK, seed, round_label(1))
        if player_verdict([order[0], order[2]]) is None:  # Ada: the first and third cards
            return seed
    raise AssertionError("no seed found")


def toy_language(folder) -> None:
    """A fourth language, `xx`, added as a translator would: a copy of en.po with its
    header's language and a few texts changed (the rest left in English on purpose)."""
    shutil.copytree(words.words_dir(), folder, ignore=shutil.ignore_patterns("*.py", "__*"))
    text = (folder / "en.po").read_text(encoding="utf-8")
    text = text.replace('"Language: en\\n"', '"Language: xx\\n"')
    text = text.replace('msgstr "English"', 'msgstr "Toy"', 1)
    text = text.replace(
        'msgstr "round {round}: the deck is shuffled and each player gets a card"',
        'msgstr "TOY ROUND {round} SHUFFLED"',
    )
    (folder / "xx.po").write_text(text, encoding="utf-8")


def test_a_tjugoett_round_in_swedish_norwegian_and_a_toy_language(server, cli, tmp_path):
    options = json.dumps({"seed": _seed_with_a_decision(), "dealer_seconds": 0.05, "lang": "nb"})
    tokens = cli.create_table(
        server, "ord", "--game", "tjugoett", "--options", options, seats="s1:Ada,s2:Bo"
    )
    watcher = cli.spawn("watch", "--tokens", str(tokens))
    watcher.expect("runde 0")
    bo = cli.spawn(
        "bot", "--tokens", str(tokens), "--seat", "s2", "--skill", "perfect", "--time-scale", "0.2"
    )
    ada = cli.spawn("--lang", "sv", "play", "--tokens", str(tokens), "--seat", "s1")
    ada.expect("omgång 0")
    proctor = cli.spawn("--lang", "en", "proctor", "--tokens", str(tokens))
    proctor.expect("\\[n\\] start the next round")
    ada.send("d")
    ada.expect("inte nu")  # no round yet: nothing to draw

    proctor.send("n")
    ada.expect("omgång 1: kortleken blandas och varje spelare får ett kort")
    ada.expect("\\[d\\] ta kort  \\[s\\] stå \\(nöjd\\)  \\[q\\] avsluta")
    watcher.expect("runde 1: kortstokken stokkes og hver spiller får et kort")
    ada.send("s")
    ada.expect(r"Ada är nöjd på \d+")
    ada.expect(r"Ada (vinner|förlorar): ")
    ada.expect(r"omgång 1 är slut: alla har spelat")
    watcher.expect(r"runde 1 er over: alle har spilt")
    proctor.expect(r"round 1 is over: everyone has played")
    proctor.send("e")
    ada.expect("bordet är slut efter 1 omgång")
    watcher.expect("bordet er over etter 1 runde")
    proctor.expect("the table is over after 1 round")
    for child in (ada, proctor, watcher):
        child.send("q")
    for child in (ada, bo, proctor, watcher):
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0, cli.logs()

    folder = tmp_path / "toy-words"
    toy_language(folder)
    replay = ("replay", "--store", server.store, "--print", "table/ord")
    toy = cli.run("--lang", "xx", *replay, env={"T24_WORDS_DIR": str(folder)})
    assert toy.returncode == 0, toy.stderr
    assert "TOY ROUND 1 SHUFFLED" in toy.stdout
    swedish = cli.run(*replay, env={"LANG": "sv_SE.UTF-8"})  # the environment's language
    assert "omgång 1: kortleken blandas" in swedish.stdout, swedish.stdout
    unknown = cli.run("--lang", "xx", *replay)  # no such catalogue here: English
    assert "round 1: the deck is shuffled" in unknown.stdout, unknown.stdout


def test_the_director_s_and_the_bot_s_outputs_in_norwegian_and_swedish(
    server, connect, cli, tmp_path
):
    """`t24 --lang nb admin create-table` and `list-tables` print Norwegian, a refusal names
    its code beside the catalogue's sentence; `t24 --lang sv tournament` creates, registers
    and lists standings in Swedish; `t24 --lang sv bot` plays a pocket card and says its
    moves, its reasons and the round's end in Swedish (real processes on a real server: the
    network is the subject; their in-process outputs are tests/unit/test_cli_words_terminal.py)."""
    common = words.catalogue("nb")
    director = ["--url", server.url, "--token", server.token("director", name="dir")]
    tokens = tmp_path / "lang-pocket"
    made = cli.run(
        "--lang", "nb", "admin", "create-table", "--table", "lang-admin-pocket",
        "--game", "pocket", "--seats", "s1:Ada,s2:Bo", "--cards", "1",
        "--tokens-out", str(tokens), *director,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    seats = common.say("common", "admin.seats", 2)
    assert made.stdout.splitlines()[0] == common.say(
        "common", "admin.created", table="lang-admin-pocket", game="pocket", seats=seats
    )
    assert made.stdout.splitlines()[1] == common.say(
        "common", "admin.tokens_written", directory=str(tokens)
    )
    again = cli.run(
        "--lang", "nb", "admin", "create-table", "--table", "lang-admin-pocket",
        "--game", "pocket", "--seats", "2", *director,
    )  # fmt: skip
    refused = common.say("common", "refusal.table_exists")
    assert again.returncode == 3 and f"avvist: {refused} (table_exists)" in again.stderr
    listed = cli.run("--lang", "nb", "admin", "list-tables", *director)
    line = next(text for text in listed.stdout.splitlines() if "lang-admin-pocket" in text)
    assert line.split()[-1] == common.say("common", "admin.table.live")

    swedish = words.catalogue("sv")
    cup = ["--id", "lang-cup"]
    created = cli.run(
        "--lang", "sv", "tournament", *director, "create", *cup, "--name", "Vårcupen",
        "--date", "2026-03-14", "--grades", "4th", "--seed", "3",
    )  # fmt: skip
    assert created.returncode == 0, created.stderr
    assert created.stdout.startswith("turneringen lang-cup")
    registered = cli.run(
        "--lang", "sv", "tournament", *director, "register", *cup,
        "--name", "Ada", "--school", "Hill", "--grade", "4th",
    )  # fmt: skip
    assert registered.returncode == 0, registered.stderr
    assert swedish.say("tournament", "command.registered", who="Ada (Hill, 4th)", id="p1") in (
        registered.stdout
    )
    closed = cli.run("--lang", "sv", "tournament", *director, "close-round", *cup, "--round", "1")
    assert closed.returncode == 3 and "nekad: " in closed.stderr

    bot = cli.spawn(
        "--lang", "sv", "bot", "--tokens", str(tokens / "s1.json"), "--skill", "perfect"
    )
    bo = connect(server.token("player", table="lang-admin-pocket", seat="s2"))
    assert bo.request("join", table="lang-admin-pocket")["type"] == "snapshot"
    assert (
        bo.request("command", table="lang-admin-pocket", name="start_game", args={})["type"]
        == "accepted"
    )
    bot.expect(pexpect.EOF, timeout=60)
    printed = bot.logfile_read.getvalue()
    skill = swedish.say("common", "bot.skill.perfect")
    answer = swedish.say("pocket", "command.answer")
    assert f"Ada: {answer} ({skill})" in printed, printed
    assert f"-- {swedish.say('common', 'status.connected')}" in printed
    assert swedish.say("common", "bot.round_over", who="Ada") in printed, printed
