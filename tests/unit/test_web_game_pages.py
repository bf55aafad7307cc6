"""The web client's game pages are found by their file (clients/web/public/js/games/index.js,
issue 29): `loadGame(name)` imports `games/<name>.js` and takes its default export; a game
without a module, or a name that cannot be a module's, gets the generic page (generic.js),
which draws any view. Run in node: index.js and the game modules touch the DOM only when
they draw."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from server.games import games

GAMES_JS = Path(__file__).resolve().parents[2] / "clients" / "web" / "public" / "js" / "games"
OWN_PAGES = {"challenge"}  # the 24 Challenge's student page and console (main.js)

LOAD = """
const index = await import(process.argv[1]);
const names = JSON.parse(process.argv[2]);
const found = {};
for (const name of names) {
  const page = await index.loadGame(name);
  found[name] = [page.name, Boolean(page.generic), typeof page.render, typeof page.summary];
}
const { readArguments } = await import(process.argv[3]);
found.args = readArguments("number=7, cause=tea, =x, empty=");
console.log(JSON.stringify(found));
"""


def loaded(names: list[str]) -> dict[str, list]:
    done = subprocess.run(
        [
            "node",
            "--input-type=module",
            "-e",
            LOAD,
            str(GAMES_JS / "index.js"),
            json.dumps(names),
            str(GAMES_JS / "generic.js"),
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return json.loads(done.stdout)


def test_every_game_has_its_page_found_by_its_file_and_others_the_generic_page():
    with_pages = sorted(set(games()) - OWN_PAGES)
    # no such file (its import fails), and names that could not be a page file
    strangers = ["nosuchgame", "a-game-from-the-future", "../words", "index", "shell", "generic"]
    found = loaded([*with_pages, *strangers])
    for name in with_pages:
        assert (GAMES_JS / f"{name}.js").exists(), name
        assert found[name] == [name, False, "function", "function"], name
    for name in strangers:  # never imported as a page: drawn by the generic page
        assert found[name] == [name, True, "function", "function"], name
    assert found["args"] == {"number": 7, "cause": "tea", "empty": ""}
