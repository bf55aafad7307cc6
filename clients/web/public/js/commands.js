// When a 24 Challenge command can apply, so the console disables a button that cannot (after
// the round, every round button; before it, all but Start). This is the server's command
// table (server/games/challenge/__init__.py, `COMMANDS`: the phases a command is taken in and
// whether a paused table takes it), copied for the buttons only: the server still decides
// every command, and a browser test (tests/e2e/test_web_screens.py) compares the two tables.

const RUNNING = ["between_cards", "placed", "revealed", "solving"];
const HEARING = [...RUNNING, "ended"]; // protests are heard until the score card is signed

export const COMMAND_PHASES = {
  start_round: ["setup"],
  begin_play: RUNNING,
  mark_seat: RUNNING,
  place_card: ["between_cards"],
  reveal_card: ["placed"],
  touch_card: ["placed", "revealed", "solving"],
  declare_pattern: ["solving"],
  state_steps: ["solving"],
  fix_solution: ["solving"],
  declare_stumped: ["revealed"],
  override_first_touch: ["solving"],
  issue_flag: RUNNING,
  end_round: RUNNING,
  pause_table: RUNNING,
  resume_table: RUNNING,
  rule_slap: RUNNING,
  file_protest: HEARING,
  rule_protest: HEARING,
  sign_score_card: ["ended"],
  reopen_score_card: ["ended"],
};

/** The commands a paused table still takes. */
export const WHILE_PAUSED = ["issue_flag", "end_round", "pause_table", "resume_table", "rule_slap",
  "file_protest", "rule_protest", "begin_play", "mark_seat"];

/** The commands a table that waits for its students takes (docs/rules.md decision 30). */
export const WHILE_WAITING = ["begin_play", "mark_seat", "end_round"];

/** A student's own commands: at a proctored table the proctor records them for a seat; at a
 * networked one the students send them and the console does not. */
export const STUDENT_COMMANDS = ["touch_card", "declare_pattern", "state_steps", "fix_solution", "declare_stumped"];

/** Whether `name` can apply to the table as `view` shows it (phase, pause, mode, and the
 * state a few commands need: a pause to resume, a signature to reopen, ...). */
export function canApply(view, name) {
  if (!view || !(COMMAND_PHASES[name] || []).includes(view.phase)) return false;
  if (view.paused && !WHILE_PAUSED.includes(name)) return false;
  if (view.waiting && !WHILE_WAITING.includes(name)) return false;
  if (!view.waiting && WHILE_WAITING.includes(name) && name !== "end_round") return false;
  if (STUDENT_COMMANDS.includes(name) && view.mode !== "proctored") return false;
  const signed = Boolean(view.score_card && view.score_card.signed);
  const open = (view.protests || []).some((protest) => protest.status === "open");
  switch (name) {
    case "pause_table": return !view.paused;
    case "resume_table": return Boolean(view.paused);
    case "declare_pattern": return Boolean(view.toucher) && !view.pattern;
    case "state_steps": case "fix_solution": return Boolean(view.pattern);
    case "file_protest": return !signed;
    case "rule_protest": return !signed && open;
    case "sign_score_card": return !signed && !open;
    case "reopen_score_card": return signed;
    default: return true;
  }
}
