"""Every word the terminal shows of a deck40 table (Kortspillet 24), in one table (see
`words.py` for the keys and why one table per game): the sentence of each event, of each
refusal, of each reason code inside an event, and the screen's lines and labels. Seats are
named (`{who}`), never by id; cards are written `7♥`.
"""

from __future__ import annotations

from clients.reference_cli.words import Plural, Table

WORDS: Table = {
    # -- events (docs/games/deck40.md, "Events") ----------------------------------------------
    "event.TableCreated": Plural(
        "a deck40 table for {count} player: {names}", "a deck40 table for {count} players: {names}"
    ),
    "event.GameStarted.pairs": "the cards are shuffled and dealt: a pile of 20 each, "
    "two cards each turned up at a time",
    "event.GameStarted.singles": "the cards are shuffled and dealt: a pile of 10 each, "
    "one card each turned up at a time",
    "event.GameStarted.common_pile": "the cards are shuffled into one pile: the server turns "
    "up four at a time",
    "event.CardsTurnedUp": "set {set}: {cards}",
    "event.SolutionCalled.right": "{who}: 24! {expression}, right",
    "event.SolutionCalled.wrong": "{who}: 24! {expression}, wrong: {why}",
    "event.PlayerExcluded": "{who} is out of set {set}",
    "event.NoSolutionCalled": "{who}: no solution, and gives back {card}",
    "event.NoSolutionCalled.common": "{who}: no solution",
    "event.NoSolutionAgreed.all_called": "everyone says set {set} has no solution",
    "event.NoSolutionAgreed.all_excluded": "everyone is out of set {set}: nobody solves it",
    "event.NoSolutionAgreed.unsolvable": "the server confirms set {set} has no solution",
    "event.NoSolutionAgreed.solvable": "set {set} had a solution after all, e.g. {example}",
    "event.RoundWon": Plural(
        "{who} takes set {set}: {count} point", "{who} takes set {set}: {count} points"
    ),
    "event.RoundWon.cards": "{who} takes set {set} and its four cards",
    "event.RoundWon.house": "{who} solves set {set}: {loser} takes the four cards",
    "event.CardsReturned": "back under the piles: {cards}",
    "event.GameEnded.target_points": "{names} reached the points to win: the game is over",
    "event.GameEnded.cards_out": "the cards are used up: the game is over",
    "event.GameEnded.cannot_turn_up": "a pile cannot turn up its cards any more: the game is over",
    "event.GameEnded.no_solution_left": "every set left has no solution: the game is over",
    "event.GameEnded.ended_by_director": "the director ended the game",
    # -- refusals (docs/games/deck40.md, "Refusal codes") -------------------------------------
    "refusal.unknown_command": "a deck40 table has no such command",
    "refusal.bad_args": "that command is missing something, or something in it is of the "
    "wrong kind",
    "refusal.invalid_options": "the table's options are not valid",
    "refusal.not_allowed": "you may not do that at this table",
    "refusal.not_your_seat": "a player plays only for their own seat",
    "refusal.unknown_seat": "there is no such seat at this table",
    "refusal.game_not_started": "the game has not started yet: type start",
    "refusal.game_already_started": "the game has already started",
    "refusal.game_over": "the game is over",
    "refusal.excluded": "you are out of these four cards after a wrong 24!: wait for the next set",
    "refusal.already_called": "you called no solution on these cards already",
    "refusal.not_your_card": "you give back one of your own face-up cards (e.g. n 7H)",
    "refusal.stale_set": "not judged: that was for a set someone took while you typed; "
    "play the set on the table now",
    # -- the screen ----------------------------------------------------------------------------
    "screen.title": "deck40",
    "screen.set": "set {set}",
    "screen.scoring": "scoring {scoring}",
    "screen.target": "to {target} points",
    "screen.phase.setup": "not started",
    "screen.phase.playing": "playing",
    "screen.phase.ended": "over",
    "screen.layout.pairs": "two cards from each pile",
    "screen.layout.singles": "one card from each pile",
    "screen.layout.common_pile": "one common pile",
    "screen.common_pile": Plural("common pile: {count} card", "common pile: {count} cards"),
    "screen.table": "table: {cards}",
    "screen.card_from": "{card} ({who})",
    "screen.waiting": "waiting for someone to type start (a player or the director)",
    "screen.no_solution": "no solution: {names}",
    "screen.excluded": "out of these cards: {names}",
    "screen.seat": Plural(
        "{who}: pile {pile} · won {won} · {count} point",
        "{who}: pile {pile} · won {won} · {count} points",
    ),
    "screen.you": "{name} (you)",
    "screen.seat.setup": "{who}: waiting for the deal",
    "screen.winner": "winner: {names} ({why})",
    "screen.tie": "tie: {names} ({why})",
    "screen.ended.target_points": "played to the target points",
    "screen.ended.cards_out": "the cards are used up",
    "screen.ended.cannot_turn_up": "a pile ran out",
    "screen.ended.no_solution_left": "no set left had a solution",
    "screen.ended.ended_by_director": "ended by the director",
    "screen.help": "type 24! with a solution, e.g. (8-4)*(7-1) · n [card] no solution · start "
    "· q quit",
    "screen.compact": "set {set}: {cards} · {scores}",
}
