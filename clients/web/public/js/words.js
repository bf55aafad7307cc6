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
  reserved_table: "That table name belongs to a tournament: only the tournament creates its tables.",
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
  day_over: "The tournament's day is over: links printed now would already be expired.",
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
  waiting_for_students: "The table is waiting for its students: play has not begun.",
  students_missing: "Play cannot begin by itself yet: a student is not there.",
  play_begun: "Play has already begun at this table.",
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
  no_x: "Say the value of x first: a Variables card's solution names it.",
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
  unknown_query: "The server does not know that question.",
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
  no_students: "Nobody is registered: register students before closing registration.",
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
  // a practice table refused (docs/games/practice.md)
  practice_over: "The practice is over.",
  practice_paused: "The practice is paused: resume it first.",
  card_in_play: "Your card is still in play: answer it or give up first.",
  no_card: "You have no card in play: ask for the next one.",
  all_cards_played: "You have played all the cards of this practice.",
  touch_first: "Touch the card before answering.",
};

/** "1 card", "2 cards": a count with its noun. */
function count(number, one, many = `${one}s`) {
  return `${number} ${number === 1 ? one : many}`;
}

/** The analysis page's words (js/analysis.js, docs/analysis.md). */
export const ANALYSIS_WORDS = {
  title: (table) => (table.startsWith("tournament/")
    ? `The analysis of the tournament ${table.slice("tournament/".length)}, grade by grade`
    : `The analysis of table ${table}`),
  loading: "Reading the table's log…",
  yours: "Your round",
  summary: (points, won, touches, level) => `${count(points, "point")}, ${count(won, "card")} won, `
    + `${count(touches, "touch", "touches")}; level ${level} (the difficulty of the hardest card solved).`,
  touchPlot: "Time to touch against the card's difficulty",
  touchHint: "Each dot is a touch: right is harder, up is slower; filled when it held the card.",
  touchHintAll: "Each dot is a touch, one colour per student: right is harder, up is slower; filled when it held the card.",
  difficultyAxis: "difficulty (docs/puzzles.md: higher is harder)",
  timelinePlot: "The table's timeline",
  timelineHint: "Each band is a card from its reveal to its end (green won, grey stumped, red back to the deck after a flag); each mark a touch on its student's row.",
  play: "Play",
  cards: "The cards",
  cardsCaption: "Every card of the round",
  cardsHeadings: ["Card", "Dots", "Difficulty", "First touch", "Solved by", "Simplest solution"],
  stumped: "stumped",
  notSolved: "not solved",
  difficulty: "difficulty",
  wonBy: (name) => `won by ${name}`,
  outcomes: { won: "won", stumped: "stumped", returned: "back to the deck (a flag)", void: "void (the round ended)", open: "in play" },
  missed: "Cards at or below your level that got away, and how they go",
  missedOf: "Cards at or below their level that got away, and how they go",
  noMissed: "None: every card at or below this level was won.",
  wrong: "Wrong answers",
  couldBe: "It could be:",
  flags: "Flags",
  on: "on",
  rescinded: "rescinded by a ruling",
  grade: (grade) => `Grade ${grade}`,
  gradePlot: "Each student's level against their time to a first touch",
  gradeHint: "Right: harder cards solved; down: quicker to touch first.",
  levelAxis: "level: the difficulty of the hardest card solved",
  gradeCaption: "Every student of the grade, over every table they sat at",
  gradeHeadings: ["Student", "Points", "Won", "First touches", "Median touch", "Level", "Missed", "Wrong", "Rating", "Flags"],
};

/** The practice page's words (js/games/practice.js): why a card was missed, the page's
 * headings and sentences. Only wording: what happened is always the server's word. */
export const PRACTICE_WORDS = {
  title: "Practice",
  missReasons: {
    wrong: "a wrong answer",
    no_touch: "not touched in time",
    no_answer: "no answer in time",
    gave_up: "given up",
  },
  ended: { all_played: "every card is played", ended: "ended early" },
  deadlines: { touch_deadline: "Touch within", answer_deadline: "Answer within" },
  next: "Next card (N)",
  touch: "Touch the card (space)",
  giveUp: "Give up",
  answer: "Equals 24",
  pattern: "Pattern (the last step, e.g. 3*8)",
  step: (n) => `Step ${n}`,
  rating: "Your rating",
  provisional: "provisional: it settles as you play",
  cardRating: "this card's rating",
  history: "Your rating, card after card",
  historyHint: "Each dot is a card: filled solved, hollow missed; the line is your rating after it.",
  misses: "Cards you missed, and how they go",
  noMisses: "No card missed so far.",
  solvedIn: (seconds) => `Solved in ${seconds} s.`,
  missed: (reason) => `Missed (${reason}). It goes:`,
  played: (solved, played, total) => `${solved} of ${played} solved (${total} cards in this practice).`,
  waiting: "Press Next card for a card at your level.",
  over: (reason) => `The practice is over (${reason}).`,
  class: "The class",
  ratings: "Everyone's rating at this table",
  allPlayed: "All your cards are played.",
  resume: "Resume",
  end: "End the practice",
  confirmEnd: "End the practice now?",
  columns: ["Student", "Rating", "Solved", "Played"],
};

/** The student's rating across every table they played (js/rating_history.js, the
 * `ratings` query): the section's heading, the rating now, the plot's words. */
export const RATING_WORDS = {
  heading: "Your rating over all your tables",
  loading: "Reading your rating…",
  now: (name, mu, sigma, provisional, tables) =>
    `${name}: ${mu} ± ${sigma}${provisional ? " (provisional: it settles as you play)" : ""}, from ${countOf(tables, "table")}.`,
  none: "No table has rated you yet: your first signed round, casual game or practice will.",
  plot: "Your rating, step after step",
  caption: "Each dot moved your rating: a big one a table's result, a small one a practice card (filled solved, hollow missed); the band is how sure the rating is.",
  steps: (count) => countOf(count, "step"),
  games: { challenge: "24 Challenge", pocket: "pocket 24", deck40: "deck of 40", practice: "practice" },
  resultStep: (game, table, place, players, score, mu) =>
    `${game} at table ${table}: ${place} of ${players} with ${score} points; rating ${mu}`,
  practiceStep: (table, card, solved, mu) =>
    `practice at table ${table}: ${card} ${solved ? "solved" : "missed"}; rating ${mu}`,
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

/** A seat as people call it: its name ("Ada"); the seat id only where there is no name, or
 * beside a name two seats share ("Ada (s1)"), so nobody reads an id where a name is known. */
export function seatName(view, seat) {
  const seats = (view && view.seats) || [];
  const found = seats.find((entry) => entry.seat === seat);
  if (!found || !found.name) return String(seat);
  const shared = seats.filter((entry) => entry.name === found.name).length > 1;
  return shared ? `${found.name} (${seat})` : found.name;
}

/** Names as one phrase: "Ada", "Ada and Bo", "Ada, Bo and Cy". */
export function namesInWords(names) {
  if (names.length < 2) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

function points(count) {
  return `${count} point${count === 1 ? "" : "s"}`;
}

/** 1 -> "1st", 2 -> "2nd", 11 -> "11th". */
export function ordinal(place) {
  const tens = place % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[place % 10] || "th";
  return `${place}${suffix}`;
}

// Why a round ended (RoundEnded `reason`, the view's `end_reason`).
const END_REASONS = {
  deck_empty: "the deck is played out",
  all_disqualified: "every student is disqualified",
  ended_by_proctor: "the proctor ended it",
  time_up: "its time is up",
};

export function endReasonInWords(reason) {
  return END_REASONS[reason] || String(reason).replaceAll("_", " ");
}

/** The round's results in words (results.js ranks the seats): the winner line, and one
 * student's own result. `winners` are names, `best` their points. */
export const RESULT_WORDS = {
  over: (reason) => `The round is over: ${endReasonInWords(reason)}.`,
  winners: (winners, best) => winners.length === 0 ? "Nobody scored."
    : winners.length === 1 ? `${winners[0]} wins with ${points(best)}.`
    : `${namesInWords(winners)} tie for first with ${points(best)}.`,
  you_won: (best, shared) => shared ? `You tie for first with ${points(best)}!` : `You win with ${points(best)}!`,
  you_placed: (place, count, score) => `You finished ${ordinal(place)} of ${count} with ${points(score)}.`,
  you_disqualified: (cause, score) => `You were disqualified (${flagCause(cause)}), with ${points(score)}.`,
  ranking_caption: "Ranking",
  ranking_headings: ["Place", "Student", "Points", "Flags", "Cards won"],
  analysis: "The analysis of this round: every card, who touched first, the solutions",
  winner_mark: "winner",
  disqualified_mark: "disqualified",
};

// A command the console sent, done (the server accepted it): keyed by the command's name.
const DONE_WORDS = {
  start_round: "The round has started.",
  begin_play: "Play has begun.",
  mark_seat: "The student is marked.",
  place_card: "The card is placed face down.",
  reveal_card: "The card is revealed.",
  pause_table: "The table is paused.",
  resume_table: "The table is resumed.",
  end_round: "The round is ended.",
  touch_card: "The touch is recorded.",
  override_first_touch: "The first touch is ruled.",
  declare_stumped: "Stumped is recorded.",
  rule_slap: "The slap is ruled: the student is disqualified.",
  declare_pattern: "The pattern is recorded.",
  state_steps: "The steps are recorded.",
  fix_solution: "The solution is fixed and judged.",
  issue_flag: "The flag is issued.",
  file_protest: "The protest is filed.",
  rule_protest: "The ruling is recorded.",
  sign_score_card: "The score card is signed.",
  reopen_score_card: "The score card is reopened.",
};

export function doneInWords(command) {
  return DONE_WORDS[command] || "Done.";
}

// Hints: what the page says when a key does nothing, keyed by what happened.
const HINTS = {
  digit_before_touch: "A digit alone does not touch the card: press the space bar (or the touch button) first, then type the pattern.",
  digit_while_waiting: "No card to answer yet: wait for the card to be revealed, touch it, then type the pattern.",
};

export function hintInWords(code) {
  return HINTS[code] || "";
}

// The corrections of an upheld protest (R-ROUND-8, docs/rules.md), keyed by `kind`.
export const CORRECTION_WORDS = {
  rescind_flag: "Rescind a flag",
  rescind_slap: "Lift a slap's disqualification",
  award_card: "Award a card",
  revoke_card: "Take back a card",
  adjust_score: "Adjust a score",
};

/** A correction picked on the console, in words (`cards`: card id -> its numbers). */
export function correctionInWords(correction, view, cards = new Map()) {
  const who = seatName(view, correction.seat);
  const card = (id) => (cards.has(id) ? `the card ${cards.get(id).join(" ")}` : `card ${id}`);
  switch (correction.kind) {
    case "rescind_flag": return `Rescind ${who}'s flag of event ${correction.flag}.`;
    case "rescind_slap": return `Lift ${who}'s disqualification for a slap.`;
    case "award_card": return `Award ${card(correction.card)} to ${who}.`;
    case "revoke_card": return `Take ${card(correction.card)} back from ${who}.`;
    case "adjust_score": return `Change ${who}'s score by ${correction.delta > 0 ? "+" : ""}${correction.delta}: ${correction.why}.`;
    default: return `${correction.kind}.`;
  }
}

/** One event as a sentence for the feed. */
export function eventInWords(push, view) {
  const d = push.data || {};
  const who = (seat) => seatName(view, seat);
  switch (push.event_type) {
    case "TableCreated": return "Table created.";
    case "RoundStarted": return `Round ${d.round} started.`;
    case "PlayBegan": return d.by === "students" ? "Every student is here: play begins."
      : `The ${d.by} began play.`;
    case "SeatMarked": return `${who(d.seat)} is marked ${d.mark}.`;
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
    case "RoundEnded": return `The round ended: ${endReasonInWords(d.reason)}.`;
    case "ProtestFiled": return `Protest ${d.protest} filed by ${who(d.by)}: ${d.reason}`;
    case "ProtestRuled": return `Protest ${d.protest} ${d.upheld ? "upheld" : "rejected"}: ${d.ruling_text}`;
    case "FlagRescinded": return `A flag of ${who(d.seat)} is rescinded.`;
    case "PlayerReinstated": return `${who(d.seat)} is reinstated.`;
    case "CardAwarded": return `${who(d.seat)} is awarded a card.`;
    case "CardAwardRevoked": return `A card of ${who(d.seat)} is taken back.`;
    case "ScoreAdjusted": return `${who(d.seat)}'s score changes by ${d.delta}.`;
    case "ScoreCardSigned": return `Score card signed by ${d.initials}${d.by === "director" ? " (the director)" : ""}.`;
    case "ScoreCardReopened": return `The director reopened the score card: ${d.reason}`;
    default: return `${push.event_type}.`;
  }
}

// A tournament's standings (draw.js `drawStandings`): the headings, short enough for a phone
// (a pair is an abbreviation and what it stands for), and a row's `advanced` (docs/tournament.md: `top`, `tie_break N`, `eliminated`).
export const STANDINGS_HEADINGS = ["Rank", "Student", ["R1", "Round 1"], ["R2", "Round 2"], "Total", "Advances"];

export function advancedInWords(advanced) {
  if (advanced === null || advanced === undefined || advanced === "") return "–";
  if (advanced === "top") return "yes";
  if (advanced === "eliminated") return "no";
  const tie = /^tie_break (\d+)$/.exec(String(advanced));
  return tie ? `tie-break ${tie[1]}` : String(advanced).replaceAll("_", " ");
}

// The scoreboard's own words (board.js).
export const BOARD_WORDS = {
  projector_on: "Projector mode",
  projector_off: "Leave projector mode",
  round_ends: (seconds) => `The round ends in ${seconds} s`, // a timed round (a tie-break)
};

/** One of the student's own events, said to them ("You won the card (3 points)."): the
 * result line of their attempt (student.js). Any other event as the feed says it. */
export function ownEventInWords(push, view) {
  const d = push.data || {};
  switch (push.event_type) {
    case "PatternDeclared": return `You declared the pattern ${d.canonical || d.pattern}.`;
    case "SolutionJudged": return d.ok ? "Your solution is correct." : `Your solution is wrong: ${d.message || d.reason}.`;
    case "CardWon": return `You won the card (${points(d.dots)}).`;
    case "FlagIssued": return `A flag for you: ${flagCause(d.cause)} (${d.flags} now).`;
    case "PlayerDisqualified": return `You are disqualified (${flagCause(d.cause)}).`;
    default: return eventInWords(push, view);
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

/** A count in words: 1 student, 2 students (`plural` when it is not `one` + "s"). */
export function countOf(count, one, plural = `${one}s`) {
  return `${count} ${count === 1 ? one : plural}`;
}

// The director's console (js/director/): its labels, headings and sentences, keyed by what
// they name. The pages draw the tournament's view and send its commands; nothing is decided
// here.
export const DIRECTOR_WORDS = {
  title: "Director's console",
  home_heading: "Your tournaments",
  no_tournaments: "No tournament yet: create one below.",
  open_tournament: (name, date) => `Open ${name} (${date})`,
  all_tables: "Every table (scoreboard)",
  console_link: "Director's console",
  create_heading: "Create a tournament",
  create_intro: "Everything here can be changed only by creating another tournament: check the date and the grades.",
  field_id: "Short name for links (letters, digits, - _ .)",
  field_name: "Name",
  field_date: "Date",
  field_grades: "Grades or sections (separate with commas)",
  field_rules: "Rules document",
  field_edition: "Deck (Official Rules only)",
  field_cards: "Cards per round",
  field_cards_hint: "48 by the rules; a practice event plays fewer (4 to 48), e.g. 6.",
  field_seed: "Deck seed (keep it secret until the day is over)",
  field_mode: "Tables",
  field_auto: "Cards placed by the server: seconds between cards (empty: a proctor places them)",
  field_more: "More table options",
  field_reveal: "Seconds from placing a card to its reveal (server-placed cards)",
  field_pattern: "Seconds to say the pattern",
  field_solution: "Seconds to fix the solution",
  field_no_touch: "Seconds before an untouched card is set aside",
  field_tie_seconds: "Tie-break length in seconds",
  field_advance: "How many of each grade go to the semi-finals (3 to 16)",
  rules_choices: { official: "Official Tournament Rules", guidelines: "Proctor Guidelines", special_instructions: "Special Instructions (with Variables cards)" },
  edition_choices: { "": "Single Digits (the default)", "single-digits": "Single Digits", "double-digits": "Double Digits" },
  mode_choices: { networked: "Students play on their own screens", proctored: "A proctor records for the students" },
  create_button: "Create the tournament",
  bad_id: "The short name is 1 to 40 letters, digits, '-', '_' or '.', starting with a letter or digit: it goes into every link of the day.",
  created: (name) => `${name} is created. Now register its students.`,
  steps: { registration: "Registration", seating: "Seating", board: "Tables", results: "Results" },
  header_line: (view) => `${view.date} · ${view.grades.join(", ")} · ${view.registration_open ? "registration open" : "registration closed"}`,
  // registration
  roster_heading: "Students",
  roster_count: (students, grades) => `${countOf(students, "student")} in ${countOf(grades, "grade")}.`,
  roster_caption: (grade, count) => `${grade}: ${countOf(count, "student")}`,
  roster_headings: ["Name", "School", "Status"],
  withdrawn: "withdrawn",
  registered: "registered",
  no_students: "Nobody is registered yet.",
  add_heading: "Add one student",
  field_student_name: "Name",
  field_school: "School",
  field_grade: "Grade",
  add_button: "Register",
  rename_heading: "Rename or withdraw a student",
  field_student: "Student",
  field_new_name: "New name",
  rename_button: "Rename",
  withdraw_button: "Withdraw",
  withdraw_confirm: (name) => `Withdraw ${name}? They keep no place still to be decided.`,
  import_heading: "Import a roster (CSV)",
  import_intro: "A spreadsheet saved as CSV: a first line naming the columns name, school and grade; commas or semicolons; with or without a byte order mark. Nothing is recorded until you press Import.",
  field_file: "CSV file",
  preview_heading: "What would be imported",
  preview_good: (count) => `${countOf(count, "student")} would be registered:`,
  preview_bad: (count) => `${countOf(count, "row")} must be fixed first; nothing can be imported:`,
  preview_headings: ["Name", "School", "Grade"],
  import_button: (count) => `Import ${countOf(count, "student")}`,
  import_idle: "Import (choose a file first)",
  imported: (count) => `${countOf(count, "student")} registered.`,
  close_heading: "Close registration",
  close_intro: "Once it is closed nobody can register, and round 1 can be seated. A student can still be renamed or withdrawn.",
  close_button: (count) => `Close registration (${countOf(count, "student")})`,
  registration_closed: (count) => `Registration is closed with ${countOf(count, "student")}.`,
  // seating
  round_heading: (number) => `Round ${number}`,
  round_state: (round) => round.advanced ? "advanced" : round.closed ? "closed" : round.started ? "started" : round.tables.length || round.seated ? "seated" : "not seated yet",
  seat_button: (number) => `Seat round ${number}`,
  reseat_button: (number) => `Seat round ${number} again`,
  plan_heading: "Table plan",
  plan_caption: (table, section) => `Table ${table} · ${section}`,
  plan_headings: ["Student", "School"],
  no_plan: "This round is not seated yet.",
  swap_heading: "Swap two students (before the round starts)",
  field_swap_a: "Student",
  field_swap_b: "changes seats with",
  swap_button: "Swap",
  print_plan: (number) => `Print round ${number}: a page per table and a slip per student`,
  print_tie: (number) => `Print tie-break ${number}: a page per table and a slip per student`,
  start_button: (number) => `Start round ${number}`,
  start_intro: "Starting creates the tables. No card is placed at a table before all its students are there (or you begin it).",
  // the board
  board_heading: (number) => `Round ${number}: the tables`,
  initials_label: "Your initials, for the score cards you sign",
  begin_all: (count) => `Begin every waiting table (${count})`,
  close_round: (number) => `Close round ${number}`,
  advance_round: (number) => `Advance round ${number}`,
  seat_next: (number) => `Seat round ${number}`,
  tie_heading: (tie) => `Tie-break ${tie.number}: ${tie.section}, round ${tie.round}, for ${countOf(tie.places, "place")}`,
  table_heading: (table, section) => `${table} · ${section}`,
  waiting_count: (here, all) => `Waiting for its students: ${here} of ${all} here`,
  table_paused: (cause) => `Paused (${String(cause || "proctor").replaceAll("_", " ")})`,
  table_playing: (played, total) => `${played} of ${countOf(total, "card")} played`,
  table_timed: (played) => `A timed round: ${countOf(played, "card")} played`,
  time_left: (seconds) => `${seconds} s left`,
  table_not_open: "Not open yet",
  table_ended: "Round over: the score card is not signed",
  table_signed: (initials, by) => `Signed by ${initials}${by === "director" ? " (the director)" : ""}`,
  attention: { paused: "paused", protest: "a protest is open", unsigned: "to sign", away: "a student is not connected" },
  seat_headings: ["Student", "Here", "Points", "Flags"],
  connected: "connected",
  not_connected: "not connected",
  marked: { present: "marked present", absent: "marked absent" },
  mark_short: { present: "Here", absent: "Absent" },
  mark_present: (name) => `${name} is here`,
  mark_absent: (name) => `${name} is absent`,
  begin_button: "Begin play now",
  sign_button: "Sign as director",
  console_of: (table) => `Console of ${table}`,
  replay_of: (table) => `Replay of ${table}`,
  no_tables: "No table in this round yet.",
  initials_first: "Type your initials above first: they go on the score card.",
  // results
  results_heading: "Standings",
  champions_heading: "Champions",
  champion_line: (section, name, school) => `${section}: ${name} (${school})`,
  no_champions: "No champion yet.",
  print_certificates: "Print a certificate per champion",
  bundle_heading: "The officials' bundle",
  bundle_intro: "Every table's log, the score cards, the standings and a report, signed by this server, in one zip archive. Officials unzip it and check the folder it holds with: t24 audit verify FOLDER --key KEY",
  bundle_button: "Download the bundle",
  bundle_done: (name) => `Downloaded ${name}.`,
  bundle_key: "The key to pin (the server signs with it; t24-server key prints it on the server):",
  bundle_failed: (code, text) => `The bundle could not be downloaded (${code}): ${text}`,
  // printing
  print_button: "Print",
  back_to_console: "Back to the console",
  print_proctor_heading: (table, section) => `Table ${table} · ${section}`,
  print_proctor_intro: (round) => `${round}. Proctor: scan the code to open this table's console.`,
  print_round: (number) => `Round ${number}`,
  print_tie_round: (tie) => `Tie-break ${tie.number} (round ${tie.round})`,
  print_seats_caption: "Who sits at this table",
  print_valid: (date) => `The codes on this sheet work until the end of the tournament's day, ${date}.`,
  slip_intro: "Scan the code with your tablet: it opens your page.",
  slip_table: (table) => `Table ${table}`,
  qr_alt: (who) => `The link of ${who}, as a QR code`,
  proctor_who: (table) => `the proctor of table ${table}`,
  printing: (done, all) => `Preparing the sheets: ${done} of ${countOf(all, "table")}…`,
  certificate_heading: "Certificate of achievement",
  certificate_line: (section) => `Champion, ${section}`,
  certificate_event: (name, date) => `${name}, ${date}`,
  nothing_to_print: "Nothing to print yet.",
};

// Done words of the director's tournament commands (a reply `accepted`), keyed by command.
export const TOURNAMENT_DONE_WORDS = {
  register: "The student is registered.",
  import_students: "The roster is imported.",
  rename_student: "The student is renamed.",
  withdraw: "The student has withdrawn.",
  close_registration: "Registration is closed.",
  seat_round: "The round is seated.",
  swap_seats: "The two students changed seats.",
  start_round: "The round has started: its tables wait for their students.",
  close_round: "The round is closed.",
  advance: "The round is advanced.",
  reopen_round: "The round is reopened.",
  begin_play: "Play has begun at the table.",
  mark_seat: "The student is marked.",
  sign_score_card: "The score card is signed.",
};

// A table that waits for its students (docs/rules.md decision 30), as its pages say it.
export const WAITING_WORDS = {
  banner: "Waiting for every student of the table: the first card comes once all are here.",
  not_open: "Your table is not open yet: it opens when the director starts the round. This page tries again by itself.",
  begin: "Begin play now",
  mark_present: "Mark present",
  mark_absent: "Mark absent",
};
