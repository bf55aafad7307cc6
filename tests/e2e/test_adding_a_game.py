"""A game is added by its folders alone (issue 29; docs/architecture.md, "How to add a game").

The checklist says: add `server/games/<g>/`, `clients/reference_cli/games/<g>/`,
`clients/web/public/js/games/<g>.js` and `docs/games/<g>.md`, and the game's vocabulary
(`msgctxt "<g>"`) in each catalogue `protocol/words/<lang>.po`, and nothing else (a
translator adds a language with one file, which holds every game's words). This test does
exactly that in a copy of the tree, with the toy game (tests/toygame, its example play
beside it) as the real game `guess` and its words in English, Norwegian and Swedish, and finds
the game everywhere the project looks for games: the server's registry (a `create_table`
through a real session), the CLI (its parts, `create-table --help`), the web client's pages
(games/index.js loading `guess.js` in node, its title and a refusal from the catalogue),
the contract suites (the game contract and the argument-shape sweep run on it), the docs
check (which fails until the page is there) and the mutation run's guards. Every check runs
in a child process in the copy, which imports the copy's packages, never this checkout's.
"""

from __future__ import annotations

import filecmp
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
COPIED = ("server", "protocol", "clients", "tests", "docs", "bench")
SKIPPED = shutil.ignore_patterns("__pycache__", "node_modules", "*.pyc", "var", "mutants")
GAME = "guess"
THE_FOUR = (
    f"server/games/{GAME}",
    f"clients/reference_cli/games/{GAME}",
    f"clients/web/public/js/games/{GAME}.js",
    f"docs/games/{GAME}.md",
)
# and its vocabulary in each catalogue: a translator adds a language with one file, which holds
# every game's words (docs/architecture.md, "How to add a game")
CATALOGUES = ("en", "nb", "sv")
THE_CATALOGUES = tuple(f"protocol/words/{lang}.po" for lang in CATALOGUES)

CLI_PART = '''"""The reference client's part for guess the number: its events in words (the
catalogue's `guess` vocabulary, protocol/words/<lang>.po)."""

from clients.reference_cli.games import GamePart
from clients.reference_cli.words import Vocabulary, names_list, say, unknown_event

WORDS = Vocabulary("guess")


def header_words(view):
    return [f"{len(view.get('guesses', []))} guesses so far"]


def describe_event(kind, data, names):
    seat = data.get("seat") or data.get("first")
    fields = {"who": names.get(seat, "a player"), **data}
    key = f"event.{kind}"
    if kind == "TableCreated":
        seats = (data.get("options") or {}).get("seats", [])
        named = [s.get("name") or "a player" for s in seats]
        fields.update(count=len(seats), names=names_list(named))
    elif kind == "Guessed":
        key += f".{data.get('hint')}"
    return say(WORDS, key, **fields) if key in WORDS else unknown_event(kind)


PART = GamePart("guess", header_words=header_words, describe_event=describe_event, words=WORDS)
'''

# The game's vocabulary, one entry per key in English, Norwegian Bokmål and Swedish (a pair of
# forms for a plural entry): added to the copy's catalogues, protocol/words/<lang>.po.
GUESS_WORDS = {
    "screen.title": ("Guess the number", "Gjett tallet", "Gissa talet"),
    "event.TableCreated": (
        (
            "a table of guess the number for {n} player: {names}",
            "a table of guess the number for {n} players: {names}",
        ),
        (
            "et bord med gjett tallet for {n} spiller: {names}",
            "et bord med gjett tallet for {n} spillere: {names}",
        ),
        (
            "ett bord med gissa talet för {n} spelare: {names}",
            "ett bord med gissa talet för {n} spelare: {names}",
        ),
    ),
    "event.Started": (
        "the game starts: {who} guesses first",
        "spillet starter: {who} gjetter først",
        "spelet börjar: {who} gissar först",
    ),
    "event.Guessed.higher": (
        "{who} guesses {number}: higher",
        "{who} gjetter {number}: høyere",
        "{who} gissar {number}: högre",
    ),
    "event.Guessed.lower": (
        "{who} guesses {number}: lower",
        "{who} gjetter {number}: lavere",
        "{who} gissar {number}: lägre",
    ),
    "event.Guessed.right": (
        "{who} guesses {number}: right",
        "{who} gjetter {number}: riktig",
        "{who} gissar {number}: rätt",
    ),
    "event.Won": (
        "{who} wins: the number was {secret}",
        "{who} vinner: tallet var {secret}",
        "{who} vinner: talet var {secret}",
    ),
    "event.TurnSkipped": (
        "{who} let the turn run out",
        "{who} lot turen gå ut",
        "{who} lät turen gå ut",
    ),
    "event.Paused": ("the game is paused", "spillet er satt på pause", "spelet är pausat"),
    "event.Resumed": ("the game goes on", "spillet fortsetter", "spelet fortsätter"),
    "event.Ended": (
        "the game is ended: the number was {secret}",
        "spillet er avsluttet: tallet var {secret}",
        "spelet är avslutat: talet var {secret}",
    ),
    "refusal.bad_options": (
        "those settings do not make a game of guess the number",
        "de innstillingene gir ikke et spill gjett tallet",
        "de inställningarna ger inget spel gissa talet",
    ),
    "refusal.unknown_command": (
        "this table does not know that command",
        "dette bordet kjenner ikke den kommandoen",
        "det här bordet känner inte till det kommandot",
    ),
    "refusal.not_allowed": (
        "you may not do that at this table",
        "du kan ikke gjøre det ved dette bordet",
        "du får inte göra det vid det här bordet",
    ),
    "refusal.bad_args": (
        "a guess is a whole number from 1 to 100",
        "en gjetning er et helt tall fra 1 til 100",
        "en gissning är ett heltal från 1 till 100",
    ),
    "refusal.game_over": ("the game is over", "spillet er over", "spelet är slut"),
    "refusal.already_started": (
        "the game has started already",
        "spillet har allerede startet",
        "spelet har redan börjat",
    ),
    "refusal.not_started": (
        "the game has not started yet",
        "spillet har ikke startet ennå",
        "spelet har inte börjat ännu",
    ),
    "refusal.not_paused": (
        "the game is not paused",
        "spillet er ikke satt på pause",
        "spelet är inte pausat",
    ),
    "refusal.paused": ("the game is paused", "spillet er satt på pause", "spelet är pausat"),
    "refusal.stale_deadline": (
        "that turn is over already",
        "den turen er allerede over",
        "den turen är redan över",
    ),
    "refusal.not_your_turn": (
        "another player guesses now",
        "en annen spiller gjetter nå",
        "en annan spelare gissar nu",
    ),
}


def po_entries(lang: str) -> str:
    """The game's vocabulary as entries of `lang`'s catalogue (msgctxt "guess")."""
    column = CATALOGUES.index(lang)
    entries = []
    for key, texts in GUESS_WORDS.items():
        text = texts[column]
        if isinstance(text, tuple):
            forms = "".join(f'msgstr[{i}] "{form}"\n' for i, form in enumerate(text))
            entries.append(f'msgctxt "{GAME}"\nmsgid "{key}"\nmsgid_plural "{key}"\n{forms}')
        else:
            entries.append(f'msgctxt "{GAME}"\nmsgid "{key}"\nmsgstr "{text}"\n')
    return "\n" + "\n".join(entries)


WEB_PAGE = """// Guess the number's page: the generic page's drawing; its title and refusals are its
// vocabulary's in the catalogue (screen.title, refusal.<code>).
import { genericGame } from "./generic.js";

export default Object.assign(genericGame("guess"), { generic: false });
"""

DOC_PAGE = """# Guess the number

The seats take turns guessing a secret number; each guess is answered higher, lower or right.

## Options

| option | default | meaning |
|---|---|---|
| `seats` | | the players |
| `secret` | | the number to guess, 1..100 |
| `turn_seconds` | 10 | the time a turn lasts |

## Commands

| command | sent by | arguments |
|---|---|---|
| `start` | proctor, director | |
| `guess` | player | `number` |
| `skip_turn` | server | `key` |
| `pause` | proctor, director, server | `cause` |
| `resume` | proctor, director | |
| `end` | proctor, director | |

## Events

| event | data |
|---|---|
| `Started` | `first` |
| `Guessed` | `seat`, `number`, `hint` |
| `Won` | `seat`, `secret` |
| `TurnSkipped` | `seat` |
| `Paused` | `cause` |
| `Resumed` | |
| `Ended` | `secret` |

## Refusal codes

| code | rule | meaning |
|---|---|---|
{refusals}
"""

SERVER_CHECK = """
import sys
sys.path[:0] = ["tests", "tests/unit"]
import server
from test_net import make_hub, make_session, say, token, make_clock
from protocol.codec import decode
assert server.__file__.startswith(sys.argv[1]), server.__file__
clock = make_clock()
hub = make_hub(clock)
session, wire = make_session(hub, clock)
say(session, "hello", id=1, token=token("director"))
options = {"seats": [{"seat": "s1", "name": "Ada"}], "secret": 42}
say(session, "create_table", id=2, table="g1", game="guess", options=options)
print(sorted(hub.games))
print([message["type"] for message in wire.messages()])
"""

CLI_CHECK = """
import sys
import clients
from clients.reference_cli.games import PART_MODULES, part_for
from clients.reference_cli.admin_commands import GAME_NAMES
assert clients.__file__.startswith(sys.argv[1]), clients.__file__
part = part_for("guess")
print(part.name, part.header_words({"guesses": [1, 2]}), "guess" in GAME_NAMES)
"""

WEB_CHECK = """
const index = await import(process.argv[1]);
const words = await import(process.argv[2]);
const shell = await import(process.argv[3]);
const { readFileSync } = await import("node:fs");
const found = [];
for (const catalogue of JSON.parse(readFileSync(process.argv[4], "utf-8"))) {
  words.use(catalogue); // what the page loads from /words/<lang>.json
  const page = await index.loadGame("guess");
  const refusal = shell.refusalInWords({ code: "not_your_turn" }, page);
  found.push([page.name, page.title, Boolean(page.generic), refusal]);
}
console.log(JSON.stringify(found));
"""
CATALOGUE_JSON = """
import json
from protocol.words import catalogue
print(json.dumps([catalogue(lang).as_json() for lang in ("en", "nb")]))
"""


def run(copy: Path, *command: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(copy)}
    env = {key: value for key, value in env.items() if not key.startswith("T24_")}
    return subprocess.run(command, cwd=copy, env=env, capture_output=True, text=True, timeout=600)


def pytest_in(copy: Path, *args: str) -> subprocess.CompletedProcess:
    """pytest in the copy; -rA lists every passed test (`PASSED <file>::<test>[<game>]`)."""
    return run(copy, sys.executable, "-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider", *args)


def passed(done: subprocess.CompletedProcess) -> list[str]:
    """The tests -rA lists as passed."""
    return [line for line in done.stdout.splitlines() if line.startswith("PASSED ")]


def added_files(copy: Path) -> set[str]:
    """The files of the copy that the checkout does not have, or has otherwise."""
    found = set()
    for path in copy.rglob("*"):
        if not path.is_file() or "__pycache__" in path.parts or path.name == "pyproject.toml":
            continue
        relative = path.relative_to(copy)
        original = ROOT / relative
        if not original.exists() or not filecmp.cmp(original, path, shallow=False):
            found.add(str(relative))
    return found


@pytest.fixture(scope="module")
def copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tree with the game added by the checklist, and nothing else."""
    tree = tmp_path_factory.mktemp("tree")
    for folder in COPIED:
        shutil.copytree(ROOT / folder, tree / folder, ignore=SKIPPED)
    for name in ("pyproject.toml", "README.md"):
        shutil.copyfile(ROOT / name, tree / name)
    game = tree / "server" / "games" / GAME
    game.mkdir()
    source = (ROOT / "tests" / "toygame" / "__init__.py").read_text()
    assert 'NAME = "toy"' in source
    (game / "__init__.py").write_text(source.replace('NAME = "toy"', f'NAME = "{GAME}"'))
    shutil.copyfile(ROOT / "tests" / "toygame" / "example.py", game / "example.py")
    part = tree / "clients" / "reference_cli" / "games" / GAME
    part.mkdir()
    (part / "__init__.py").write_text(CLI_PART)
    (tree / "clients" / "web" / "public" / "js" / "games" / f"{GAME}.js").write_text(WEB_PAGE)
    for lang in CATALOGUES:  # its words: one catalogue per language holds every game's
        with (tree / "protocol" / "words" / f"{lang}.po").open("a", encoding="utf-8") as po:
            po.write(po_entries(lang))
    return tree


def write_doc_page(copy: Path) -> None:
    refusals = json.loads(
        run(
            copy,
            sys.executable,
            "-c",
            "import json; from server.games import guess; print(json.dumps(list(guess.REFUSALS)))",
        ).stdout
    )
    rows = "\n".join(f"| `{code}` | | |" for code in refusals)
    (copy / "docs" / "games" / f"{GAME}.md").write_text(DOC_PAGE.format(refusals=rows))


def test_the_docs_check_finds_the_game_and_wants_its_page(copy: Path) -> None:
    missing = pytest_in(copy, "tests/unit/test_game_docs.py")
    assert missing.returncode == 1, missing.stdout
    assert "FAILED tests/unit/test_game_docs.py::test_every_game_has_its_page" in missing.stdout
    write_doc_page(copy)
    found = pytest_in(copy, "tests/unit/test_game_docs.py")
    assert found.returncode == 0, found.stdout + found.stderr
    assert f"test_the_page_lists_every_command_event_refusal_and_option[{GAME}]" in (
        " ".join(passed(found))
    )
    assert added_files(copy) == {
        f"server/games/{GAME}/__init__.py",
        f"server/games/{GAME}/example.py",
        f"clients/reference_cli/games/{GAME}/__init__.py",
        f"clients/web/public/js/games/{GAME}.js",
        f"docs/games/{GAME}.md",
        *THE_CATALOGUES,
    }
    places = (*THE_FOUR, *THE_CATALOGUES)
    assert all(any(path.startswith(place) for place in places) for path in added_files(copy))


def test_the_server_runs_the_game(copy: Path) -> None:
    done = run(copy, sys.executable, "-c", SERVER_CHECK, str(copy))
    assert done.returncode == 0, done.stderr
    games, replies = done.stdout.splitlines()
    assert GAME in eval(games)  # a printed list of names
    assert eval(replies) == ["welcome", "table_created"]


def test_the_cli_draws_the_game_with_its_part(copy: Path) -> None:
    done = run(copy, sys.executable, "-c", CLI_CHECK, str(copy))
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [GAME, "['2", "guesses", "so", "far']", "True"]


def test_the_web_client_loads_the_games_page(copy: Path, tmp_path: Path) -> None:
    js = copy / "clients" / "web" / "public" / "js"
    catalogues = run(copy, sys.executable, "-c", CATALOGUE_JSON)
    assert catalogues.returncode == 0, catalogues.stderr
    loaded = tmp_path / "words.json"  # the /words/<lang>.json answers, outside the copy
    loaded.write_text(catalogues.stdout)
    done = run(
        copy,
        "node",
        "--input-type=module",
        "-e",
        WEB_CHECK,
        str(js / "games" / "index.js"),
        str(js / "words.js"),
        str(js / "games" / "shell.js"),
        str(loaded),
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [
        [GAME, "Guess the number", False, "Another player guesses now."],
        [GAME, "Gjett tallet", False, "En annen spiller gjetter nå."],
    ]


def test_the_contract_suites_play_the_game(copy: Path) -> None:
    write_doc_page(copy)  # the argument-shape sweep reads the documented command table
    done = pytest_in(
        copy,
        "-k",
        GAME,
        "tests/contract/test_game_contract.py",
        "tests/contract/test_argument_shapes.py",
        "tests/unit/test_cli_parts.py",
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    played = [line for line in passed(done) if f"[{GAME}]" in line]
    for suite in ("test_game_contract.py", "test_argument_shapes.py", "test_cli_parts.py"):
        assert any(suite in line for line in played), f"{suite} did not play {GAME}"
    assert len(played) >= 6, done.stdout  # 4 of the game contract, 1 sweep, 1 drawing


def test_the_sweeps_over_every_game_take_it_as_it_is(copy: Path) -> None:
    """The client's list of games is the registry, the refusals and events have words in
    every language (the catalogues' `guess` entries), the mutation run guards its tests by
    its folder: with no line added anywhere else."""
    write_doc_page(copy)
    done = pytest_in(
        copy,
        "tests/unit/test_readme_games.py",
        "tests/unit/test_cli_words.py",
        "tests/unit/test_base.py",
        "tests/unit/test_web_words.py",
        "tests/unit/test_words_languages.py",
        "tests/unit/test_mutation_config.py",
        "tests/unit/test_protocol_doc_gaps.py",
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
