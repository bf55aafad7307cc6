"""The practice pool's generator (server/games/practice/pool.py): which cards it keeps, how it
rounds and orders them, and that it writes classic_cards.py exactly as committed. The solver
and the difficulty model are replaced by small tables here (the real pool is checked against
them in test_practice_ratings.py): the generator's own logic is what is under test."""

from __future__ import annotations

from pathlib import Path

from server.games.practice import pool as pool_module
from server.games.practice.classic_cards import CARDS

ROOT = Path(__file__).resolve().parents[2]
SCORES = {(1, 1, 1, 8): 1.23456, (2, 3, 4, 13): 0.5, (1, 2, 3, 4): 1.23456, (13, 13, 13, 13): 9.0}


def test_the_pool_is_the_generated_table():
    assert pool_module.pool() is CARDS


def test_compute_pool_keeps_the_solvable_cards_of_1_to_13_rounded_easiest_first(monkeypatch):
    asked: list[tuple[int, ...]] = []

    def solvable(card: tuple[int, ...]) -> bool:
        asked.append(card)
        return card in SCORES

    monkeypatch.setattr(pool_module, "solvable", solvable)
    monkeypatch.setattr(pool_module.difficulty, "score", lambda card: SCORES[tuple(card)])
    assert pool_module.compute_pool() == (
        ((2, 3, 4, 13), 0.5),
        ((1, 1, 1, 8), 1.2346),
        ((1, 2, 3, 4), 1.2346),
        ((13, 13, 13, 13), 9.0),
    )
    # every card of four numbers 1..13, each once, as sorted tuples
    assert len(asked) == len(set(asked)) == 1820
    assert asked[0] == (1, 1, 1, 1) and asked[-1] == (13, 13, 13, 13)


def test_main_writes_classic_cards_exactly_as_committed(monkeypatch, tmp_path):
    monkeypatch.setattr(pool_module, "compute_pool", lambda: CARDS)
    (tmp_path / "server" / "games" / "practice").mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    assert pool_module.main() == 0
    written = (tmp_path / "server" / "games" / "practice" / "classic_cards.py").read_bytes()
    assert written == (ROOT / "server" / "games" / "practice" / "classic_cards.py").read_bytes()
