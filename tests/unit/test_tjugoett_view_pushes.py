"""Tjugoett through the real TableActor (memory store, a Clock): thin clients that hold only
the snapshot and the pushes (events; the last of each append carries the view) play whole
rounds from their own views (the bot's policy on `your_commands`), stay exactly current with
the game's view, and never receive a hidden card: checked on every pushed event and every
pushed view of every viewer, the person dealer's first of all (R-21-19)."""

from __future__ import annotations

from shell_testcase import ShellTestCase
from tjugoett_leaks import leaks
from twisted.internet.task import Clock

from clients.reference_cli.games.tjugoett.bot import TjugoettBot
from protocol.codec import decode
from protocol.messages import validate_message
from protocol.views import apply_view_message
from server.eventlog.backends import open_store
from server.games import games
from server.games.base import Actor, Command
from server.runtime.hub import Hub

T0 = 1_700_000_000.0
DIRECTOR = Actor("director", "d")
SEATS = [{"seat": f"s{i}", "name": f"N{i}"} for i in range(1, 4)]


class ThinClient:
    """The snapshot, then every push; it keeps the view, and checks each push for leaks."""

    def __init__(self, viewer: Actor, actor) -> None:
        self.viewer = viewer
        self.actor = actor
        self.view: dict | None = None
        self.leaks: list = []
        self.views = 0

    def push(self, push) -> None:
        message = decode(push.frame)
        validate_message(message)
        assert message["type"] == "event"
        state = self.actor.state  # published after the append: the state after its events
        # A card shown by an earlier event of the append may be hidden again by now only
        # through a reshuffle, which needs a long round: none happens at these tables.
        self.leaks += leaks(self.viewer, dict(message["data"]), state, message["event_type"])
        if "view" in message or "patch" in message:  # the append's last event
            self.view = apply_view_message(self.view, message)
            self.views += 1
            self.leaks += leaks(self.viewer, self.view, state)


def _table(clock: Clock, **options):
    store = open_store("memory:", clock=clock.seconds)
    hub = Hub(store, clock, games=games())
    raw = {"seats": SEATS, "seed": "view-push-seed", **options}
    return hub.create_table("t", "tjugoett", raw, DIRECTOR).result


class ThinClientTests(ShellTestCase):
    def test_thin_clients_play_from_pushed_views_and_never_see_a_hidden_card(self):
        for person_dealer in (False, True):
            self.play_three_rounds(person_dealer)

    def play_three_rounds(self, person_dealer: bool) -> None:
        clock = Clock()
        clock.advance(T0)
        more = {"dealer": {"seat": "dl", "name": "Dora"}} if person_dealer else {}
        actor = _table(clock, dealer_seconds=0.5, **more)
        viewers = [Actor("player", seat["seat"]) for seat in SEATS] + [Actor("spectator", "w")]
        if person_dealer:
            viewers.append(Actor("player", "dl"))
        clients = []
        for viewer in viewers:
            client = ThinClient(viewer, actor)
            client.view = actor.subscribe(client).view
            clients.append(client)
        bots = {
            client.viewer.id: TjugoettBot(client.viewer.id, dealer=client.viewer.id == "dl")
            for client in clients
        }

        def now() -> int:
            return int(clock.seconds() * 1_000_000)

        for round_number in range(1, 4):
            actor.submit(Command("start_round", {}, DIRECTOR), now())
            for _ in range(200):
                if actor.state.phase == "between_rounds":
                    break
                moved = False
                for client in clients:
                    move = bots[client.viewer.id].on_view(client.view)
                    if move is not None:
                        actor.submit(Command(move, {}, client.viewer), now())
                        moved = True
                        break
                if not moved:
                    clock.advance(0.5)  # the server dealer's next move
            assert actor.state.phase == "between_rounds" and actor.state.round == round_number
            for client in clients:
                assert client.view == actor.game.view(actor.state, client.viewer), client.viewer
        for client in clients:
            assert client.leaks == [], (client.viewer, client.leaks)
            assert client.views > 10  # the views were pushed, not only taken from a snapshot
        tally = actor.state.tally_data()
        assert sum(tally[seat["seat"]]["won"] + tally[seat["seat"]]["lost"] for seat in SEATS) == 9
