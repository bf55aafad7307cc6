"""The demo of `make run` (`t24-server --demo`): its tables, its tokens, the lines it prints.

What it sets up: table `demo`, four seats, a Single Digits deck, `auto_proctor`, and a
pocket table `demo-pocket`; a demo table that is finished is kept and the next run plays on
a fresh one (`demo-2`, `demo-pocket-2`, ...: `demo_table_id`); its tokens written one file
per person to `var/demo-tokens/` (`protocol.token_files`, mode 0600: the tokens are
credentials) and ready-to-paste client commands printed that read them from those files
(never a token on a command line: `ps`, shell history). Why a module of its own: the demo is
a client of the hub like any other (it creates tables and signs tokens), not part of the
server's wiring; `T24Server.start` only calls `setup_demo` when `--demo` is set.
"""

from __future__ import annotations

import itertools
import shlex
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from twisted.internet.defer import inlineCallbacks

from protocol.token_files import person_files, write_token_files
from server.config import ServerConfig
from server.games.base import Actor
from server.games.challenge.options import tournament_table_deck
from server.net.static import page_url
from server.net.tokens import TokenSigner
from server.runtime.hub import Hub
from server.runtime.table_actor import TableActor

DEMO_TABLE = "demo"
DEMO_SEATS = ("s1", "s2", "s3", "s4")
DEMO_TOKEN_TTL = 7 * 24 * 3600
# A casual table beside the demo's 24 Challenge table: its players' browser links are
# printed too (a terminal only), so `make run` shows the casual games' pages as well.
DEMO_POCKET_TABLE = "demo-pocket"
DEMO_POCKET_SEATS = ("s1", "s2")


def demo_table_id(hub: Hub, base: str) -> str:
    """The demo's table id for this run: `base`, or `base-2`, `base-3`, ... when the
    earlier ones are finished.

    Why: a second `make run` on the same store should give a playable demo. A demo table
    still in play (the server was restarted mid-round) is kept, so its players resume;
    one nobody can play again (`demo_finished`) is left as it is (its log, its replay)
    and the next id is used.
    """
    listed = {row["table"] for row in hub.tables()}
    for number in itertools.count(1):
        table = base if number == 1 else f"{base}-{number}"
        actor = hub.actors.get(table)
        if actor is not None and not demo_finished(actor):
            return table
        if actor is None and table not in listed:
            return table
    raise AssertionError("unreachable")  # pragma: no cover - count() never ends


@inlineCallbacks
def setup_demo(hub: Hub, signer: TokenSigner, url: str, config: ServerConfig, now: float) -> Any:
    """Create (or reuse) the demo tables; write and print their tokens; fires with the
    tokens files' contents (`protocol.token_files.person_files`)."""
    table = demo_table_id(hub, DEMO_TABLE)
    pocket_table = demo_table_id(hub, DEMO_POCKET_TABLE)
    if table not in hub.actors:
        options = {
            "seats": [{"seat": seat, "name": f"Seat {seat[1:]}"} for seat in DEMO_SEATS],
            "deck": tournament_table_deck("single-digits", config.demo_seed, 1),
            "auto_proctor": config.demo_auto_proctor,
        }
        director = Actor("director", "demo")
        yield hub.create_table(table, "challenge", options, director)
    if pocket_table not in hub.actors:
        pocket = {
            "seats": [{"seat": seat, "name": f"Seat {seat[1:]}"} for seat in DEMO_POCKET_SEATS],
            "size": 12,
        }
        director = Actor("director", "demo")
        yield hub.create_table(pocket_table, "pocket", pocket, director)

    def issue(role: str, **claims: Any) -> str:
        return signer.issue(role, now=now, ttl_seconds=DEMO_TOKEN_TTL, **claims)[0]

    files = person_files(
        url,
        table,
        proctor=issue("proctor", name="proctor", table=table),
        spectator=issue("spectator", name="spectator", table=table),
        seats=[
            {
                "seat": seat,
                "name": f"Seat {seat[1:]}",
                "token": issue("player", table=table, seat=seat),
            }
            for seat in DEMO_SEATS
        ],
        director=issue("director", name="director"),
    )
    write_token_files(config.demo_tokens_dir, files)
    # The browser links hold tokens: printed to a terminal only, never into a log file
    # or a journal that stdout may be (issue 13: no server log holds a token).
    links = sys.stdout.isatty()
    banner = demo_banner(files, config.demo_tokens_dir, links=links)
    if table != DEMO_TABLE:
        banner = (
            f"\nthe earlier demo tables are finished (kept for replay): this run's is "
            f"{table!r}{banner}"
        )
    if links:
        pocket_links = [
            (seat, issue("player", table=pocket_table, seat=seat)) for seat in DEMO_POCKET_SEATS
        ]
        banner += "\n" + "\n".join(casual_demo_lines(url, pocket_table, pocket_links))
    print(banner, flush=True)
    return files


def demo_finished(actor: TableActor) -> bool:
    """A demo table nobody can play again: its game is over (a signed score card, an ended
    pocket game) or its one round has ended (a 24 Challenge table plays a single round)."""
    return bool(actor.is_over() or getattr(actor.state, "phase", None) == "ended")


def client_program() -> str:
    """How to call `t24` from here: the one installed beside this interpreter, if any.

    Why: `make run` starts the server from `.venv` without activating it, so a bare `t24`
    is usually not on the PATH of the terminal the commands are pasted into.
    """
    beside = Path(sys.executable).parent / "t24"
    if not beside.exists():
        return "t24"
    try:
        return str(beside.relative_to(Path.cwd()))
    except ValueError:
        return str(beside)


def demo_banner(files: Mapping[str, Mapping[str, Any]], directory: str, links: bool = True) -> str:
    """The text `make run` prints: one command per client, each reading its own file.

    Why files: a token on a command line is seen by `ps` and kept in shell history; the
    files are mode 0600 and each holds one person's token (`protocol.token_files`).
    """
    t24 = client_program()

    def tokens(name: str) -> str:
        return shlex.quote(str(Path(directory) / name))

    proctor = files["proctor.json"]
    seat_files = [(name, data["seats"][0]) for name, data in files.items() if "seats" in data]
    lines = [
        "",
        f"t24 demo: table {proctor['table']!r} (4 seats, Single Digits, auto_proctor) at "
        f"{proctor['url']}",
        "",
        f"tokens, one file per person (mode 0600), in {directory}/: hand each person only",
        "theirs. director.json is yours (it creates tables and signs tokens): never hand it out.",
        "",
        "proctor (start the round, resume after a restart):",
        f"  {t24} proctor --tokens {tokens('proctor.json')}",
    ]
    for name, seat in seat_files:
        lines += [
            f"player {seat['seat']} ({seat['name']}):",
            f"  {t24} play --tokens {tokens(name)}",
        ]
    lines += [
        "spectator:",
        f"  {t24} watch --tokens {tokens('spectator.json')}",
        "a bot for an empty seat (skills: perfect, human, random):",
        f"  {t24} bot --tokens {tokens(seat_files[-1][0])} --skill human",
        "",
        "on another machine: copy that person's file, or set T24_URL and T24_TOKEN",
        "",
    ]
    if not links:
        lines += [
            "browser links (http://HOST:PORT/#token=...) are printed to a terminal only: they",
            "hold tokens, and this output may be a log. Run `make run` in a terminal for them.",
            "",
        ]
        return "\n".join(lines)
    return "\n".join(lines + browser_lines(files))


def browser_lines(files: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """The banner's browser part (issue 13): one web-client link per person, the token in
    the link's fragment, which the browser never sends to the server (no access log holds
    it). Each link is that person's token: hand it only to them."""
    proctor = files["proctor.json"]
    url = str(proctor["url"])
    lines = ["in a browser (each link holds that person's token: hand it only to them):"]
    lines.append(f"- proctor console: {page_url(url, str(proctor['proctor']))}")
    for data in files.values():
        for seat in data.get("seats", []):
            link = page_url(url, str(seat["token"]))
            lines.append(f"- player {seat['seat']} ({seat['name']}): {link}")
    spectator = files["spectator.json"]
    lines.append(f"- spectator scoreboard: {page_url(url, str(spectator['spectator']))}")
    director = files.get("director.json")
    if director is not None:
        lines.append(
            f"- director's console (yours only: tournaments, every table): "
            f"{page_url(url, str(director['director']))}"
        )
    return [*lines, ""]


def casual_demo_lines(url: str, table: str, seats: Sequence[tuple[str, str]]) -> list[str]:
    """The banner's lines for the demo's pocket table: one browser link per player (each
    holds that player's token, like the other links)."""
    lines = [f"a casual game in a browser, pocket table {table!r} (any player starts it):"]
    lines += [f"- pocket player {seat}: {page_url(url, token)}" for seat, token in seats]
    return [*lines, ""]
