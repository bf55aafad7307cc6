// The deck40 page, Kortspillet 24 (docs/games/deck40.md): the four playing cards in play
// (suit and rank, whose pile each came from), "24!" with a solution, "no solution" with the
// card to give back, who is out of these cards, the scoring version, points and piles, and
// the end (a tie shown as a tie). It draws the view (server/games/deck40/view.py) and sends
// the commands of COMMANDS_BY_ROLE; the server judges every call.
import { fill, h, seatsTable } from "../draw.js";
import { answerReason, casualEventWords } from "../event_words.js";
import { wordTable } from "../word_tables.js";
import { say, web } from "../words.js";
import { gameControls, gameOverInWords, nameOf, namesOf, playerCell, setDisabled, setShown, showGameControls } from "./shell.js";

const SUIT_SIGNS = { clubs: "♣", diamonds: "♦", hearts: "♥", spades: "♠" };
const SUIT_BY_LETTER = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const ENDED_CODES = ["target_points", "cards_out", "cannot_turn_up", "no_solution_left", "ended_by_director"];
/** Why a game ended and how the cards are laid out: the game's own words (`deck40`). */
const ended = () => Object.fromEntries(ENDED_CODES.map((code) => [code, say("deck40", `screen.ended.${code}`)]));
const layout = (code) => say("deck40", `screen.layout.${code}`);

const W = wordTable("deck40", {
  no_start: null, no_cards: null, set_label: ["set"], no_solution_callers: ["names"], excluded: ["names"],
  common_pile: ["n"], simple: null, advanced: null, cards_version: null, house: null, target: ["n"],
  until_out: null, reveal: null, layout: ["layout"], out: null, called: null, scores_caption: null,
  headings: { list: ["player", "points", "won", "pile", "these"] }, cards_left: ["cards"], right: ["expression"],
  wrong: ["why"], you_take: null, you_take_points: ["n"], you_called: null, type_first: null,
  cards_heading: null, set: ["set"], call_heading: null, solution_label: null, no_solution_group: null,
  returns_label: null, no_solution: null, game_heading: null, scores_heading: null, you_out: null,
  you_called_line: null, card_owner: ["card", "owner"], title: null,
});

/** A card name of the log ("10H") as rank and suit: {rank, suit}. */
function fromName(name) {
  const text = String(name);
  const rankText = text.slice(0, -1);
  return { card: text, rank: rankText === "A" ? 1 : Number(rankText), suit: SUIT_BY_LETTER[text.slice(-1)] };
}

function rankText(card) {
  return card.rank === 1 ? "A" : String(card.rank);
}

/** "A♠", "10♥". */
export function cardText(card) {
  const shown = typeof card === "string" ? fromName(card) : card;
  return `${rankText(shown)}${SUIT_SIGNS[shown.suit] || "?"}`;
}

function cardWords(card) {
  return web("cards.name", { rank: card.rank === 1 ? web("cards.rank.A") : String(card.rank), suit: web(`cards.suit.${card.suit}`) });
}

/** One playing card face up, with whose pile it came from. */
function drawPlayingCard(card, view) {
  const red = card.suit === "hearts" || card.suit === "diamonds";
  const owner = card.seat ? nameOf(view, card.seat) : "";
  const label = owner ? W.card_owner(cardWords(card), owner) : cardWords(card);
  return h("li", { class: "playing-card-slot" },
    h("div", { class: `playing-card ${red ? "red" : "black"}`, role: "img", "aria-label": label,
      "data-card": card.card, "data-rank": card.rank, "data-suit": card.suit, "data-seat": card.seat || "" },
    h("span", { class: "corner", "aria-hidden": "true" }, rankText(card), h("br"), SUIT_SIGNS[card.suit]),
    h("span", { class: "pip", "aria-hidden": "true" }, SUIT_SIGNS[card.suit]),
    h("span", { class: "corner low", "aria-hidden": "true" }, rankText(card), h("br"), SUIT_SIGNS[card.suit])),
    owner ? h("span", { class: "owner", "aria-hidden": "true" }, owner) : null);
}

function drawTable(view) {
  const cards = view.table || [];
  if (!cards.length) {
    const text = view.phase === "setup" ? W.no_start : W.no_cards;
    return h("p", { class: "card empty" }, text);
  }
  return h("ul", { class: "playing-cards", "aria-label": W.set_label(view.set) },
    cards.map((card) => drawPlayingCard(card, view)));
}

function setStateLines(view) {
  const lines = [];
  if (view.no_solution.length) lines.push(h("p", { id: "no-solution-callers" }, W.no_solution_callers(namesOf(view, view.no_solution))));
  if (view.excluded.length) lines.push(h("p", { id: "excluded", class: "out" }, W.excluded(namesOf(view, view.excluded))));
  if (view.options.layout === "common_pile" && view.phase !== "setup") lines.push(h("p", {}, W.common_pile(view.common_pile)));
  return lines;
}

/** The scoring version and the goal, in words. */
function scoringWords(options) {
  const parts = [];
  if (options.scoring === "simple") parts.push(W.simple);
  else if (options.scoring === "advanced") parts.push(W.advanced);
  else parts.push(W.cards_version);
  if (options.house_loser_takes) parts.push(W.house);
  if (options.target_points) parts.push(W.target(options.target_points));
  else if (options.scoring !== "cards") parts.push(W.until_out);
  if (options.reveal_unsolvable) parts.push(W.reveal);
  parts.push(W.layout(layout(options.layout)));
  return parts.join(" ");
}

function drawScores(view) {
  const rows = (view.seats || []).map((seat) => {
    const state = view.excluded.includes(seat.seat) ? W.out
      : view.no_solution.includes(seat.seat) ? W.called : "";
    return h("tr", { "data-seat": seat.seat },
      playerCell(view, seat.seat),
      h("td", { class: "score", "data-score": seat.score }, seat.score),
      h("td", { class: "won", "data-won": seat.won.length }, seat.won.length),
      h("td", { class: "pile", "data-pile": seat.pile }, seat.pile),
      h("td", { class: "state" }, state));
  });
  return seatsTable(W.scores_caption, W.headings, rows);
}

function drawResult(view) {
  const result = view.result;
  if (!result) return [];
  const lines = [h("p", { class: result.tie ? "tie" : "winner", "data-tie": String(Boolean(result.tie)) },
    gameOverInWords(view, result, ended()))];
  if (result.scoring === "cards" && result.cards_left) {
    lines.push(h("p", {}, W.cards_left(Object.entries(result.cards_left).map(([seat, n]) => `${nameOf(view, seat)} ${n}`).join(", "))));
  }
  return lines;
}

function words(push, view) {
  return casualEventWords("deck40", push, view, nameOf);
}

function pushed(ctx, push) {
  const d = push.data || {};
  if (push.event_type === "CardsTurnedUp" && !push.catchUp) document.getElementById("solution").value = "";
  if (push.catchUp || d.seat !== ctx.you) return;
  if (push.event_type === "SolutionCalled") {
    fill("result", d.ok ? W.right(d.expression) : W.wrong(answerReason(d.reason, d.message)));
  }
  if (push.event_type === "RoundWon") fill("result", d.points ? W.you_take_points(d.points) : W.you_take);
  if (push.event_type === "NoSolutionCalled") fill("result", W.you_called);
}

/** The set drawn on the page (the view's `set`, docs/games/deck40.md): a call that crosses
 * the next deal is refused (`stale_set`), never judged on cards the player has not seen. */
function drawnSet(ctx) {
  return ctx.view ? { set: ctx.view.set } : {};
}

function sections(ctx) {
  const call24 = (event) => {
    event.preventDefault();
    const expression = document.getElementById("solution").value.trim();
    if (!expression) { ctx.say(() => W.type_first); return; }
    ctx.send("call_24", { expression, ...drawnSet(ctx) });
  };
  const noSolution = () => {
    const select = document.getElementById("returns");
    const line = document.getElementById("returns-line");
    const returns = !line.hidden && select.value ? { returns: select.value } : {};
    ctx.send("call_no_solution", { ...returns, ...drawnSet(ctx) });
  };
  return [
    h("section", { "aria-labelledby": "cards-heading", class: "play" },
      h("h2", { id: "cards-heading" }, W.cards_heading),
      h("p", { id: "set-number" }),
      h("div", { id: "table-cards", "aria-live": "polite" }),
      h("div", { id: "set-state", "aria-live": "polite" })),
    h("section", { "aria-labelledby": "call-heading", class: "answer" },
      h("h2", { id: "call-heading" }, W.call_heading),
      h("form", { id: "call-form", onsubmit: call24 },
        h("label", { for: "solution" }, W.solution_label),
        h("input", { id: "solution", name: "solution", autocomplete: "off", spellcheck: "false" }),
        h("button", { id: "call-24", class: "touch", type: "submit" }, "24!")),
      h("div", { id: "no-solution-group", role: "group", "aria-label": W.no_solution_group },
        h("p", { id: "returns-line" }, h("label", { for: "returns" }, W.returns_label),
          h("select", { id: "returns", name: "returns" })),
        h("button", { id: "no-solution", type: "button", onclick: noSolution }, W.no_solution)),
      h("p", { id: "message", class: "message", role: "alert" }),
      h("p", { id: "result", class: "result", "aria-live": "polite" }),
      h("p", { id: "you-state", class: "out", "aria-live": "polite" })),
    h("section", { "aria-labelledby": "game-heading", class: "game" },
      h("h2", { id: "game-heading" }, W.game_heading),
      h("p", { id: "scoring" }),
      h("div", { id: "end-result", "aria-live": "polite" }),
      gameControls(ctx)),
    h("section", { "aria-labelledby": "scores-heading", class: "scores" },
      h("h2", { id: "scores-heading" }, W.scores_heading),
      h("div", { id: "seats" })),
  ];
}

function render(ctx) {
  const view = ctx.view;
  fill("set-number", view.set ? W.set(view.set) : "");
  fill("table-cards", drawTable(view));
  fill("set-state", setStateLines(view));
  fill("scoring", scoringWords(view.options));
  fill("seats", drawScores(view));
  fill("end-result", drawResult(view));

  const player = Boolean(ctx.you);
  const live = ctx.online() && view.phase === "playing";
  const out = view.excluded.includes(ctx.you);
  const called = view.no_solution.includes(ctx.you);
  const mine = (view.table || []).filter((card) => card.seat === ctx.you);
  setShown("call-form", player);
  setShown("no-solution-group", player);
  setShown("returns-line", player && mine.length > 1);
  fill("returns", mine.map((card) => h("option", { value: card.card }, `${cardText(card)} (${cardWords(card)})`)));
  setDisabled("solution", !(live && !out));
  setDisabled("call-24", !(live && !out));
  setDisabled("returns", !(live && !out && !called));
  setDisabled("no-solution", !(live && !out && !called));
  fill("you-state", player && out ? W.you_out : player && called && live ? W.you_called_line : "");
  showGameControls(ctx, view);
}

/** The scoreboard's drawing of a deck40 table. */
function summary(view) {
  return [drawTable(view), ...setStateLines(view), drawScores(view), ...drawResult(view)];
}

export const deck40Game = {
  name: "deck40",
  get title() { return W.title; },
  deadlineWords: {},
  sections,
  render,
  words,
  pushed,
  summary,
  feedClass: (push) => (push.event_type === "RoundWon" ? "won" : push.event_type === "PlayerExcluded" ? "flag" : ""),
};

export default deck40Game; // its parts, found by games/index.js by this file's name
/** The page's word table, for the browser test that walks every key (tests/e2e/test_web_languages.py). */
export { W as WORDS };
