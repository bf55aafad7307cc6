// Creating a tournament: its name, a date, the grades, the rules document and its deck, the
// cards per round (a practice event of a few cards too) and the table options. The form
// sends one `create_table` of game `tournament` (as `t24 tournament create`); the server
// checks every option and refuses in words (a date that is no real day, a grade list
// that is empty, cards out of 4..48, ...): nothing is checked here but what a form field
// must hold to be sent at all.
import { h } from "../draw.js";
import { DIRECTOR_WORDS as W } from "../word_tables.js";
import { errorInWords, languages } from "../words.js";
import { choice, consoleLink, field, say, valueOf } from "./common.js";

const MAX_SEED = 2 ** 31 - 1;

function today() {
  const now = new Date();
  const pad = (n) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** A number field's value: a number, or null when empty. */
function numberOf(id) {
  const text = valueOf(id);
  return text === "" ? null : Number(text);
}

/** The options the form says, as `create_table` takes them (docs/tournament.md). */
export function formOptions() {
  const tableOptions = { mode: valueOf("new-mode") };
  const auto = numberOf("new-auto");
  if (auto !== null) tableOptions.auto_proctor = auto;
  const timers = [["new-reveal", "auto_reveal_seconds"], ["new-pattern", "pattern_seconds"],
    ["new-solution", "solution_seconds"], ["new-no-touch", "no_touch_seconds"]];
  for (const [id, option] of timers) {
    const seconds = numberOf(id);
    if (seconds !== null) tableOptions[option] = seconds;
  }
  const options = {
    name: valueOf("new-name"),
    date: valueOf("new-date"),
    grades: valueOf("new-grades").split(",").map((g) => g.trim()).filter(Boolean),
    rules: valueOf("new-rules"),
    deck_seed: numberOf("new-seed"),
    cards_per_round: numberOf("new-cards"),
    table_options: tableOptions,
  };
  if (valueOf("new-edition")) options.edition = valueOf("new-edition");
  if (valueOf("new-lang")) options.lang = valueOf("new-lang"); // every table's default language
  const tieSeconds = numberOf("new-tie-seconds");
  if (tieSeconds !== null) options.tie_break_seconds = tieSeconds;
  const advance = numberOf("new-advance");
  if (advance !== null) options.advance_count = advance;
  return options;
}

export function createSection(connection) {
  const seed = crypto.getRandomValues(new Uint32Array(1))[0] % MAX_SEED;
  const pairs = (words) => Object.entries(words);

  async function create(event) {
    event.preventDefault();
    const id = valueOf("new-id");
    if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$/.test(id)) { // the stream's id: docs/tournament.md
      say(() => W.bad_id);
      return;
    }
    try {
      await connection.request("create_table", { table: `tournament/${id}`, game: "tournament", options: formOptions() });
    } catch (error) {
      say(() => errorInWords(error));
      return;
    }
    const name = valueOf("new-name");
    say(() => W.created(name), "ok");
    location.hash = consoleLink({ page: "director", tournament: id, step: "registration" });
  }

  return h("section", { "aria-labelledby": "create-heading", class: "create" },
    h("h2", { id: "create-heading" }, W.create_heading),
    h("p", {}, W.create_intro),
    h("form", { id: "create-form", onsubmit: create, novalidate: true },
      field("new-id", W.field_id, { required: true, maxlength: 40, pattern: "[A-Za-z0-9][A-Za-z0-9_.\\-]*" }),
      field("new-name", W.field_name, { required: true, maxlength: 64 }),
      field("new-date", W.field_date, { type: "date", required: true, value: today() }),
      field("new-grades", W.field_grades, { required: true, placeholder: "4th, 5th" }),
      choice("new-rules", W.field_rules, pairs(W.rules_choices)),
      choice("new-edition", W.field_edition, pairs(W.edition_choices)),
      field("new-cards", W.field_cards, { type: "number", min: 4, max: 48, step: 1, value: 48, required: true, "aria-describedby": "cards-hint" }),
      h("p", { id: "cards-hint", class: "hint" }, W.field_cards_hint),
      choice("new-mode", W.field_mode, pairs(W.mode_choices)),
      choice("new-lang", W.field_lang, [["", W.lang_default], ...pairs(languages())]),
      field("new-auto", W.field_auto, { type: "number", min: 0.05, max: 3600, step: "any", value: 3 }),
      h("details", {},
        h("summary", {}, W.field_more),
        field("new-reveal", W.field_reveal, { type: "number", min: 0.05, step: "any", placeholder: "1" }),
        field("new-pattern", W.field_pattern, { type: "number", min: 0.05, step: "any", placeholder: "3" }),
        field("new-solution", W.field_solution, { type: "number", min: 0.05, step: "any", placeholder: "15" }),
        field("new-no-touch", W.field_no_touch, { type: "number", min: 0.05, step: "any", placeholder: "15" }),
        field("new-tie-seconds", W.field_tie_seconds, { type: "number", min: 1, max: 3600, step: 1, placeholder: "300" }),
        field("new-advance", W.field_advance, { type: "number", min: 3, max: 16, step: 1, placeholder: "16" }),
        field("new-seed", W.field_seed, { type: "number", min: 0, max: MAX_SEED, step: 1, value: seed, required: true })),
      h("button", { id: "create", type: "submit" }, W.create_button)));
}
