// Drawing helpers shared by the pages: a card, the seats with scores and flags, the live
// countdowns, the pause banner and the feed (its section and its entries), and the link's
// state the status line shows. They draw a view the server sent, nothing more.
import { replayLink } from "./links.js";
import { eventInWords, flagCause } from "./event_words.js";
import { PAGE_WORDS as W, STANDINGS_WORDS, advancedInWords } from "./word_tables.js";
import { pauseCause, seatName, seconds, web } from "./words.js";

/** document.createElement with attributes and children (strings become text). */
export function h(tag, attrs = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) element.addEventListener(key.slice(2), value);
    else if (key === "text") element.textContent = value;
    else element.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === "string" || typeof child === "number" ? String(child) : child);
  }
  return element;
}

// What a page set going beside its elements (a countdown's timer, a key listener on the
// document): ended with the page when a language switch draws it again (main.js), so the
// page drawn anew does not count down or hear a key twice.
const running = { timers: [], listeners: [] };

/** setInterval for a page: stopped by `endPage`. */
export function every(ms, callback) {
  const timer = setInterval(callback, ms);
  running.timers.push(timer);
  return timer;
}

/** document.addEventListener for a page: removed by `endPage`. */
export function onDocument(type, listener) {
  document.addEventListener(type, listener);
  running.listeners.push([type, listener]);
}

/** Stops the timers and listeners of the page drawn so far (it is drawn again). */
export function endPage() {
  for (const timer of running.timers) clearInterval(timer);
  for (const [type, listener] of running.listeners) document.removeEventListener(type, listener);
  running.timers = [];
  running.listeners = [];
}

const SVG = "http://www.w3.org/2000/svg";

/** An SVG element, as `h` makes HTML ones (the plots of the analysis, practice and rating
 * pages): attributes set as strings, null or undefined ones and children left out. */
export function svg(tag, attrs = {}, ...children) {
  const element = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined) element.setAttribute(key, String(value));
  }
  element.append(...children.flat().filter((c) => c !== null && c !== undefined));
  return element;
}

/** The link's state after the connection reports `next`: an error keeps the last state (the
 * connection reports how it goes on, connecting or online, next). */
export function linkAfter(link, next) {
  return next === "online" ? "online" : next === "error" ? link : next;
}

/** The feed section: the table's events in words, newest first, numbered by seq (the
 * number a protest names), and a link to step through them on the replay page. */
export function feedSection(table) {
  return h("section", { "aria-labelledby": "feed-heading", class: "feed" },
    h("h2", { id: "feed-heading" }, W.feed),
    h("ol", { id: "feed", reversed: true }),
    h("p", {}, h("a", { href: replayLink(table) }, W.replay_link)));
}

/** Enables or disables a control by id (a missing one is ignored). */
export function setDisabled(id, disabled) {
  const element = document.getElementById(id);
  if (element) element.disabled = Boolean(disabled);
}

/** Replaces the children of `target` (by id) with `children`, unless they draw the same
 * markup: a live region (the pause, a message) is then not announced again, and the focus
 * and selection inside it stay. (Listeners are not compared: callers redraw a control whose
 * action changed with a different label.) */
export function fill(id, ...children) {
  const target = document.getElementById(id);
  if (!target) return;
  const fresh = document.createElement("div");
  fresh.append(...children.flat().filter((c) => c !== null && c !== undefined));
  if (fresh.innerHTML === target.innerHTML) return;
  target.replaceChildren(...fresh.childNodes);
}

/** The card in play: four big digits and its dots, face down, or none. */
export function drawCard(view) {
  const card = view && view.card;
  if (!card) {
    return h("div", { class: "card empty", role: "img", "aria-label": W.no_card }, W.no_card);
  }
  if (!card.numbers) {
    return h("div", { class: "card down", role: "img", "aria-label": W.face_down_label(card.play) },
      W.face_down);
  }
  const dots = card.dots || 0;
  const label = W.card_label(card.play, card.numbers.join(", "), dots);
  return h("div", { class: "card up", role: "img", "aria-label": label, "data-numbers": card.numbers.join(" ") },
    cardNumbers(card.numbers),
    h("div", { class: "dots", "aria-hidden": "true" }, "●".repeat(dots)));
}

/** A card's four numbers, each in a tile of its own, so 21 16 8 21 never reads "2116 8 21".
 * `data-width` (the digits of the longest number: 1 for Single Digits, 2 for Double Digits, 3
 * for safety) picks a font size the card's width holds (style.css, container units): the
 * tiles fit their card at every screen width and in every box (a board's panel too). */
export function cardNumbers(numbers) {
  const width = Math.max(1, ...numbers.map((n) => String(n).length));
  return h("div", { class: "digits", "aria-hidden": "true", "data-width": Math.min(width, 3) },
    numbers.map((n) => h("span", { class: "digit number" }, n)));
}

/** A table of seats (or students): a caption, the column headings (a pair [short, long] is
 * an abbreviation), the rows. `kind` adds classes beside `seats` (the style every such
 * table shares). */
export function seatsTable(caption, headings, rows, kind = "") {
  const heading = (t) => (Array.isArray(t) ? h("abbr", { title: t[1] }, t[0]) : t);
  return h("table", { class: kind ? `seats ${kind}` : "seats" },
    h("caption", {}, caption),
    h("thead", {}, h("tr", {}, headings.map((t) => h("th", { scope: "col" }, heading(t))))),
    h("tbody", {}, rows));
}

/** The seats as a table: name, score, flags (with the flag limit), state. */
export function drawSeats(view, presence) {
  const limit = view.flag_limit;
  const rows = (view.seats || []).map((seat) => {
    const here = presence ? (presence.seats || []).includes(seat.seat) : null;
    const state = seat.disqualified ? W.disqualified(flagCause(seat.disqualified_cause))
      : view.toucher === seat.seat ? W.holds : "";
    return h("tr", { "data-seat": seat.seat },
      h("th", { scope: "row" }, seatName(view, seat.seat), here === false ? W.away : ""),
      h("td", { class: "score", "data-score": seat.score }, seat.score),
      h("td", { class: "flags" }, `${"⚑".repeat(seat.flags)} ${limit ? W.flags_of(seat.flags, limit) : seat.flags}`),
      h("td", {}, state));
  });
  return seatsTable(W.scores_caption, W.seat_headings, rows);
}

/** The live countdowns: each deadline's `at` against the server's clock now. */
export function drawCountdowns(deadlines, serverNow, paused) {
  if (paused) return [h("li", {}, W.timers_stopped)];
  const words = W.deadlines;
  return deadlines.map((deadline) => {
    const left = Math.max(0, (deadline.at - serverNow) / 1e6);
    return h("li", { "data-command": deadline.command }, W.countdown(words[deadline.command] || deadline.command, seconds(left)));
  });
}

/** The pause banner (or nothing): the table's pause, or a lost connection. (The end of the
 * round is told by the results, results.js.) */
export function drawPause(view, connection) {
  const lines = [];
  if (connection !== "online") {
    lines.push(web(["connecting", "moving"].includes(connection) ? `status.${connection}` : "status.reconnecting"));
  }
  if (view && view.waiting) lines.push(W.waiting_banner);
  if (view && view.paused) {
    lines.push(W.paused(pauseCause(view.pause_cause)));
  }
  return lines.map((line) => h("p", {}, line));
}

/** A tournament's standings per section (docs/tournament.md, "Views"): the qualifying
 * rows (rank, name, r1, r2, total, advanced) and the champion, by name, once there is one. */
export function drawStandings(standings) {
  const cell = (value) => h("td", { class: "number" }, value === null || value === undefined ? "–" : String(value));
  return Object.entries(standings).map(([section, part]) => {
    const rows = part.qualifying || [];
    const champion = part.champion ? (rows.find((row) => row.student === part.champion) || {}).name || part.champion : null;
    return seatsTable(
      champion ? STANDINGS_WORDS.caption_champion(section, champion) : STANDINGS_WORDS.caption(section),
      STANDINGS_WORDS.headings,
      rows.map((row) => h("tr", { "data-student": row.student },
        cell(row.rank), h("th", { scope: "row" }, STANDINGS_WORDS.student(row.name, row.school)), cell(row.r1), cell(row.r2),
        cell(row.total), h("td", { "data-advanced": row.advanced || "" }, advancedInWords(row.advanced)))),
      "standings");
  });
}

/** What was said at the table: who holds the card, the pattern and the stated steps
 * (`you`: the student's own seat, or null for someone watching). */
export function drawSaid(view, you) {
  const said = [];
  if (view.toucher) said.push(h("p", {}, view.toucher === you ? W.you_hold : W.holds_card(seatName(view, view.toucher))));
  if (view.pattern) said.push(h("p", {}, W.pattern(view.pattern)));
  if ((view.steps || []).length) said.push(h("p", {}, W.steps(view.steps.join("; "))));
  return said;
}

/** Adds one event to a feed list (newest first, at most `keep` entries). */
export function addToFeed(id, push, view, keep = 40) {
  const list = document.getElementById(id);
  if (!list) return;
  const text = eventInWords(push, view);
  const cls = push.event_type === "FlagIssued" || push.event_type === "PlayerDisqualified" ? "flag"
    : push.event_type === "CardWon" ? "won" : "";
  // numbered by seq: the number a protest names (R-ROUND-8)
  list.prepend(h("li", { class: cls, value: push.seq, "data-seq": push.seq, "data-event": push.event_type }, text));
  while (list.children.length > keep) list.lastElementChild.remove();
}
