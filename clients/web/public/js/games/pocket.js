// The pocket game's page (docs/games/pocket.md): the top card with its numbers and dots,
// "I got it" (the claim, also the space bar), the answer field with the server's answer
// countdown, stumped, the result of each claim on this card, who is out of it, the bonus
// cards waiting, the scores and the end (a tie shown as a tie). It draws the view
// (server/games/pocket/view.py) and sends the commands of COMMANDS_BY_ROLE; no rules here.
import { cardNumbers, fill, h, seatsTable } from "../draw.js";
import { gameControls, gameOverInWords, nameOf, namesOf, playerCell, setDisabled, setShown, showGameControls } from "./shell.js";

const PLAYING = ["open", "claimed"];
const SET_ASIDE = { all_stumped: "everyone is stumped", all_excluded: "everyone is out of it", timeout: "nobody solved it in time" };
const ENDED = { stack_used_up: "the stack is used up", ended_by_director: "ended by the director" };

function plural(count, word) {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/** The top card: four large numbers and its dots. */
function drawPocketCard(view) {
  const card = view.card;
  if (!card) {
    const text = view.phase === "setup" ? "The game has not started." : "No card is up.";
    return h("div", { class: "card empty", role: "img", "aria-label": text }, text);
  }
  const label = `Card ${card.number}: ${card.numbers.join(", ")}; ${plural(card.dots, "dot")}`;
  return h("div", { class: "card up", role: "img", "aria-label": label, "data-numbers": card.numbers.join(" "), "data-number": card.number },
    cardNumbers(card.numbers),
    h("div", { class: "dots", "aria-hidden": "true" }, "●".repeat(card.dots)));
}

/** Who holds the card, who is out of it or stumped, the bonus cards waiting. */
function cardStateLines(view) {
  const lines = [];
  const card = view.card;
  if (card && card.claimer) lines.push(h("p", { id: "claimer", "data-seat": card.claimer }, `${nameOf(view, card.claimer)} said "I got it" and is answering.`));
  if (card && card.excluded.length) lines.push(h("p", { id: "excluded", class: "out" }, `Out of this card: ${namesOf(view, card.excluded)}.`));
  if (card && card.stumped.length) lines.push(h("p", { id: "stumped-list" }, `Stumped: ${namesOf(view, card.stumped)}.`));
  const bonus = view.bonus || [];
  if (bonus.length) {
    const dots = bonus.reduce((sum, entry) => sum + entry.dots, 0);
    lines.push(h("p", { id: "bonus", "data-count": bonus.length },
      `Bonus cards waiting: ${bonus.length} (${plural(dots, "dot")}) for the winner of the next card.`));
  }
  if (view.phase !== "setup") lines.push(h("p", { id: "stack-left" }, `${plural(view.stack_left, "card")} left in the stack.`));
  return lines;
}

function drawScores(view) {
  const card = view.card;
  const rows = (view.seats || []).map((seat) => {
    const state = !card ? "" : card.claimer === seat.seat ? "answering"
      : card.excluded.includes(seat.seat) ? "out of this card"
      : card.stumped.includes(seat.seat) ? "stumped" : "";
    return h("tr", { "data-seat": seat.seat },
      playerCell(view, seat.seat),
      h("td", { class: "score", "data-score": seat.score }, seat.score),
      h("td", {}, seat.cards_won.length),
      h("td", { class: "state" }, state));
  });
  return seatsTable("Scores", ["Player", "Points", "Cards won", "This card"], rows);
}

function drawResult(view) {
  const result = view.result;
  if (!result) return [];
  const lines = [h("p", { class: result.tie ? "tie" : "winner", "data-tie": String(Boolean(result.tie)) },
    gameOverInWords(view, result, ENDED))];
  const unclaimed = result.unclaimed_bonus || [];
  if (unclaimed.length) lines.push(h("p", {}, `Bonus cards left unclaimed: ${unclaimed.length}.`));
  return lines;
}

function words(push, view) {
  const d = push.data || {};
  const who = (seat) => nameOf(view, seat);
  switch (push.event_type) {
    case "TableCreated": return "Table created.";
    case "GameStarted": return `The game started: ${plural(typeof d.stack === "number" ? d.stack : (d.stack || []).length, "card")} in the stack.`;
    case "CardTurnedUp": return `Card ${d.number} turned up: ${(d.numbers || []).join(" ")} (${plural(d.dots, "dot")}); ${d.left} left.`;
    case "ClaimMade": return `${who(d.seat)} said "I got it" on card ${d.number}.`;
    case "AnswerJudged":
      return d.ok ? `${who(d.seat)} answered ${d.expression}: right.`
        : `${who(d.seat)} answered ${d.expression}: wrong (${d.message || d.reason}).`;
    case "PlayerExcluded":
      return `${who(d.seat)} is out of card ${d.number} (${d.reason === "late" ? "no answer in time" : "a wrong answer"}).`;
    case "StumpedDeclared": return `${who(d.seat)} is stumped on card ${d.number}.`;
    case "CardWon": {
      const bonus = (d.bonus || []).length;
      return `${who(d.seat)} won card ${d.number}: ${plural(d.points, "point")}${bonus ? `, with ${plural(bonus, "bonus card")}` : ""}.`;
    }
    case "CardSetAside": return `Card ${d.number} is set aside as a bonus card: ${SET_ASIDE[d.reason] || d.reason}.`;
    case "GamePaused": return `Paused (${String(d.cause).replaceAll("_", " ")}).`;
    case "GameResumed": return "Resumed.";
    case "GameEnded": return gameOverInWords(view, d, ENDED);
    default: return null;
  }
}

/** The result of each claim or answer on the card up, in words (from the pushes). */
let claims = []; // [number, seq, text, ok]
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
  if (["AnswerJudged", "PlayerExcluded", "CardWon"].includes(push.event_type)) {
    claims.push([d.number, push.seq, words(push, ctx.view), push.event_type === "CardWon" || d.ok]);
  }
  if (push.catchUp || d.seat !== ctx.you) return;
  if (push.event_type === "AnswerJudged") {
    fill("result", d.ok ? `Right: ${d.expression}.` : `Wrong: ${d.message || d.reason}. You are out of this card.`);
  }
  if (push.event_type === "PlayerExcluded" && d.reason === "late") fill("result", "Time ran out: you are out of this card.");
  if (push.event_type === "CardWon") {
    fill("result", `You won card ${d.number}: ${plural(d.points, "point")}.`);
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
    if (!expression) { ctx.say("Type an answer first, e.g. (5+3-2)*4."); return; }
    ctx.send("answer", { expression, ...drawnCard(ctx) });
  };
  return [
    h("section", { "aria-labelledby": "card-heading", class: "play" },
      h("h2", { id: "card-heading" }, "The card"),
      h("div", { id: "pocket-card", "aria-live": "polite" }),
      h("ul", { id: "countdowns", class: "countdowns", "aria-label": "Time left", "aria-live": "off" }),
      h("div", { id: "card-state", "aria-live": "polite" }),
      h("button", { id: "claim", class: "touch", type: "button", "aria-keyshortcuts": "Space",
        onclick: () => ctx.send("claim", drawnCard(ctx)).then((ok) => ok && ctx.focus("answer")) }, "I got it! (space)"),
      h("button", { id: "stumped", type: "button", onclick: () => ctx.send("declare_stumped", drawnCard(ctx)) }, "I'm stumped")),
    h("section", { "aria-labelledby": "answer-heading", class: "answer" },
      h("h2", { id: "answer-heading" }, "Your answer"),
      h("form", { id: "answer-form", onsubmit: answer },
        h("label", { for: "answer" }, "Your answer: every number once, + − × ÷ and brackets, e.g. (5+3-2)*4"),
        h("input", { id: "answer", name: "answer", autocomplete: "off", inputmode: "text", spellcheck: "false" }),
        h("button", { id: "send-answer", type: "submit" }, "Answer")),
      h("p", { id: "message", class: "message", role: "alert" }),
      h("p", { id: "result", class: "result", "aria-live": "polite" }),
      h("p", { id: "you-state", class: "out", "aria-live": "polite" }),
      h("h3", {}, "This card so far"),
      h("ul", { id: "card-results", class: "claims" })),
    h("section", { "aria-labelledby": "game-heading", class: "game" },
      h("h2", { id: "game-heading" }, "The game"),
      h("div", { id: "end-result", "aria-live": "polite" }),
      gameControls(ctx, PLAYING)),
    h("section", { "aria-labelledby": "scores-heading", class: "scores" },
      h("h2", { id: "scores-heading" }, "Scores"),
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
  fill("card-results", claims.filter(([n]) => n === number).map(([, seq, text, ok]) =>
    h("li", { "data-seq": seq, class: ok ? "won" : "out" }, text)));

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
  fill("you-state", player && out ? "You are out of this card: the others play on." : "");

  showGameControls(ctx, view, PLAYING);
}

/** The scoreboard's drawing of a pocket table. */
function summary(view) {
  return [drawPocketCard(view), ...cardStateLines(view), drawScores(view), ...drawResult(view)];
}

export const pocketGame = {
  name: "pocket",
  title: "Pocket 24",
  resumeHint: "any player may resume it.",
  keys: { Space: "claim" },
  deadlineWords: { answer_deadline: "Answer due in", stumped_deadline: "Set aside if nobody solves it in" },
  sections,
  render,
  words,
  pushed,
  summary,
  feedClass: (push) => (push.event_type === "CardWon" ? "won" : push.event_type === "PlayerExcluded" ? "flag" : ""),
};

export default pocketGame; // its parts, found by games/index.js by this file's name
