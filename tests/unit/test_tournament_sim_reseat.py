"""`t24 tournament simulate` seats bots again at a table whose bots gave up, and refuses a
`--force-tie` that names no grade of the simulation.

Why: a table's bots leave when their link fails for good (five reconnects refused on a
loaded machine) or when signing keeps failing; without a new set of bots that table never
ends, and the simulation waits for its round until the 600 s deadline.
"""

from __future__ import annotations

import argparse
from typing import Any

from twisted.internet.defer import Deferred
from twisted.internet.task import Clock

from clients.reference_cli import tournament_sim


class FakeBots:
    """Stands in for `TableBots`: records each table it is seated at; the test ends it."""

    seated: list[FakeBots] = []

    def __init__(self, reactor: Any, url: str, token: str, table: str, *rest: Any, **kw: Any):
        self.table = table
        self.gave_up = False
        self.done: Deferred = Deferred()
        FakeBots.seated.append(self)

    def start(self) -> Deferred:
        return self.done


def director(monkeypatch: Any) -> tournament_sim.Director:
    FakeBots.seated = []
    monkeypatch.setattr(tournament_sim, "TableBots", FakeBots)
    args = argparse.Namespace(seed=7, fast=True, force_tie=None)
    sim = tournament_sim.Director(Clock(), "ws://127.0.0.1:1/ws", "token", args)
    sim.skills = {"s1": "average", "s2": "average", "s3": "average"}
    return sim


def table(name: str, result: Any = None) -> dict[str, Any]:
    return {"table": name, "section": "G1", "students": ["s1", "s2", "s3"], "result": result}


def test_bots_that_gave_up_are_replaced_at_the_next_poll(monkeypatch):
    sim = director(monkeypatch)
    sim.play_tables({}, [table("r1.t01"), table("r1.t02")])
    assert [b.table for b in FakeBots.seated] == ["sim-7.r1.t01", "sim-7.r1.t02"]
    sim.play_tables({}, [table("r1.t01"), table("r1.t02")])
    assert len(FakeBots.seated) == 2, "bots still playing are not doubled"
    quitter = FakeBots.seated[0]
    quitter.gave_up = True
    quitter.done.callback(None)
    sim.play_tables({}, [table("r1.t01"), table("r1.t02")])
    assert [b.table for b in FakeBots.seated] == ["sim-7.r1.t01", "sim-7.r1.t02", "sim-7.r1.t01"]


def test_bots_that_finished_or_a_table_with_a_result_get_no_new_bots(monkeypatch):
    sim = director(monkeypatch)
    sim.play_tables({}, [table("r1.t01")])
    FakeBots.seated[0].done.callback(None)  # signed: finished, not gave up
    sim.play_tables({}, [table("r1.t01")])
    sim.play_tables({}, [table("r1.t02", result={"seq": 30})])
    assert [b.table for b in FakeBots.seated] == ["sim-7.r1.t01"]


def simulate_args(**more: Any) -> argparse.Namespace:
    values = {"students": 8, "grades": 3, "seed": 7, "fast": True, "force_tie": None}
    return argparse.Namespace(**{**values, **more})


def test_force_tie_naming_no_grade_is_refused_before_a_server_starts(monkeypatch, capsys):
    """Issue 28 item 11 (R-ROUND-6, the forced tie): `--force-tie G9` with grades G1..G3
    forced nothing and said nothing; now it is refused with exit 2 and names the grades."""

    def no_server(*args: Any) -> None:
        raise AssertionError("a refused simulation starts no server")

    monkeypatch.setattr(tournament_sim, "start_server", no_server)
    code = tournament_sim.simulate(simulate_args(force_tie="G9"))
    assert code == tournament_sim.exit_codes.BAD_INPUT == 2
    assert capsys.readouterr().err == (
        "t24 tournament simulate: --force-tie 'G9' names no grade of this simulation "
        "(its grades are G1, G2, G3)\n"
    )


def test_force_tie_naming_a_grade_of_the_simulation_is_accepted():
    assert tournament_sim.input_problem(simulate_args(force_tie="G3")) is None
    assert tournament_sim.input_problem(simulate_args()) is None
    assert tournament_sim.input_problem(simulate_args(force_tie="g1")) is not None
    assert tournament_sim.input_problem(simulate_args(students=5)) == (
        "3+ students a grade (not 5), 1..20 grades"
    )
