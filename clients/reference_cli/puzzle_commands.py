"""Local puzzle commands: `t24 solve`, `t24 check`, `t24 deck`.

They run the same `server.puzzles` code the server judges with, so a proctor or a player can
see offline exactly what the server will say. Exit codes follow `t24 --help`: 0 for a solvable
card or a correct answer, 1 for an unsolvable card or a wrong answer, 2 for bad input (with a
one-line error on stderr).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Sequence

from clients.reference_cli.words import COMMON, answer_reason, error_line, language
from protocol.words import FALLBACK, say
from server.puzzles import difficulty, editions, expressions, solver

CARD_SIZE = 4
MAX_NUMBER = solver.MAX_NUMBER


WHOLE_NUMBER = re.compile(r"-?[0-9]+")


class BadInput(ValueError):
    """Arguments the command cannot use: reported in one line, exit code 2."""


def _card(items: Sequence[str]) -> list[int]:
    if len(items) != CARD_SIZE:
        raise BadInput(
            COMMON.say("solve.card_size", size=CARD_SIZE, count=len(items), numbers=" ".join(items))
        )
    numbers = []
    for item in items:
        # Plain ASCII digits only: int() would also take "1_0", "+8" and other scripts' digits.
        if not WHOLE_NUMBER.fullmatch(item):
            raise BadInput(COMMON.say("solve.not_whole", item=repr(item)))
        number = int(item)
        if number < 0:
            raise BadInput(COMMON.say("solve.negative", number=number, max=MAX_NUMBER))
        if number > MAX_NUMBER:
            raise BadInput(COMMON.say("solve.too_big", number=number, max=MAX_NUMBER))
        numbers.append(number)
    return numbers


def _bad_input(command: str, error: BadInput) -> int:
    print(error_line(f"t24 {command}", error), file=sys.stderr)
    return 2


def _print_json(data: object) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2))


# -- solve -----------------------------------------------------------------------------------


def run_solve(args: argparse.Namespace) -> int:
    """Print every distinct solution of a card with its three-step form and the dots."""
    try:
        card = _card(args.numbers)
    except BadInput as error:
        return _bad_input("solve", error)
    solutions = solver.solve(card)
    shown = " ".join(map(str, card))
    unicode = not args.ascii
    if args.json:
        value = difficulty.score(card) if solutions else None
        _print_json(
            {
                "numbers": card,
                "solvable": bool(solutions),
                "dots": difficulty.dots_for_score(value) if value is not None else None,
                "score": round(value, 4) if value is not None else None,
                "solutions": [s.as_dict() for s in solutions],
            }
        )
        return 0 if solutions else 1
    if not solutions:
        print(COMMON.say("solve.none", card=shown))
        return 1
    counted = COMMON.say("solve.solutions", len(solutions))
    dots = COMMON.say("solve.dots", difficulty.dots(card))
    print(COMMON.say("solve.found", card=shown, solutions=counted, dots=dots))
    for index, solution in enumerate(solutions, start=1):
        expression = solution.expression if unicode else solution.ascii_expression
        steps = solution.steps if unicode else solution.ascii_steps
        print(f"{index:3d}. {expression}")
        pattern = solution.pattern.render(unicode)
        print("     " + COMMON.say("solve.pattern", pattern=pattern, steps="; ".join(steps)))
    return 0


# -- check -----------------------------------------------------------------------------------


def run_check(args: argparse.Namespace) -> int:
    """Judge a free-form answer, or a pattern and steps, exactly as the server would."""
    items = list(args.items)
    try:
        if args.step or args.pattern is not None:
            if args.pattern is None:
                raise BadInput(COMMON.say("check.step_needs_pattern"))
            card = _card(items)
            verdict = expressions.check_solution(card, args.pattern, args.step or [])
            answer = {"pattern": args.pattern, "steps": list(args.step or [])}
        else:
            if len(items) != CARD_SIZE + 1:
                raise BadInput(COMMON.say("check.give_card", size=CARD_SIZE))
            card = _card(items[:CARD_SIZE])
            verdict = expressions.check_expression(card, items[CARD_SIZE])
            answer = {"expression": items[CARD_SIZE]}
    except BadInput as error:
        return _bad_input("check", error)
    if args.json:
        value = verdict.value
        _print_json(
            {
                "numbers": card,
                **answer,
                "ok": verdict.ok,
                "reason": verdict.reason,
                "message": verdict.message,
                "value": None if value is None else expressions.format_value(value, False),
            }
        )
    elif verdict.ok:
        print(COMMON.say("check.correct"))
    else:
        # the judge's own message names the step at fault; it is English, said as it is in
        # English and in the reason's words in another language (docs/translating.md)
        why = verdict.message if language() == FALLBACK else answer_reason(verdict.reason)
        print(COMMON.say("check.wrong", reason=verdict.reason, why=why))
    return 0 if verdict.ok else 1


# -- deck ------------------------------------------------------------------------------------

PLAYING_CARDS = "playing-cards"


def _dots(count: int) -> str:
    return "•" * count


def run_deck(args: argparse.Namespace) -> int:
    """Print a generated deck: the same edition and seed always print the same deck."""
    if args.edition == PLAYING_CARDS:
        cards = editions.playing_card_deck(args.seed)
        if args.json:
            _print_json(
                {"edition": args.edition, "seed": args.seed, "cards": [c.as_dict() for c in cards]}
            )
            return 0
        print(COMMON.say("deck.playing_cards", len(cards), edition=args.edition, seed=args.seed))
        for index, card in enumerate(cards, start=1):
            print(f"{index:3d}. {_card_name(card)}")
        return 0
    deck = editions.tournament_deck(args.edition, args.seed)
    if args.json:
        _print_json(
            {"edition": args.edition, "seed": args.seed, "cards": [c.as_dict() for c in deck]}
        )
        return 0
    print(COMMON.say("deck.double_sided", len(deck), edition=args.edition, seed=args.seed))
    width = 14 if args.edition != editions.VARIABLES else 22
    card, red, white, dots = (COMMON.say(f"deck.column.{name}") for name in COLUMNS)
    print(f"{card:6} {red:{width}} {dots:5} {white:{width}} {dots}")
    for card in deck:
        red, white = _side_text(card.red), _side_text(card.white)
        red_dots, white_dots = _dots(card.red.dots), _dots(card.white.dots)
        print(f"{card.card_id:6} {red:{width}} {red_dots:5} {white:{width}} {white_dots}")
    return 0


COLUMNS = ("card", "red", "white", "dots")


def _card_name(card: editions.PlayingCard) -> str:
    """` 3 of spades`, `spar  3`: the web pages' words for a playing card (`web` `cards.*`
    of the catalogue, the one place a card's name is worded)."""
    suit = say(language(), "web", f"cards.suit.{card.suit}")
    return say(language(), "web", "cards.name", rank=f"{card.rank:2d}", suit=suit)


def _side_text(side: editions.CardSide) -> str:
    """`3 3 8 8`, or a Variables side's wheels `6 6 2 | 20 22 24` (R-DECK-2, Q1)."""
    if side.wheels is None:
        return " ".join(map(str, side.numbers))
    return " | ".join(" ".join(map(str, wheel)) for wheel in side.wheels)


SOLVE_EXAMPLES = """\
examples:
  t24 solve 3 3 8 8            the one solution, 8 ÷ (3 − 8 ÷ 3), and its three steps
  t24 solve 2 4 8 10 --ascii   all 11 distinct solutions, written with * / -
  t24 solve 1 1 1 1            'no solution', exit 1
  t24 solve 3 3 8 8 --json     solutions, steps, pattern and dots as JSON
"""
CHECK_EXAMPLES = """\
examples:
  t24 check 3 3 8 8 "8/(3-8/3)"                      a free-form answer (casual games)
  t24 check 3 3 8 8 --pattern "8 / 1/3" --step "8/3" --step "3 - 8/3" --step "8 / 1/3"
  t24 check 4 6 1 1 --pattern "4 x 6" --step "1 x 1 = 1" --step "4 x 1" --step "4 x 6"
  t24 check 3 3 8 8 "8*3" --json                     the refusal reason as JSON
"""
DECK_EXAMPLES = """\
examples:
  t24 deck --edition single-digits --seed 7
  t24 deck --edition variables --seed 7     two wheels a side: find x (1..9) for both
  t24 deck --edition double-digits --seed 7 --json
  t24 deck --edition playing-cards --seed 1
"""


def add_parsers(subparsers: argparse._SubParsersAction) -> None:
    """Register the puzzle subcommands."""
    solve = subparsers.add_parser(
        "solve",
        help="every distinct solution of a card, with its three-step form and dots",
        description="Print every distinct solution of a card (exit 0), or 'no solution' (exit 1).",
        epilog=SOLVE_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    solve.add_argument("numbers", nargs="+", metavar="N", help="the card's four numbers, 0..99")
    solve.add_argument("--json", action="store_true", help="print JSON")
    solve.add_argument("--ascii", action="store_true", help="write * / - instead of × ÷ −")
    solve.set_defaults(func=run_solve)

    check = subparsers.add_parser(
        "check",
        help="judge an answer: an expression, or a pattern and three steps",
        description=(
            "t24 check 3 3 8 8 '8/(3-8/3)'  or  "
            "t24 check 3 3 8 8 --pattern '8 / 1/3' --step '8/3' --step '3 - 8/3' "
            "--step '8 / 1/3'. Exit 0 when correct, 1 when not."
        ),
        epilog=CHECK_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    check.add_argument("items", nargs="+", metavar="N", help="the four numbers [expression]")
    check.add_argument("--pattern", help="the declared pattern (the last step), e.g. '3 x 8'")
    check.add_argument("--step", action="append", help="one step 'a op b [= r]' (three of them)")
    check.add_argument("--json", action="store_true", help="print the verdict as JSON")
    check.set_defaults(func=run_check)

    deck = subparsers.add_parser(
        "deck",
        help="print a generated deck (same seed, same deck)",
        description="Print a tournament half-deck (48 double-sided cards) or the 40-card deck.",
        epilog=DECK_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    deck.add_argument(
        "--edition",
        choices=[*editions.ALL_EDITIONS, PLAYING_CARDS],
        default="single-digits",
        help="which deck (default: single-digits)",
    )
    deck.add_argument("--seed", type=int, default=0, help="the seed (default: 0)")
    deck.add_argument("--json", action="store_true", help="print JSON")
    deck.set_defaults(func=run_deck)
