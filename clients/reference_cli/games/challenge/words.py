"""The 24 Challenge's words at the terminal, in one table (see `words.py` for the keys and why
one table per game): the sentence of each event (the feed, `t24 replay`), of each correction a
ruling makes, of each refusal, and of each reason or cause code inside an event. Seats are
named (`{who}`), never by id. The card's own picture and the key help are drawn by
`render.py` and `play_input.py` / `proctor_input.py`.
"""

from __future__ import annotations

from clients.reference_cli.words import Plural, Table

WORDS: Table = {
    # -- events (docs/rules.md, docs/protocol.md) ----------------------------------------------
    "event.TableCreated": Plural(
        "a 24 Challenge table for {count} student: {names}",
        "a 24 Challenge table for {count} students: {names}",
    ),
    "event.RoundStarted": Plural(
        "round {round} started: {count} card", "round {round} started: {count} cards"
    ),
    "event.RoundStarted.removed": Plural(
        "{count} two-dot card removed (R-DECK-4)", "{count} two-dot cards removed (R-DECK-4)"
    ),
    "event.CardPlaced": "{card} placed, cupped",
    "event.CardPlaced.shown": "{card} placed, cupped ({numbers}, hidden from players)",
    "event.CardRevealed": Plural(
        "{card} revealed: {numbers}  ({count} dot)", "{card} revealed: {numbers}  ({count} dots)"
    ),
    "event.CardTouched": Plural(
        "{who} touched ({count} fingertip)", "{who} touched ({count} fingertips)"
    ),
    "event.TouchRefused": "{who} touched too, but {toucher} was first (R-PLAY-2)",
    "event.TouchClaimed": "{who} touched: arrived {arrival}, lag {lag}, credit {credit}, "
    "compensated {compensated} (R-PLAY-2)",
    "event.FirstTouchGranted": "{who} touched first, lag compensated (R-PLAY-2): compensated "
    "order {compensated}; arrival order {arrival}",
    "event.FirstTouchOverridden": "ruling: {who} touched first, not {previous} (R-PLAY-2)",
    "event.PatternDeclared": "{who} declared the pattern {pattern}",
    "event.StepsStated": "{who} stated: {steps}",
    "event.SolutionFixed": "{who} fixed the solution: {steps}",
    "event.SolutionJudged.right": "{who}'s solution is right",
    "event.SolutionJudged.wrong": "{who}'s solution is wrong: {why}",
    "event.StumpedDeclared": "{who} is stumped",
    "event.CardWon": "{who} won {card} (+{dots})",
    "event.FlagIssued": "penalty flag for {who}: {cause}, flag {flags}",
    "event.PlayerDisqualified": Plural(
        "{who} is disqualified ({count} flag, R-FLAG-3)",
        "{who} is disqualified ({count} flags, R-FLAG-3)",
    ),
    "event.PlayerDisqualified.slap": "{who} is disqualified: a slap with the whole hand (R-PLAY-3)",
    "event.CardReturnedToDeck": "{card} goes back under the deck (R-FLAG-2)",
    "event.CardStumped": "{card} set aside as stumped: {why} (R-PLAY-7)",
    "event.StumpedCardsReturned": Plural(
        "{count} stumped card back in play (R-PLAY-7)",
        "{count} stumped cards back in play (R-PLAY-7)",
    ),
    "event.TablePaused": "table paused ({cause})",
    "event.PlayBegan": "play begins",
    "event.PlayBegan.students": "play begins: every student is at the table",
    "event.PlayBegan.proctor": "play begins: the proctor starts it",
    "event.PlayBegan.director": "play begins: the director starts it",
    "event.SeatMarked.present": "{who} is marked present",
    "event.SeatMarked.absent": "{who} is marked absent: play will not wait for them",
    "event.TableResumed": "table resumed: the windows start again in full",
    "event.RoundEnded": "round over: {why}. Scores: {scores}",
    # protests, rulings, corrections, the score card (R-ROUND-7, R-ROUND-8)
    "event.ProtestFiled": "PROTEST {protest} by {who} disputes {seqs}: {reason} (R-ROUND-8)",
    "event.ProtestRuled.upheld": "ruling on protest {protest}: UPHELD: {text}",
    "event.ProtestRuled.rejected": "ruling on protest {protest}: REJECTED: {text}",
    "event.ProtestRuled.corrections": "{ruling}; corrections: {corrections}",
    "event.FlagRescinded": "CORRECTION: {who}'s flag #{flag} rescinded, {flags} left",
    "event.PlayerReinstated": "CORRECTION: {who} is reinstated from card {from_play}",
    "event.CardAwarded": "CORRECTION: {who} is awarded card {card} (+{dots})",
    "event.CardAwardRevoked": "CORRECTION: card {card} taken from {who} (-{dots})",
    "event.ScoreAdjusted": "CORRECTION: {who} {delta}: {why}",
    "event.ScoreCardSigned": "score card signed by {initials}: {scores} (R-ROUND-7)",
    "event.ScoreCardReopened": "score card reopened by the {by}: {reason}",
    "correction.rescind_flag": "rescind {who}'s flag #{flag}",
    "correction.rescind_slap": "lift {who}'s slap",
    "correction.award_card": "award card {card} to {who}",
    "correction.revoke_card": "revoke card {card} from {who}",
    "correction.adjust_score": "{who} {delta} ({why})",
    "card": "card {card_id} (play {play})",
    "card.no_play": "card {card_id}",
    "card.hidden": "a card (play {play})",
    "card.hidden_no_play": "a card",
    "lag": "{ms} ms",
    "lag.none": "none (stale)",
    "nobody": "nobody",
    # the codes inside events
    "reason.no_pattern": "no pattern within the time (R-PLAY-4)",
    "reason.no_solution": "no solution within the time (R-PLAY-5)",
    "reason.incorrect_solution": "incorrect solution (R-PLAY-5)",
    "reason.too_many_fingertips": "more than three fingertips (R-PLAY-3)",
    "reason.touched_before_reveal": "touched before the reveal (R-PLAY-3)",
    "reason.deck_empty": "the deck is played out",
    "reason.all_disqualified": "every student is disqualified",
    "reason.ended_by_proctor": "the proctor ended it",
    "reason.no_touch": "nobody touched it in time",
    "reason.all_stumped": "everyone is stumped",
    "reason.server_restart": "the server restarted",
    "reason.failover": "the table moved to another server",
    "reason.proctor": "by the proctor",
    # -- refusals (docs/protocol.md, "Refusal codes of the 24 Challenge") -----------------------
    "refusal.unknown_command": "a 24 Challenge table has no such command",
    "refusal.bad_args": "that command is missing something, or something in it is of the "
    "wrong kind",
    "refusal.bad_options": "the table's options are not valid",
    "refusal.not_allowed": "your role may not do that at this table",
    "refusal.not_your_seat": "a student plays only for their own seat",
    "refusal.seat_required": "say which seat this is for",
    "refusal.unknown_seat": "there is no such seat at this table",
    "refusal.round_not_started": "the round has not started",
    "refusal.waiting_for_students": "the table is waiting for its students: play has not begun",
    "refusal.students_missing": "play cannot begin yet: a student is not at the table",
    "refusal.play_begun": "play has begun already",
    "refusal.round_already_started": "the round has already started",
    "refusal.round_over": "the round is over",
    "refusal.table_paused": "the table is paused",
    "refusal.already_paused": "the table is paused already",
    "refusal.not_paused": "the table is not paused",
    "refusal.card_in_play": "a card is in play already",
    "refusal.no_card_in_play": "no card is in play",
    "refusal.no_card_placed": "no card has been placed to reveal",
    "refusal.already_revealed": "the card is revealed already",
    "refusal.card_not_revealed": "the card has not been revealed yet",
    "refusal.no_touch_in_progress": "nobody holds the card",
    "refusal.touch_in_progress": "a student holds the card",
    "refusal.disqualified": "a disqualified student takes no further part in the round",
    "refusal.already_touched": "this student's touch on this card is recorded already",
    "refusal.not_toucher": "only the student who touched the card first may answer",
    "refusal.already_first": "that student holds the card already",
    "refusal.pattern_cannot_change": "the pattern is declared and cannot change",
    "refusal.bad_pattern": "the pattern cannot be read: write it as two values and an "
    "operation, e.g. 3*8",
    "refusal.pattern_first": "the pattern comes before the steps",
    "refusal.too_late": "too late: the time for this answer ran out",
    "refusal.no_steps": "there are no steps to fix yet",
    "refusal.no_x": "a Variables card's solution names x first: there is none to fix",
    "refusal.already_stumped": "this student said stumped already",
    "refusal.foul_touch": "that student's touch was a foul: it cannot hold the card",
    "refusal.not_yet_reinstated": "a reinstated student plays again from the next card",
    "refusal.unknown_seq": "no event of this table has that number: pick one from the feed",
    "refusal.too_many_protests": "too many of your protests are still open",
    "refusal.unknown_protest": "no protest has that number at this table",
    "refusal.already_ruled": "that protest has been ruled on already",
    "refusal.bad_correction": "a correction cannot be read, or a rejected protest has one",
    "refusal.unknown_flag": "that seat has no standing flag with that number",
    "refusal.no_slap": "that student is not disqualified for a slap",
    "refusal.unknown_card": "no card of this table's deck has that id",
    "refusal.card_already_won": "that card is won already (revoke it first)",
    "refusal.card_not_won": "that seat has not won that card",
    "refusal.negative_score": "the corrections would make a score negative",
    "refusal.round_not_over": "the score card is signed once the round is over",
    "refusal.protests_open": "a protest is open: rule on it before signing",
    "refusal.score_card_signed": "the score card is signed: only the director may reopen it",
    "refusal.not_signed": "the score card is not signed",
    "refusal.unknown_query": "a 24 Challenge table has no such question to answer",
    "refusal.stale_deadline": "that time limit is over already",
    "refusal.deadline_not_due": "that time limit has not run out yet",
}
