"""Issue 27: an answer is for the card (or set) on screen when its typing began, not the one on
screen when Enter is pressed: a card won by someone else while a player types is refused
`stale_set` by the server (said in words), never judged on the next card, which would exclude
the player from a card they never saw. `t24 casual` on a terminal (keys one by one) and the
typed line of `t24 play` at a casual table both keep the view of the line's first key.
"""

from __future__ import annotations

from typing import Any

from twisted.internet.defer import Deferred
from twisted.internet.task import Clock

from clients.reference_cli.casual_commands import CasualApp
from clients.reference_cli.games import part_for
from clients.reference_cli.keyboard import Send


def pocket_view(number: int) -> dict[str, Any]:
    return {
        "game": "pocket",
        "phase": "open",
        "seats": [{"seat": "s1", "name": "Ada"}, {"seat": "s2", "name": "Bo"}],
        "scores": {"s1": 0, "s2": 0},
        "card": {
            "numbers": [9, 1, 6, 1],
            "dots": 2,
            "number": number,
            "excluded": [],
            "stumped": [],
            "claimer": None,
        },
        "turned": number,
        "stack_left": 12 - number,
        "you": "s1",
    }


class FakeLink:
    url = "ws://127.0.0.1:1/ws"

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def request(self, kind: str, **fields: Any) -> Deferred:
        self.sent.append(fields)
        return Deferred()


def casual(echo: bool) -> tuple[CasualApp, FakeLink, list[str]]:
    out: list[str] = []
    app = CasualApp(Clock(), out.append, echo=echo)
    app.link = FakeLink()
    app.link_snapshot({"table": "pk", "game": "pocket", "seq": 3, "view": pocket_view(1)})
    return app, app.link, out


def test_on_a_terminal_the_answer_is_for_the_card_on_screen_when_typing_began():
    app, link, out = casual(echo=True)
    app.keys("9*")  # typing starts at card 1
    app.view_changed(pocket_view(2))  # Bo wins card 1 meanwhile: card 2 is up
    app.keys("(1+1)+6\r")
    assert link.sent[-1]["args"] == {"expression": "9*(1+1)+6", "set": 1}
    assert out[-1].endswith("> ")  # the prompt is back, empty
    app.keys("s\r")  # a line begun at card 2 is for card 2
    assert link.sent[-1]["args"] == {"set": 2} and link.sent[-1]["name"] == "declare_stumped"


def test_the_line_being_typed_stays_under_what_is_printed():
    app, _link, out = casual(echo=True)
    app.keys("9*")
    app.link_event({"event_type": "ClaimMade", "seq": 4, "data": {"seat": "s2", "number": 1}})
    assert out[-1].startswith("\r\x1b[K· Bo: I got it! (card 1)") and out[-1].endswith("> 9*")
    app.keys("\x7f\x7f")  # erased: the next first key starts a new line
    app.view_changed(pocket_view(2))
    app.keys("c\r")
    assert link_args(app) == {"set": 2}


def link_args(app: CasualApp) -> dict[str, Any]:
    return app.link.sent[-1]["args"]


def test_piped_lines_are_for_the_view_when_they_arrive():
    app, link, _out = casual(echo=False)
    app.view_changed(pocket_view(2))
    app.keys("9*(1+1)+6\n")
    assert link.sent[-1]["args"] == {"expression": "9*(1+1)+6", "set": 2}


def test_a_refused_stale_answer_is_said_in_words():
    from clients.reference_cli.connection import ServerRefused

    app, link, out = casual(echo=False)
    app.keys("9*(1+1)+6\n")
    deferred = Deferred()
    link.request = lambda kind, **fields: deferred  # type: ignore[method-assign]
    app.send("answer", {"expression": "1", "set": 1})
    deferred.errback(ServerRefused("stale_set", "answer: set 1 is not up", "R-POCKET-3"))
    assert out[-1] == (
        "! not judged: that was for a card someone won while you typed; play the card up now "
        "(R-POCKET-3)\n"
    )


def test_t24_play_sends_a_typed_line_for_the_view_of_its_first_key():
    controls = part_for("pocket").controls("play")
    state = controls.state
    for key in "9*(1+1)+6":
        state, _effects = controls.press(state, key, pocket_view(1))
    state, effects = controls.press(state, "\r", pocket_view(2))
    assert effects == [Send("answer", {"expression": "9*(1+1)+6", "set": 1}, "answer")]
    state, _ = controls.press(state, "s", pocket_view(2))
    state, effects = controls.press(state, "\r", pocket_view(3))
    assert effects == [Send("declare_stumped", {"set": 2}, "declare_stumped")]
