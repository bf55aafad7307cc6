"""Seating students at tables (R-ROUND-2): 3 or 4 to a table, within a grade or section.

What this module keeps:
- Table sizes: `n` students sit at `ceil(n / 4)` tables whose sizes differ by at most one,
  so every table has 3 or 4 seats and none has 5. That is possible for every `n` except 1, 2
  and 5; such a grade must be merged with another before registration closes (the director
  says how, `merge_grades`): `table_sizes` refuses them.
- Once registration is closed, withdrawals (or the `advance_count` of 5) can leave a stage
  any number of students, and a stage cannot refuse them (nobody can merge or register
  then): `stage_sizes` seats everyone left, never raising: 3 or 4 as above, and the three
  counts that cannot sit so: 5 sit 3 + 2, 2 sit at one table of two, 1 sits at no table (a
  table needs two; the tournament's ranking lets a lone student through unopposed). Why not
  a table of five: a table has 2 to 4 seats (the seed's "3 or 4", and 2 at a tie-break or a
  final); why not a bye for the fifth: a bye gives a place to someone who did not play for
  it. docs/tournament.md, decision 11, says how each stage compares a table of two fairly.
- Round 1 (and the semi-final): a shuffle of the students, seeded by the tournament's public
  name and date (never its secret deck seed: `rounds.seating_key`), dealt into the tables.
- Round 2 ("students change tables"): no two students who shared a table in round 1 share one
  again, where that is possible. It is possible exactly when no round-1 table is larger than
  the number of round-2 tables (pigeonhole: two students of one round-1 table must otherwise
  meet again). *Dealing* does it: list the students round-1 table by round-1 table, larger
  tables first, and deal them to the round-2 tables in turn; the members of one round-1 table
  are consecutive and no more numerous than the tables, so each lands at a different table.
  When it is impossible, the same deal still spreads each round-1 table evenly: its members
  come one after another, so each student lands where the fewest of their former table-mates
  sit so far, at the emptiest such table. (A greedy pass choosing by exactly those keys, kept
  here for that case until 2026-12-01, seated the same tables in every case; docs/testing.md.)

Every choice is a pure function of the key and the recorded seating, so replay agrees.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from itertools import combinations

MIN_TABLE, MAX_TABLE = 3, 4  # R-ROUND-2


PAIR = 2  # the smallest table that can play (a tie-break's, a final's, R-ROUND-6)


class CannotSeat(ValueError):
    """The number of students cannot sit 3 or 4 to a table (1, 2 or 5)."""


def table_sizes(count: int) -> list[int]:
    """The table sizes for `count` students: 3 or 4 each, the larger tables first."""
    if count < MIN_TABLE or count == 5:
        raise CannotSeat(f"{count} students cannot sit 3 or 4 to a table")
    tables = -(-count // MAX_TABLE)
    base, extra = divmod(count, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def stage_sizes(count: int) -> list[int]:
    """The table sizes for everyone left at a stage after registration closed (any count,
    never raising; see the module doc): `table_sizes`, else 5 -> 3 + 2, 2 -> one table of
    two, 0 or 1 -> no table, the larger tables first."""
    if count < PAIR:
        return []
    if count == PAIR:
        return [PAIR]
    if count == 5:
        return [MIN_TABLE, PAIR]
    return table_sizes(count)


def _shuffled(items: Sequence[str], key: str) -> list[str]:
    rng = random.Random(key)
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = min(int(rng.random() * (i + 1)), i)
        out[i], out[j] = out[j], out[i]
    return out


def _deal(order: Sequence[str], tables: int) -> list[list[str]]:
    """Deal students to the tables in turn. With `stage_sizes`' sizes (differing by at most
    one, the larger first) that fills every table exactly."""
    return [list(order[index::tables]) for index in range(tables)]


def seat_fresh(students: Sequence[str], key: str) -> list[list[str]]:
    """Round 1 / semi-final / a big tie-break's seating: a seeded shuffle cut into the tables
    of `stage_sizes` (3 or 4; 3 + 2 for five, one table for two, none for one)."""
    order = _shuffled(sorted(students), key)
    sizes = stage_sizes(len(order))
    tables, start = [], 0
    for size in sizes:
        tables.append(order[start : start + size])
        start += size
    return tables


def repeated_pairs(before: Iterable[Sequence[str]], after: Iterable[Sequence[str]]) -> int:
    """How many pairs of students sit together in `after` who already did in `before`."""
    met = {frozenset(pair) for table in before for pair in combinations(table, 2)}
    return sum(1 for table in after for pair in combinations(table, 2) if frozenset(pair) in met)


def reseat(students: Sequence[str], previous: Sequence[Sequence[str]], key: str) -> list[list[str]]:
    """Round 2 seating: nobody meets a former table-mate again where that is possible.

    `previous` is the round-1 seating (students not in `students` are ignored: withdrawn).
    """
    present = set(students)
    groups = [[s for s in table if s in present] for table in previous]
    groups = [g for g in groups if g]
    seated = {s for g in groups for s in g}
    groups += [[s] for s in sorted(present - seated)]  # nobody to avoid yet
    # Larger groups first, each group's members consecutive: see the module doc.
    ordered_groups = sorted(
        (_shuffled(g, f"{key}/group/{i}") for i, g in enumerate(groups)), key=len, reverse=True
    )
    order = [s for g in ordered_groups for s in g]
    return _deal(order, len(stage_sizes(len(present))))
