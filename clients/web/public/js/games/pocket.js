// The pocket game's page (docs/games/pocket.md): the top card with its numbers and dots,
// "I got it" (the claim, also the space bar), the answer field with the server's answer
// countdown, stumped, the result of each claim on this card, who is out of it, the bonus
// cards waiting, the scores and the end (a tie shown as a tie). It draws the view
// (server/games/pocket/view.py) and sends the commands of COMMANDS_BY_ROLE; no rules here.
import { cardNumbers, fill, h, seatsTable } from "../draw.js";
import { answerReason, casualEventWords } from "../event_words.js";
import { wordTable } from "../word_tables.js";
import { say } from "../words.js";
import { gameControls, gameOverInWords, nameOf, namesOf, playerCell, setDisabled, setShown, showGameControls } from "./shell.js";

const PLAYING = ["open", "claimed"];
const W = wordTable("pocket", {
  title: null, no_start: null, no_card: null, card_label: ["number", "numbers", "n"], claimer: ["name"],
  excluded: ["names"], stumped: ["names"], bonus: ["count", "n"], stack_left: ["n"], answering: null,
  out: null, is_stumped: null, scores_caption: null, headings: { list: ["player", "points", "won", "this_card"] },
  unclaimed: ["n"], right: ["expression"], wrong: ["why"], late: null, you_won: ["number", "n"], type_first: null,
  card_heading: null, time_left: null, claim: null, stumped_button: null, answer_heading: null, answer_label: null,
  answer: null, so_far: null, game_heading: null, scores_heading: null, you_out: null, resume_hint: null,
  ended: { of: ["stack_used_up", "ended_by_director"] },
});

/** The top card: four large numbers and its dots. */
function drawPocketCard(view) {
  const card = view.card;
  if (!card) {
    const text = view.phase === "setup" ? W.no_start : W.no_card;
    return h("div", { class: "card empty", role: "img", "aria-label": text }, text);
  }
  const label = W.card_label(card.number, card.numbers.join(", "), card.dots);
  return h("div", { class: "card up", role: "img", "aria-label": label, "data-numbers": card.numbers.join(" "), "data-number": card.number },
    cardNumbers(card.numbers),
    h("div", { class: "dots", "aria-hidden": "true" }, "●".repeat(card.dots)));
}

/** Who holds the card, who is out of it or stumped, the bonus cards waiting. */
function cardStateLines(view) {
  const lines = [];
  const card = view.card;
  if (card && card.claimer) lines.push(h("p", { id: "claimer", "data-seat": card.claimer }, W.claimer(nameOf(view, card.claimer))));
  if (card && card.excluded.length) lines.push(h("p", { id: "excluded", class: "out" }, W.excluded(namesOf(view, card.excluded))));
  if (card && card.stumped.length) lines.push(h("p", { id: "stumped-list" }, W.stumped(namesOf(view, card.stumped))));
  const bonus = view.bonus || [];
  if (bonus.length) {
    const dots = bonus.reduce((sum, entry) => sum + entry.dots, 0);
    lines.push(h("p", { id: "bonus", "data-count": bonus.length },
      W.bonus(bonus.length, dots)));
  }
  if (view.phase !== "setup") lines.push(h("p", { id: "stack-left" }, W.stack_left(view.stack_left)));
  return lines;
}

function drawScores(view) {
  const card = view.card;
  const rows = (view.seats || []).map((seat) => {
    const state = !card ? "" : card.claimer === seat.seat ? W.answering
      : card.excluded.includes(seat.seat) ? W.out
      : card.stumped.includes(seat.seat) ? W.is_stumped : "";
    return h("tr", { "data-seat": seat.seat },
      playerCell(view, seat.seat),
      h("td", { class: "score", "data-score": seat.score }, seat.score),
      h("td", {}, seat.cards_won.length),
      h("td", { class: "state" }, state));
  });
  return seatsTable(W.scores_caption, W.headings, rows);
}

function drawResult(view) {
  const result = view.result;
  if (!result) return [];
  const lines = [h("p", { class: result.tie ? "tie" : "winner", "data-tie": String(Boolean(result.tie)) },
    gameOverInWords(view, result, W.ended))];
  const unclaimed = result.unclaimed_bonus || [];
  if (unclaimed.length) lines.push(h("p", {}, W.unclaimed(unclaimed.length)));
  return lines;
}

function words(push, view) {
  return casualEventWords("pocket", push, view, nameOf);
}

/** The result of each claim or answer on the card up, in words (from the pushes). */
let claims = []; // [number, seq, push, ok]: worded when drawn (in the page's language then)
let wasHolding = false; // this player held the claim at the last drawing

function pushed(ctx, push) {
  const d = push.data || {};
  if (push.event_type === "CardTurnedUp") {
    claims = [];
    if (!push.catchUp) {
      const field = document.getElementById("answer");
      field.value = "";
      // A new card: the space bar claims it again. Left in the answer field (after a won
      // card, say), the cursor would type a space there instead.
      if (document.activeElement === field) field.blur();
    }
  }
  const known = claims.some(([, seq]) => seq === push.seq); // a page drawn anew hears it again
  if (["AnswerJudged", "PlayerExcluded", "CardWon"].includes(push.event_type) && !known) {
    claims.push([d.number, push.seq, push, push.event_type === "CardWon" || d.ok]);
  }
  if (push.catchUp || d.seat !== ctx.you) return;
  if (push.event_type === "AnswerJudged") {
    fill("result", d.ok ? W.right(d.expression) : W.wrong(answerReason(d.reason, d.message)));
  }
  if (push.event_type === "PlayerExcluded" && d.reason === "late") fill("result", W.late);
  if (push.event_type === "CardWon") {
    fill("result", W.you_won(d.number, d.points));
    document.getElementById("answer").value = "";
  }
}

/** The card drawn on the page, as `set` (docs/games/pocket.md): a claim, an answer or
 * "stumped" that crosses the next card is refused (`stale_set`), never judged on it. */
function drawnCard(ctx) {
  const card = ctx.view && ctx.view.card;
  return card ? { set: card.number } : {};
}

function sections(ctx) {
  const answer = (event) => {
    event.preventDefault();
    const field = document.getElementById("answer");
    const expression = field.value.trim();
    if (!expression) { ctx.say(() => W.type_first); return; }
    ctx.send("answer", { expression, ...drawnCard(ctx) });
  };
  return [
    h("section", { "aria-labelledby": "card-heading", class: "play" },
      h("h2", { id: "card-heading" }, W.card_heading),
      h("div", { id: "pocket-card", "aria-live": "polite" }),
      h("ul", { id: "countdowns", class: "countdowns", "aria-label": W.time_left, "aria-live": "off" }),
      h("div", { id: "card-state", "aria-live": "polite" }),
      h("button", { id: "claim", class: "touch", type: "button", "aria-keyshortcuts": "Space",
        onclick: () => ctx.send("claim", drawnCard(ctx)).then((ok) => ok && ctx.focus("answer")) }, W.claim),
      h("button", { id: "stumped", type: "button", onclick: () => ctx.send("declare_stumped", drawnCard(ctx)) }, W.stumped_button)),
    h("section", { "aria-labelledby": "answer-heading", class: "answer" },
      h("h2", { id: "answer-heading" }, W.answer_heading),
      h("form", { id: "answer-form", onsubmit: answer },
        h("label", { for: "answer" }, W.answer_label),
        h("input", { id: "answer", name: "answer", autocomplete: "off", inputmode: "text", spellcheck: "false" }),
        h("button", { id: "send-answer", type: "submit" }, W.answer)),
      h("p", { id: "message", class: "message", role: "alert" }),
      h("p", { id: "result", class: "result", "aria-live": "polite" }),
      h("p", { id: "you-state", class: "out", "aria-live": "polite" }),
      h("h3", {}, W.so_far),
      h("ul", { id: "card-results", class: "claims" })),
    h("section", { id: "game-section", "aria-labelledby": "game-heading", class: "game" },
      h("h2", { id: "game-heading" }, W.game_heading),
      h("div", { id: "end-result", "aria-live": "polite" }),
      gameControls(ctx, PLAYING)),
    h("section", { "aria-labelledby": "scores-heading", class: "scores" },
      h("h2", { id: "scores-heading" }, W.scores_heading),
      h("div", { id: "seats" })),
  ];
}

function render(ctx) {
  const view = ctx.view;
  const card = view.card;
  fill("pocket-card", drawPocketCard(view));
  fill("card-state", cardStateLines(view));
  fill("seats", drawScores(view));
  fill("end-result", drawResult(view));
  const number = card ? card.number : null;
  fill("card-results", claims.filter(([n]) => n === number).map(([, seq, push, ok]) =>
    h("li", { "data-seq": seq, class: ok ? "won" : "out" }, words(push, view))));

  const live = ctx.online() && !view.paused && PLAYING.includes(view.phase) && card;
  const player = Boolean(ctx.you);
  const out = card && card.excluded.includes(ctx.you);
  const holder = card && card.claimer;
  for (const id of ["claim", "stumped"]) setShown(id, player);
  setShown("answer-form", player);
  setDisabled("claim", !(live && !out && !holder));
  setDisabled("stumped", !(live && !out && holder !== ctx.you && !card.stumped.includes(ctx.you)));
  setDisabled("answer", !(live && !out && (!holder || holder === ctx.you)));
  setDisabled("send-answer", !(live && !out && (!holder || holder === ctx.you)));
  const holding = Boolean(player && holder === ctx.you);
  if (holding && !wasHolding) ctx.focus("answer"); // "I got it" by a key or a tap: type now
  wasHolding = holding;
  fill("you-state", player && out ? W.you_out : "");

  showGameControls(ctx, view, PLAYING);
  // A player's "The game" mid-game has no control and no result yet: no empty box then.
  const controls = ["start", "pause-game", "resume", "end"].map((id) => document.getElementById(id));
  setShown("game-section", Boolean(view.result) || controls.some((control) => control && !control.hidden));
}

/** The scoreboard's drawing of a pocket table. */
function summary(view) {
  return [drawPocketCard(view), ...cardStateLines(view), drawScores(view), ...drawResult(view)];
}

export const pocketGame = {
  name: "pocket",
  get title() { return W.title; },
  get resumeHint() { return W.resume_hint; },
  keys: { Space: "claim" },
  get deadlineWords() {
    return Object.fromEntries(["answer_deadline", "stumped_deadline"].map((code) => [code, say("pocket", `deadline.${code}`)]));
  },
  sections,
  render,
  words,
  pushed,
  summary,
  feedClass: (push) => (push.event_type === "CardWon" ? "won" : push.event_type === "PlayerExcluded" ? "flag" : ""),
};

export default pocketGame; // its parts, found by games/index.js by this file's name
/** The page's word table, for the browser test that walks every key (tests/e2e/test_web_languages.py). */
export { W as WORDS };
