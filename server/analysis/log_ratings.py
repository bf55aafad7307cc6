"""Ratings over the whole log: every student's rating and its history across tournament
rounds, casual tables and practice, and every card's rating from every attempt at it
(issue 31). A pure function of the tables' events (and the solver's difficulty of a card).

What it keeps:
- `occurrences(stream, events)`: what one table's log says that moves a rating: a table's
  result (a 24 Challenge table's signed score card, a pocket or deck40 game's end), an
  attempt at a practice card (`RatingUpdated`), and an attempt at a 24 Challenge card (a
  card won, a wrong answer, a card stumped: a miss for every seat still playing that showed
  it was there, by an act of its own or connected or marked present when play began);
- `rate_log(streams)`: all of them in the log's time order, folded into ratings
  (`server.ratings`: Plackett-Luce for a table's players ranked by their scores,
  Bradley-Terry for a student against a card);
- `RatingsFold`: that fold a step at a time, for a reader that folds in slices of the
  reactor's turns and goes on from its last fold when the log only grew after it
  (server/runtime/ratings_query.py, issue 32).

Who is who across tables (`identity`): the seat's name as the table was created with it,
case and spaces folded ("Ada  Lovelace" and "ada lovelace" are one student). Why the name: a
player's token names its seat, and a seat is an id of one table only (every casual table has
an `s1`; a tournament's `p12` is its student 12 only within it), while every table's log
records the name of who sits in each seat, a tournament's its students' names. So a
student's tournament rounds, their casual tables and their practice join under the name the
director typed; a director who has two students of one name gives them names a class list
would tell apart ("Ada L.", "Ada K."). Two seats of one table with the same name are two
students: the later ones are rated apart, under their table and seat. A seat without a name
is rated on its own, for its opponents' sake, and never joined to another table. A
tournament's table is read under its students' names now, when the tournament's stream is
read too (a `StudentRenamed` after the table was created): a renamed student stays one.

What moves what, and why:
- a table's result moves its players' ratings, never a card's (the cards of a round are a
  race between the players, the result says who won it);
- a practice attempt moves the student's rating and the card's, as at the practice table;
- an attempt at a 24 Challenge card moves only the card's rating, at the student's rating
  then: the table's result already counts the cards the student won, and counting each card
  again would count the round twice. A card is known by its sorted numbers ("1 1 1 8"),
  the same card whatever table, deck or practice dealt it (a Variables side's wheels are
  not one card, and are not rated).
- a card learns only from students whose rating has begun to settle (deviation at most
  `TEACHING_SIGMA`, about 25 cards or a few tables in): a student new to the log is 1500
  whatever their level, and a strong newcomer's solves would pull every hard card they meet
  down towards 1500 (without this, a card of 3577 tried by newcomers who solve it half the
  time slid its whole `CARD_MAX_SHIFT` in a trial). Why not lichess's provisional line (110):
  against cards of deviation 120 a student crosses it only after some 45 cards, so most
  cards would learn from almost nobody. A newcomer's attempt still moves their own rating
  (practice) and is counted in the card's `attempts`, not in its `rated`.
- every card step keeps the lessons of lichess's puzzles (`server.ratings`): at most
  `CARD_MAX_STEP` a step, within `CARD_MAX_SHIFT` of the difficulty model's prior, a
  deviation that never grows: a card played very often does not drift (lila 1704).

Why recomputed and not read: a practice table records its own ratings (from its own start),
but the student's rating across the log is a fold over every table, which no one table can
record; it is a pure function of the recorded events in their recorded time order (ties by
the stream's name and seq), so anyone recomputes it from the same streams: an export, a
bundle, or the live store (tests/unit/test_log_ratings.py).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from protocol.messages import TOURNAMENT_PREFIX, stream_table
from server.analysis.log import LogEvent, created, log_events
from server.puzzles.card_facts import facts
from server.ratings import Rating, card_prior, rate_attempt, rate_table
from server.tournament.tables import reserving_tournament

RESULT, PRACTICE, CARD = "result", "practice", "card"
SIGNED, REOPENED = "ScoreCardSigned", "ScoreCardReopened"
GAME_ENDED = "GameEnded"  # pocket and deck40
# A seat's own acts at a 24 Challenge table: a stumped card is a miss only for the seats that
# showed they were playing (by one of these, or connected or marked present when play began),
# never for a student who was absent all along.
ACTS = frozenset({"CardTouched", "PatternDeclared", "SolutionJudged", "CardWon", "StumpedDeclared"})
TEACHING_SIGMA = 150.0  # a card learns from a student whose deviation is at most this
RESULT_GAMES = frozenset({"challenge", "pocket", "deck40"})


def identity(name: object) -> str:
    """The key that joins a student's seats across tables: the name, case and spaces folded
    ("" for no name)."""
    return " ".join(str(name or "").casefold().split())


def card_key(numbers: Iterable[int]) -> str:
    """A card across tables: its sorted numbers as text, as the practice's `card_id`."""
    return " ".join(str(n) for n in sorted(numbers))


@dataclass(frozen=True)
class Occurrence:
    """One thing in a table's log that moves a rating; `order` sorts the log's time line."""

    at: int
    stream: str
    seq: int
    kind: str  # RESULT, PRACTICE or CARD
    game: str
    players: tuple[tuple[str, str, str], ...] = ()  # (key, name, seat) of a result's players
    scores: tuple[float, ...] = ()  # a result's scores, the players' order
    student: tuple[str, str, str] = ("", "", "")  # (key, name, seat) of an attempt
    card: str = ""  # an attempt's card key
    score: float = 0.0  # the card's difficulty score (its prior)
    solved: bool = False

    @property
    def order(self) -> tuple[int, str, int]:
        return (self.at, self.stream, self.seq)


def _seat_keys(stream: str, options: Mapping[str, Any]) -> dict[str, tuple[str, str, str]]:
    """seat -> (key, name, seat) for a table's seats (see the module doc on identity)."""
    keys: dict[str, tuple[str, str, str]] = {}
    taken: set[str] = set()
    seats = options.get("seats", ())
    for entry in seats if isinstance(seats, list | tuple) else ():
        if not isinstance(entry, Mapping) or not isinstance(entry.get("seat"), str):
            continue
        seat, name = entry["seat"], str(entry.get("name") or "")
        key = identity(name)
        if not key or key in taken:
            key = f"{key}#{stream}/{seat}"
        taken.add(key)
        keys[seat] = (key, name, seat)
    return keys


def _result(
    stream: str, game: str, event: LogEvent, keys: Mapping[str, tuple[str, str, str]]
) -> Occurrence | None:
    scores = event.data.get("scores")
    if not isinstance(scores, Mapping):
        return None
    rated = [
        (keys[seat], float(score))
        for seat, score in scores.items()
        if seat in keys and isinstance(score, int | float) and not isinstance(score, bool)
    ]
    if len(rated) < 2:
        return None
    return Occurrence(
        at=event.at,
        stream=stream,
        seq=event.seq,
        kind=RESULT,
        game=game,
        players=tuple(player for player, _ in rated),
        scores=tuple(score for _, score in rated),
    )


def _challenge_cards(
    stream: str, log: list[LogEvent], keys: Mapping[str, tuple[str, str, str]]
) -> list[Occurrence]:
    """The attempts at a 24 Challenge table's cards (see the module doc)."""
    cards: dict[Any, tuple[str, float] | None] = {}  # play -> (card key, score)
    tried: set[tuple[Any, str]] = set()  # (play, seat): one attempt a play
    out: set[str] = set()  # seats disqualified now
    there: set[str] = set()  # seats that showed they were playing (`ACTS`, `PlayBegan`)
    found = []

    def attempt(event: LogEvent, play: Any, seat: str, solved: bool) -> None:
        card = cards.get(play)
        if card is None or seat not in keys or (play, seat) in tried:
            return
        tried.add((play, seat))
        found.append(
            Occurrence(
                at=event.at,
                stream=stream,
                seq=event.seq,
                kind=CARD,
                game="challenge",
                student=keys[seat],
                card=card[0],
                score=card[1],
                solved=solved,
            )
        )

    for event in log:
        data = event.data
        if event.type in ACTS and isinstance(data.get("seat"), str):
            there.add(data["seat"])
        if event.type == "CardRevealed":
            numbers = data.get("numbers")
            known = None
            if data.get("wheels") is None and isinstance(numbers, list | tuple):
                score = facts(tuple(int(n) for n in numbers)).score
                known = None if score is None else (card_key(numbers), score)
            cards[data.get("play")] = known
        elif event.type == "SolutionJudged" and not data.get("ok"):
            attempt(event, data.get("play"), str(data.get("seat")), solved=False)
        elif event.type == "CardWon":
            attempt(event, data.get("play"), str(data.get("seat")), solved=True)
        elif event.type == "CardStumped":
            for seat in keys:
                if seat in there and seat not in out:
                    attempt(event, data.get("play"), seat, solved=False)
        elif event.type == "PlayBegan":
            there.update(str(seat) for seat in data.get("connected") or ())
            marks = data.get("attendance")
            if isinstance(marks, Mapping):
                there.update(str(seat) for seat, mark in marks.items() if mark == "present")
        elif event.type == "PlayerDisqualified":
            out.add(str(data.get("seat")))
        elif event.type == "PlayerReinstated":
            out.discard(str(data.get("seat")))
    return found


def _practice(
    stream: str, log: list[LogEvent], keys: Mapping[str, tuple[str, str, str]]
) -> list[Occurrence]:
    scores: dict[tuple[Any, Any], float] = {}  # (seat, number) -> the dealt card's score
    found = []
    for event in log:
        data = event.data
        if event.type == "CardDealt":
            scores[(data.get("seat"), data.get("number"))] = float(data.get("score", 0.0))
        elif event.type == "RatingUpdated" and data.get("seat") in keys:
            score = scores.get((data.get("seat"), data.get("number")))
            if score is None:
                continue
            found.append(
                Occurrence(
                    at=event.at,
                    stream=stream,
                    seq=event.seq,
                    kind=PRACTICE,
                    game="practice",
                    student=keys[str(data["seat"])],
                    card=str(data.get("card_id")),
                    score=score,
                    solved=bool(data.get("solved")),
                )
            )
    return found


def occurrences(stream: str, events: Iterable[Any]) -> list[Occurrence]:
    """What one table's log says that moves a rating, in its order (see the module doc).
    A stream that is not a table's (it does not start with `TableCreated`) says nothing."""
    log = log_events(events)
    try:
        data = created(log)
    except ValueError:
        return []
    game = str(data.get("game", ""))
    options = data.get("options")
    keys = _seat_keys(stream, options if isinstance(options, Mapping) else {})
    if game == "practice":
        return _practice(stream, log, keys)
    found = _challenge_cards(stream, log, keys) if game == "challenge" else []
    if game in RESULT_GAMES:
        final = SIGNED if game == "challenge" else GAME_ENDED
        last = None
        for event in log:
            if event.type == final:
                last = event
            elif event.type == REOPENED:
                last = None  # reopened: no result until it is signed again
        result = None if last is None else _result(stream, game, last, keys)
        if result is not None:
            found.append(result)
    return found


@dataclass(frozen=True)
class StudentRatings:
    """One student across the log: the rating now and after each thing that moved it."""

    key: str
    name: str
    rating: Rating
    history: tuple[Mapping[str, Any], ...]

    def as_data(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "name": self.name,
            "rating": {**self.rating.as_data(), "provisional": self.rating.provisional},
            "tables": len({entry["table"] for entry in self.history}),
            "history": [dict(entry) for entry in self.history],
        }


@dataclass(frozen=True)
class CardRatings:
    """One card across the log: its prior (the difficulty model's), its rating now, how many
    attempts there were and how many solved it, and how many moved it (`rated`: those of
    students whose rating was settled then)."""

    card: str
    prior: Rating
    rating: Rating
    attempts: int
    solved: int
    rated: int

    def as_data(self) -> dict[str, Any]:
        return {
            "card": self.card,
            "prior": self.prior.as_data(),
            "rating": self.rating.as_data(),
            "attempts": self.attempts,
            "solved": self.solved,
            "rated": self.rated,
        }


@dataclass(frozen=True)
class LogRatings:
    """Every student's and every card's ratings over the streams read."""

    students: Mapping[str, StudentRatings]
    cards: Mapping[str, CardRatings]

    def student(self, name: str) -> StudentRatings | None:
        """The student of this name (any case and spacing), or None if no table has them."""
        return self.students.get(identity(name))


def tournament_names(events: Iterable[Any]) -> dict[str, str]:
    """student id -> their name now, from a tournament's stream (registered, renamed)."""
    names: dict[str, str] = {}
    for event in log_events(events):
        if event.type == "StudentsRegistered":
            for entry in event.data.get("students") or ():
                if isinstance(entry, Mapping) and isinstance(entry.get("student"), str):
                    names[entry["student"]] = str(entry.get("name") or "")
        elif event.type == "StudentRenamed" and isinstance(event.data.get("student"), str):
            names[event.data["student"]] = str(event.data.get("name") or "")
    return names


def _renamed(occurred: Occurrence, renamed: Mapping[str, Mapping[str, str]]) -> Occurrence:
    """A tournament table's occurrence under its students' names now (their tournament's
    `StudentRenamed`), so a renamed student stays one student."""
    tournament = reserving_tournament(stream_table(occurred.stream))
    names = renamed.get(tournament) if tournament is not None else None
    if not names:
        return occurred

    def now(who: tuple[str, str, str]) -> tuple[str, str, str]:
        _key, _name, seat = who
        name = names.get(seat, "")
        return (identity(name), name, seat) if identity(name) else who

    if occurred.kind != RESULT:
        return replace(occurred, student=now(occurred.student))
    players = tuple(now(player) for player in occurred.players)
    if len({key for key, _name, _seat in players}) < len(players):
        return occurred  # two students of one name now: as the table was created
    return replace(occurred, players=players)


def rate_log(streams: Mapping[str, Iterable[Any]]) -> LogRatings:
    """Every rating the log implies (see the module doc): `streams` maps a stream's name
    (`table/<id>`; a tournament's `tournament/<id>` for its students' names now) to its
    events, as a store, an export or a bundle gives them."""
    renamed = {
        stream.removeprefix(TOURNAMENT_PREFIX): tournament_names(events)
        for stream, events in streams.items()
        if stream.startswith(TOURNAMENT_PREFIX)
    }
    return rate_occurrences(
        (
            o
            for stream, events in streams.items()
            if not stream.startswith(TOURNAMENT_PREFIX)
            for o in occurrences(stream, events)
        ),
        renamed,
    )


def rate_occurrences(
    occurred: Iterable[Occurrence], renamed: Mapping[str, Mapping[str, str]] | None = None
) -> LogRatings:
    """The ratings of the streams these `occurrences` were read from, in any order (they
    are folded in the log's time order): what `rate_log` folds.
    `renamed`: per tournament id, its students' names now (`tournament_names`)."""
    fold = RatingsFold(renamed)
    for o in sorted(occurred, key=lambda o: o.order):
        fold.add(o)
    return fold.ratings()


class RatingsFold:
    """`rate_occurrences`'s fold, a step at a time: `add` each occurrence in the log's time
    order, `ratings()` whenever. Why a step at a time (issue 32): a live store's reader
    (server/runtime/ratings_query.py) folds a log of 100,000 occurrences (a 2,000-student
    tournament; some 120 us each, 12 s) in slices of the reactor's turns, and when the log
    has only grown after the last occurrence folded (a score card signed) goes on from where
    it was instead of folding it all again. `ratings()` builds again only the students and
    cards the steps since the last call moved: the others are the same objects."""

    def __init__(self, renamed: Mapping[str, Mapping[str, str]] | None = None) -> None:
        self.renamed = renamed or {}
        self.last: tuple[int, str, int] | None = None  # the order of the last step
        self._ratings: dict[str, Rating] = {}
        self._names: dict[str, str] = {}
        self._history: dict[str, list[dict[str, Any]]] = {}
        self._cards_now: dict[str, Rating] = {}
        self._priors: dict[str, Rating] = {}
        self._tries: dict[str, list[int]] = {}
        # students moved and cards tried since `ratings()`, in the order first moved (as
        # `rate_occurrences` always listed them: a dict, an ordered set)
        self._moved: dict[str, None] = {}
        self._tried: dict[str, None] = {}
        self._built = LogRatings(students={}, cards={})
        # a build under way (`build`): what is left of it, and what it has built so far
        self._todo_students: deque[str] = deque()
        self._todo_cards: deque[str] = deque()
        self._students: dict[str, StudentRatings] | None = None
        self._cards: dict[str, CardRatings] | None = None

    def add(self, occurred: Occurrence) -> None:
        """Fold one more occurrence: none before it in the log's time order may follow."""
        assert self.last is None or occurred.order >= self.last, "folded out of order"
        self.last = occurred.order
        o = _renamed(occurred, self.renamed) if self.renamed else occurred
        if o.kind == RESULT:
            keys = [key for key, _name, _seat in o.players]
            table = rate_table([self._ratings.get(k, Rating()) for k in keys], o.scores)
            for (key, name, seat), rating, score in zip(o.players, table, o.scores, strict=True):
                place = 1 + sum(1 for other in o.scores if other > score)
                entry = {
                    "at": o.at,
                    "table": stream_table(o.stream),
                    "game": o.game,
                    "kind": RESULT,
                    "seat": seat,
                    "score": score,
                    "place": place,
                    "players": len(keys),
                }
                self._record(key, name, rating, entry)
        elif o.kind == PRACTICE:
            student = self._card_step(o)
            key, name, seat = o.student
            entry = {
                "at": o.at,
                "table": stream_table(o.stream),
                "game": o.game,
                "kind": PRACTICE,
                "seat": seat,
                "card": o.card,
                "solved": o.solved,
            }
            self._record(key, name, student, entry)
        else:
            self._card_step(o)

    def _card_step(self, o: Occurrence) -> Rating:
        prior = self._priors.setdefault(o.card, card_prior(o.score))
        student = self._ratings.get(o.student[0], Rating())
        card = self._cards_now.get(o.card, prior)
        after, card_after = rate_attempt(student, card, o.solved, prior.mu)
        counts = self._tries.setdefault(o.card, [0, 0, 0])
        counts[0] += 1
        counts[1] += int(o.solved)
        if student.sigma <= TEACHING_SIGMA:  # a card learns from settling students only
            counts[2] += 1
            card = card_after
        self._cards_now[o.card] = card
        self._tried[o.card] = None
        return after

    def _record(self, key: str, name: str, rating: Rating, entry: dict[str, Any]) -> None:
        self._ratings[key] = rating
        self._names.setdefault(key, name)
        self._history.setdefault(key, []).append({**entry, "mu": rating.mu, "sigma": rating.sigma})
        self._moved[key] = None

    def build(self, limit: int | None = None) -> bool:
        """Build up to `limit` (None: all) of the students and cards the steps since the
        last whole build moved; True once every one is built (`ratings()` then costs
        nothing more). Why in pieces: 2,000 students' histories take a good part of a
        reactor turn's slice (server/runtime/ratings_query.py builds a few at a time)."""
        if self._students is None:
            if not (self._moved or self._tried):
                return True
            self._students, self._cards = dict(self._built.students), dict(self._built.cards)
        assert self._cards is not None
        self._todo_students.extend(self._moved)
        self._todo_cards.extend(self._tried)
        self._moved, self._tried = {}, {}
        budget = len(self._todo_students) + len(self._todo_cards) if limit is None else limit
        for _ in range(budget):
            if self._todo_students:
                key = self._todo_students.popleft()
                self._students[key] = StudentRatings(
                    key, self._names[key], self._ratings[key], tuple(self._history[key])
                )
            elif self._todo_cards:
                card = self._todo_cards.popleft()
                self._cards[card] = CardRatings(
                    card, self._priors[card], self._cards_now[card], *self._tries[card]
                )
            else:
                break
        if self._todo_students or self._todo_cards:
            return False
        self._built = LogRatings(students=self._students, cards=self._cards)
        self._students = self._cards = None
        return True

    def ratings(self) -> LogRatings:
        """Every rating folded so far (see the class doc)."""
        self.build()
        return self._built
