// A student's rating across the log (docs/analysis.md, "A student's rating across the log"):
// the server's answer to the `ratings` query (server/analysis/log_ratings.py, a pure function
// of every table's log), drawn on the student's page: the rating now and an SVG plot of its
// history, one step a dot (a table's result big and filled, a practice card small: filled
// solved, hollow missed), the rating's line through them and its deviation as a band behind.
// Nothing is computed here but the drawing. Words: word_tables.js RATING_WORDS (the
// catalogue's `web` keys `rating.*`).
import { fill, h, svg as s } from "./draw.js";
import { BOARD_WORDS, RATING_WORDS as W } from "./word_tables.js";
import { errorInWords, ordinal } from "./words.js";

/** What one step of the history was, in words (a dot's tooltip). */
function stepInWords(step) {
  const game = BOARD_WORDS.games[step.game] || step.game;
  if (step.kind === "practice") {
    return (step.solved ? W.practice_solved : W.practice_missed)(step.table, step.card, Math.round(step.mu));
  }
  return W.result_step(game, step.table, ordinal(step.place), step.players, step.score, Math.round(step.mu));
}

/** The rating after each step (a line from 1500), its deviation (a band), each step a dot. */
export function ratingHistoryPlot(answer, width = 640, height = 240) {
  const history = answer.history || [];
  const points = [{ mu: 1500, sigma: 350 }, ...history];
  const values = points.flatMap((p) => [p.mu - Math.min(p.sigma, 200), p.mu + Math.min(p.sigma, 200)]);
  let low = Math.min(...values) - 20;
  let high = Math.max(...values) + 20;
  if (high - low < 400) { const mid = (high + low) / 2; low = mid - 200; high = mid + 200; }
  const pad = { left: 48, right: 12, top: 12, bottom: 28 };
  const steps = Math.max(history.length, 1);
  const x = (n) => pad.left + (n / steps) * (width - pad.left - pad.right);
  const y = (mu) => pad.top + (1 - (Math.min(high, Math.max(low, mu)) - low) / (high - low)) * (height - pad.top - pad.bottom);
  const ticks = [];
  const tick = (high - low) > 1200 ? 400 : 200;
  for (let t = Math.ceil(low / tick) * tick; t <= high; t += tick) {
    ticks.push(s("line", { x1: pad.left, x2: width - pad.right, y1: y(t), y2: y(t), class: "grid" }),
      s("text", { x: pad.left - 6, y: y(t) + 4, "text-anchor": "end", class: "tick" }, String(t)));
  }
  const upper = points.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p.mu + p.sigma).toFixed(1)}`);
  const lower = points.map((p, i) => `L${x(i).toFixed(1)},${y(p.mu - p.sigma).toFixed(1)}`).reverse();
  const line = points.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p.mu).toFixed(1)}`).join(" ");
  const dots = history.map((step, i) => s("circle", {
    cx: x(i + 1), cy: y(step.mu), r: step.kind === "practice" ? 3.5 : 6,
    class: `step ${step.kind}${step.kind === "practice" ? (step.solved ? " solved" : " missed") : ""}`,
    "data-table": step.table, "data-kind": step.kind, "data-mu": step.mu,
  }, s("title", {}, stepInWords(step))));
  return s("svg", { viewBox: `0 0 ${width} ${height}`, class: "rating-history-plot", role: "img",
    "aria-label": `${W.plot}: ${points.map((p) => Math.round(p.mu)).join(", ")}` },
  ...ticks,
  s("path", { d: `${upper.join(" ")} ${lower.join(" ")} Z`, class: "deviation" }),
  s("line", { x1: pad.left, x2: width - pad.right, y1: height - pad.bottom, y2: height - pad.bottom, class: "axis" }),
  s("text", { x: width - pad.right, y: height - 8, "text-anchor": "end", class: "tick" }, W.steps(history.length)),
  s("path", { d: line, class: "rating-line" }), ...dots);
}

/** The section the page places (filled by `loadRatingHistory`). */
export function ratingHistorySection() {
  return h("section", { id: "rating-history", class: "rating-history wide", "aria-labelledby": "rating-history-heading" },
    h("h2", { id: "rating-history-heading" }, W.heading),
    h("p", { id: "rating-now", "aria-live": "polite" }, W.loading),
    h("figure", {}, h("div", { id: "rating-history-plot" }), h("figcaption", {}, W.caption)));
}

function drawAnswer(answer) {
  const rating = answer.rating;
  const now = document.getElementById("rating-now");
  if (now) {
    now.dataset.mu = rating.mu;
    now.dataset.steps = (answer.history || []).length;
  }
  fill("rating-now", (rating.provisional ? W.now_provisional : W.now)(answer.name, Math.round(rating.mu),
    Math.round(rating.sigma), answer.tables));
  // drawn at the width it is shown at (a phone's ~340 px, up to 640), so its words stay legible
  const shown = document.getElementById("rating-history-plot");
  const width = Math.max(280, Math.min(640, Math.floor((shown && shown.clientWidth) || 640)));
  fill("rating-history-plot", (answer.history || []).length ? ratingHistoryPlot(answer, width) : h("p", {}, W.none));
}

/** Asks the server for this student's rating (the `ratings` query on their table) and draws
 * it; a refusal is said in words where the rating would be. */
export function loadRatingHistory(connection, table) {
  return connection.request("query", { table, name: "ratings", args: {} }).then(
    (reply) => drawAnswer(reply.result),
    (error) => fill("rating-now", errorInWords(error)));
}
