// Every word a page shows comes from the server's catalogue of its language
// (`GET /words/<lang>.json`, made from protocol/words/<lang>.po: docs/architecture.md, "The
// words"): this module loads it and says a key in it, `say(vocabulary, key, values, n)`. The
// vocabularies are the catalogue's contexts: `web` the pages' own words, `common` the
// protocol's, and one per game (`challenge`, `pocket`, `deck40`, `tjugoett`, `practice`,
// `tournament`) for its events and refusals, the same words the terminal and the officials'
// report use. No sentence is written in JavaScript; which language is the person's choice
// (remembered), else their table's default, else their browser's.

const CHOSEN = "t24.lang"; // localStorage: the language a person picked on the switch
const KEPT = "t24.kept-fields"; // sessionStorage: typed fields kept across a language switch
const DEFAULT = "en";

let catalogue = { lang: DEFAULT, languages: {}, words: {} };
let pluralRules = null;
let ordinalRules = null;
let numbers = null;

/** The languages a browser asks for (`navigator.languages`), best first, as catalogue codes
 * to try: each tag's language, then the tag itself (`pt`, `pt_BR`); Norwegian in any form (`no`, `nn`, `nb`)
 * is Bokmål. The server says which it has (a 404 for a language without a catalogue). */
export function browserLanguages(tags) {
  const codes = [];
  for (const tag of tags || []) {
    const full = String(tag).replace("-", "_");
    const primary = full.toLowerCase().split("_")[0];
    const language = ["no", "nn"].includes(primary) ? "nb" : primary;
    for (const code of [language, full.includes("_") ? full : null]) {
      if (code && !codes.includes(code)) codes.push(code);
    }
  }
  return codes;
}

/** The language the person picked on a page's switch, or null (never picked). */
export function chosenLanguage() {
  try {
    return window.localStorage.getItem(CHOSEN);
  } catch {
    return null; // storage blocked: the browser's language
  }
}

/** The language the page speaks now ("en", "nb", "sv"). */
export function language() {
  return catalogue.lang;
}

/** The languages the server has catalogues for: code -> its own name ("Norsk bokmål"). */
export function languages() {
  return catalogue.languages;
}

async function fetchWords(lang) {
  const response = await fetch(new URL(`/words/${encodeURIComponent(lang)}.json`, location.href));
  if (!response.ok) throw new Error(`no catalogue for ${lang} (${response.status})`);
  return response.json();
}

/** Loads the catalogue of the first language of `wanted` the server has (then English):
 * the page speaks it from now on. Resolves to its code. */
export async function loadWords(...wanted) {
  const tried = new Set();
  for (const lang of [...wanted, DEFAULT]) {
    if (!lang || tried.has(lang)) continue;
    tried.add(lang);
    if (lang === catalogue.lang && Object.keys(catalogue.words).length) return lang;
    try {
      use(await fetchWords(lang));
      return catalogue.lang;
    } catch {
      // not offered (a 404) or not reachable: the next one
    }
  }
  return catalogue.lang;
}

/** Makes `loaded` (a `/words/<lang>.json` answer) the page's words. */
export function use(loaded) {
  catalogue = { lang: loaded.lang, languages: loaded.languages || {}, words: loaded.words || {} };
  pluralRules = new Intl.PluralRules(catalogue.lang);
  ordinalRules = new Intl.PluralRules(catalogue.lang, { type: "ordinal" });
  numbers = new Intl.NumberFormat(catalogue.lang, { maximumFractionDigits: 3, useGrouping: false });
  if (typeof document !== "undefined") document.documentElement.lang = catalogue.lang;
}

/** The languages to try at start, best first: the person's choice, else the browser's. (A
 * table's default is applied once its first snapshot names it: `tableLanguage`.) */
export function startLanguages() {
  return [chosenLanguage(), ...browserLanguages(navigator.languages || [navigator.language])].filter(Boolean);
}

/** A table's default language (the director's `lang` option), or null. */
export function tableLanguage(view) {
  if (!view) return null;
  return (view.options && view.options.lang) || view.lang || null;
}

/** `key` of `vocabulary` in the page's language, its `{placeholders}` filled from `values`
 * (numbers in the language's form); a plural entry picks its form by `n` (or `values.n`).
 * A key the catalogue lacks shows as the key (a test keeps every key the pages use in
 * every catalogue). */
export function say(vocabulary, key, values = {}, n = undefined) {
  const entry = catalogue.words[`${vocabulary}/${key}`];
  const count = n !== undefined ? n : values.n;
  let text;
  if (entry === undefined || entry === null) text = key;
  else if (typeof entry === "string") text = entry;
  else {
    const form = count !== undefined && pluralRules ? pluralRules.select(Number(count)) : "other";
    text = entry[form] !== undefined ? entry[form] : entry.other !== undefined ? entry.other : Object.values(entry)[0];
  }
  const filled = { ...values };
  if (count !== undefined && filled.n === undefined) filled.n = count;
  return text.replace(/\{([a-zA-Z_][a-zA-Z0-9_]*)\}/g, (whole, name) =>
    (Object.prototype.hasOwnProperty.call(filled, name) ? shown(filled[name]) : whole));
}

/** Whether the catalogue has `key` of `vocabulary`. */
export function has(vocabulary, key) {
  return catalogue.words[`${vocabulary}/${key}`] !== undefined;
}

/** A page word (`web` vocabulary). */
export function web(key, values = {}, n = undefined) {
  return say("web", key, values, n);
}

function shown(value) {
  if (typeof value === "number" && numbers) return numbers.format(value);
  if (value === null || value === undefined) return "";
  return String(value);
}

/** A number in the page's language ("4,5" in Norwegian): `digits` decimals when given. */
export function number(value, digits = undefined) {
  if (digits === undefined) return numbers ? numbers.format(value) : String(value);
  return new Intl.NumberFormat(catalogue.lang, { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false }).format(value);
}

/** Seconds left, one decimal, in the page's language ("4.5 s", "4,5 s"). */
export function seconds(value) {
  return web("unit.seconds", { seconds: number(value, 1) });
}

/** A date ("2026-05-16", or a time in ms/an ISO string) in the page's language. */
export function date(value) {
  const when = typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T12:00:00`) : new Date(value);
  if (Number.isNaN(when.getTime())) return String(value);
  return new Intl.DateTimeFormat(catalogue.lang, { dateStyle: "long" }).format(when);
}

/** 1 -> "1st" (English), "1." (Norwegian), "1:a" (Swedish): the catalogue's ordinal forms. */
export function ordinal(place) {
  const form = ordinalRules ? ordinalRules.select(place) : "other";
  return web(has("web", `ordinal.${form}`) ? `ordinal.${form}` : "ordinal.other", { n: place });
}

/** Names as one phrase: "Ada", "Ada and Bo", "Ada, Bo and Cy" (the language's list form). */
export function namesInWords(names) {
  if (names.length < 2) return names.join("");
  return web("names.list", { names: names.slice(0, -1).join(", "), last: names[names.length - 1] });
}

/** Two names people would take for one: "Ada" and " ada ". */
function sameNameKey(name) {
  return String(name).trim().toLowerCase(); // as seat_names.py's `lower`, for the same answer
}

/** Seat id -> what people call it, for `seats` in their order at the table (`{seat, name}`
 * maps, as every view lists them). The rule of protocol/words/seat_names.py, word for word
 * (a test runs both): a seat reads as its player's name; where two share a name the first
 * keeps it and each later one reads with its count ("Ada (2)"); a seat with no name reads as
 * its place ("Player 1"); no label equals another seat's. Never a seat id. */
export function seatNames(seats) {
  const entries = (seats || []).map((entry) => [String(entry.seat), String(entry.name || "").trim()]);
  const taken = new Set(entries.filter(([, name]) => name).map(([, name]) => sameNameKey(name)));
  const used = new Set();
  const named = new Map();
  entries.forEach(([seat, name], index) => {
    let label = name;
    if (!name || used.has(sameNameKey(name))) {
      for (let number = name ? 2 : index + 1; ; number += 1) {
        label = name ? say("common", "seat.same_name", { name, number }) : say("common", "seat.unnamed", { number });
        if (!used.has(sameNameKey(label)) && !taken.has(sameNameKey(label))) break;
      }
    }
    used.add(sameNameKey(label));
    named.set(seat, label);
  });
  return named;
}

/** The people a view seats, in their order: its `seats`, then a Tjugoett table's person
 * dealer (`view.dealer` with a seat), who is named among them. */
export function viewSeats(view) {
  const seats = (view && view.seats) || [];
  const dealer = view && view.dealer && view.dealer.seat && !seats.some((entry) => entry.seat === view.dealer.seat);
  return dealer ? [...seats, view.dealer] : seats;
}

/** A seat of `view` as people call it (`seatNames` of `viewSeats`); a seat the view does
 * not list reads as "an unknown player", never as its id. */
export function seatName(view, seat) {
  const named = seatNames(viewSeats(view));
  return named.get(String(seat)) || say("common", "seat.unknown");
}

/** A code's words from `vocabulary` at `prefix` (`reason.deck_empty`), else from `common`,
 * else the code with spaces (never shown with underscores). */
export function codeInWords(vocabulary, prefix, code) {
  for (const where of [vocabulary, "common", "web"]) {
    if (where && has(where, `${prefix}.${code}`)) return say(where, `${prefix}.${code}`);
  }
  return String(code).replaceAll("_", " ");
}

/** A line of the catalogue with a capital first (a label, a countdown's words). */
export function capitalized(text) {
  const value = String(text || "").trim();
  return value ? value[0].toLocaleUpperCase(catalogue.lang) + value.slice(1) : value;
}

/** A line of the catalogue as a sentence of a page: a capital first and a full stop (the
 * terminal prints the same words as lower-case lines). */
export function asSentence(text) {
  const capital = capitalized(text);
  return /[.!?…:;]$/.test(capital) ? capital : `${capital}.`;
}

/** An error reply in words: the refusal's sentence in the table's game (`vocabulary`), else
 * the protocol's, and the rule it cites. The server's own message (English, for developers)
 * is added on an English page only: it names the option or step at fault. */
export function errorInWords(error, vocabulary = "challenge") {
  if (!error || typeof error !== "object") return String(error);
  const code = String(error.code);
  const rule = error.rule ? web("error.rule", { rule: error.rule }) : "";
  const detail = catalogue.lang === "en" && error.message ? ` — ${error.message}` : "";
  for (const [where, prefix] of [[vocabulary, "refusal"], ["common", "refusal"], ["tournament", "refusal"], ["web", "error"]]) {
    if (where && has(where, `${prefix}.${code}`)) return `${asSentence(say(where, `${prefix}.${code}`) + rule)}${detail}`;
  }
  return `${web("error.unknown")}${rule}${detail}`;
}

/** A connection state in words, for the status line. */
export function statusInWords(state, detail, vocabulary = "challenge") {
  if (state === "error") return errorInWords(detail, vocabulary);
  if (["online", "connecting", "reconnecting", "offline", "moving"].includes(state)) return web(`status.${state}`);
  return String(state);
}

/** A pause's cause in words: the game's own (`reason.<cause>`: "by the proctor", "the
 * server restarted", the words its feed uses), else the page's ("a lost connection"). */
export function pauseCause(cause, vocabulary = "challenge") {
  const code = cause || "proctor";
  if (has(vocabulary, `reason.${code}`)) return say(vocabulary, `reason.${code}`);
  return codeInWords(null, "pause_cause", code);
}

/** The language switch every page has (index.html's `#language`): the server's languages,
 * each in its own name; picking one is remembered and redraws the page in it. */
export function drawLanguageSwitch(place, redraw) {
  if (!place) return;
  const select = document.createElement("select");
  select.id = "language-choice";
  for (const [code, name] of Object.entries(catalogue.languages)) {
    const option = document.createElement("option");
    option.value = code;
    option.lang = code;
    option.textContent = name;
    option.selected = code === catalogue.lang;
    select.append(option);
  }
  select.addEventListener("change", () => {
    try {
      window.localStorage.setItem(CHOSEN, select.value);
    } catch {
      // storage blocked: this page only
    }
    redraw(select.value);
  });
  const label = document.createElement("label");
  label.htmlFor = select.id;
  label.textContent = web("language.label");
  place.setAttribute("aria-label", web("language.label"));
  place.replaceChildren(label, select);
}

// The lines a page says once, when something happens (a refusal on the message line): kept
// as how to say them, so a language switch says them again in the new words.
let lines = new Map(); // element id -> { words: () => string, kind }

/** Says `words` on the line `id` (a function that says it in the page's language, or a text
 * that reads the same in every language; "" clears it), and `kind` as its `data-kind` ("error",
 * "ok", "hint"): remembered until the line says something else. */
export function sayLine(id, words, kind = undefined) {
  const said = typeof words === "function" ? words : () => String(words || "");
  if (words) lines.set(id, { words: said, kind });
  else lines.delete(id);
  showLine(id, said(), kind);
}

function showLine(id, text, kind) {
  const element = typeof document !== "undefined" && document.getElementById(id);
  if (!element) return;
  if (kind !== undefined) element.dataset.kind = kind;
  if (element.textContent !== text) element.textContent = text;
}

/** The lines said so far (`sayLine`), to be said again once the page is drawn anew. */
export function saidLines() {
  return new Map(lines);
}

/** Says `kept` (a `saidLines()`) again, in the page's language now. */
export function sayLinesAgain(kept) {
  lines = new Map(kept);
  for (const [id, { words, kind }] of lines) showLine(id, words(), kind);
}

/** Keeps what the person typed (fields with an id) while the page is drawn anew. */
export function keepFields() {
  const fields = {};
  for (const field of document.querySelectorAll("input[id], textarea[id]")) {
    if (field.value && field.type !== "file") fields[field.id] = field.value;
  }
  try {
    window.sessionStorage.setItem(KEPT, JSON.stringify(fields));
  } catch {
    // nothing kept
  }
}

/** Gives the kept fields (`keepFields`) back to the page drawn now, once. */
export function restoreFields() {
  let fields = {};
  try {
    fields = JSON.parse(window.sessionStorage.getItem(KEPT) || "{}");
    window.sessionStorage.removeItem(KEPT);
  } catch {
    return;
  }
  for (const [id, value] of Object.entries(fields)) {
    const field = document.getElementById(id);
    if (field && !field.value) field.value = value;
  }
}
