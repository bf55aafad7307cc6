"""Every word the terminal shows of a pocket table, in one table (see `words.py` for the keys
and why one table per game): the sentence of each event, of each refusal, of each reason code
inside an event, and the screen's lines and labels. Seats are named (`{who}`), never by id.
"""

from __future__ import annotations

from clients.reference_cli.words import Plural, Table

WORDS: Table = {
    # -- events (docs/games/pocket.md, "Events") ----------------------------------------------
    "event.TableCreated": Plural(
        "a pocket table for {count} player: {names}", "a pocket table for {count} players: {names}"
    ),
    "event.GameStarted": Plural(
        "the game starts with {count} card in the stack",
        "the game starts with {count} cards in the stack",
    ),
    "event.CardTurnedUp": Plural(
        "card {number} is turned up: {numbers} ({count} dot)",
        "card {number} is turned up: {numbers} ({count} dots)",
    ),
    "event.ClaimMade": "{who}: I got it! (card {number})",
    "event.AnswerJudged.right": "{who} answers {expression}: right",
    "event.AnswerJudged.wrong": "{who} answers {expression}: wrong, {why}",
    "event.PlayerExcluded.wrong": "{who} is out of card {number} after a wrong answer",
    "event.PlayerExcluded.late": "{who} is out of card {number}: no answer in time",
    "event.StumpedDeclared": "{who} is stumped on card {number}",
    "event.CardWon": Plural(
        "{who} wins card {number}: {count} point", "{who} wins card {number}: {count} points"
    ),
    "event.CardWon.bonus": Plural(
        "{who} wins card {number} and the bonus cards waiting: {count} point",
        "{who} wins card {number} and the bonus cards waiting: {count} points",
    ),
    "event.CardSetAside.all_stumped": "everyone is stumped: card {number} waits as a bonus card",
    "event.CardSetAside.all_excluded": "everyone is out of card {number}: it waits as a bonus card",
    "event.CardSetAside.timeout": "nobody solved card {number} in time: it waits as a bonus card",
    "event.GamePaused": "the game is paused ({cause})",
    "event.GameResumed": "the game goes on",
    "event.GameEnded.stack_used_up": "the stack is used up: the game is over",
    "event.GameEnded.ended_by_director": "the director ended the game",
    # the pause's cause when the server gives one (else the words typed by whoever paused)
    "reason.server_restart": "the server restarted",
    "reason.failover": "the table moved to another server",
    "reason.director": "by the director",
    # -- refusals (docs/games/pocket.md, "Refusal codes") -------------------------------------
    "refusal.unknown_command": "a pocket table has no such command",
    "refusal.bad_args": "that command is missing something, or something in it is of the "
    "wrong kind",
    "refusal.invalid_options": "the table's options are not valid",
    "refusal.not_allowed": "you may not do that at this table",
    "refusal.not_your_seat": "a player plays only for their own seat",
    "refusal.unknown_seat": "there is no such seat at this table",
    "refusal.game_not_started": "the game has not started yet: type start",
    "refusal.game_already_started": "the game has already started",
    "refusal.game_over": "the game is over",
    "refusal.excluded": "you are out of this card (a wrong or late answer): wait for the next",
    "refusal.claim_in_progress": "another player claimed this card first",
    "refusal.already_claimed": "you hold this card already: type your answer",
    "refusal.too_late": "too late: the time to answer ran out",
    "refusal.already_stumped": "you said stumped on this card already",
    "refusal.stale_set": "not judged: that was for a card someone won while you typed; "
    "play the card up now",
    "refusal.game_paused": "the game is paused: resume it first",
    "refusal.already_paused": "the game is paused already",
    "refusal.not_paused": "the game is not paused",
    "refusal.stale_deadline": "that time limit is over already",
    "refusal.deadline_not_due": "that time limit has not run out yet",
    "deadline.answer_deadline": "answer due in",
    "deadline.stumped_deadline": "stumped in",
    # -- the screen ----------------------------------------------------------------------------
    "screen.header": "pocket · {phase} · card {turned} of {size} · you are {me}",
    "screen.header.watching": "pocket · {phase} · card {turned} of {size}",
    "screen.phase.setup": "not started",
    "screen.phase.open": "playing",
    "screen.phase.ended": "over",
    "screen.card": Plural(
        "[ {numbers} ]   {dots_drawn} ({count} dot)", "[ {numbers} ]   {dots_drawn} ({count} dots)"
    ),
    "screen.claimed": "claimed by {who}",
    "screen.claimed.due": "claimed by {who}, answer within {seconds} s",
    "screen.excluded": "out of this card: {names}",
    "screen.stumped": "stumped: {names}",
    "screen.waiting": "waiting for someone to type start (a player or the director)",
    "screen.paused": "paused ({cause}): type resume to go on",
    "screen.bonus": Plural(
        "bonus card waiting for the next winner: {count} ({dots} dots)",
        "bonus cards waiting for the next winner: {count} ({dots} dots)",
    ),
    "screen.scores": "scores: {scores}",
    "screen.winner": "winner: {names}",
    "screen.tie": "tie: {names}",
    "screen.unclaimed": Plural("unclaimed bonus card: {count}", "unclaimed bonus cards: {count}"),
    "screen.help": "type an answer, e.g. (5+3-2)*4, and Enter · c claim · s stumped · start · "
    "q quit",
    "screen.compact": "card {turned}: {numbers} · {scores}",
}
