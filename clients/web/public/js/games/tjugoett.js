// The Tjugoett page (docs/games/tjugoett.md): your own hand and its sum, "Draw" and "Stand"
// when it is your turn, the dealer's hand, every other hand exactly as the view shows it (a
// hidden card arrives as null and is drawn face down: nothing else is known here), the
// outcomes of the round, the win/loss tally; a person dealer's "Draw" and "Stand"; the
// officials' "Start a round" and "End the table". Which buttons are offered is the view's
// `your_commands` (server/games/tjugoett/senders.py, may_send); the server judges each.
import { fill, h, seatsTable } from "../draw.js";
import { casualEventWords, settledWhy } from "../event_words.js";
import { wordTable } from "../word_tables.js";
import { say, seatName, web } from "../words.js";
import { playerCell, setDisabled, setShown } from "./shell.js";

const SUIT_SIGNS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const SUIT_WORDS = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };

const W = wordTable("tjugoett", {
  the_dealer: null, dealer_seat: ["name"], sum: ["sum"], wins: ["who", "why"],
  loses: ["who", "why"], person_deals: ["name"], server_deals: ["n"], hands_label: null, you: null, faces: null,
  hand_of: ["name"], against: null, tally_caption: ["n"], tally_headings: { list: ["who", "won", "lost"] },
  dealer_hand: null, facing_you: ["round"], facing: ["round", "name"], facing_dealer_plays: ["round", "name"],
  facing_you_dealer_plays: ["round"], table_over: ["n"], round_over: ["round", "phase"], between_rounds: null,
  waiting_first: null, you_win: ["why"], you_lose: ["why"], mine_heading: null, your_move: null, draw: null,
  stand: null, dealer_heading: null, time_left: null, dealer_move: null, dealer_draw: null, dealer_stand: null,
  table_heading: null, table_group: null, start_round: null, end_table: null, confirm_end: null,
  tally_heading: null, your_cards: null, your_sum: ["sum"], your_turn: null, you_stand: null, piles: ["draw", "n"],
  title: null,
});

/** `10H` -> `10♥`. */
function cardText(code) {
  return `${code.slice(0, -1)}${SUIT_SIGNS[code.slice(-1)] || "?"}`;
}

function cardWords(code) {
  const rank = code.slice(0, -1);
  const named = ["A", "J", "Q", "K"].includes(rank) ? web(`cards.rank.${rank}`) : rank;
  return web("cards.name", { rank: named, suit: web(`cards.suit.${SUIT_WORDS[code.slice(-1)] || "spades"}`) });
}

/** The names: seats (words.js `seatName`), the person dealer's seat, and "the dealer". */
function nameOf(view, seat) {
  if (seat === "dealer") return W.the_dealer;
  const dealer = view.dealer || {};
  if (dealer.seat && seat === dealer.seat) return W.dealer_seat(dealer.name ? seatName(view, seat) : W.the_dealer);
  return seatName(view, seat);
}

/** A hand as its viewer may see it: the cards face up, or `count` cards face down. */
function drawHand(cards, count, label) {
  const items = cards === null || cards === undefined
    ? Array.from({ length: count }, () => h("li", {},
      h("div", { class: "playing-card back", role: "img", "aria-label": web("cards.hidden"), "data-hidden": "" })))
    : cards.map((code) => {
      const red = code.endsWith("H") || code.endsWith("D");
      return h("li", {}, h("div", { class: `playing-card ${red ? "red" : "black"}`, role: "img", "aria-label": cardWords(code), "data-card": code },
        h("span", { class: "corner", "aria-hidden": "true" }, code.slice(0, -1), h("br"), SUIT_SIGNS[code.slice(-1)]),
        h("span", { class: "pip", "aria-hidden": "true" }, SUIT_SIGNS[code.slice(-1)])));
    });
  return h("ul", { class: "playing-cards hand", "aria-label": label }, items.length ? items : [h("li", { class: "none" }, web("cards.none"))]);
}

function sumText(hand) {
  return hand.sum === null || hand.sum === undefined ? "" : W.sum(hand.sum);
}

function resultWords(view, result) {
  const why = settledWhy(result, view, nameOf);
  return result.winner === "player" ? W.wins(nameOf(view, result.seat), why) : W.loses(nameOf(view, result.seat), why);
}

function dealerLine(view) {
  const dealer = view.dealer;
  return dealer.seat ? W.person_deals(dealer.name ? seatName(view, dealer.seat) : W.the_dealer) : W.server_deals(dealer.stands_at);
}

function drawSeats(view) {
  const results = new Map((view.results || []).map((result) => [result.seat, result]));
  return h("ul", { class: "hands", "aria-label": W.hands_label }, (view.seats || []).map((seat) => {
    const facing = seat.facing_dealer && ["player_turn", "dealer_turn"].includes(view.phase);
    const result = results.get(seat.seat);
    return h("li", { class: `seat-hand${facing ? " facing" : ""}`, "data-seat": seat.seat },
      h("p", { class: "who" }, facing ? "▶ " : "", nameOf(view, seat.seat), seat.seat === view.you ? ` ${W.you}` : "",
        facing ? ` ${W.faces}` : ""),
      // a settled turn's cards are on the discard pile: its result keeps them
      result ? drawHand(result.player_cards, 0, W.hand_of(nameOf(view, seat.seat)))
        : drawHand(seat.cards, seat.count, W.hand_of(nameOf(view, seat.seat))),
      h("p", { class: "sum" }, result ? "" : sumText(seat)),
      result ? h("p", { class: `outcome ${result.winner === "player" ? "won" : "lost"}`, "data-winner": result.winner }, resultWords(view, result)) : null,
      result && (result.dealer_cards || []).length ? h("p", { class: "against" }, W.against, " ",
        h("span", { class: "dealer-cards", "data-cards": result.dealer_cards.join(" ") }, result.dealer_cards.map(cardText).join(" "))) : null);
  }));
}

function drawTally(view) {
  const rows = Object.entries(view.tally || {}).map(([seat, entry]) =>
    h("tr", { "data-seat": seat },
      playerCell(view, seat, nameOf),
      h("td", { class: "won", "data-won": entry.won }, entry.won),
      h("td", { class: "lost", "data-lost": entry.lost }, entry.lost)));
  return seatsTable(W.tally_caption(view.round), W.tally_headings, rows, "tally");
}

function drawDealer(view) {
  const dealer = view.dealer;
  return [h("p", {}, dealerLine(view)),
    drawHand(dealer.cards, dealer.cards.length, W.dealer_hand),
    h("p", { class: "sum dealer-sum" }, sumText(dealer))];
}

function phaseLine(view) {
  if (view.phase === "player_turn" || view.phase === "dealer_turn") {
    const dealerPlays = view.phase === "dealer_turn";
    if (view.turn === view.you) return dealerPlays ? W.facing_you_dealer_plays(view.round) : W.facing_you(view.round);
    return dealerPlays ? W.facing_dealer_plays(view.round, nameOf(view, view.turn)) : W.facing(view.round, nameOf(view, view.turn));
  }
  if (view.phase === "table_over") return W.table_over(view.round);
  return view.round ? W.round_over(view.round, W.between_rounds) : W.waiting_first;
}

function words(push, view) {
  return casualEventWords("tjugoett", push, view, nameOf);
}

function pushed(ctx, push) {
  const d = push.data || {};
  if (push.catchUp) return;
  if (push.event_type === "RoundStarted") fill("result", "");
  if (push.event_type === "TurnSettled" && d.seat === ctx.you) {
    const why = settledWhy(d, ctx.view, nameOf);
    fill("result", d.winner === "player" ? W.you_win(why) : W.you_lose(why));
  }
}

function sections(ctx) {
  const button = (id, text, command, keys) =>
    h("button", { id, type: "button", "aria-keyshortcuts": keys, onclick: () => ctx.send(command) }, text);
  return [
    h("section", { id: "mine", "aria-labelledby": "mine-heading", class: "play" },
      h("h2", { id: "mine-heading" }, W.mine_heading),
      h("div", { id: "my-hand", "aria-live": "polite" }),
      h("p", { id: "my-sum", class: "big-sum", "aria-live": "polite" }),
      h("p", { id: "my-turn" }),
      h("div", { class: "row", role: "group", "aria-label": W.your_move },
        button("draw", W.draw, "draw_card", "D"),
        button("stand", W.stand, "stand", "S")),
      h("p", { id: "message", class: "message", role: "alert" }),
      h("p", { id: "result", class: "result", "aria-live": "polite" })),
    h("section", { "aria-labelledby": "dealer-heading", class: "dealer" },
      h("h2", { id: "dealer-heading" }, W.dealer_heading),
      h("div", { id: "dealer-hand", "aria-live": "polite" }),
      h("ul", { id: "countdowns", class: "countdowns", "aria-label": W.time_left }),
      h("div", { id: "dealer-controls", class: "row", role: "group", "aria-label": W.dealer_move },
        button("dealer-draw", W.dealer_draw, "dealer_draw", "D"),
        button("dealer-stand", W.dealer_stand, "dealer_stand", "S"))),
    h("section", { "aria-labelledby": "table-heading", class: "table" },
      h("h2", { id: "table-heading" }, W.table_heading),
      h("p", { id: "phase" }),
      h("div", { id: "hands" }),
      h("p", { id: "piles" }),
      h("div", { class: "row", role: "group", "aria-label": W.table_group },
        button("start-round", W.start_round, "start_round"),
        h("button", { id: "end-table", type: "button", onclick: () => { if (confirm(W.confirm_end)) ctx.send("end_table"); } }, W.end_table))),
    h("section", { "aria-labelledby": "tally-heading", class: "scores" },
      h("h2", { id: "tally-heading" }, W.tally_heading),
      h("div", { id: "tally" })),
  ];
}

let wasAsked = false; // this viewer had a move at the last drawing (its turn: focus "Draw")

function render(ctx) {
  const view = ctx.view;
  const commands = ctx.online() ? view.your_commands || [] : [];
  const mine = (view.seats || []).find((seat) => seat.seat === view.you);
  setShown("mine", view.your_role === "player" && Boolean(mine));
  if (mine) {
    // once your turn is settled your cards are on the discard pile: its result keeps them
    const settled = (view.results || []).find((result) => result.seat === view.you);
    const hand = settled ? { cards: settled.player_cards, count: 0, sum: settled.player_sum } : mine;
    fill("my-hand", drawHand(hand.cards, hand.count, W.your_cards));
    fill("my-sum", hand.sum === null || hand.sum === undefined ? "" : W.your_sum(hand.sum));
    fill("my-turn", view.phase === "player_turn" && view.turn === view.you ? W.your_turn
      : view.turn === view.you && view.phase === "dealer_turn" ? W.you_stand : "");
  }
  fill("dealer-hand", drawDealer(view));
  fill("phase", phaseLine(view));
  fill("hands", drawSeats(view));
  fill("piles", W.piles(view.draw_pile, (view.discard_pile || []).length));
  fill("tally", drawTally(view));
  for (const [id, command] of [["draw", "draw_card"], ["stand", "stand"], ["dealer-draw", "dealer_draw"],
    ["dealer-stand", "dealer_stand"], ["start-round", "start_round"], ["end-table", "end_table"]]) {
    setDisabled(id, !commands.includes(command));
  }
  setShown("dealer-controls", view.your_role === "dealer");
  const asked = commands.includes("draw_card") || commands.includes("dealer_draw");
  if (asked && !wasAsked) ctx.focus(commands.includes("draw_card") ? "draw" : "dealer-draw");
  wasAsked = asked;
  setShown("start-round", view.your_role === "dealer" || ctx.steward);
  setShown("end-table", ctx.steward && view.phase !== "table_over");
}

/** The scoreboard's drawing of a Tjugoett table. */
function summary(view) {
  return [h("p", {}, phaseLine(view)), ...drawDealer(view), drawSeats(view), drawTally(view)];
}

export const tjugoettGame = {
  name: "tjugoett",
  get title() { return W.title; },
  nameOf,
  keys: { d: ["draw", "dealer-draw"], s: ["stand", "dealer-stand"] },
  get deadlineWords() {
    return Object.fromEntries(["dealer_play", "turn_deadline", "start_round"].map((code) => [code, say("tjugoett", `deadline.${code}`)]));
  },
  sections,
  render,
  words,
  pushed,
  summary,
  feedClass: (push) => (push.event_type === "TurnSettled" ? (push.data.winner === "player" ? "won" : "flag") : ""),
};

export default tjugoettGame; // its parts, found by games/index.js by this file's name
/** The page's word table, for the browser test that walks every key (tests/e2e/test_web_languages.py). */
export { W as WORDS };
