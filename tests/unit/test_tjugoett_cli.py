"""Tjugoett's part of the reference client (clients/reference_cli/games/tjugoett/): the screen
drawn from real views (a hidden card is never on anyone's screen), the feed's words from real
pushed events, the keys offered from the view's `your_commands`, and the bot's brain."""

from __future__ import annotations

import random

from tjugoett_leaks import hidden_cards
from tjugoett_tables import DEALER, DIRECTOR, SPECTATOR, Table, player

from clients.reference_cli import cli
from clients.reference_cli.games import part_for
from clients.reference_cli.games.tjugoett import keys, screen
from clients.reference_cli.games.tjugoett.bot import bot_moves
from clients.reference_cli.keyboard import Notice, Quit, Send
from clients.reference_cli.render import Frame, render
from clients.reference_cli.table_model import from_snapshot
from server.eventlog.backends import open_blocking_store
from server.eventlog.envelope import NewEvent
from server.games import tjugoett

PART = part_for("tjugoett")


def _screen(table: Table, viewer) -> str:
    view = tjugoett.view(table.state, viewer)
    snapshot = {"type": "snapshot", "table": "kort", "game": "tjugoett", "seq": 9, "view": view}
    model = from_snapshot({**snapshot, "deadlines": [], "server_time": 0}, None, None)
    me = viewer.id if viewer.role == "player" else None
    help_line = keys.TjugoettInput().keys_help(view)
    frame = Frame(model, role=viewer.role, me=me, status="connected", keys=help_line)
    return "\n".join(render(frame, 0, 100, 40))


def test_no_screen_shows_a_card_its_viewer_may_not_see():
    table = Table.dealt("9C", "2D", "8C", person_dealer=True)
    for viewer in (player("s1"), player("s2"), DEALER, SPECTATOR, DIRECTOR):
        shown = _screen(table, viewer)
        for card in hidden_cards(table.state, viewer):
            assert screen.card_text(card) not in shown, (viewer, card)
    mine = _screen(table, player("s1"))
    assert "9♣ 8♣ = 17  (you)" in mine and "[d] draw a card  [s] stand  [q] quit" in mine
    dealers = _screen(table, DEALER)
    assert "?? ??" in dealers and "you: Dora (the dealer)" in dealers
    assert "waiting  [q] quit" in dealers
    assert "[e] end the table" in _screen(table, DIRECTOR)


def test_the_feed_hides_what_the_viewer_may_not_see():
    table = Table.dealt("9C", "2D", "8C")
    names = screen.seat_names(tjugoett.view(table.state, SPECTATOR))
    dealt = tjugoett.event_view(table.events[-1], SPECTATOR)
    assert (
        PART.describe_event(dealt.type, dealt.data, names) == "Ada gets a card face down (2 cards)"
    )
    mine = tjugoett.event_view(table.events[-1], player("s1"))
    assert PART.describe_event(mine.type, mine.data, names) == "Ada gets 8♣ (17)"
    (stood,) = table.do("stand", player("s1"))
    hidden = tjugoett.event_view(stood, SPECTATOR)
    assert PART.describe_event(hidden.type, hidden.data, names) == "Ada stands"
    for event in table.events:  # every event has words (and a colour class)
        assert PART.describe_event(event.type, event.data, names) != event.type
        assert PART.event_kind(event.type, event.data) in ("win", "flag", "table", "info")
    assert screen.card_text(None) == "??" and screen.card_text("10H") == "10♥"


def test_keys_send_only_the_viewers_open_commands():
    table = Table.dealt("9C", "2D", "8C", person_dealer=True)
    state = keys.TjugoettInput()
    mine = tjugoett.view(table.state, player("s1"))
    assert keys.press(state, "s", mine)[1] == [Send("stand", {}, "stand")]
    assert keys.press(state, "d", mine)[1] == [Send("draw_card", {}, "draw_card")]
    (hint,) = keys.press(state, "n", mine)[1]
    assert isinstance(hint, Notice) and hint.text.startswith("not now")
    assert keys.press(state, "x", mine)[1] == []
    assert keys.press(state, "q", mine)[1] == [Quit()]
    table.do("stand", player("s1"))
    dealers = tjugoett.view(table.state, DEALER)
    assert keys.press(state, "d", dealers)[1] == [Send("dealer_draw", {}, "dealer_draw")]
    officials = tjugoett.view(table.state, DIRECTOR)
    assert keys.press(state, "e", officials)[1] == [Send("end_table", {}, "end_table")]
    assert keys.replied(state, "stand", "no", "dealer_turn")[1] == [
        Notice("could not stand: no", True)
    ]
    assert PART.controls("play") is not None and PART.controls("watch") is None


def test_the_bot_brain_moves_once_per_situation():
    table = Table.dealt("9C", "2D", "5C", person_dealer=True)  # Ada: 14
    rng = random.Random(1)
    view = tjugoett.view(table.state, player("s1"))
    key, (action,) = bot_moves(view, "s1", [], 0, "human", rng, 0.5)
    assert action.name == "draw_card" and action.delay == 0.5
    assert bot_moves(view, "s1", [], 0, "human", rng)[0] == key  # same situation, same key
    assert bot_moves(tjugoett.view(table.state, player("s2")), "s2", [], 0, "human", rng)[1] == []
    table.do("stand", player("s1"))
    dealers = tjugoett.view(table.state, DEALER)
    (action,) = bot_moves(dealers, "dl", [], 0, "perfect", rng)[1]
    assert action.name == "dealer_draw"
    assert PART.finished({"phase": "table_over"}) and not PART.finished(view)


def test_t24_replay_prints_a_tjugoett_table(tmp_path, capsys):
    """`t24 replay` of a recorded Tjugoett table: the events in the part's words and the
    table as the auditor sees it after each one (every card: an auditor sees everything)."""
    table = Table.dealt("9C", "2D", "8C")
    table.do("stand", player("s1"))
    while table.state.phase == "dealer_turn":
        table.fire("dealer_play")
    url = f"sqlite:///{tmp_path / 'kort.sqlite'}"
    store = open_blocking_store(url)
    created = NewEvent("TableCreated", {"game": "tjugoett", "options": table.raw_options})
    store.append(
        "table/kort", 0, [created, *(NewEvent(e.type, dict(e.data)) for e in table.events)]
    )
    store.close()
    assert cli.main(["replay", "--store", url, "kort", "--print", "--color", "never"]) == 0
    out = capsys.readouterr().out
    assert "Ada gets 8♣ (17)" in out and "Bo gets 2♦ (2)" in out
    assert "Ada stands at 17" in out and "the dealer draws" in out
    assert "dealer - · Ada 9♣ 8♣ = 17 · Bo 2♦" in out
