"""The Tjugoett parts of the reference CLI (clients/reference_cli/games/tjugoett/): the screen
drawn from real views, the feed's words from real pushed events, the keys offered from the
view's `your_commands`, and the app's handling of pushes (no line printed twice after a
resync, the bot moving only on live events)."""

from __future__ import annotations

from typing import Any

from tjugoett_tables import DEALER, DIRECTOR, SPECTATOR, Table, player

from clients.reference_cli.games.tjugoett.app import TjugoettApp
from clients.reference_cli.games.tjugoett.bot import TjugoettBot
from clients.reference_cli.games.tjugoett.screen import card_text, event_line, names, screen_lines
from server.games import tjugoett


def test_the_screen_shows_a_player_its_hand_and_the_dealer_only_counts():
    table = Table.dealt("9C", "2D", "8C", person_dealer=True)
    mine = "\n".join(screen_lines(tjugoett.view(table.state, player("s1")), "kort"))
    assert "9♣ 8♣ = 17  (you)" in mine and "Your keys: d = draw a card, s = stand" in mine
    dealers = "\n".join(screen_lines(tjugoett.view(table.state, DEALER), "kort"))
    assert "9♣" not in dealers and "17" not in dealers.split("Dealer")[1].split("Tally")[0]
    assert "?? ??" in dealers and "Dora" in dealers
    officials = "\n".join(screen_lines(tjugoett.view(table.state, DIRECTOR), "kort"))
    assert "e = end the table" in officials


def test_the_feed_hides_what_the_viewer_may_not_see():
    table = Table.dealt("9C", "2D", "8C")
    view = tjugoett.view(table.state, SPECTATOR)
    dealt = tjugoett.event_view(table.events[-1], SPECTATOR)
    assert event_line(dealt.type, dealt.data, names(view)) == "Ada gets a card (2 cards)"
    mine = tjugoett.event_view(table.events[-1], player("s1"))
    assert event_line(mine.type, mine.data, names(view)) == "Ada gets 8♣ (17)"
    events = table.do("stand", player("s1"))
    assert event_line(
        "PlayerStood", tjugoett.event_view(events[0], SPECTATOR).data, names(view)
    ) == ("Ada stands")
    assert card_text(None) == "??" and card_text("10H") == "10♥"


class _Link:
    def __init__(self) -> None:
        self.sent: list[str] = []
        self.table = "kort"

    def command(self, name: str, args: dict[str, Any]) -> Any:
        from twisted.internet.defer import succeed

        self.sent.append(name)
        return succeed({})


class _Reactor:
    def callLater(self, delay: float, function: Any, *args: Any) -> Any:  # noqa: N802
        class _Call:
            def active(self) -> bool:
                return False

        return _Call()


def _app(bot: TjugoettBot | None = None) -> tuple[TjugoettApp, list[str], _Link]:
    lines: list[str] = []
    app = TjugoettApp(_Reactor(), lines.append, bot)
    app.link = _Link()
    return app, lines, app.link


def _push(seq: int, event: Any) -> dict[str, Any]:
    return {"seq": seq, "event_type": event.type, "data": dict(event.data)}


def test_keys_send_only_the_viewers_open_commands():
    table = Table.dealt("9C", "2D", "8C")
    app, lines, link = _app()
    app.show({"seq": len(table.events) + 1, "view": tjugoett.view(table.state, player("s1"))})
    app.key("x")
    assert "not now (d = draw a card, s = stand; q = quit)" in lines[-1]
    app.key("s")
    assert link.sent == ["stand"]
    app.show({"seq": 1, "view": tjugoett.view(table.state, player("s2"))})
    app.key("d")
    assert link.sent == ["stand"] and "nothing to do now" in lines[-1]


def test_a_push_seen_again_after_a_resync_is_printed_once_and_the_bot_acts_on_live_ones():
    table = Table.dealt("9C", "2D", "8C")
    bot = TjugoettBot("s1")
    app, lines, link = _app(bot)
    pushes = [
        _push(seq, tjugoett.event_view(e, player("s1"))) for seq, e in enumerate(table.events, 2)
    ]
    app.show({"seq": 1, "view": tjugoett.view(Table(table.raw_options).state, player("s1"))})
    for push in pushes + pushes:  # the second time: pushed again by a resync join
        app.link_event(push)
    assert sum(line.startswith("Ada gets 8♣") for line in lines) == 1
    assert link.sent == ["stand"]  # 17 >= 15: the bot stands, once


def test_a_bot_that_joins_during_its_turn_moves_from_the_view():
    table = Table.dealt("9C", "2D", "5C", person_dealer=True)  # Ada: 14, draws
    app, _lines, link = _app(TjugoettBot("s1"))
    app.show({"seq": 9, "view": tjugoett.view(table.state, player("s1"))})
    assert link.sent == ["draw_card"]
    table.do("stand", player("s1"))
    dealer_app, _lines, dealer_link = _app(TjugoettBot("dl"))
    dealer_app.show({"seq": 9, "view": tjugoett.view(table.state, DEALER)})
    assert dealer_link.sent == ["dealer_draw"]


def test_keys_typed_before_the_first_view_wait_for_it():
    table = Table(Table.dealt("9C", "2D", "8C").raw_options)
    app, _lines, link = _app()
    app.key("n")
    assert link.sent == []
    app.show({"seq": 1, "view": tjugoett.view(table.state, DIRECTOR)})
    assert link.sent == ["start_round"]
