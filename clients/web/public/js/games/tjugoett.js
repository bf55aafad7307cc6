// The Tjugoett page (docs/games/tjugoett.md): your own hand and its sum, "Draw" and "Stand"
// when it is your turn, the dealer's hand, every other hand exactly as the view shows it (a
// hidden card arrives as null and is drawn face down: nothing else is known here), the
// outcomes of the round, the win/loss tally; a person dealer's "Draw" and "Stand"; the
// officials' "Start a round" and "End the table". Which buttons are offered is the view's
// `your_commands` (server/games/tjugoett/senders.py, may_send); the server judges each.
import { fill, h, seatsTable } from "../draw.js";
import { playerCell, setDisabled, setShown } from "./shell.js";

const SUIT_SIGNS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const SUIT_WORDS = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const RANK_WORDS = { A: "ace", J: "jack", Q: "queen", K: "king" };
const REASONS = {
  twenty_one: "21",
  five_cards: "five cards under 21",
  bust: "bust",
  dealer_twenty_one: "the dealer has 21",
  dealer_five_cards: "the dealer has five cards under 21",
  dealer_bust: "the dealer is bust",
  dealer_at_or_above: "the dealer stood at or above",
  dealer_below: "the dealer stood below",
};
const PHASES = {
  between_rounds: "Between rounds.",
  player_turn: "A player faces the dealer.",
  dealer_turn: "The dealer's turn.",
  table_over: "The table is over.",
};
const ROUND_ENDS = { all_played: "every player has played", no_card_to_draw: "no card left to draw", ended_by_director: "ended by the director" };

/** `10H` -> `10♥`. */
function cardText(code) {
  return `${code.slice(0, -1)}${SUIT_SIGNS[code.slice(-1)] || "?"}`;
}

function cardWords(code) {
  const rank = code.slice(0, -1);
  return `${RANK_WORDS[rank] || rank} of ${SUIT_WORDS[code.slice(-1)] || "?"}`;
}

/** The names: seats, the person dealer's seat, and "the dealer". */
function nameOf(view, seat) {
  if (seat === "dealer") return "the dealer";
  const dealer = view.dealer || {};
  if (dealer.seat && seat === dealer.seat) return `${dealer.name || "the dealer"} (the dealer)`;
  const found = (view.seats || []).find((entry) => entry.seat === seat);
  return found && found.name ? `${found.name} (${seat})` : String(seat);
}

/** A hand as its viewer may see it: the cards face up, or `count` cards face down. */
function drawHand(cards, count, label) {
  const items = cards === null || cards === undefined
    ? Array.from({ length: count }, () => h("li", {},
      h("div", { class: "playing-card back", role: "img", "aria-label": "a hidden card", "data-hidden": "" })))
    : cards.map((code) => {
      const red = code.endsWith("H") || code.endsWith("D");
      return h("li", {}, h("div", { class: `playing-card ${red ? "red" : "black"}`, role: "img", "aria-label": cardWords(code), "data-card": code },
        h("span", { class: "corner", "aria-hidden": "true" }, code.slice(0, -1), h("br"), SUIT_SIGNS[code.slice(-1)]),
        h("span", { class: "pip", "aria-hidden": "true" }, SUIT_SIGNS[code.slice(-1)])));
    });
  return h("ul", { class: "playing-cards hand", "aria-label": label }, items.length ? items : [h("li", { class: "none" }, "no cards")]);
}

function sumText(hand) {
  return hand.sum === null || hand.sum === undefined ? "" : `Sum ${hand.sum}`;
}

function resultWords(view, result) {
  const won = result.winner === "player";
  const known = (value) => value !== null && value !== undefined;
  const against = known(result.dealer_sum) ? ` against the dealer's ${result.dealer_sum}` : "";
  const sums = known(result.player_sum) ? ` (${result.player_sum}${against})` : "";
  return `${nameOf(view, result.seat)} ${won ? "wins" : "loses"}: ${REASONS[result.reason] || result.reason}${sums}.`;
}

function dealerLine(view) {
  const dealer = view.dealer;
  return dealer.seat ? `${dealer.name || dealer.seat} deals.` : `The server deals and stands at ${dealer.stands_at} or more with at least two cards.`;
}

function drawSeats(view) {
  const results = new Map((view.results || []).map((result) => [result.seat, result]));
  return h("ul", { class: "hands", "aria-label": "The players' hands" }, (view.seats || []).map((seat) => {
    const facing = seat.facing_dealer && ["player_turn", "dealer_turn"].includes(view.phase);
    const result = results.get(seat.seat);
    return h("li", { class: `seat-hand${facing ? " facing" : ""}`, "data-seat": seat.seat },
      h("p", { class: "who" }, facing ? "▶ " : "", nameOf(view, seat.seat), seat.seat === view.you ? " (you)" : "",
        facing ? " faces the dealer" : ""),
      // a settled turn's cards are on the discard pile: its result keeps them
      result ? drawHand(result.player_cards, 0, `${nameOf(view, seat.seat)}'s hand`)
        : drawHand(seat.cards, seat.count, `${nameOf(view, seat.seat)}'s hand`),
      h("p", { class: "sum" }, result ? "" : sumText(seat)),
      result ? h("p", { class: `outcome ${result.winner === "player" ? "won" : "lost"}`, "data-winner": result.winner }, resultWords(view, result)) : null,
      result && (result.dealer_cards || []).length ? h("p", { class: "against" }, "Against the dealer's ",
        h("span", { class: "dealer-cards", "data-cards": result.dealer_cards.join(" ") }, result.dealer_cards.map(cardText).join(" ")), ".") : null);
  }));
}

function drawTally(view) {
  const rows = Object.entries(view.tally || {}).map(([seat, entry]) =>
    h("tr", { "data-seat": seat },
      playerCell(view, seat, nameOf),
      h("td", { class: "won", "data-won": entry.won }, entry.won),
      h("td", { class: "lost", "data-lost": entry.lost }, entry.lost)));
  return seatsTable(`Tally after ${view.round} round${view.round === 1 ? "" : "s"}`, ["Who", "Won", "Lost"], rows, "tally");
}

function drawDealer(view) {
  const dealer = view.dealer;
  return [h("p", {}, dealerLine(view)),
    drawHand(dealer.cards, dealer.cards.length, "The dealer's hand"),
    h("p", { class: "sum dealer-sum" }, sumText(dealer))];
}

function phaseLine(view) {
  if (view.phase === "player_turn" || view.phase === "dealer_turn") {
    const facing = view.turn === view.you ? "You face" : `${nameOf(view, view.turn)} faces`;
    return `Round ${view.round}: ${facing} the dealer${view.phase === "dealer_turn" ? "; the dealer plays" : ""}.`;
  }
  if (view.phase === "table_over") return `The table is over after ${view.round} round${view.round === 1 ? "" : "s"}.`;
  return view.round ? `Round ${view.round} is over. ${PHASES.between_rounds}` : "Waiting for the first round.";
}

function words(push, view) {
  const d = push.data || {};
  const who = (seat) => nameOf(view, seat);
  switch (push.event_type) {
    case "TableCreated": return "Table created.";
    case "RoundStarted": return `Round ${d.round}: the deck is shuffled; one card to each player.`;
    case "TurnStarted": return `${who(d.seat)} faces the dealer.`;
    case "CardDealt":
      return d.card === null || d.card === undefined ? `${who(d.seat)} gets a card (${d.cards} card${d.cards === 1 ? "" : "s"}).`
        : `${who(d.seat)} gets ${cardText(d.card)} (${d.sum}).`;
    case "PlayerStood": return `${who(d.seat)} stands${d.sum === null || d.sum === undefined ? "" : ` at ${d.sum}`}.`;
    case "DealerCardDealt": return `The dealer draws ${cardText(d.card)} (${d.sum}).`;
    case "DealerStood": return `The dealer stands at ${d.sum}.`;
    case "TurnSettled": return resultWords(view, d);
    case "CardsDiscarded": return `${who(d.holder)}'s cards go to the discard pile.`;
    case "DiscardsReshuffled": return `One card left: ${d.added} discards shuffled into the draw pile.`;
    case "DrawFailed": return `No card to draw: ${d.message}`;
    case "RoundEnded": return `Round ${d.round} is over (${ROUND_ENDS[d.reason] || d.reason}).`;
    case "TableEnded": return `The table is over after ${d.rounds} round${d.rounds === 1 ? "" : "s"}.`;
    default: return null;
  }
}

function pushed(ctx, push) {
  const d = push.data || {};
  if (push.catchUp) return;
  if (push.event_type === "RoundStarted") fill("result", "");
  if (push.event_type === "TurnSettled" && d.seat === ctx.you) {
    fill("result", `${d.winner === "player" ? "You win" : "You lose"}: ${REASONS[d.reason] || d.reason}.`);
  }
}

function sections(ctx) {
  const button = (id, text, command, keys) =>
    h("button", { id, type: "button", "aria-keyshortcuts": keys, onclick: () => ctx.send(command) }, text);
  return [
    h("section", { id: "mine", "aria-labelledby": "mine-heading", class: "play" },
      h("h2", { id: "mine-heading" }, "Your hand"),
      h("div", { id: "my-hand", "aria-live": "polite" }),
      h("p", { id: "my-sum", class: "big-sum", "aria-live": "polite" }),
      h("p", { id: "my-turn" }),
      h("div", { class: "row", role: "group", "aria-label": "Your move" },
        button("draw", "Draw a card (D)", "draw_card", "D"),
        button("stand", "Stand (S)", "stand", "S")),
      h("p", { id: "message", class: "message", role: "alert" }),
      h("p", { id: "result", class: "result", "aria-live": "polite" })),
    h("section", { "aria-labelledby": "dealer-heading", class: "dealer" },
      h("h2", { id: "dealer-heading" }, "The dealer"),
      h("div", { id: "dealer-hand", "aria-live": "polite" }),
      h("ul", { id: "countdowns", class: "countdowns", "aria-label": "Time left" }),
      h("div", { id: "dealer-controls", class: "row", role: "group", "aria-label": "The dealer's move" },
        button("dealer-draw", "Dealer: draw a card (D)", "dealer_draw", "D"),
        button("dealer-stand", "Dealer: stand (S)", "dealer_stand", "S"))),
    h("section", { "aria-labelledby": "table-heading", class: "table" },
      h("h2", { id: "table-heading" }, "The table"),
      h("p", { id: "phase" }),
      h("div", { id: "hands" }),
      h("p", { id: "piles" }),
      h("div", { class: "row", role: "group", "aria-label": "The table" },
        button("start-round", "Start a round", "start_round"),
        h("button", { id: "end-table", type: "button", onclick: () => { if (confirm("End the table now?")) ctx.send("end_table"); } }, "End the table"))),
    h("section", { "aria-labelledby": "tally-heading", class: "scores" },
      h("h2", { id: "tally-heading" }, "Wins and losses"),
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
    fill("my-hand", drawHand(hand.cards, hand.count, "Your cards"));
    fill("my-sum", hand.sum === null || hand.sum === undefined ? "" : `Your sum: ${hand.sum}`);
    fill("my-turn", view.phase === "player_turn" && view.turn === view.you ? "Your turn: draw a card or stand."
      : view.turn === view.you && view.phase === "dealer_turn" ? "You stand: the dealer plays." : "");
  }
  fill("dealer-hand", drawDealer(view));
  fill("phase", phaseLine(view));
  fill("hands", drawSeats(view));
  fill("piles", `Draw pile: ${view.draw_pile} cards. Discard pile: ${(view.discard_pile || []).length} cards.`);
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
  title: "Tjugoett",
  nameOf,
  keys: { d: ["draw", "dealer-draw"], s: ["stand", "dealer-stand"] },
  deadlineWords: { dealer_play: "The dealer moves in", turn_deadline: "Time to move:", start_round: "Next round in" },
  sections,
  render,
  words,
  pushed,
  summary,
  feedClass: (push) => (push.event_type === "TurnSettled" ? (push.data.winner === "player" ? "won" : "flag") : ""),
};

export default tjugoettGame; // its parts, found by games/index.js by this file's name
