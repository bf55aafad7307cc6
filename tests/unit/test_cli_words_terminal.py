"""The terminal's own outputs in Norwegian and Swedish (issue 30; docs/translating.md): what
`t24 solve`, `t24 check` and `t24 deck` print, the errors of `t24 admin`, `t24 tournament`,
`t24 bot` and of finding a server, the proctor's `help` list, the bot's reasons for its
moves and a director's refusal, each run in-process through `main()` (the process is not
the subject) and compared with the catalogue's own words, never with copies here. No
sentence of these may be left in English (`ENGLISH`: the words the English texts use).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest

from clients.reference_cli.cli import main
from clients.reference_cli.connection import ServerRefused, director_refusal
from clients.reference_cli.games import part_for
from clients.reference_cli.games.challenge import proctor_input
from clients.reference_cli.games.challenge.bot import Situation, Timings, plan
from clients.reference_cli.games.challenge.proctor_input import ProctorInput, press
from clients.reference_cli.keyboard import Notice
from clients.reference_cli.table_commands import PROCTOR_EPILOG
from clients.reference_cli.words import command_words, set_language
from protocol.words import catalogue, say
from server.games import games
from server.puzzles import difficulty

# Words of the English texts of these outputs: none may stand in a Norwegian or Swedish one.
ENGLISH = re.compile(
    r"\b(solutions?|distinct|dots?|pattern|seed|cards|double-sided|top first|red|white|"
    r"correct|makes|wrong|error|refused|must|at least|seats?|tokens?|file|round is over|"
    r"solved it|found it|needs|record|touch|student|commands|help list|this list|leave)\b",
    re.IGNORECASE,
)
# What a person types, kept as it is in every language: the commands and flags.
TYPED = re.compile(
    r"--[a-z-]+|^\s+[a-z]+(?=\s)|\| quit|\bhelp\b"
    r"|\b(?:uphold|reject|rescind|slap|award|revoke|adjust)\b",
    re.MULTILINE,
)


def english_left(text: str) -> list[str]:
    return ENGLISH.findall(TYPED.sub(" ", text))


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    yield
    set_language("en")


def common(lang: str, key: str, n: int | None = None, **values) -> str:
    return say(lang, "common", key, n, **values)


# -- the puzzle tools ---------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["nb", "sv"])
def test_solve_prints_its_count_dots_and_patterns_in_the_language(lang, capsys):
    assert main(["--lang", lang, "solve", "3", "3", "8", "8"]) == 0
    lines = capsys.readouterr().out.splitlines()
    dots = difficulty.dots([3, 3, 8, 8])
    assert lines[0] == common(
        lang,
        "solve.found",
        card="3 3 8 8",
        solutions=common(lang, "solve.solutions", 1),
        dots=common(lang, "solve.dots", dots),
    )
    pattern_word = common(lang, "solve.pattern", pattern="X", steps="Y").split()[0]
    assert lines[2].split()[0] == pattern_word
    assert english_left("\n".join(lines)) == []


def test_solve_without_a_solution_and_a_bad_card_in_norwegian(capsys):
    assert main(["--lang", "nb", "solve", "1", "1", "1", "1"]) == 1
    assert capsys.readouterr().out == common("nb", "solve.none", card="1 1 1 1") + "\n"
    assert main(["--lang", "nb", "solve", "1", "2", "3"]) == 2
    said = common("nb", "solve.card_size", size=4, count=3, numbers="1 2 3")
    assert (
        capsys.readouterr().err == common("nb", "cli.error", command="t24 solve", error=said) + "\n"
    )
    assert said.startswith("et kort har 4 tall")


def test_check_says_right_and_wrong_in_swedish(capsys):
    assert main(["--lang", "sv", "check", "3", "3", "8", "8", "8/(3-8/3)"]) == 0
    assert capsys.readouterr().out == common("sv", "check.correct") + "\n"
    assert main(["--lang", "sv", "check", "3", "3", "8", "8", "3*8+8-8"]) == 1
    out = capsys.readouterr().out
    why = common("sv", "reason.wrong_numbers")
    assert out == common("sv", "check.wrong", reason="wrong_numbers", why=why) + "\n"
    assert out.startswith("fel (wrong_numbers): ")


def test_deck_names_its_cards_and_columns_in_the_language(capsys):
    assert main(["--lang", "nb", "deck", "--edition", "playing-cards", "--seed", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == common("nb", "deck.playing_cards", 40, edition="playing-cards", seed=1)
    assert re.fullmatch(r"\s+1\. (kløver|ruter|hjerter|spar) +\d+", lines[1]), lines[1]
    assert main(["--lang", "sv", "deck", "--edition", "single-digits", "--seed", "7"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == common("sv", "deck.double_sided", 48, edition="single-digits", seed=7)
    assert lines[1].split() == ["kort", "röd", "prickar", "vit", "prickar"]
    assert english_left("\n".join(lines[:2])) == []


# -- the director's commands and the connection (their errors come before any connection) ------


def run_err(argv: list[str], capsys) -> tuple[int, str]:
    code = main(argv)
    return code, capsys.readouterr().err


def test_admin_errors_in_norwegian(capsys, tmp_path):
    server = ["--url", "ws://127.0.0.1:9/ws", "--token", "t"]
    code, err = run_err(["--lang", "nb", "admin", "create-table", "--cards", "0", *server], capsys)
    words = common("nb", "admin.cards_at_least_one")
    assert (code, err) == (
        2,
        common("nb", "cli.error", command="t24 admin create-table", error=words) + "\n",
    )
    out = str(tmp_path / "tokens.json")
    code, err = run_err(
        ["--lang", "nb", "admin", "create-table", "--tokens-out", out, *server], capsys
    )
    assert code == 2 and common("nb", "admin.tokens_out_directory", example=out[:-5]) in err
    missing = str(tmp_path / "none.json")
    code, err = run_err(["--lang", "nb", "admin", "list-tables", "--tokens", missing], capsys)
    assert code == 2 and "kan ikke lese nøkkelfilen" in err
    for text in (err,):
        assert english_left(text.replace(missing, "")) == []


def test_tournament_and_bot_errors_in_swedish(capsys, tmp_path):
    server = ["--url", "ws://127.0.0.1:9/ws", "--token", "t"]
    create = ["create", "--id", "x", "--name", "X", "--date", "2026-03-14", "--grades", "4th"]
    argv = ["--lang", "sv", "tournament", *create, "--seed", "1", *server]
    code, err = run_err([*argv, "--table-option", "cards_per_round=6"], capsys)
    own = say(
        "sv",
        "tournament",
        "cli.own_option",
        option="cards_per_round",
        flag="--cards-per-round",
        value="6",
    )
    assert code == 2 and own in err and "fel:" in err
    roster = tmp_path / "roster.csv"
    roster.write_bytes(b"name,school,grade\nAda,Hill,4th\nBo\x81,Hill,4th\n")
    code, err = run_err(
        ["--lang", "sv", "tournament", "import", "--id", "x", str(roster), *server], capsys
    )
    encoding = say("sv", "tournament", "cli.roster_encoding", path=roster, line=3, byte="0x81")
    assert code == 2 and encoding in err
    code, err = run_err(["--lang", "sv", "bot", *server, "--time-scale", "0"], capsys)
    scale = common("sv", "bot.time_scale")
    assert (code, err) == (2, common("sv", "cli.error", command="t24 bot", error=scale) + "\n")
    code, err = run_err(["--lang", "sv", "bot", "--url", "http://x", "--token", "t"], capsys)
    assert code == 2 and common("sv", "connect.bad_url", url="'http://x'") in err


def test_a_director_s_refusal_names_its_code_in_every_language():
    refused = ServerRefused("table_exists", "table 'x' exists already")
    set_language("en")
    assert director_refusal(refused) == refused.words()  # the server's detail, in English
    set_language("sv")
    sentence = catalogue("sv").say("common", "refusal.table_exists")
    assert director_refusal(refused) == f"{sentence} (table_exists)"


# -- the proctor's help list and the bot's reasons ------------------------------------------------


def test_the_proctor_s_help_list_is_in_the_language_and_its_flag_stays_english():
    set_language("sv")
    state = ProctorInput()
    for key in "help":
        state, _effects = press(state, key, None)
    _state, effects = press(state, "\r", None)
    (notice,) = effects
    assert isinstance(notice, Notice)
    lines = notice.text.splitlines()
    assert lines[0] == say("sv", "challenge", "help.heading")
    assert len(lines) == 1 + len(proctor_input.PROCTOR_COMMANDS) + len(proctor_input.HEARING_HELP)
    assert any(line.split()[:2] == ["touch", "PLATS"] for line in lines)
    assert english_left(notice.text) == [], english_left(notice.text)
    # `t24 proctor --help` is English by design (docs/translating.md)
    assert "record a touch (R-PLAY-2" in PROCTOR_EPILOG
    set_language("nb")
    _state, effects = press(ProctorInput(buffer="pattern"), "\r", {"seats": [], "toucher": "s1"})
    usage = say("nb", "challenge", "help.pattern.usage")
    assert effects[0].text.endswith(say("nb", "challenge", "line.usage", usage=usage))


def test_the_bot_gives_its_reasons_in_the_language():
    set_language("nb")
    view = {
        "phase": "revealed",
        "card": {"play": 1, "numbers": [1, 2, 3, 4], "dots": 1, "revealed_at": 1},
        "toucher": None,
        "pattern": None,
        "touches": [],
        "stumped_declared": [],
        "seats": [{"seat": "s1", "name": "Ada", "disqualified": False}],
        "paused": False,
    }
    (touch,) = plan(Situation(view, "s1", Timings()), "perfect", random.Random(1))
    assert touch.why == common("nb", "bot.why.solved")
    plans = [
        plan(Situation(view, "s1", Timings()), "human", random.Random(seed)) for seed in range(20)
    ]
    found = [action.why for (action,) in plans if action.name == "touch_card"]
    assert found and all(re.fullmatch(r"fant det på \d+,\d s", why) for why in found), found


@pytest.mark.parametrize("lang", ["en", "nb", "sv"])
def test_every_command_a_person_or_a_bot_sends_is_worded_in_each_language(lang):
    """`t24 bot` says each move by its game's `command.<name>` (never the code): every
    command of every game but the server's own timers has words in each catalogue."""
    words = catalogue(lang)
    missing = [
        f"{name}: {command}"
        for name, game in games().items()
        for command in game.COMMANDS
        if not command.endswith("_deadline") and not words.has(name, f"command.{command}")
    ]
    assert missing == []
    set_language(lang)
    said = command_words(part_for("pocket").words, "claim")
    assert said == words.say("pocket", "command.claim") and "_" not in said


def test_analyse_audit_and_replay_errors_in_the_language(capsys, tmp_path):
    nothing = tmp_path / "nothing"
    code, err = run_err(["--lang", "sv", "analyse", str(nothing)], capsys)
    assert (code, err) == (
        2,
        "t24 analyse: " + common("sv", "analyse.no_source", path=nothing) + "\n",
    )
    code, err = run_err(["--lang", "nb", "audit", "verify", str(nothing)], capsys)
    said = common("nb", "audit.no_bundle", command="t24 audit verify", path=nothing)
    assert (code, err) == (2, said + "\n") and "ingen mappe med en dommerpakke" in said
    code, err = run_err(["--lang", "sv", "audit", "report", str(nothing), "--lang", "sv"], capsys)
    said = common("sv", "audit.no_bundle", command="t24 audit report", path=nothing)
    assert (code, err) == (2, said + "\n")
    store = f"sqlite:///{tmp_path / 'empty.sqlite'}"
    code, err = run_err(["--lang", "sv", "replay", "--store", store], capsys)
    why = common("sv", "replay.name_a_stream")
    assert (code, err) == (2, common("sv", "cli.error", command="t24 replay", error=why) + "\n")
