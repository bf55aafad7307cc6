// The deck40 page, Kortspillet 24 (docs/games/deck40.md): the four playing cards in play
// (suit and rank, whose pile each came from), "24!" with a solution, "no solution" with the
// card to give back, who is out of these cards, the scoring version, points and piles, and
// the end (a tie shown as a tie). It draws the view (server/games/deck40/view.py) and sends
// the commands of COMMANDS_BY_ROLE; the server judges every call.
import { fill, h, seatsTable } from "../draw.js";
import { gameControls, gameOverInWords, nameOf, namesOf, playerCell, setDisabled, setShown, showGameControls } from "./shell.js";

const SUIT_SIGNS = { clubs: "♣", diamonds: "♦", hearts: "♥", spades: "♠" };
const SUIT_BY_LETTER = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const ENDED = {
  target_points: "the target was reached",
  cards_out: "the cards ran out",
  cannot_turn_up: "a player cannot turn up a card",
  no_solution_left: "no remaining card came round solved",
  ended_by_director: "ended by the director",
};
const LAYOUTS = {
  pairs: "each player turns up the top two cards of his own pile",
  singles: "each player turns up the top card of his own pile",
  common_pile: "the dealer turns up four from the common pile",
};

function plural(count, word) {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

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
  const rank = card.rank === 1 ? "ace" : String(card.rank);
  return `${rank} of ${card.suit}`;
}

/** One playing card face up, with whose pile it came from. */
function drawPlayingCard(card, view) {
  const red = card.suit === "hearts" || card.suit === "diamonds";
  const owner = card.seat ? nameOf(view, card.seat) : "";
  const label = `${cardWords(card)}${owner ? `, from ${owner}'s pile` : ""}`;
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
    const text = view.phase === "setup" ? "The game has not started." : "No cards are up.";
    return h("p", { class: "card empty" }, text);
  }
  return h("ul", { class: "playing-cards", "aria-label": `Set ${view.set}: the four cards` },
    cards.map((card) => drawPlayingCard(card, view)));
}

function setStateLines(view) {
  const lines = [];
  if (view.no_solution.length) lines.push(h("p", { id: "no-solution-callers" }, `"No solution": ${namesOf(view, view.no_solution)}.`));
  if (view.excluded.length) lines.push(h("p", { id: "excluded", class: "out" }, `Out of these four cards: ${namesOf(view, view.excluded)}.`));
  if (view.options.layout === "common_pile" && view.phase !== "setup") lines.push(h("p", {}, `Common pile: ${plural(view.common_pile, "card")}.`));
  return lines;
}

/** The scoring version and the goal, in words. */
function scoringWords(options) {
  const parts = [];
  if (options.scoring === "simple") parts.push('Simple scoring: a right "24!" takes the four cards and scores 1 point.');
  else if (options.scoring === "advanced") parts.push('Advanced scoring: a right "24!" scores 1 point, 2 when another player had called "no solution" on these cards.');
  else parts.push("Card version: no points; when a player runs out of cards, the fewest cards left wins.");
  if (options.house_loser_takes) parts.push("House option: the loser of each set takes the four cards.");
  if (options.target_points) parts.push(`Play to ${plural(options.target_points, "point")}.`);
  else if (options.scoring !== "cards") parts.push("Play until the cards run out.");
  if (options.reveal_unsolvable) parts.push('After an agreed "no solution" the server says whether there was one.');
  parts.push(`Layout: ${LAYOUTS[options.layout] || options.layout}.`);
  return parts.join(" ");
}

function drawScores(view) {
  const rows = (view.seats || []).map((seat) => {
    const state = view.excluded.includes(seat.seat) ? "out of these cards"
      : view.no_solution.includes(seat.seat) ? "no solution" : "";
    return h("tr", { "data-seat": seat.seat },
      playerCell(view, seat.seat),
      h("td", { class: "score", "data-score": seat.score }, seat.score),
      h("td", { class: "won", "data-won": seat.won.length }, seat.won.length),
      h("td", { class: "pile", "data-pile": seat.pile }, seat.pile),
      h("td", { class: "state" }, state));
  });
  return seatsTable("Points, cards won and piles", ["Player", "Points", "Cards won", "Pile", "These cards"], rows);
}

function drawResult(view) {
  const result = view.result;
  if (!result) return [];
  const lines = [h("p", { class: result.tie ? "tie" : "winner", "data-tie": String(Boolean(result.tie)) },
    gameOverInWords(view, result, ENDED))];
  if (result.scoring === "cards" && result.cards_left) {
    lines.push(h("p", {}, "Cards left: " + Object.entries(result.cards_left).map(([seat, n]) => `${nameOf(view, seat)} ${n}`).join(", ") + "."));
  }
  return lines;
}

function words(push, view) {
  const d = push.data || {};
  const who = (seat) => nameOf(view, seat);
  switch (push.event_type) {
    case "TableCreated": return "Table created.";
    case "GameStarted": return `The game started: ${LAYOUTS[d.layout] || d.layout}.`;
    case "CardsTurnedUp": return `Set ${d.set}: ${(d.cards || []).map(cardText).join(" ")} turned up.`;
    case "SolutionCalled":
      return d.ok ? `${who(d.seat)} called "24!": ${d.expression}, right.`
        : `${who(d.seat)} called "24!": ${d.expression}, wrong (${d.message || d.reason}).`;
    case "PlayerExcluded": return `${who(d.seat)} is out of set ${d.set}.`;
    case "RoundWon": {
      const points = d.points ? ` and scores ${plural(d.points, "point")}` : "";
      const taken = d.taken_by ? `; ${who(d.taken_by)} takes them under his pile` : "";
      return `${who(d.seat)} wins set ${d.set}${points}${d.after_no_solution ? ' (after a "no solution")' : ""}${taken}.`;
    }
    case "NoSolutionCalled": return `${who(d.seat)} calls "no solution"${d.returns ? `, giving back ${cardText(d.returns)}` : ""}.`;
    case "NoSolutionAgreed": {
      const all = d.reason === "all_excluded" ? "Everyone is out of these cards" : 'Everyone agrees: "no solution"';
      const server = d.solvable === true ? ` The server says there was one: ${d.example}.`
        : d.solvable === false ? " The server confirms: there is none." : "";
      return `${all} for set ${d.set}.${server}`;
    }
    case "CardsReturned": return `Back to the bottom of the piles: ${(d.returns || []).map((r) => cardText(r.card)).join(" ")}.`;
    case "GameEnded": return gameOverInWords(view, d, ENDED);
    default: return null;
  }
}

function pushed(ctx, push) {
  const d = push.data || {};
  if (push.event_type === "CardsTurnedUp" && !push.catchUp) document.getElementById("solution").value = "";
  if (push.catchUp || d.seat !== ctx.you) return;
  if (push.event_type === "SolutionCalled") {
    fill("result", d.ok ? `Right: ${d.expression}.` : `Wrong: ${d.message || d.reason}. You are out of these four cards.`);
  }
  if (push.event_type === "RoundWon") fill("result", `You take the four cards${d.points ? ` (${plural(d.points, "point")})` : ""}.`);
  if (push.event_type === "NoSolutionCalled") fill("result", 'You called "no solution": waiting for the others.');
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
    if (!expression) { ctx.say("Type your solution first, e.g. (8-4)*(7-1)."); return; }
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
      h("h2", { id: "cards-heading" }, "The four cards"),
      h("p", { id: "set-number" }),
      h("div", { id: "table-cards", "aria-live": "polite" }),
      h("div", { id: "set-state", "aria-live": "polite" })),
    h("section", { "aria-labelledby": "call-heading", class: "answer" },
      h("h2", { id: "call-heading" }, "Your call"),
      h("form", { id: "call-form", onsubmit: call24 },
        h("label", { for: "solution" }, 'Your solution for "24!": every card once, + − × ÷ and brackets, e.g. (8-4)*(7-1)'),
        h("input", { id: "solution", name: "solution", autocomplete: "off", spellcheck: "false" }),
        h("button", { id: "call-24", class: "touch", type: "submit" }, "24!")),
      h("div", { id: "no-solution-group", role: "group", "aria-label": "No solution" },
        h("p", { id: "returns-line" }, h("label", { for: "returns" }, "The card you give back to your pile"),
          h("select", { id: "returns", name: "returns" })),
        h("button", { id: "no-solution", type: "button", onclick: noSolution }, "No solution")),
      h("p", { id: "message", class: "message", role: "alert" }),
      h("p", { id: "result", class: "result", "aria-live": "polite" }),
      h("p", { id: "you-state", class: "out", "aria-live": "polite" })),
    h("section", { "aria-labelledby": "game-heading", class: "game" },
      h("h2", { id: "game-heading" }, "The game"),
      h("p", { id: "scoring" }),
      h("div", { id: "end-result", "aria-live": "polite" }),
      gameControls(ctx)),
    h("section", { "aria-labelledby": "scores-heading", class: "scores" },
      h("h2", { id: "scores-heading" }, "Points and piles"),
      h("div", { id: "seats" })),
  ];
}

function render(ctx) {
  const view = ctx.view;
  fill("set-number", view.set ? `Set ${view.set}` : "");
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
  fill("you-state", player && out ? "You are out of these four cards: the others play on."
    : player && called && live ? 'You called "no solution".' : "");
  showGameControls(ctx, view);
}

/** The scoreboard's drawing of a deck40 table. */
function summary(view) {
  return [drawTable(view), ...setStateLines(view), drawScores(view), ...drawResult(view)];
}

export const deck40Game = {
  name: "deck40",
  title: "Kortspillet 24",
  deadlineWords: {},
  sections,
  render,
  words,
  pushed,
  summary,
  feedClass: (push) => (push.event_type === "RoundWon" ? "won" : push.event_type === "PlayerExcluded" ? "flag" : ""),
};

export default deck40Game; // its parts, found by games/index.js by this file's name
