// What the director's console pages share: the message line, sending a command and saying
// what came of it in words, links between the console's pages (the token kept in the
// fragment), and the console's own style sheet. No rules: the server decides every command.
import { h } from "../draw.js";
import { tournamentDoneInWords } from "../word_tables.js";
import { errorInWords, sayLine, web } from "../words.js";

// The console's style sheet, beside the client's (style.css stays the pages' shared one).
if (typeof document !== "undefined" && !document.getElementById("director-css")) {
  const sheet = document.createElement("link");
  sheet.id = "director-css";
  sheet.rel = "stylesheet";
  sheet.href = new URL("./director.css", import.meta.url).href;
  document.head.append(sheet);
}

/** The message line: a command done ("ok") or refused ("error"), in words. */
export function say(words, kind = "error") {
  sayLine("message", words, kind);
}

/** Sends `name` to `table` (a tournament stream or a table); says what came of it.
 * Resolves true when accepted. */
export function act(connection, table, name, args = {}) {
  return connection.command(table, name, args).then(
    () => { say(() => tournamentDoneInWords(name), "ok"); return true; },
    (error) => { say(() => errorInWords(error, "tournament"), "error"); return false; });
}

/** This page's address with the fragment's `changes` set (a null value removes the key),
 * the token kept: another page of the console. */
export function consoleLink(changes) {
  const params = new URLSearchParams(location.hash.slice(1));
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === undefined) params.delete(key);
    else params.set(key, String(value));
  }
  return `#${params.toString()}`;
}

/** A labelled input (`attrs` are the input's), in a paragraph. */
export function field(id, label, attrs = {}) {
  return h("p", { class: "field" }, h("label", { for: id }, label),
    h("input", { id, name: id, autocomplete: "off", ...attrs }));
}

/** A labelled select of `choices` ([value, words] pairs). */
export function choice(id, label, choices, attrs = {}) {
  return h("p", { class: "field" }, h("label", { for: id }, label),
    h("select", { id, name: id, ...attrs }, choices.map(([value, words]) => h("option", { value }, words))));
}

/** The value of a control by id, trimmed. */
export function valueOf(id) {
  const element = document.getElementById(id);
  return element ? String(element.value).trim() : "";
}

/** A student's name as people read it: "Ada (Hill)" when two share it, else "Ada". */
export function studentName(view, id) {
  const students = (view && view.students) || [];
  const found = students.find((s) => s.student === id);
  if (!found) return String(id);
  const twins = students.filter((s) => s.name === found.name).length > 1;
  return twins ? web("director.name_school", { name: found.name, school: found.school }) : found.name;
}

/** The tables of a round or of its tie-breaks, with the hub's id of each. */
export function roundTables(view, tid, number) {
  const round = (view.rounds || []).find((r) => r.round === number) || { tables: [] };
  return round.tables.map((table) => ({ ...table, hub: `${tid}.${table.table}` }));
}

/** The round the day is at: the first one not closed (round 1) or not advanced; once every
 * champion is known, the last round played (a grade with one semi-final table has its
 * champion in round 3, and round 4 then has no table to show). */
export function currentRound(view) {
  if (view.finished) {
    const played = (view.rounds || []).filter((round) => round.started);
    if (played.length) return played[played.length - 1].round;
  }
  for (const round of view.rounds || []) {
    if (!round.closed || (round.round > 1 && !round.advanced)) return round.round;
  }
  return 4;
}
