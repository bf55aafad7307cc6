"""No message a non-official can receive holds a secret: every game and the tournament (issue 33).

What is secret is declared once per game, apart from the code that redacts it: its
`secrets(state, viewer)` (server.games.base.Secrets: keys, and values such as seeds, undealt
cards, hidden hands). This suite plays each game at random (its contract example's options,
the seed left to the shell, and its commands) through the server's own code: a hub on the
memory store with a task.Clock, and sessions fed request frames as the websocket feeds them
(tests/contract/secret_watch.py). Every kind of viewer that is not an official has a
connection: each seat's player, a Tjugoett person dealer, a spectator of the table and one of
every table; for the tournament a spectator, a proctor and a player bound to its stream, and
viewers of the tables it creates. Every message each of them is sent is checked: the join's
snapshot and catch-up (from seq 0 and from random seqs; from a restarted server, whose
catch-up is read from the store; and past the window of recent events, from the shared
chunk cache), every live push with the view it carries, `view_at` of random seqs,
`list_tables`, and the replies to its own commands. Exports are not in it: only officials
have them (docs/eventlog.md, "Who sees what").

A message is checked against the secrets of the moment it describes (`Audience.check`); a
value the viewer could see before (a card face up, then back in a pile) is public from then on
(`Exposure`).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from secret_watch import Audience, Connection, Watched, fired, leaks
from shell_testcase import ShellTestCase
from test_game_contract import example_of
from twisted.internet.task import Clock

from server.eventlog.backends import open_store
from server.games import games
from server.games.base import Actor, Command, Secrets
from server.runtime.hub import Hub
from server.runtime.table_actor import RECENT_EVENTS
from server.tournament import decks
from server.tournament.tables import table_id

T0 = 1_700_000_000.0
STEPS = 70
GAMES = games()


def table_game(name: str) -> Any:
    return GAMES[name]


def fresh_hub(store: Any = None) -> tuple[Hub, Clock]:
    clock = Clock()
    clock.advance(T0)
    return Hub(store or open_store("memory:", clock=clock.seconds), clock), clock


def created(director: Connection, table: str, game: str, options: dict) -> None:
    director.ask("create_table", table=table, game=game, options=options)
    [reply] = director.messages()
    assert reply["type"] == "table_created", reply


def seats_of(options: dict) -> list[str]:
    """Every seat a player token may hold: the table's, and a Tjugoett person dealer's."""
    seats = [seat["seat"] for seat in options.get("seats", [])]
    dealer = options.get("dealer")
    return seats + ([dealer["seat"]] if isinstance(dealer, dict) else [])


class Play:
    """One table of game `name` played at random through sessions (module doc)."""

    def __init__(self, name: str, seed: int) -> None:
        self.rng = random.Random(seed)
        self.game, self.example = table_game(name), example_of(name)
        self.hub, self.clock = fresh_hub()
        options = self.example.options(self.rng)
        options.pop(self.game.SEED_OPTION, None)  # the shell draws a secret one (2**63)
        self.director = Connection(self.hub, self.clock, "director", name="d")
        created(self.director, "t", name, options)
        self.proctor = Connection(self.hub, self.clock, "proctor", name="p", table="t")
        self.audience = Audience()
        self.table = self.audience.watch(Watched(self.hub, "t"))
        self.players = {
            seat: self.audience.join(
                Connection(self.hub, self.clock, "player", table="t", seat=seat)
            )
            for seat in seats_of(options)
        }
        self.spectators = [
            self.audience.join(Connection(self.hub, self.clock, "spectator", name="w", table="t")),
            self.audience.join(Connection(self.hub, self.clock, "spectator", name="all")),
        ]
        for viewer in self.viewers():
            viewer.ask("join", table="t", after_seq=0, presence=self.rng.random() < 0.5)
        self.audience.check()

    def viewers(self) -> list[Connection]:
        return [*self.players.values(), *self.spectators]

    def sender(self, actor: Actor) -> Connection | None:
        """The connection a command of the example's `actor` goes on (None: nobody has it)."""
        if actor.role == "player":
            return self.players.get(actor.id)
        return {"proctor": self.proctor, "director": self.director}.get(actor.role)

    def step(self) -> None:
        """One thing a client or the clock does, then every message is checked."""
        rng, viewer = self.rng, self.rng.choice(self.viewers())
        roll = rng.random()
        if roll < 0.5:
            commands = self.example.commands(self.table.state, rng)
            command: Command | None = rng.choice(commands) if commands else None
            sender = self.sender(command.actor) if command is not None else None
            if command is not None and sender is not None:
                sender.ask("command", table="t", name=command.name, args=dict(command.args))
        elif roll < 0.7:
            self.clock.advance(rng.uniform(0, 4))  # the table's deadlines fire
        elif roll < 0.8:
            viewer.ask("join", table="t", after_seq=rng.randint(0, self.table.seq))
        elif roll < 0.92:
            seq = rng.randint(1, self.table.seq)
            viewer.ask("query", table="t", name="view_at", args={"seq": seq})
        else:
            viewer.ask("list_tables")
        for official in (self.director, self.proctor):
            official.messages()
        self.audience.check()

    def restart(self) -> None:
        """A restarted server over the same store: a spectator and the first player join
        from seq 0 (their catch-up read from the store) and ask for every step."""
        self.hub, self.clock = fresh_hub(self.hub.store)
        self.table.hub = self.hub
        again = [Connection(self.hub, self.clock, "spectator", name="w2", table="t")]
        seat = next(iter(self.players))
        again.append(Connection(self.hub, self.clock, "player", table="t", seat=seat))
        for viewer in again:
            self.audience.join(viewer)
            viewer.ask("join", table="t", after_seq=0)
            for seq in range(1, self.table.seq + 1):
                viewer.ask("query", table="t", name="view_at", args={"seq": seq})
        self.audience.check()


class NoSecretLeaksTests(ShellTestCase):
    def test_every_game_and_the_tournament_declare_their_secrets(self):
        hub, _clock = fresh_hub()
        assert set(hub.games) == {*GAMES, "tournament"}
        for name, game in hub.games.items():
            assert callable(getattr(game, "secrets", None)), name

    def test_no_message_to_a_non_official_holds_a_secret_in_any_game(self):
        for name in sorted(GAMES):
            checked = 0  # over the seeds: a short game (a right guess at once) checks little
            for seed in range(4):
                play = Play(name, seed)
                for _ in range(STEPS):
                    play.step()
                    if play.game.is_over(play.table.state) and play.rng.random() < 0.2:
                        break
                play.restart()
                checked += play.audience.checked
            assert checked > 4 * 20 * len(play.viewers()), name

    def test_a_catch_up_past_the_window_of_recent_events_holds_no_secret(self):
        """A join from seq 0 of a table longer than its window: the older pushes come from
        the hub's shared chunk cache (read from the store once), the rest from memory."""
        play = Play("challenge", 7)
        while play.table.state.phase == "setup":
            play.step()
        for _ in range(2 * RECENT_EVENTS):
            name = "resume_table" if play.table.state.paused else "pause_table"
            args = {} if name == "resume_table" else {"cause": "tea"}
            play.proctor.ask("command", table="t", name=name, args=args)
            play.table.fold()
        assert play.hub.actors["t"].first_seq > 1  # the window has moved
        for viewer in play.viewers():
            viewer.ask("join", table="t", after_seq=0)
        play.audience.check()
        play.restart()


def tournament_options(rng: random.Random, deck_seed: int) -> dict[str, Any]:
    return {
        "name": "Cup",
        "date": "2026-03-14",
        "grades": ["4th", "5th"][: rng.randint(1, 2)],
        "deck_seed": deck_seed,
        "per_table_shuffle": rng.random() < 0.5,
        "advance_count": 3,
        "cards_per_round": rng.randint(4, 6),
    }


class Tourney:
    """A tournament run through sessions to a tie-break: every table ended at 0 points,
    so the three places of round 2 are tied (module doc)."""

    TID = "cup"
    STREAM = "tournament/cup"

    def __init__(self, seed: int) -> None:
        self.rng = rng = random.Random(seed)
        self.hub, self.clock = fresh_hub()
        self.deck_seed = rng.randrange(2**24, 2**31)
        options = tournament_options(rng, self.deck_seed)
        self.director = Connection(self.hub, self.clock, "director", name="d")
        created(self.director, self.STREAM, "tournament", options)
        self.audience = Audience()
        self.tournament = self.audience.watch(Watched(self.hub, self.STREAM))
        bound = {"table": self.STREAM}
        self.viewers = [
            self.audience.join(Connection(self.hub, self.clock, "spectator", name="all")),
            self.audience.join(Connection(self.hub, self.clock, "spectator", name="w", **bound)),
            self.audience.join(Connection(self.hub, self.clock, "proctor", name="p", **bound)),
            self.audience.join(Connection(self.hub, self.clock, "player", seat="p1", **bound)),
        ]
        for viewer in self.viewers:
            viewer.ask("join", table=self.STREAM, after_seq=0)
        rows = [
            f"S{grade}{n},Hill,{grade}\n"
            for grade in options["grades"]
            for n in range(rng.choice([6, 7, 8, 9]))
        ]
        self.command("import_students", csv="name,school,grade\n" + "".join(rows))

    def command(self, name: str, **args: Any) -> None:
        self.director.ask("command", table=self.STREAM, name=name, args=args)
        replies = self.director.messages()
        assert any(r["type"] == "accepted" for r in replies), replies
        self.watch_new_tables()
        self.look_around()

    def seed_secrets(self) -> Secrets:
        """What the tables the tournament creates must not show either: its seeds."""
        tie_breaks = range(1, len(self.tournament.state.tie_breaks) + 2)
        values = {self.deck_seed, *(decks.tie_break_seed(self.deck_seed, n) for n in tie_breaks)}
        return Secrets(frozenset({"deck_seed"}), frozenset(values))

    def watch_new_tables(self) -> None:
        """Watch every table the tournament created: a spectator of it and its first
        student join it from seq 0 (the unbound spectator too, while it has joins left)."""
        self.tournament.fold()
        for name, hub_id in self.table_ids().items():
            if hub_id in self.audience.tables:
                continue
            self.audience.watch(Watched(self.hub, hub_id, self.seed_secrets()))
            student = self.tournament.state.table(name)[1].students[0]
            for viewer in (
                Connection(self.hub, self.clock, "spectator", name="t", table=hub_id),
                Connection(self.hub, self.clock, "player", table=hub_id, seat=student),
            ):
                self.audience.join(viewer).ask("join", table=hub_id, after_seq=0)
            self.viewers[0].ask("join", table=hub_id, after_seq=0)

    def table_ids(self) -> dict[str, str]:
        state = self.tournament.state
        names = [t.table for r in state.rounds.values() if r.started for t in r.tables]
        names += [t.table for tie in state.tie_breaks for t in tie.tables]
        return {name: table_id(self.TID, name) for name in names}

    def look_around(self) -> None:
        """What viewers do between the director's commands: a join from a random seq, a
        `view_at`, a list; then every message is checked."""
        for _ in range(3):
            viewer = self.rng.choice(self.viewers)
            seq = self.rng.randint(1, self.tournament.seq)
            roll = self.rng.random()
            if roll < 0.4:
                viewer.ask("join", table=self.STREAM, after_seq=self.rng.randint(0, seq))
            elif roll < 0.8:
                viewer.ask("query", table=self.STREAM, name="view_at", args={"seq": seq})
            else:
                viewer.ask("list_tables", limit=200)
        self.director.messages()
        self.audience.check()

    def end_tables(self, names: list[str]) -> None:
        """The proctor's work at each table: a card or two, the end, the signature."""
        for name in names:
            hub_id = table_id(self.TID, name)
            for command, args in [
                ("begin_play", {}),  # the director begins play (no student joined)
                ("place_card", {}),
                ("reveal_card", {}),
                ("end_round", {}),
                ("sign_score_card", {"initials": "GH"}),
            ]:
                self.director.ask("command", table=hub_id, name=command, args=args)
            self.look_around()

    def play_round(self, number: int) -> None:
        self.command("seat_round", round=number)
        self.command("start_round", round=number)
        self.end_tables([t.table for t in self.tournament.state.round(number).tables])
        self.command("close_round", round=number)


class TournamentSecretsTests(ShellTestCase):
    def test_no_message_to_a_non_official_holds_the_tournaments_seed_or_cards(self):
        for seed in range(3):
            run = Tourney(seed)
            run.command("close_registration")
            run.play_round(1)
            run.play_round(2)
            state = run.tournament.state
            assert state.tie_breaks, "every table ended at 0: round 2's places are tied"
            run.end_tables([t.table for tie in state.tie_breaks for t in tie.tables])
            assert run.audience.checked > 100

    def test_the_suite_finds_the_seed_a_spectator_was_sent_before_issue_33(self):
        """The check is real: the tournament's `TableCreated` as it was pushed before its
        redaction (its options whole) is found to hold the seed, by key and by value."""
        run = Tourney(0)
        created_event = fired(run.hub.store.read(Tourney.STREAM, limit=1))[0]
        message = {"type": "event", "table": Tourney.STREAM, "seq": 1, "data": created_event.data}
        spectator = run.viewers[0].viewer
        found = list(leaks(message, run.tournament.secrets(spectator, 1)))
        assert any("deck_seed: a secret key" in f for f in found), found
        assert any(f"the secret {run.deck_seed}" in f for f in found), found


class TheCheckIsRealTests(ShellTestCase):
    def test_a_game_that_pushed_its_hidden_data_whole_is_caught(self):
        """For every game: with `event_view` showing everything, a spectator's catch-up from
        seq 0 is found to leak."""
        for name in sorted(GAMES):
            with self.monkeypatch.context() as patched:
                patched.setattr(table_game(name), "event_view", lambda event, viewer: event)
                with pytest.raises(AssertionError):
                    play = Play(name, 1)
                    for _ in range(STEPS):
                        play.step()
