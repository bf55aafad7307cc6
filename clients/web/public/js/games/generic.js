// The page of a game that has no module of its own here (games/<game>.js): what a new game's
// table looks like before its page is written, and what an older client shows of a newer
// server's game. It knows no game: it draws whatever view the server sends, as labelled
// values, and sends a command typed by name (the server judges it and says why it refuses).
// games/index.js falls back to it when the game's module cannot be loaded. Its words are the
// catalogue's (`web` keys `generic.*`); a game's own title is its vocabulary's `screen.title`
// (msgctxt "<game>" in protocol/words/<lang>.po), its refusals its `refusal.<code>`.
import { fill, h } from "../draw.js";
import { GENERIC_WORDS as W } from "../word_tables.js";
import { has, say, seatNames, viewSeats } from "../words.js";

/** "turn_seconds" -> "turn seconds": a key of the view as a label. */
function label(key) {
  return String(key).replaceAll("_", " ");
}

/** Any plain value of a view as page elements: a map as a definition list, a list as a
 * list, anything else as text. `names` (seat id -> name, words.js `seatNames`) names the
 * seats: a seat id, as a value or as a key ("scores": {"s1": 3}), reads as its player. */
export function drawValue(value, names = new Map()) {
  const named = (text) => names.get(String(text)) || String(text);
  if (value === null || value === undefined) return h("span", { class: "none" }, W.none);
  if (Array.isArray(value)) {
    return value.length ? h("ol", {}, value.map((item) => h("li", {}, drawValue(item, names)))) : h("span", {}, W.none_yet);
  }
  if (typeof value === "object") {
    return h("dl", {}, Object.entries(value).flatMap(([key, item]) =>
      [h("dt", {}, names.has(key) ? named(key) : label(key)), h("dd", {}, drawValue(item, names))]));
  }
  if (typeof value === "boolean") return h("span", {}, value ? W.yes : W.no);
  return h("span", {}, typeof value === "string" ? named(value) : String(value));
}

/** A view's seats by name, for `drawValue`. */
export function viewNames(view) {
  return seatNames(viewSeats(view));
}

/** "number=7, cause=tea" -> { number: 7, cause: "tea" } (whole numbers as numbers). */
export function readArguments(text) {
  const args = {};
  for (const part of String(text).split(",")) {
    const [key, ...rest] = part.split("=");
    if (!key.trim()) continue;
    const value = rest.join("=").trim();
    args[key.trim()] = /^-?\d+$/.test(value) ? Number(value) : value;
  }
  return args;
}

function sections(ctx) {
  const send = (event) => {
    event.preventDefault();
    const name = document.getElementById("command-name").value.trim();
    if (!name) { ctx.say(() => W.type_command); return; }
    ctx.send(name, readArguments(document.getElementById("command-args").value));
  };
  return [
    h("section", { "aria-labelledby": "view-heading", class: "play" },
      h("h2", { id: "view-heading" }, W.view_heading),
      h("div", { id: "generic-view", "aria-live": "polite" }),
      h("ul", { id: "countdowns", class: "countdowns", "aria-label": W.time_left, "aria-live": "off" })),
    h("section", { "aria-labelledby": "command-heading", class: "answer" },
      h("h2", { id: "command-heading" }, W.command_heading),
      h("form", { id: "command-form", onsubmit: send },
        h("label", { for: "command-name" }, W.command),
        h("input", { id: "command-name", autocomplete: "off", spellcheck: "false" }),
        h("label", { for: "command-args" }, W.with),
        h("input", { id: "command-args", autocomplete: "off", spellcheck: "false" }),
        h("button", { id: "send-command", type: "submit" }, W.send)),
      h("p", { id: "message", class: "message", role: "alert" })),
  ];
}

/** The parts of the generic page for game `name` (games/shell.js draws the frame). */
export function genericGame(name) {
  return {
    name,
    // the game's own title when its vocabulary has one, read when drawn (the page's language)
    get title() { return has(name, "screen.title") ? say(name, "screen.title") : W.title(label(name)); },
    generic: true,
    sections,
    render(ctx) { fill("generic-view", drawValue(ctx.view, viewNames(ctx.view))); },
    words: (push) => W.event(push.seq),
    summary: (view) => [drawValue(view, viewNames(view))],
  };
}
