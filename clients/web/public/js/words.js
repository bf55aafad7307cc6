// What the server says, in words: error codes (docs/protocol.md "Error codes" and
// docs/rules.md "Refusal codes") and events (docs/rules.md "Events"). Only wording here:
// which code or event happened is always the server's word.

const ERROR_WORDS = {
  bad_encoding: "The server could not read a message from this page.",
  bad_message: "The server refused a malformed request.",
  unknown_type: "The server does not know that request.",
  too_complex: "That request was too complex.",
  too_large: "That request was too large.",
  hello_required: "Not signed in yet.",
  already_authenticated: "Already signed in on this connection.",
  unauthorized:
    "Your link is expired or not valid for this table. Ask your proctor or director for a new link.",
  forbidden: "Your role may not do that.",
  unknown_table: "There is no such table (yet).",
  table_exists: "That table already exists.",
  unknown_game: "The server does not run that game.",
  invalid_options: "The table options were refused.",
  not_joined: "Not joined to that table.",
  bad_seq: "The page's history does not match this server; reload the page.",
  too_many_joins: "Too many tables open on this page.",
  rate_limited: "Too many requests: slow down a little.",
  conflict: "The table changed at the same moment; try again.",
  unavailable: "The server is unavailable right now; the page will reconnect.",
  internal: "The server hit an internal fault; the request was not applied.",
  disconnected: "Not connected: the page is reconnecting.",
  moved: "That table is served by another server; open it from a page of its own.",
  // the 24 Challenge table's refusals (docs/rules.md)
  unknown_command: "The table does not know that command.",
  bad_args: "Something was missing in that request.",
  not_allowed: "You may not do that at this table.",
  not_your_seat: "You can only act for your own seat.",
  seat_required: "Choose the seat first.",
  unknown_seat: "There is no such seat.",
  round_not_started: "The round has not started.",
  round_already_started: "The round has already started.",
  round_over: "The round is over.",
  table_paused: "The table is paused.",
  already_paused: "The table is already paused.",
  not_paused: "The table is not paused.",
  card_in_play: "A card is already in play.",
  no_card_in_play: "No card is in play.",
  no_card_placed: "No card has been placed.",
  already_revealed: "The card is already revealed.",
  card_not_revealed: "The card has not been revealed yet.",
  no_touch_in_progress: "Nobody holds the card.",
  touch_in_progress: "A student holds the card.",
  disqualified: "A disqualified student takes no further part in the round.",
  already_touched: "Your touch on this card is already recorded.",
  not_toucher: "Only the first student to touch the card may answer.",
  already_first: "That student already holds the card.",
  pattern_cannot_change: "The pattern is declared and cannot change.",
  bad_pattern: "The pattern must read like 'a op b', e.g. 4 × 6.",
  pattern_first: "Say the pattern first.",
  too_late: "Too late: the time for that answer has run out.",
  no_steps: "There are no steps to fix yet.",
  already_stumped: "You already declared stumped.",
  foul_touch: "That touch was a foul: that student cannot hold the card.",
  not_yet_reinstated: "A reinstated student plays again from the next card.",
  unknown_seq: "The protest names an event that is not at this table.",
  too_many_protests: "Too many open protests.",
  unknown_protest: "There is no such protest.",
  already_ruled: "That protest is already ruled on.",
  bad_correction: "A correction is malformed.",
  unknown_flag: "That seat has no such standing flag.",
  no_slap: "That seat is not disqualified for a slap.",
  unknown_card: "There is no such card in this deck.",
  card_already_won: "That card is already won.",
  card_not_won: "That seat has not won that card.",
  negative_score: "That would make a score negative.",
  round_not_over: "The score card is signed once the round has ended.",
  protests_open: "A protest is open: rule on it before signing.",
  score_card_signed: "The score card is signed.",
  not_signed: "The score card is not signed.",
  unknown_query: "The table does not know that question.",
  // the casual games' refusals (docs/games/pocket.md, deck40.md, tjugoett.md)
  bad_options: "The table options were refused.",
  game_not_started: "The game has not started yet.",
  game_already_started: "The game has already started.",
  game_over: "The game is over.",
  game_paused: "The game is paused: resume it first.",
  excluded: "You are out of these cards: the others play on.",
  claim_in_progress: "Another player said \"I got it\" first.",
  already_claimed: "You hold the card: type your answer.",
  already_called: "You already called \"no solution\" on these cards.",
  not_your_card: "Give back one of your own cards.",
  stale_set: "The cards changed before that arrived, so it was not counted: look at the new cards.",
  stale_deadline: "That timer had already moved on.",
  deadline_not_due: "That timer has not run out yet.",
  not_your_turn: "It is not your turn.",
  not_dealer: "Only the dealer does that.",
  server_dealer: "The server deals at this table.",
  no_round: "No round is in play.",
  round_in_play: "A round is in play.",
  dealer_turn: "You stood: it is the dealer's turn.",
  player_turn: "The dealer draws only after the player has stood.",
  too_few_cards: "The dealer stands with at least two cards.",
  table_over: "The table is over.",
  // the tournament's refusals (docs/tournament.md, "Refusal codes"): a director's command to
  // a tournament stream refused (its codes shared with a table's have their words above)
  registration_closed: "Registration is closed.",
  registration_open: "Close registration before seating round 1 or 2.",
  bad_student: "That registration is not valid.",
  bad_rows: "The import has bad rows (each listed by line); nothing was imported.",
  unknown_grade: "There is no such grade in this tournament.",
  unknown_student: "There is no such student.",
  already_withdrawn: "That student has already withdrawn.",
  cannot_seat: "That section cannot sit 3 or 4 to a table: merge it with another.",
  bad_round: "A round is 1, 2, 3 or 4.",
  round_not_seated: "That round has no seating yet.",
  round_started: "The round has started: its seating is fixed.",
  round_closed: "The round is closed.",
  round_not_closed: "Close the round before advancing.",
  previous_round_open: "The previous round is not closed (or advanced) yet.",
  not_seated: "That student has no seat in this round.",
  same_table: "Both students sit at the same table.",
  different_sections: "Students change tables within their own section only.",
  tables_unsigned: "Some tables of the round have no final result yet.",
  tie_break_pending: "A tie that decides a place is not played off yet.",
  already_advanced: "The round was already advanced.",
  nothing_to_advance: "Round 1 advances nobody: advance after round 2.",
  not_advanced: "The round has not been advanced.",
  next_round_started: "The next round has started: too late to reopen this one.",
  round_advanced: "The round is advanced: a changed result needs the round reopened first.",
  result_unchanged: "That result is already recorded.",
  bad_result: "That result does not match the table's seats.",
  tournament_over: "The tournament is over: the champions are declared.",
};

/** An error reply in words: the code's sentence, then the server's own message. */
export function errorInWords(error) {
  if (!error || typeof error !== "object") return String(error);
  const words = ERROR_WORDS[error.code] || "The server refused that.";
  const rule = error.rule ? ` (${error.rule})` : "";
  const detail = error.message ? ` ${error.message}` : "";
  return `${words}${rule}${detail ? " —" + detail : ""}`;
}

const FLAG_CAUSES = {
  no_pattern: "no pattern within the time",
  no_solution: "no solution within the time",
  incorrect_solution: "an incorrect solution",
  too_many_fingertips: "too many fingertips",
  touched_before_reveal: "touching before the reveal",
  slap: "slapping the card (R-PLAY-3)",
};

export function flagCause(cause) {
  return FLAG_CAUSES[cause] || String(cause).replaceAll("_", " ");
}

/** A seat's name as the view lists it ("Ada (s1)"), or the id. */
export function seatName(view, seat) {
  const found = view && (view.seats || []).find((entry) => entry.seat === seat);
  return found && found.name ? `${found.name} (${seat})` : String(seat);
}

/** One event as a sentence for the feed. */
export function eventInWords(push, view) {
  const d = push.data || {};
  const who = (seat) => seatName(view, seat);
  switch (push.event_type) {
    case "TableCreated": return "Table created.";
    case "RoundStarted": return `Round ${d.round} started.`;
    case "CardPlaced": return `Card ${d.play} placed face down.`;
    case "CardRevealed": return `Card ${d.play} revealed: ${(d.numbers || []).join(" ")}.`;
    case "CardTouched": return `${who(d.seat)} touched the card.`;
    case "TouchRefused": return `${who(d.seat)} touched too (not first).`;
    case "FirstTouchOverridden": return `The proctor ruled ${who(d.seat)} touched first.`;
    case "PatternDeclared": return `${who(d.seat)} declared the pattern ${d.canonical || d.pattern}.`;
    case "StepsStated": return `${who(d.seat)} stated: ${(d.steps || []).join("; ")}.`;
    case "SolutionFixed": return `${who(d.seat)} fixed the solution: equals 24.`;
    case "SolutionJudged":
      return d.ok ? `${who(d.seat)}'s solution is correct.`
        : `${who(d.seat)}'s solution is wrong: ${d.message || d.reason}.`;
    case "CardWon": return `${who(d.seat)} won the card (${d.dots} point${d.dots === 1 ? "" : "s"}).`;
    case "FlagIssued": return `Flag for ${who(d.seat)}: ${flagCause(d.cause)} (${d.flags} now).`;
    case "PlayerDisqualified": return `${who(d.seat)} is disqualified (${flagCause(d.cause)}).`;
    case "CardReturnedToDeck": return "The card went back under the deck.";
    case "StumpedDeclared": return `${who(d.seat)} is stumped.`;
    case "CardStumped": return "Nobody solved the card: it is set aside.";
    case "StumpedCardsReturned": return "The stumped cards go back under the deck.";
    case "TablePaused": return `Paused (${String(d.cause).replaceAll("_", " ")}).`;
    case "TableResumed": return "Resumed.";
    case "RoundEnded": return `The round ended (${String(d.reason).replaceAll("_", " ")}).`;
    case "ProtestFiled": return `Protest ${d.protest} filed by ${who(d.by)}: ${d.reason}`;
    case "ProtestRuled": return `Protest ${d.protest} ${d.upheld ? "upheld" : "rejected"}: ${d.ruling_text}`;
    case "FlagRescinded": return `A flag of ${who(d.seat)} is rescinded.`;
    case "PlayerReinstated": return `${who(d.seat)} is reinstated.`;
    case "CardAwarded": return `${who(d.seat)} is awarded a card.`;
    case "CardAwardRevoked": return `A card of ${who(d.seat)} is taken back.`;
    case "ScoreAdjusted": return `${who(d.seat)}'s score changes by ${d.delta}.`;
    case "ScoreCardSigned": return `Score card signed by ${d.initials}.`;
    case "ScoreCardReopened": return `The director reopened the score card: ${d.reason}`;
    default: return `${push.event_type}.`;
  }
}

/** A connection state in words, for the status line. */
export function statusInWords(state, detail) {
  if (state === "online") return "Connected.";
  if (state === "connecting") return "Connecting…";
  if (state === "reconnecting") return "Connection lost: reconnecting…";
  if (state === "offline") return "Connection lost: reconnecting…";
  if (state === "moving") return "Moving to the server that holds this table…";
  if (state === "error") return errorInWords(detail);
  return String(state);
}
