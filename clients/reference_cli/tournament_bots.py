"""The bots of `t24 tournament simulate`: every seat of one proctored table, played by a program.

What it keeps: each student has a skill (`strong`, `average`, `weak`) that scales the human
solving time of bots.py (a log-normal law fitted on people's times) and the chance of a wrong
answer. On each revealed card the quickest student still in play touches, says the pattern and
fixes the solution (or a wrong one: a flag, R-FLAG-1); a card nobody would solve within the
no-touch window is left to be stumped (R-PLAY-7). Nobody connects to a seat of a proctored
table, so the proctor begins play (a tournament table waits for its students, docs/rules.md
decision 30). When the round ends the proctor signs the
score card (R-ROUND-7). The time from sending a touch to receiving its event is recorded
(`latencies`, seconds) for the tournament benchmark.
"""

from __future__ import annotations

import math
import time
from typing import Any

from twisted.internet.defer import Deferred

from clients.reference_cli.connection import BUSY_PING_TIMEOUT, TableLink
from clients.reference_cli.games.challenge.bot import (
    best_answer,
    human_fails,
    human_seconds,
    wrong_steps,
)
from server.puzzles.difficulty import score as difficulty_score
from server.puzzles.variables import score as variables_score
from server.puzzles.variables import solve_variables

SKILL_LEVELS = {"strong": (0.6, 0.5), "average": (1.0, 1.0), "weak": (1.7, 2.5)}
INITIALS = "SIM"
SIGN_ATTEMPTS = 20


def card_answer(card: dict[str, Any]) -> tuple[tuple[str, list[str], int | None] | None, float]:
    """The bots' answer to a revealed card, (pattern, steps, x), or None, and its difficulty
    score: the simplest solution of four numbers (x None), or of a Variables side's `wheels`
    (R-DECK-2, Q1: x and three steps for each wheel, the pattern the first wheel's last)."""
    wheels = card.get("wheels")
    if wheels:
        solved = solve_variables(wheels)
        if solved is None:
            return None, math.inf
        steps = list(solved.ascii_steps)
        pattern = steps[2].split("=")[0].strip()
        return (pattern, steps, solved.x), variables_score(wheels)
    numbers = card["numbers"]
    found = best_answer(numbers)
    if found is None:
        return None, math.inf
    return (found[0], found[1], None), difficulty_score(numbers)


class TableBots:
    """Plays every seat of one proctored table (see module doc); `done` fires at its end."""

    def __init__(
        self, reactor, url, token, table, skills, rng, scale, timers, latencies, forfeit=False
    ) -> None:
        self.reactor = reactor
        self.forfeit = forfeit  # end the round at once, nobody scoring (a forced tie)
        self.gave_up = False  # the link failed for good, or signing did: the table is not done
        self.ending = False
        self.signing = 0
        self.latencies: list[float] = latencies
        self.sent: dict[str, float] = {}
        self.skills = skills
        self.rng = rng
        self.scale = scale
        self.no_touch = timers["no_touch_seconds"]
        self.out: set[str] = set()
        self.play: int | None = None
        self.done: Deferred = Deferred()
        self.link = TableLink(
            url,
            token,
            reactor=reactor,
            listener=self,
            table=table,
            retries=5,
            history=False,
            ping_timeout=BUSY_PING_TIMEOUT,  # one reactor plays many seats (connection.py)
        )

    def start(self) -> Deferred:
        self.link.start()
        return self.done

    def link_status(self, status: str) -> None:
        return None

    def link_welcome(self, welcome: dict[str, Any]) -> None:
        return None

    def link_fatal(self, code: str, message: str) -> None:
        self.gave_up = True
        self._finish()

    def link_snapshot(self, snapshot: dict[str, Any], after_seq: int | None = None) -> None:
        view = snapshot["view"]
        for seat in view.get("seats", []):
            if seat.get("disqualified"):
                self.out.add(seat["seat"])
        if view.get("waiting") and not self.forfeit:
            # a tournament table waits for its students (docs/rules.md decision 30); these
            # play at a proctored table, where nobody connects: the proctor begins play
            self.link.command("begin_play", {}).addErrback(lambda _failure: None)
        if view.get("phase") == "ended":
            self.sign()
        elif self.forfeit:
            self._end_round(view.get("phase"))
        elif view.get("phase") == "revealed" and view.get("card"):
            self._revealed(view["card"]["play"], view["card"])

    def link_event(self, push: dict[str, Any]) -> None:
        kind, data = push["event_type"], push["data"]
        if self.forfeit and kind not in ("RoundEnded", "ScoreCardSigned"):
            self._end_round("running" if kind != "TableCreated" else "setup")
            return
        if kind in ("CardTouched", "TouchRefused") and data.get("seat") in self.sent:
            self.latencies.append(time.monotonic() - self.sent.pop(data["seat"]))
        if kind == "CardRevealed":
            self._revealed(data["play"], data)
        elif kind in ("CardTouched", "CardWon", "CardStumped", "CardReturnedToDeck"):
            self.play = None
        elif kind == "PlayerDisqualified":
            self.out.add(data["seat"])
        elif kind == "RoundEnded":
            self.sign()
        elif kind == "ScoreCardSigned":
            self._finish()

    def _revealed(self, play: int, card: dict[str, Any]) -> None:
        self.play = play
        answer, card_score = card_answer(card)
        seats = [seat for seat in self.skills if seat not in self.out]
        if answer is None or not seats:
            return
        times = {}
        for seat in seats:
            slow, _ = SKILL_LEVELS[self.skills[seat]]
            times[seat] = human_seconds(card_score, self.rng) * slow * self.scale
        seat = min(times, key=times.get)
        if times[seat] >= self.no_touch:
            return  # stumped: nobody touches within the window (R-PLAY-7)
        _, error = SKILL_LEVELS[self.skills[seat]]
        pattern, steps, x = answer
        if self.rng.random() < min(0.9, human_fails(card_score) * error):
            steps = wrong_steps(steps)
        self.reactor.callLater(times[seat], self._answer, play, seat, pattern, steps, x)

    def _answer(self, play: int, seat: str, pattern: str, steps: list[str], x: int | None) -> None:
        if play != self.play or self.done.called or not self.link.ready:
            return
        self.sent[seat] = time.monotonic()
        fix: dict[str, Any] = {"seat": seat, "steps": steps}
        if x is not None:  # a Variables card (Q1): the answer names x
            fix["x"] = x
        for name, args in (
            ("touch_card", {"seat": seat}),
            ("declare_pattern", {"seat": seat, "pattern": pattern}),
            ("fix_solution", fix),
        ):
            self.link.command(name, args).addErrback(lambda _f: None)

    def _end_round(self, phase: Any) -> None:
        """A forfeited table: `end_round` as soon as the round runs (again at the next event
        when it was refused: the round had not started yet)."""
        if self.ending or phase in ("setup", "ended", None) or not self.link.ready:
            return
        self.ending = True

        def refused(_failure: Any) -> None:
            self.ending = False

        self.link.command("end_round", {}).addErrback(refused)

    def sign(self) -> None:
        """R-ROUND-7: the proctor signs the score card. A refusal because the card is signed
        already ends the bot's work; a dropped request (rate limit, lost link) is sent again."""
        if self.done.called or self.signing >= SIGN_ATTEMPTS:
            self.gave_up = self.gave_up or not self.done.called
            self._finish()
            return
        self.signing += 1

        def failed(failure: Any) -> None:
            code = getattr(failure.value, "code", None)
            if code in ("score_card_signed", "not_allowed", "unknown_command", "round_not_over"):
                self._finish()
            else:
                self.reactor.callLater(0.5, self.sign)

        d = self.link.command("sign_score_card", {"initials": INITIALS})
        d.addCallbacks(lambda _result: self._finish(), failed)

    def _finish(self) -> None:
        if not self.done.called:
            self.link.close()
            self.done.callback(None)
