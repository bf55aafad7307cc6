"""Every word the terminal shows of a Tjugoett table, in one table (see `words.py` for the keys
and why one table per game): the sentence of each event, of each refusal, of each reason code
inside an event, the keys' words and the screen's lines and labels. Seats are named (`{who}`,
the dealer "the dealer"), never by id; cards are written `10♥`, a hidden one `??`.
"""

from __future__ import annotations

from clients.reference_cli.words import Plural, Table

WORDS: Table = {
    # -- events (docs/games/tjugoett.md, "Events") --------------------------------------------
    "event.TableCreated": Plural(
        "a Tjugoett table for {count} player: {names}",
        "a Tjugoett table for {count} players: {names}",
    ),
    "event.RoundStarted": "round {round}: the deck is shuffled and each player gets a card",
    "event.CardDealt": "{who} gets {card} ({sum})",
    "event.CardDealt.hidden": Plural(
        "{who} gets a card face down ({count} card)",
        "{who} gets a card face down ({count} cards)",
    ),
    "event.TurnStarted": "{who}'s turn against the dealer",
    "event.PlayerStood": "{who} stands at {sum}",
    "event.PlayerStood.hidden": "{who} stands",
    "event.PlayerStood.timeout": "{who}'s time ran out: {who} stands at {sum}",
    "event.PlayerStood.timeout_hidden": "{who}'s time ran out: {who} stands",
    "event.DealerCardDealt": "the dealer draws {card} ({sum})",
    "event.DealerStood": "the dealer stands at {sum}",
    "event.TurnSettled.won": "{who} wins: {why} ({hand})",
    "event.TurnSettled.lost": "{who} loses: {why} ({hand})",
    "event.CardsDiscarded": "{who}'s cards go to the discard pile",
    "event.DiscardsReshuffled": Plural(
        "the draw pile runs low: {count} discarded card is shuffled back in",
        "the draw pile runs low: {count} discarded cards are shuffled back in",
    ),
    "event.DrawFailed": "no card is left to draw for {who}: the draw pile and the discard pile "
    "are used up",
    "event.RoundEnded.all_played": "round {round} is over: everyone has played",
    "event.RoundEnded.no_card_to_draw": "round {round} is over: no card was left to draw",
    "event.RoundEnded.ended_by_director": "round {round} is over: the director ended the table",
    "event.TableEnded": Plural(
        "the table is over after {count} round", "the table is over after {count} rounds"
    ),
    # why a turn is settled (TurnSettled.reason), with both hands' sums
    "reason.twenty_one": "{who} has 21",
    "reason.five_cards": "{who} has five cards under 21",
    "reason.bust": "{who} is bust with {player_sum}",
    "reason.dealer_twenty_one": "the dealer has 21",
    "reason.dealer_five_cards": "the dealer has five cards under 21",
    "reason.dealer_bust": "the dealer is bust with {dealer_sum}",
    "reason.dealer_at_or_above": "the dealer stood at {dealer_sum}, at or above {player_sum}",
    "reason.dealer_below": "the dealer stood at {dealer_sum}, below {player_sum}",
    # -- refusals (docs/games/tjugoett.md, "Refusals") ----------------------------------------
    "refusal.unknown_command": "a Tjugoett table has no such command",
    "refusal.bad_args": "that command is missing something, or something in it is of the "
    "wrong kind",
    "refusal.bad_options": "the table's options are not valid",
    "refusal.not_allowed": "you may not do that at this table",
    "refusal.unknown_seat": "there is no such seat at this table",
    "refusal.not_your_turn": "not your turn: the players face the dealer one at a time",
    "refusal.not_dealer": "only the dealer draws and stands for the dealer",
    "refusal.server_dealer": "the server deals at this table and makes the dealer's moves",
    "refusal.no_round": "no round is being played: the proctor starts the next one",
    "refusal.round_in_play": "a round is being played: the next starts when it is over",
    "refusal.dealer_turn": "the player has stood: it is the dealer's turn",
    "refusal.player_turn": "the dealer draws only after the player has stood",
    "refusal.too_few_cards": "the dealer stands with two cards or more",
    "refusal.table_over": "the table is over: the director ended it",
    "refusal.stale_deadline": "that time limit is over already",
    "refusal.deadline_not_due": "that time limit has not run out yet",
    # -- the keys (keys.py) ---------------------------------------------------------------------
    "key.draw_card": "draw a card",
    "key.dealer_draw": "draw for the dealer",
    "key.stand": "stand",
    "key.dealer_stand": "stand for the dealer",
    "key.start_round": "start the next round",
    "key.end_table": "end the table",
    "key.quit": "quit",
    "key.table_over": "the table is over",
    "key.waiting": "waiting",
    "key.not_now": "not now: {keys}",
    "key.refused": "could not {what}: {why}",
    # -- the screen ----------------------------------------------------------------------------
    "screen.title": "tjugoett",
    "screen.round": "round {round}",
    "screen.phase.between_rounds": "between rounds",
    "screen.phase.player_turn": "a player's turn",
    "screen.phase.dealer_turn": "the dealer's turn",
    "screen.phase.table_over": "table over",
    "deadline.dealer_play": "the dealer moves in",
    "deadline.turn_deadline": "time to move:",
    "deadline.start_round": "next round in",
    "screen.the_dealer": "the dealer",
    "screen.dealer.server": "Dealer (the server, stands at {stands_at}): {hand}",
    "screen.dealer.person": "Dealer ({name}): {hand}",
    "screen.won": "won: {why}",
    "screen.lost": "lost: {why}",
    "screen.you": "(you)",
    "screen.piles": Plural(
        "draw pile {draw} · discard pile {count} card",
        "draw pile {draw} · discard pile {count} cards",
    ),
    "screen.tally": "tally (won-lost): {tally}",
    "screen.over": Plural(
        "the table is over after {count} round", "the table is over after {count} rounds"
    ),
    "screen.seat_label": "{name} ({seat})",
    "screen.seat_label.dealer": "{name} ({seat}, the dealer)",
    "screen.compact.dealer": "the dealer {hand}",
}
