// The analysis page of a 24 Challenge table after the round (docs/analysis.md): the server's
// answer to the `analysis` query (server/analysis/table.py, a pure function of the table's
// log), drawn here. A student sees their own report: their touches against the cards'
// difficulty (a plot), the cards at or below their level they missed and how those go, their
// wrong answers and flags with the solutions they could have used, and the table's timeline.
// A proctor, the director or an auditor sees every student and every card. Nothing is judged
// here: the figures are the server's; the plots are SVG drawn from them. Words: words.js.
import { fill, h, seatsTable, svg as s } from "./draw.js";
import { flagCause } from "./event_words.js";
import { ANALYSIS_WORDS as W } from "./word_tables.js";
import { errorInWords, number, seatName, seconds as secondsText, statusInWords } from "./words.js";

const COLOURS = ["#05f", "#c60", "#090", "#a0a", "#b00", "#077"];
const OUTCOME_COLOURS = { won: "#8c8", stumped: "#ddd", returned: "#f99", void: "#eee", open: "#ffd" };

const seconds = (us) => (us === null || us === undefined ? "–" : secondsText(us / 1e6));
const level = (value) => (value === null || value === undefined ? "–" : number(value, 1));

/** A seat of the analysis as people call it (words.js `seatName`: never its id). */
function nameOf(analysis, seat) {
  return seatName(analysis, seat);
}

/** The width a plot is drawn at: the width it is shown at (280 to 640 px), so that its
 * numbers and names keep their size in a phone's column or half a tablet's (a 640-wide
 * drawing shown 300 px wide halved them to 5 px). `across`: a section the whole page wide
 * (a grade's); otherwise one of the page's two columns from 760 px on (style.css `main`). */
function plotWidth(across = false) {
  const main = typeof document === "undefined" ? null : document.getElementById("analysis");
  if (!main || !main.clientWidth) return 640;
  const columns = !across && window.innerWidth >= 760 ? 2 : 1;
  const section = (main.clientWidth - 13 * (columns - 1)) / columns; // the grid's 0.8rem gap
  return Math.round(Math.min(640, Math.max(280, section - 24))); // less the section's padding
}

function colourOf(analysis, seat) {
  const index = (analysis.seats || []).findIndex((entry) => entry.seat === seat);
  return COLOURS[Math.max(0, index) % COLOURS.length];
}

/** Time to touch (seconds after the reveal) against the card's difficulty, one colour per
 * student: who reaches for the hard cards, and how fast. */
export function touchPlot(analysis, students, width = plotWidth(), height = 260) {
  const touches = students.flatMap((student) => student.touches
    .filter((touch) => touch.score !== null)
    .map((touch) => ({ ...touch, seat: student.seat })));
  const scores = [...touches.map((t) => t.score), ...analysis.cards.map((c) => c.score).filter((x) => x !== null)];
  const low = Math.floor(Math.min(...scores, 15)) - 1;
  const high = Math.ceil(Math.max(...scores, 25)) + 1;
  const most = Math.max(5, ...touches.map((t) => t.after_us / 1e6));
  const pad = { left: 44, right: 12, top: 12, bottom: 34 };
  const x = (score) => pad.left + ((score - low) / (high - low)) * (width - pad.left - pad.right);
  const y = (secs) => pad.top + (1 - secs / most) * (height - pad.top - pad.bottom);
  const grid = [];
  for (let t = 0; t <= most; t += most > 10 ? 5 : 1) {
    grid.push(s("line", { x1: pad.left, x2: width - pad.right, y1: y(t), y2: y(t), class: "grid" }),
      s("text", { x: pad.left - 6, y: y(t) + 4, "text-anchor": "end", class: "tick" }, `${t}`));
  }
  for (let d = Math.ceil(low / 5) * 5; d <= high; d += 5) {
    grid.push(s("text", { x: x(d), y: height - 18, "text-anchor": "middle", class: "tick" }, `${d}`));
  }
  const dots = touches.map((touch) => s("circle", {
    cx: x(touch.score), cy: y(touch.after_us / 1e6), r: touch.first ? 5 : 3.5,
    fill: touch.first ? colourOf(analysis, touch.seat) : "#fff", stroke: colourOf(analysis, touch.seat), "stroke-width": 2,
    class: "touch", "data-seat": touch.seat, "data-card-id": touch.card_id,
  }, s("title", {}, `${nameOf(analysis, touch.seat)}: ${touch.card_id}, ${level(touch.score)}, ${seconds(touch.after_us)}`)));
  return s("svg", { viewBox: `0 0 ${width} ${height}`, class: "analysis-plot touch-plot", role: "img", "aria-label": W.touchPlot },
    ...grid,
    s("line", { x1: pad.left, x2: width - pad.right, y1: y(0), y2: y(0), class: "axis" }),
    s("text", { x: (width + pad.left) / 2, y: height - 2, "text-anchor": "middle", class: "label" }, W.difficultyAxis),
    ...dots);
}

/** The table's timeline: a row per student, each play a band from its reveal to its end
 * (coloured by how it ended), each touch a mark on the student's row. */
export function timelinePlot(analysis, width = plotWidth()) {
  const seats = analysis.seats || [];
  const row = 22;
  const pad = { left: 96, right: 12, top: 8, bottom: 24 };
  const height = pad.top + pad.bottom + row * Math.max(seats.length, 1);
  const plays = analysis.timeline || [];
  const end = Math.max(1, ...plays.map((p) => (p.revealed_at + (p.ended_after_us || 0)) / 1e6));
  const x = (secs) => pad.left + (secs / end) * (width - pad.left - pad.right);
  const rowOf = (seat) => pad.top + row * seats.findIndex((entry) => entry.seat === seat);
  const bands = plays.map((play) => s("rect", {
    x: x(play.revealed_at / 1e6), y: pad.top, height: row * seats.length,
    width: Math.max(1, x((play.revealed_at + (play.ended_after_us || 0)) / 1e6) - x(play.revealed_at / 1e6)),
    fill: OUTCOME_COLOURS[play.outcome] || "#eee", class: `play ${play.outcome}`, "data-play": play.play,
  }, s("title", {}, `${W.play} ${play.play}: ${play.card_id}, ${W.outcomes[play.outcome] || play.outcome}`)));
  const marks = plays.flatMap((play) => play.touches.map((touch) => s("rect", {
    x: x((play.revealed_at + touch.after_us) / 1e6) - 2, y: rowOf(touch.seat) + 3, width: 4, height: row - 6,
    fill: colourOf(analysis, touch.seat), class: touch.first ? "touch first" : "touch", "data-seat": touch.seat,
  })));
  const names = seats.map((entry, index) => s("text", { x: pad.left - 6, y: pad.top + row * index + row * 0.7, "text-anchor": "end", class: "tick" },
    entry.name || entry.seat));
  return s("svg", { viewBox: `0 0 ${width} ${height}`, class: "analysis-plot timeline-plot", role: "img", "aria-label": W.timelinePlot },
    ...bands, ...marks, ...names,
    s("text", { x: width - pad.right, y: height - 6, "text-anchor": "end", class: "tick" }, seconds(end * 1e6)));
}

function solutions(list) {
  return h("ul", { class: "solutions" }, (list || []).map((solution) =>
    h("li", {}, h("code", {}, solution.expression), " — ", solution.steps.join(", "))));
}

function cardsTable(analysis) {
  const rows = analysis.cards.map((card) => h("tr", { "data-card-id": card.card_id },
    h("th", { scope: "row" }, `${card.card_id}: ${card.numbers.join(" ")}`),
    h("td", {}, card.dots), h("td", {}, level(card.score)),
    h("td", {}, card.first_touch ? `${nameOf(analysis, card.first_touch.seat)}, ${seconds(card.first_touch.after_us)}` : "–"),
    h("td", {}, card.solved_by ? `${nameOf(analysis, card.solved_by)}, ${seconds(card.solve_us)}` : card.stumped ? W.stumped : W.notSolved),
    h("td", {}, card.solutions.length ? h("code", {}, card.solutions[0].expression) : "–")));
  return seatsTable(W.cardsCaption, W.cardsHeadings, rows);
}

function studentSection(analysis, student, own) {
  const missed = student.missed.map((card) => h("li", { "data-card-id": card.card_id },
    h("strong", {}, card.numbers.join(" ")), ` (${W.difficulty} ${level(card.score)}; `,
    card.by ? W.wonBy(nameOf(analysis, card.by)) : W.outcomes[card.outcome] || card.outcome, ")",
    solutions(card.solutions)));
  const wrong = student.wrong_answers.map((answer) => h("li", { "data-card-id": answer.card_id },
    `${answer.card_id}: ${answer.message}. ${W.couldBe}`, solutions(answer.solutions)));
  const flags = student.flags.map((flag) => h("li", { class: flag.rescinded ? "rescinded" : "flag", "data-cause": flag.cause },
    `${flagCause(flag.cause)} (${flag.rule})${flag.card_id !== null ? ` ${W.on} ${flag.card_id}` : ""}${flag.rescinded ? ` — ${W.rescinded}` : ""}`,
    flag.solutions.length ? solutions(flag.solutions) : null));
  return h("section", { class: "student-analysis", "data-seat": student.seat, "aria-label": nameOf(analysis, student.seat) },
    h("h2", {}, own ? W.yours : nameOf(analysis, student.seat)),
    h("p", { class: "summary" }, W.summary(student.points, student.cards_won.length, student.touches.length, level(student.level))),
    own ? h("figure", {}, touchPlot(analysis, [student]), h("figcaption", {}, W.touchHint)) : null,
    h("h3", {}, own ? W.missed : W.missedOf), missed.length ? h("ol", { class: "missed" }, missed) : h("p", {}, W.noMissed),
    wrong.length ? [h("h3", {}, W.wrong), h("ol", { class: "wrong" }, wrong)] : null,
    flags.length ? [h("h3", {}, W.flags), h("ol", { class: "flags" }, flags)] : null);
}

/** A grade's students: the level each showed against how fast they touch first, one dot
 * each, labelled: the coach sees who is quick, who reaches the hard cards, who does both. */
export function gradePlot(students, width = plotWidth(true), height = 280) {
  const shown = students.filter((student) => student.level !== null && student.median_touch_us !== null);
  const levels = shown.map((student) => student.level);
  const low = Math.floor(Math.min(...levels, 15)) - 1;
  const high = Math.ceil(Math.max(...levels, 25)) + 1;
  const most = Math.max(1, ...shown.map((student) => student.median_touch_us / 1e6)) * 1.1;
  const pad = { left: 44, right: 12, top: 12, bottom: 34 };
  const x = (value) => pad.left + ((value - low) / (high - low)) * (width - pad.left - pad.right);
  const y = (secs) => pad.top + (1 - secs / most) * (height - pad.top - pad.bottom);
  const dots = shown.map((student, index) => s("g", { class: "student", "data-student": student.student },
    s("circle", { cx: x(student.level), cy: y(student.median_touch_us / 1e6), r: 5, fill: COLOURS[index % COLOURS.length] }),
    s("text", { x: x(student.level) + 7, y: y(student.median_touch_us / 1e6) + 4, class: "tick" }, student.name)));
  return s("svg", { viewBox: `0 0 ${width} ${height}`, class: "analysis-plot grade-plot", role: "img", "aria-label": W.gradePlot },
    s("line", { x1: pad.left, x2: width - pad.right, y1: y(0), y2: y(0), class: "axis" }),
    s("text", { x: (width + pad.left) / 2, y: height - 2, "text-anchor": "middle", class: "label" }, W.levelAxis),
    s("text", { x: pad.left - 6, y: y(most / 1.1) + 4, "text-anchor": "end", class: "tick" }, seconds(most / 1.1 * 1e6)),
    ...dots);
}

function gradeSection(grade) {
  const ranked = [...grade.students].sort((a, b) => b.points - a.points || a.name.localeCompare(b.name));
  const rows = ranked.map((student) => h("tr", { "data-student": student.student },
    h("th", { scope: "row" }, `${student.name} (${student.school})`),
    h("td", {}, student.points), h("td", {}, student.cards_won), h("td", {}, student.first_touches),
    h("td", {}, seconds(student.median_touch_us)), h("td", {}, level(student.level)),
    h("td", {}, student.missed.length), h("td", {}, student.wrong_answers),
    h("td", { "data-mu": student.rating.mu }, `${Math.round(student.rating.mu)} ± ${Math.round(student.rating.sigma)}`),
    h("td", {}, Object.entries(student.flags).map(([cause, n]) => `${n} ${flagCause(cause)}`).join(", ") || "–")));
  return h("section", { class: "grade-analysis", "data-grade": grade.grade, "aria-label": W.grade(grade.grade) },
    h("h2", {}, W.grade(grade.grade)),
    grade.students.some((st) => st.level !== null && st.median_touch_us !== null)
      ? h("figure", {}, gradePlot(grade.students), h("figcaption", {}, W.gradeHint)) : null,
    seatsTable(W.gradeCaption, W.gradeHeadings, rows));
}

function draw(root, table, analysis) {
  if (analysis.grades) {
    fill("analysis", analysis.grades.map(gradeSection));
    return;
  }
  const own = analysis.you ? analysis.students.find((student) => student.seat === analysis.you) : null;
  const parts = [];
  if (own) {
    parts.push(studentSection(analysis, own, true));
  } else {
    parts.push(h("section", { "aria-labelledby": "touch-heading" },
      h("h2", { id: "touch-heading" }, W.touchPlot),
      h("figure", {}, touchPlot(analysis, analysis.students), h("figcaption", {}, W.touchHintAll)),
      h("ul", { class: "legend" }, analysis.seats.map((entry) => h("li", { style: `color: ${colourOf(analysis, entry.seat)}` }, `● ${nameOf(analysis, entry.seat)}`)))));
    parts.push(h("section", { "aria-labelledby": "cards-heading" }, h("h2", { id: "cards-heading" }, W.cards), cardsTable(analysis)));
    parts.push(...analysis.students.map((student) => studentSection(analysis, student, false)));
  }
  parts.push(h("section", { "aria-labelledby": "timeline-heading" },
    h("h2", { id: "timeline-heading" }, W.timelinePlot),
    h("figure", {}, timelinePlot(analysis), h("figcaption", {}, W.timelineHint))));
  fill("analysis", parts);
}

export function analysisPage(root, connection, welcome, table) {
  root.replaceChildren(
    h("header", {},
      h("h1", {}, W.title(table)),
      h("p", { id: "status", role: "status", "aria-live": "polite" }, statusInWords("connecting"))),
    h("p", { id: "message", class: "message", role: "alert" }),
    h("main", { id: "analysis", class: "analysis", "aria-live": "polite" }, h("p", {}, W.loading)));
  let asked = false;
  function ask() {
    if (asked) return;
    asked = true;
    connection.request("query", { table, name: "analysis", args: {} }).then(
      (answer) => draw(root, table, answer.result),
      (error) => { asked = false; fill("message", errorInWords(error)); fill("analysis", []); });
  }
  ask(); // the page is made once the connection is welcomed
  return {
    status(state, detail) {
      fill("status", statusInWords(state, detail));
      if (state === "online") ask(); // after a refusal or a reconnect: ask again
    },
    table() {},
    presence() {},
  };
}
