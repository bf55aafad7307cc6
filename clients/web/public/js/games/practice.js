// The practice page (docs/games/practice.md): the card dealt at your level with its rating,
// the touch and answer countdowns, the answer (pattern and three steps, judged by the
// server as at a tournament), the last card's outcome (a miss with its solutions, at once),
// your rating with its history plot (SVG, drawn here from the view), the cards you missed
// with how they go, and the class. It draws the view (server/games/practice/view.py) and
// sends the commands of COMMANDS_BY_ROLE; no rules here. Words: words.js PRACTICE_WORDS.
import { cardNumbers, fill, h, seatsTable, svg as s } from "../draw.js";
import { casualEventWords, muText } from "../event_words.js";
import { PRACTICE_WORDS as W } from "../word_tables.js";
import { number, say } from "../words.js";
import { nameOf, playerCell, setDisabled, setShown } from "./shell.js";

function ratingText(rating) {
  return rating ? muText(rating) : W.noRating;
}

function mine(view, you) {
  const seats = view.seats || [];
  return seats.find((seat) => seat.seat === you) || (seats.length === 1 ? seats[0] : null);
}

/** The rating after each card (a line), each card's own rating (a dot, filled when solved,
 * hollow when missed): the student sees the rating climb and settle at their level. */
export function ratingPlot(seat, width = 640, height = 240) {
  const history = seat.history || [];
  const start = history.length ? history[0].rating : seat.rating;
  const points = [{ n: 0, mu: start.mu }, ...history.map((card) => ({ n: card.number, mu: card.rating_after.mu }))];
  const values = [...points.map((p) => p.mu), ...history.map((card) => card.card_rating.mu)];
  let low = Math.min(...values) - 50;
  let high = Math.max(...values) + 50;
  if (high - low < 400) { const mid = (high + low) / 2; low = mid - 200; high = mid + 200; }
  const pad = { left: 48, right: 12, top: 12, bottom: 28 };
  const cards = Math.max(history.length, 1);
  const x = (n) => pad.left + (n / cards) * (width - pad.left - pad.right);
  const y = (mu) => pad.top + (1 - (mu - low) / (high - low)) * (height - pad.top - pad.bottom);
  const ticks = [];
  const step = (high - low) > 1200 ? 400 : 200;
  for (let t = Math.ceil(low / step) * step; t <= high; t += step) {
    ticks.push(s("line", { x1: pad.left, x2: width - pad.right, y1: y(t), y2: y(t), class: "grid" }),
      s("text", { x: pad.left - 6, y: y(t) + 4, "text-anchor": "end", class: "tick" }, String(t)));
  }
  const line = points.map((p, i) => `${i ? "L" : "M"}${x(p.n).toFixed(1)},${y(p.mu).toFixed(1)}`).join(" ");
  const dots = history.map((card) => s("circle", {
    cx: x(card.number), cy: y(card.card_rating.mu), r: 5,
    class: card.solved ? "card solved" : "card missed",
    "data-number": card.number, "data-card-rating": card.card_rating.mu,
  }, s("title", {}, `${card.numbers.join(" ")}: ${Math.round(card.card_rating.mu)}, ${card.solved ? W.solved : W.missedMark}`)));
  const marks = points.map((p) => s("circle", { cx: x(p.n), cy: y(p.mu), r: 3, class: "rating", "data-mu": p.mu }));
  return s("svg", { viewBox: `0 0 ${width} ${height}`, class: "rating-plot", role: "img",
    "aria-label": `${W.history}: ${points.map((p) => Math.round(p.mu)).join(", ")}` },
  ...ticks,
  s("line", { x1: pad.left, x2: width - pad.right, y1: height - pad.bottom, y2: height - pad.bottom, class: "axis" }),
  s("text", { x: width - pad.right, y: height - 8, "text-anchor": "end", class: "tick" }, `${history.length}`),
  s("path", { d: line, class: "rating-line" }), ...dots, ...marks);
}

function solutionList(solutions) {
  return h("ul", { class: "solutions" }, (solutions || []).map((solution) =>
    h("li", {}, h("code", {}, solution.expression), " — ", solution.steps.join(", "))));
}

function drawCard(seat) {
  const card = seat && seat.card;
  if (!card) {
    const text = seat && seat.done ? W.allPlayed : W.waiting;
    return h("div", { class: "card empty", role: "img", "aria-label": text }, text);
  }
  return h("div", { class: "card up", role: "img", "aria-label": card.numbers.join(", "),
    "data-numbers": card.numbers.join(" "), "data-number": card.number, "data-card-rating": card.card_rating.mu },
  cardNumbers(card.numbers),
  h("div", { class: "card-rating" }, W.cardRatingIs(Math.round(card.card_rating.mu))));
}

function drawLast(seat) {
  const last = seat && seat.last;
  if (!last) return [];
  const numbers = h("strong", {}, last.numbers.join(" "));
  if (last.solved) {
    return [h("p", { class: "won", "data-result": "solved", "data-number": last.number }, numbers, ": ",
      W.solvedIn(number(last.after_us / 1e6, 1)))];
  }
  return [h("p", { class: "out", "data-result": last.result, "data-number": last.number }, numbers, ": ",
    W.missed(W.missReasons[last.result] || last.result), last.message ? ` (${last.message})` : ""),
  solutionList(last.solutions)];
}

function drawMisses(seat) {
  const missed = (seat && seat.history || []).filter((card) => !card.solved);
  if (!missed.length) return [h("p", {}, W.noMisses)];
  return [h("ol", { id: "missed-cards" }, missed.map((card) =>
    h("li", { "data-card-id": card.card_id, "data-card-rating": card.card_rating.mu, "data-result": card.result },
      h("strong", {}, card.numbers.join(" ")),
      ` (${W.cardRating} ${Math.round(card.card_rating.mu)}; ${W.missReasons[card.result] || card.result})`,
      solutionList(card.solutions))))];
}

function drawClass(view) {
  const rows = (view.seats || []).map((seat) => h("tr", { "data-seat": seat.seat },
    playerCell(view, seat.seat),
    h("td", { class: "rating", "data-mu": seat.rating.mu }, ratingText(seat.rating)),
    h("td", {}, seat.solved), h("td", {}, seat.played)));
  return seatsTable(W.ratings, W.columns, rows);
}

function readAnswer() {
  const pattern = document.getElementById("pattern").value.trim();
  const steps = [1, 2, 3].map((n) => document.getElementById(`step-${n}`).value.trim()).filter(Boolean);
  return { pattern, steps };
}

function clearAnswer() {
  for (const id of ["pattern", "step-1", "step-2", "step-3"]) {
    const field = document.getElementById(id);
    if (field) field.value = "";
  }
}

function sections(ctx) {
  const answer = (event) => {
    event.preventDefault();
    const { pattern, steps } = readAnswer();
    if (!pattern || !steps.length) { ctx.say(() => W.pattern); return; }
    ctx.send("answer", { pattern, steps }).then((ok) => ok && clearAnswer());
  };
  const field = (id, label) => [h("label", { for: id }, label),
    h("input", { id, name: id, autocomplete: "off", spellcheck: "false", inputmode: "text" })];
  return [
    h("section", { "aria-labelledby": "card-heading", class: "play" },
      h("h2", { id: "card-heading" }, W.title),
      h("div", { id: "practice-card", "aria-live": "polite" }),
      h("ul", { id: "countdowns", class: "countdowns", "aria-label": W.time_left, "aria-live": "off" }),
      h("div", { class: "row" },
        h("button", { id: "next", type: "button", onclick: () => ctx.send("next_card").then((ok) => ok && ctx.focus("touch")) }, W.next),
        h("button", { id: "touch", class: "touch", type: "button", "aria-keyshortcuts": "Space",
          onclick: () => ctx.send("touch").then((ok) => ok && ctx.focus("pattern")) }, W.touch),
        h("button", { id: "give-up", type: "button", onclick: () => ctx.send("give_up") }, W.giveUp))),
    h("section", { "aria-labelledby": "answer-heading", class: "answer" },
      h("h2", { id: "answer-heading" }, W.answer),
      h("form", { id: "answer-form", onsubmit: answer },
        ...field("pattern", W.pattern), ...field("step-1", W.step(1)), ...field("step-2", W.step(2)),
        ...field("step-3", W.step(3)),
        h("button", { id: "send-answer", type: "submit" }, W.answer)),
      h("p", { id: "message", class: "message", role: "alert" }),
      h("div", { id: "last", class: "result", "aria-live": "polite" })),
    h("section", { "aria-labelledby": "rating-heading", class: "rating" },
      h("h2", { id: "rating-heading" }, W.rating),
      h("p", { id: "rating" }),
      h("p", { id: "played" }),
      h("figure", {}, h("div", { id: "history-plot" }), h("figcaption", {}, W.historyHint))),
    h("section", { "aria-labelledby": "misses-heading", class: "misses" },
      h("h2", { id: "misses-heading" }, W.misses),
      h("div", { id: "misses" })),
    h("section", { "aria-labelledby": "class-heading", class: "scores" },
      h("h2", { id: "class-heading" }, W.class),
      h("div", { id: "seats" }),
      h("p", { id: "end-result" }),
      h("div", { class: "row" },
        h("button", { id: "resume", type: "button", onclick: () => ctx.send("resume_practice") }, W.resume),
        h("button", { id: "end-practice", type: "button", onclick: () => { if (confirm(W.confirmEnd)) ctx.send("end_practice"); } }, W.end))),
  ];
}

function render(ctx) {
  const view = ctx.view;
  const seat = mine(view, ctx.you);
  const card = seat && seat.card;
  const live = ctx.online() && !view.paused && view.phase !== "ended";
  fill("practice-card", drawCard(seat));
  fill("last", drawLast(seat));
  fill("misses", drawMisses(seat));
  fill("seats", drawClass(view));
  fill("end-result", view.phase === "ended" ? W.over(W.ended[view.end_reason] || view.end_reason) : "");
  if (seat) {
    const rating = document.getElementById("rating");
    rating.dataset.mu = seat.rating.mu;
    rating.dataset.provisional = String(seat.rating.provisional);
    fill("rating", seat.rating.provisional ? W.rating_provisional(ratingText(seat.rating)) : ratingText(seat.rating));
    fill("played", W.played(seat.solved, seat.played, view.options.cards));
    const plot = document.getElementById("history-plot");
    if (plot.dataset.played !== String(seat.played)) {
      plot.dataset.played = String(seat.played);
      // drawn at the width it is shown at (280 to 640 px): its numbers keep their size on a phone
      plot.replaceChildren(ratingPlot(seat, Math.round(Math.min(640, Math.max(280, plot.clientWidth || 640)))));
    }
  }
  const player = Boolean(ctx.you);
  for (const id of ["next", "touch", "give-up", "answer-form"]) setShown(id, player);
  setDisabled("next", !(live && seat && !card && !seat.done));
  setDisabled("touch", !(live && card && !card.touched_at));
  setDisabled("give-up", !(live && card));
  const answering = live && card && card.touched_at;
  for (const id of ["pattern", "step-1", "step-2", "step-3", "send-answer"]) setDisabled(id, !answering);
  setShown("resume", view.paused);
  setShown("end-practice", view.phase !== "ended" && (ctx.steward || (view.seats || []).length === 1));
}

function words(push, view) {
  return casualEventWords("practice", push, view, nameOf);
}

function pushed(ctx, push) {
  if (push.catchUp || (push.data || {}).seat !== ctx.you) return;
  if (push.event_type === "CardDealt" || push.event_type === "CardMissed") clearAnswer();
}

function summary(view) {
  return [drawClass(view)];
}

export const practiceGame = {
  name: "practice",
  get title() { return W.title; },
  get resumeHint() { return W.resumeHint; },
  keys: { Space: "touch", n: "next" },
  get deadlineWords() { return W.deadlines; },
  sections,
  render,
  words,
  pushed,
  summary,
  feedClass: (push) => (push.event_type === "CardSolved" ? "won" : push.event_type === "CardMissed" ? "flag" : ""),
};

export default practiceGame; // its parts, found by games/index.js by this file's name
