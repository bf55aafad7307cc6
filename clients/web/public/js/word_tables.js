// The pages' word tables, by page: each entry names a key of the catalogue's `web`
// vocabulary (protocol/words/<lang>.po, msgctxt "web"), never a sentence. `wordTable` turns
// a shape into getters and functions that say the key in the page's language when used, so
// a language switch redraws in the new words: `null` a word, a list of names a sentence with
// those placeholders (in that order of arguments; `n` is a count that picks a plural form),
// `{ of: [...] }` a word per code (`table.outcomes.won`), `{ list: [...] }` a row of words
// (table headings).
import { date, namesInWords, ordinal, pauseCause, say, web } from "./words.js";

export function wordTable(prefix, shape, vocabulary = "web") {
  const table = {};
  for (const [name, kind] of Object.entries(shape)) {
    const key = `${prefix}.${name}`;
    const get = (getter) => Object.defineProperty(table, name, { get: getter, enumerable: true });
    if (kind === null) get(() => say(vocabulary, key));
    else if (Array.isArray(kind)) {
      table[name] = (...args) => say(vocabulary, key, Object.fromEntries(kind.map((p, i) => [p, args[i]])));
    } else if (kind.of) get(() => Object.fromEntries(kind.of.map((code) => [code, say(vocabulary, `${key}.${code}`)])));
    else if (kind.list) get(() => kind.list.map((part) => (Array.isArray(part)
      ? [say(vocabulary, `${key}.${part[0]}`), say(vocabulary, `${key}.${part[1]}`)] : say(vocabulary, `${key}.${part}`))));
  }
  return table;
}

/** The analysis page's words (js/analysis.js, docs/analysis.md). */
const ANALYSIS = wordTable("analysis", {
  table_title: ["table"], tournament_title: ["tournament"], loading: null, yours: null,
  summary: ["points", "won", "touches", "level"], touchPlot: null, touchHint: null, touchHintAll: null,
  difficultyAxis: null, timelinePlot: null, timelineHint: null, play: null, cards: null, cardsCaption: null,
  cardsHeadings: { list: ["card", "dots", "difficulty", "first_touch", "solved_by", "simplest"] },
  stumped: null, notSolved: null, difficulty: null, wonBy: ["name"],
  outcomes: { of: ["won", "stumped", "returned", "void", "open"] },
  missed: null, missedOf: null, noMissed: null, wrong: null, couldBe: null, flags: null, on: null, rescinded: null,
  grade: ["grade"], gradePlot: null, gradeHint: null, levelAxis: null, gradeCaption: null,
  gradeHeadings: { list: ["student", "points", "won", "first_touches", "median_touch", "level", "missed", "wrong", "rating", "flags"] },
  seconds: ["seconds"], solvedBy: ["name", "time"], points_of: ["n"], cards_of: ["n"], touches_of: ["n"],
});
export const ANALYSIS_WORDS = Object.defineProperties({}, {
  ...Object.getOwnPropertyDescriptors(ANALYSIS),
  title: { value: (table) => (table.startsWith("tournament/")
    ? ANALYSIS.tournament_title(table.slice("tournament/".length)) : ANALYSIS.table_title(table)) },
  summary: { value: (points, won, touches, level) => ANALYSIS.summary(ANALYSIS.points_of(points),
    ANALYSIS.cards_of(won), ANALYSIS.touches_of(touches), level) },
});

/** The practice page's words (js/games/practice.js); why a card was missed and the
 * countdowns are the practice game's own (`practice` vocabulary). */
const PRACTICE = wordTable("practice", {
  title: null, ended: { of: ["all_played", "ended"] },
  next: null, touch: null, giveUp: null, answer: null, pattern: null, step: ["n"], rating: null,
  rating_provisional: ["rating"], cardRating: null, history: null, historyHint: null, misses: null, noMisses: null,
  solvedIn: ["seconds"], missed: ["reason"], played: ["solved", "played", "n"], waiting: null, over: ["reason"],
  class: null, ratings: null, allPlayed: null, resume: null, end: null, confirmEnd: null,
  columns: { list: ["student", "rating", "solved", "played"] }, resumeHint: null, solved: null, missedMark: null,
  cardRatingIs: ["rating"], noRating: null, time_left: null,
});
const gameWords = (vocabulary, prefix, codes) => Object.fromEntries(codes.map((code) => [code, say(vocabulary, `${prefix}.${code}`)]));
export const PRACTICE_WORDS = Object.defineProperties({}, {
  ...Object.getOwnPropertyDescriptors(PRACTICE),
  missReasons: { get: () => gameWords("practice", "reason", ["wrong", "no_touch", "no_answer", "gave_up"]) },
  deadlines: { get: () => gameWords("practice", "deadline", ["touch_deadline", "answer_deadline"]) },
});

/** The round's results (results.js ranks the seats): the winner line, a student's own. */
const RESULT = wordTable("result", {
  over: ["reason"], nobody: null, wins: ["name", "n"], tie: ["names", "n"], you_won: ["n"], you_tie: ["n"],
  you_placed: ["place", "count", "n"], you_disqualified: ["cause", "n"], ranking_caption: null,
  ranking_headings: { list: ["place", "student", "points", "flags", "cards_won"] }, analysis: null,
  winner_mark: null, disqualified_mark: null, flags_of: ["flags", "limit"], place: ["place"],
});
export const RESULT_WORDS = Object.defineProperties({}, {
  ...Object.getOwnPropertyDescriptors(RESULT),
  winners: { value: (winners, best) => (winners.length === 0 ? RESULT.nobody
    : winners.length === 1 ? RESULT.wins(winners[0], best) : RESULT.tie(namesInWords(winners), best)) },
  you_won: { value: (best, shared) => (shared ? RESULT.you_tie(best) : RESULT.you_won(best)) },
  you_placed: { value: (place, count, score) => RESULT.you_placed(ordinal(place), count, score) },
});

/** The scoreboard's own words (board.js). */
export const BOARD_WORDS = wordTable("board", {
  title: null, projector_on: null, projector_off: null, round_ends: ["seconds"], loading_events: ["n"], loading_over: ["n"],
  replay_of: ["table"], console_of: ["table"], links_for: ["table"], links_label: ["table"], table: ["table"],
  table_game: ["table", "game"], no_tables: null, loading: null, standings: null, tournament: ["tournament"],
  link_of: ["who"], links_failed: null,
  games: { of: ["challenge", "pocket", "deck40", "tjugoett", "practice", "tournament"] },
});

/** A tournament's standings (draw.js `drawStandings`): headings short enough for a phone (a
 * pair is an abbreviation and what it stands for). */
export const STANDINGS_WORDS = wordTable("standings", {
  headings: { list: ["rank", "student", ["r1", "round1"], ["r2", "round2"], "total", "advances"] },
  caption: ["section"], caption_champion: ["section", "name"], student: ["name", "school"],
  advanced: { of: ["none", "top", "eliminated"] }, tie_break: ["n"],
});

export function advancedInWords(advanced) {
  if (advanced === null || advanced === undefined || advanced === "") return STANDINGS_WORDS.advanced.none;
  if (advanced === "top" || advanced === "eliminated") return STANDINGS_WORDS.advanced[advanced];
  const tie = /^tie_break (\d+)$/.exec(String(advanced));
  return tie ? STANDINGS_WORDS.tie_break(Number(tie[1])) : String(advanced).replaceAll("_", " ");
}

/** The words of the pages of a 24 Challenge table (student, console, shared drawing). */
export const PAGE_WORDS = wordTable("page", {
  table: ["table"], welcome: null, you_are: ["name"], you_are_role: ["role"],
  card_heading: null, time_left: null, touch: null, stumped: null, answer_heading: null, pattern_label: null,
  declare: null, step: ["n"], step_placeholder: null, state_steps: null, fix: null, scores: null,
  protest: null, protest_summary: null, protest_events: null, protest_why: null, file_protest: null,
  protest_filed: null, feed: null, replay_link: null, no_card: null, face_down: null, face_down_label: ["play"],
  card_label: ["play", "numbers", "n"], scores_caption: null,
  seat_headings: { list: ["student", "score", "flags", "state"] }, away: null, disqualified: ["cause"],
  holds: null, flags_of: ["flags", "limit"], paused: ["cause"], timers_stopped: null,
  you_hold: null, holds_card: ["name"], pattern: ["pattern"], steps: ["steps"],
  deadlines: { of: ["pattern_deadline", "solution_deadline", "no_touch_deadline", "place_card", "reveal_card", "round_deadline"] },
  countdown: ["what", "seconds"], not_open: null, waiting_banner: null, begin: null, mark_present: null, mark_absent: null,
  fatal: null, no_token: null, title: null, moving_to: ["url"], served_by: ["url"], loading: null,
});

/** The proctor console's words (console.js, protest.js). */
export const CONSOLE_WORDS = wordTable("console", {
  title: ["table"], card_heading: null, round_group: null, start: null, place: null, reveal: null, pause: null,
  resume: null, end: null, confirm_end: null, for_student: null, student: null, student_group: null,
  touch_for: null, override: null, stumped_for: null, slap: null, confirm_slap: ["name"], pattern_said: null,
  record_pattern: null, steps_said: null, record_steps: null, fix: null, flag_cause: null, flag: null,
  scores: null, protests_heading: null, ruling_text: null, preview: null, file_heading: null, protest_for: null,
  protest_events: null, protest_reason: null, file_protest: null, initials: null, sign: null, reopen_reason: null,
  reopen: null, no_open_protest: null, preview_if: ["protest", "changes"],
  preview_seat: ["name", "before", "after", "flags_before", "flags_after"], protest_line: ["protest", "name", "seqs", "reason", "status"],
  protest_status: { of: ["open", "upheld", "rejected"] }, uphold: ["protest"], reject: ["protest"],
  proctor_self: null, phase: ["phase", "n", "mode"], phases: { of: ["setup", "waiting", "placed", "revealed", "solving", "ended", "between"] },
  modes: { of: ["networked", "proctored"] }, signed_by: ["initials"], not_signed: null,
  upheld: null, rejected: null, done: null,
  corrections_legend: null, correction: null, which_flag: null, which_card: null, delta: null, why: null,
  add_correction: null, corrections_label: null, no_students: null, flag_event: ["seq", "cause"], no_flag: null,
  no_card_to_award: null, no_card_won: null, remove_correction: ["n"], card_n: ["card"],
});

/** A command the console sent, done (the server accepted it), keyed by the command. */
export const DONE_COMMANDS = ["start_round", "begin_play", "mark_seat", "place_card", "reveal_card", "pause_table",
  "resume_table", "end_round", "touch_card", "override_first_touch", "declare_stumped", "rule_slap",
  "declare_pattern", "state_steps", "fix_solution", "issue_flag", "file_protest", "rule_protest",
  "sign_score_card", "reopen_score_card"];

export function doneInWords(command) {
  return DONE_COMMANDS.includes(command) ? web(`done.${command}`) : CONSOLE_WORDS.done;
}

/** Hints: what the page says when a key does nothing, keyed by what happened. */
export function hintInWords(code) {
  return ["digit_before_touch", "digit_while_waiting"].includes(code) ? web(`hint.${code}`) : "";
}

/** The corrections of an upheld protest (R-ROUND-8), keyed by `kind`. */
export const CORRECTION_KINDS = ["rescind_flag", "rescind_slap", "award_card", "revoke_card", "adjust_score"];

/** A correction picked on the console, in words (`cards`: card id -> its numbers). */
export function correctionInWords(correction, view, seatName, cards = new Map()) {
  const who = seatName(view, correction.seat);
  const card = cards.has(correction.card) ? web("correction.the_card", { numbers: cards.get(correction.card).join(" ") })
    : web("correction.card_n", { card: correction.card });
  const delta = correction.delta > 0 ? `+${correction.delta}` : String(correction.delta);
  if (!CORRECTION_KINDS.includes(correction.kind)) return String(correction.kind);
  return web(`correction.said.${correction.kind}`, { who, flag: correction.flag, card, delta, why: correction.why });
}

/** The casual games' shared page words (games/shell.js). */
export const GAME_WORDS = wordTable("game", {
  start: null, pause: null, resume: null, end: null, confirm_end: null, controls: null, nobody_won: null,
  tie: ["names"], won: ["names"], nobody: null, you_mark: ["name"], over: ["reason", "winners"], title: ["game", "table"],
  you_are_role: ["role"], you_are: ["name"], paused: ["cause", "hint"], paused_short: ["cause"], waiting_resume: null,
  timers_stopped: null, time_left_step: null, table: ["table"],
  roles: { of: ["player", "proctor", "director", "spectator", "auditor", "dealer"] },
});

/** The director's console (js/director/). */
const DIRECTOR = wordTable("director", {
  title: null, home_heading: null, no_tournaments: null, open_tournament: ["name", "date"], all_tables: null,
  console_link: null, create_heading: null, create_intro: null, field_id: null, field_name: null, field_date: null,
  field_grades: null, field_rules: null, field_edition: null, field_cards: null, field_cards_hint: null,
  field_seed: null, field_mode: null, field_auto: null, field_more: null, field_reveal: null, field_pattern: null,
  field_solution: null, field_no_touch: null, field_tie_seconds: null, field_advance: null, field_lang: null,
  rules_choices: { of: ["official", "guidelines", "special_instructions"] },
  mode_choices: { of: ["networked", "proctored"] }, create_button: null, bad_id: null, created: ["name"],
  steps: { of: ["registration", "seating", "board", "results"] }, header_line: ["date", "grades", "registration"],
  registration_open: null, registration_closed_state: null,
  roster_heading: null, roster_count: ["students", "grades"], students_of: ["n"], grades_of: ["n"],
  roster_caption: ["grade", "n"], roster_headings: { list: ["name", "school", "status"] }, withdrawn: null,
  registered: null, no_students: null, add_heading: null, field_student_name: null, field_school: null,
  field_grade: null, add_button: null, rename_heading: null, field_student: null, field_new_name: null,
  rename_button: null, withdraw_button: null, withdraw_confirm: ["name"], import_heading: null, import_intro: null,
  field_file: null, preview_heading: null, preview_good: ["n"], preview_bad: ["n"],
  preview_headings: { list: ["name", "school", "grade"] }, import_button: ["n"], import_idle: null, imported: ["n"],
  close_heading: null, close_intro: null, close_button: ["n"], registration_closed: ["n"],
  round_heading: ["number"], round_states: { of: ["advanced", "closed", "started", "seated", "not_seated"] },
  seat_button: ["number"], reseat_button: ["number"], plan_heading: null, plan_caption: ["table", "section"],
  plan_headings: { list: ["student", "school"] }, no_plan: null, swap_heading: null, field_swap_a: null,
  field_swap_b: null, swap_button: null, print_plan: ["number"], print_tie: ["number"], start_button: ["number"],
  start_intro: null, board_heading: ["number"], initials_label: null, begin_all: ["n"], close_round: ["number"],
  advance_round: ["number"], seat_next: ["number"], tie_heading: ["number", "section", "round", "n"],
  table_heading: ["table", "section"], waiting_count: ["here", "all"], table_paused: ["cause"],
  table_playing: ["played", "n"], table_timed: ["n"], time_left: ["seconds"], table_not_open: null, table_ended: null, table_signed: ["initials"],
  table_signed_director: ["initials"], attention: { of: ["paused", "protest", "unsigned", "away"] },
  seat_headings: { list: ["student", "here", "points", "flags"] }, connected: null, not_connected: null,
  marked: { of: ["present", "absent"] }, mark_short: { of: ["present", "absent"] }, mark_present: ["name"],
  mark_absent: ["name"], begin_button: null, sign_button: null, console_of: ["table"], replay_of: ["table"],
  no_tables: null, initials_first: null, results_heading: null, champions_heading: null,
  champion_line: ["section", "name", "school"], no_champions: null, print_certificates: null, bundle_heading: null,
  bundle_intro: null, bundle_button: null, bundle_done: ["name"], bundle_key: null, bundle_failed: ["code", "text"],
  print_button: null, back_to_console: null, print_proctor_heading: ["table", "section"],
  print_proctor_intro: ["round"], print_round: ["number"], print_tie_round: ["number", "round"],
  print_seats_caption: null, print_valid: ["date"], slip_intro: null, slip_table: ["table"], qr_alt: ["who"],
  proctor_who: ["table"], printing: ["done", "n"], certificate_heading: null, certificate_line: ["section"],
  certificate_event: ["name", "date"], nothing_to_print: null, rounds: null, edition_default: null,
  edition_single: null, edition_double: null, name_school: ["name", "school"], lang_default: null,
});
export const DIRECTOR_WORDS = Object.defineProperties({}, {
  ...Object.getOwnPropertyDescriptors(DIRECTOR),
  open_tournament: { value: (name, when) => DIRECTOR.open_tournament(name, date(when)) },
  header_line: { value: (view) => DIRECTOR.header_line(date(view.date), view.grades.join(", "),
    view.registration_open ? DIRECTOR.registration_open : DIRECTOR.registration_closed_state) },
  roster_count: { value: (students, grades) => DIRECTOR.roster_count(DIRECTOR.students_of(students), DIRECTOR.grades_of(grades)) },
  round_state: { value: (round) => DIRECTOR.round_states[round.advanced ? "advanced" : round.closed ? "closed"
    : round.started ? "started" : round.tables.length || round.seated ? "seated" : "not_seated"] },
  edition_choices: { get: () => ({ "": DIRECTOR.edition_default, "single-digits": DIRECTOR.edition_single, "double-digits": DIRECTOR.edition_double }) },
  tie_heading: { value: (tie) => DIRECTOR.tie_heading(tie.number, tie.section, tie.round, tie.places) },
  table_paused: { value: (cause) => DIRECTOR.table_paused(pauseCause(cause || "proctor")) },
  table_signed: { value: (initials, by) => (by === "director" ? DIRECTOR.table_signed_director(initials) : DIRECTOR.table_signed(initials)) },
  print_tie_round: { value: (tie) => DIRECTOR.print_tie_round(tie.number, tie.round) },
  print_valid: { value: (when) => DIRECTOR.print_valid(date(when)) },
  certificate_event: { value: (name, when) => DIRECTOR.certificate_event(name, date(when)) },
});

/** Done words of the director's tournament commands (a reply `accepted`), keyed by command. */
export const TOURNAMENT_DONE = ["register", "import_students", "rename_student", "withdraw", "close_registration",
  "seat_round", "swap_seats", "start_round", "close_round", "advance", "reopen_round", "begin_play", "mark_seat",
  "sign_score_card"];

export function tournamentDoneInWords(command) {
  return TOURNAMENT_DONE.includes(command) ? web(`tournament_done.${command}`) : CONSOLE_WORDS.done;
}

/** A student's rating across every table they played (rating_history.js, the `ratings`
 * query): the section, the rating now (`n` the tables that rated it), the plot's words. */
export const RATING_WORDS = wordTable("rating", {
  heading: null, loading: null, now: ["name", "mu", "sigma", "n"], now_provisional: ["name", "mu", "sigma", "n"],
  none: null, plot: null, caption: null, steps: ["n"],
  result_step: ["game", "table", "place", "players", "n", "mu"],
  practice_solved: ["table", "card", "mu"], practice_missed: ["table", "card", "mu"],
});

/** The generic page of a game without a page module (games/generic.js). */
export const GENERIC_WORDS = wordTable("generic", {
  title: ["game"], none: null, none_yet: null, yes: null, no: null, view_heading: null, time_left: null,
  command_heading: null, command: null, with: null, send: null, type_command: null, event: ["seq"],
});

/** The replay page's words (replay.js). */
export const REPLAY_WORDS = wordTable("replay", {
  title: ["table"], step: null, step_group: null, first: null, previous: null, next: null, last: null, event: null,
  data: null, after: null, loading: null, no_events: null, position: ["position", "n", "seq"], time_left: null,
});
