"""Every word the terminal shows of a practice table, in one table (see `words.py` for the keys
and why one table per game): the sentence of each event, of each refusal, of each reason code
inside an event or a view, and the screen's lines and labels. Students are named (`{who}`,
`{name}`), never by seat id; a rating reads as its `mu` (and `± sigma` on the screen).
"""

from __future__ import annotations

from clients.reference_cli.words import Plural, Table

WORDS: Table = {
    # -- events (docs/games/practice.md, "Events") --------------------------------------------
    "event.TableCreated": Plural(
        "a practice table for {count} student: {names}",
        "a practice table for {count} students: {names}",
    ),
    "event.CardDealt": "{who} gets card {number}: {numbers} (card rating {card_rating}; "
    "{who}'s rating {rating})",
    "event.CardTouched": "{who} touches card {number}",
    "event.AnswerJudged.right": "{who} answers card {number} with “{answer}”: right",
    "event.AnswerJudged.wrong": "{who} answers card {number} with “{answer}”: wrong, {why}",
    "event.CardSolved": "{who} solves card {number} in {seconds} s (touched after {touch} s)",
    "event.CardMissed.wrong": "{who} misses card {number} with a wrong answer; {ways}",
    "event.CardMissed.no_touch": "{who} misses card {number}: not touched in time; {ways}",
    "event.CardMissed.no_answer": "{who} misses card {number}: no answer in time; {ways}",
    "event.CardMissed.gave_up": "{who} gives up card {number}; {ways}",
    "event.RatingUpdated": "{who}'s rating {before} → {after}; card {number}'s rating "
    "{card_before} → {card_after}",
    "event.PracticePaused": "the practice is paused ({cause})",
    "event.PracticeResumed": "the practice goes on",
    "event.PracticeEnded.all_played": "every card is played: the practice is over; {ratings}",
    "event.PracticeEnded.ended": "the practice was ended early; {ratings}",
    # why a card was missed (the view's `result`, `CardMissed.reason`)
    "reason.wrong": "a wrong answer",
    "reason.no_touch": "not touched in time",
    "reason.no_answer": "no answer in time",
    "reason.gave_up": "given up",
    # the pause's cause when the server gives one (else the words typed by whoever paused)
    "reason.server_restart": "the server restarted",
    "reason.failover": "the table moved to another server",
    "reason.server": "by the server",
    "reason.proctor": "by the proctor",
    "reason.director": "by the director",
    # -- refusals (docs/games/practice.md, "Refusal codes") -----------------------------------
    "refusal.unknown_command": "a practice table has no such command",
    "refusal.bad_args": "that command is missing something, or something in it is of the "
    "wrong kind",
    "refusal.bad_options": "the table's options are not valid",
    "refusal.not_allowed": "you may not do that at this table (a student ends only a practice "
    "of their own)",
    "refusal.not_your_seat": "a student plays only for their own seat",
    "refusal.unknown_seat": "there is no such seat at this table",
    "refusal.practice_over": "the practice is over",
    "refusal.practice_paused": "the practice is paused: type resume first",
    "refusal.card_in_play": "your card is still in play: answer it or give up (g) first",
    "refusal.no_card": "you have no card in play: type n for the next one",
    "refusal.all_cards_played": "you have played all the cards of this practice",
    "refusal.already_touched": "the card is touched already: type your answer",
    "refusal.touch_first": "touch the card (t) before answering",
    "refusal.too_late": "too late: the time to answer ran out",
    "refusal.already_paused": "the practice is paused already",
    "refusal.not_paused": "the practice is not paused",
    "refusal.stale_deadline": "that time limit is over already",
    "refusal.deadline_not_due": "that time limit has not run out yet",
    "deadline.touch_deadline": "touch within",
    "deadline.answer_deadline": "answer within",
    # -- the screen ----------------------------------------------------------------------------
    "screen.header": Plural("{count} card each", "{count} cards each"),
    "screen.paused": "paused ({cause}): type resume to go on",
    "screen.over.all_played": "the practice is over: every card is played",
    "screen.over.ended": "the practice is over: it was ended early",
    "screen.you": "{name} (you)",
    "screen.rating": "{mu} ± {sigma}",
    "screen.rating.provisional": "{mu} ± {sigma} (provisional)",
    "screen.rating.none": "not rated yet",
    "screen.seat": Plural(
        "{name}: rating {rating} · solved {solved} of {count} card",
        "{name}: rating {rating} · solved {solved} of {count} cards",
    ),
    "screen.card": "card {number}: {numbers} (card rating {card_rating}) · not touched yet",
    "screen.card.touched": "card {number}: {numbers} (card rating {card_rating}) · touched: "
    "answer it",
    "screen.next": "no card in play: type n for your next card",
    "screen.done": "all cards played",
    "screen.solved": "solved card {number}, {numbers}, in {seconds} s",
    "screen.missed": "missed card {number}, {numbers}: {why}",
    "screen.missed.message": "missed card {number}, {numbers}: {why} — {message}",
    "screen.ways": "it goes {ways}",
    "screen.ways.none": "the solver finds no way to 24",
    "screen.or": "{one} or {other}",
    "screen.way.typed": "it goes {expression}, typed {answer}",
    # the final ratings of `PracticeEnded` (each student's, joined as names are)
    "screen.final_ratings": "final ratings: {ratings}",
    "screen.final_rating": Plural(
        "{who} {rating} after {count} card", "{who} {rating} after {count} cards"
    ),
    "screen.help": "n next card · t touch · answer: 3*8; 1+1=2; 2+1=3; 3*8=24 (pattern; steps) "
    "· g give up · q quit",
}
