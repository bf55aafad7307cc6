"""A Variables card at a 24 Challenge table (R-DECK-2; our reading: shared/rules Q1).

What this module keeps, the only ways a Variables side plays differently from a four-number
card (everything else, touches, windows, flags, points, is the same):
- The answer names x, a whole number 1..9 (`x` of `state_steps` and `fix_solution`; a later
  statement replaces an earlier one, as steps do), and gives six steps, three for each wheel
  (`steps`: 1..6 texts while stated). On a four-number card `x` is refused.
- The pattern (R-PLAY-4) is the first wheel's last step, declared as for any card.
- The fixed answer is judged by `server.puzzles.variables.check_variables_solution`; fixing
  without an x stated is refused (`no_x`), as fixing without steps is (`no_steps`).

Why a module of its own: the judge of four-number cards and the play commands change for
other reasons; a Variables card touches them only through these few functions.
"""

from __future__ import annotations

from server.games.base import Command
from server.games.challenge.options import Card
from server.games.challenge.refusals import MAX_STEPS, refuse
from server.puzzles.expressions import Verdict, check_solution
from server.puzzles.variables import VARIABLES_STEP_COUNT, X_VALUES, check_variables_solution


def most_steps(card: Card) -> int:
    """How many steps a statement may hold: three, six on a Variables card (R-PUZ-2, Q1)."""
    return MAX_STEPS if card.wheels is None else VARIABLES_STEP_COUNT


def x_arg(command: Command, card: Card) -> int | None:
    """The `x` argument (Q1): None when not given; on a Variables card a whole number 1..9,
    on any other card refused (`bad_args`)."""
    value = command.args.get("x")
    if value is None:
        return None
    if card.wheels is None:
        raise refuse("bad_args", f"{command.name}: 'x' names a Variables card's x (R-DECK-2)")
    if not isinstance(value, int) or isinstance(value, bool) or value not in X_VALUES:
        raise refuse("bad_args", f"{command.name}: 'x' is a whole number 1..9 (R-DECK-2)")
    return value


def fixed_x(command: Command, card: Card, stated: int | None) -> int | None:
    """The x a `fix_solution` fixes: its own `x`, else the last stated one; on a Variables
    card one of them is needed (`no_x`)."""
    x = x_arg(command, card)
    if x is None:
        x = stated
    if x is None and card.wheels is not None:
        raise refuse("no_x", "name x (1..9) before fixing a Variables card's solution")
    return x


def judge(card: Card, x: int | None, pattern: str, steps: tuple[str, ...]) -> Verdict:
    """R-PUZ-2/3 (and Q1 on a Variables card): the verdict on a fixed solution."""
    if card.wheels is None:
        return check_solution(card.numbers, pattern, steps)
    assert x is not None  # fixed_x
    return check_variables_solution(card.wheels, x, pattern, steps)


def with_x(card: Card, x: int | None) -> dict[str, int | None]:
    """The `x` field of `StepsStated` and `SolutionFixed` (None while none is stated): on a
    Variables card only, so the events of every other card stay as they were."""
    return {} if card.wheels is None else {"x": x}
