// The events and codes of every game in words, from the catalogue's game vocabularies
// (`challenge`, `pocket`, `deck40`, `tjugoett`, `practice`): the same keys, placeholders and
// variants the terminal (clients/reference_cli/games/*) and the officials' report use, so an
// event reads the same everywhere, in every language. This module only picks a key and its
// values from an event's data; the sentence is the catalogue's.
import { asSentence, codeInWords, has, language, namesInWords, say, seatName, seatNames, web } from "./words.js";

/** A sentence of the catalogue as the pages show it (words.js `asSentence`). */
export const sentence = asSentence;

function unknownEvent() {
  return has("common", "event.unknown") ? say("common", "event.unknown") : web("event.unknown");
}

/** Why an answer is wrong: on an English page the judge's own message (it names the step
 * at fault: "step 1: 1 + 2 makes 3, not 4"), else its reason code in the page's words. */
export function answerReason(reason, message = "") {
  if (message && language() === "en") return message;
  if (reason && has("common", `reason.${reason}`)) return say("common", `reason.${reason}`);
  return message || (has("common", "reason.unknown") ? say("common", "reason.unknown") : String(reason || ""));
}

/** A flag's cause (R-FLAG-1, a disqualification's): the challenge's `reason.<cause>`. */
export function flagCause(cause) {
  return codeInWords("challenge", "reason", cause);
}

/** Who ruled or reopened, in words: a role (`the proctor`, `the director`). */
function byWords(d) {
  const key = `role.${d.by || "director"}`;
  return say("challenge", has("challenge", key) ? key : "role.director");
}

/** A network lag or credit in words ("12 ms", "none (stale)"). */
function lagWords(microseconds) {
  return Number.isInteger(microseconds) ? say("challenge", "lag", { ms: microseconds / 1000 }) : say("challenge", "lag.none");
}

/** A table's scores as the terminal says them ("Ada 3, Bo 1"). */
function scoresWords(scores, who) {
  return Object.entries(scores || {}).map(([seat, points]) => say("challenge", "score", { name: who(seat), points })).join(", ");
}

/** Why a round ended (RoundEnded `reason`, the view's `end_reason`). */
export function endReasonInWords(reason) {
  return codeInWords("challenge", "reason", reason);
}

function seatsNames(data) {
  const seats = ((data.options || {}).seats) || [];
  return { n: seats.length, names: namesInWords([...seatNames(seats).values()]) };
}

function count(value) {
  return Array.isArray(value) ? value.length : Number(value || 0);
}

/** A challenge card as the terminal names it: `card SD-02 (play 5)`, `a card (play 5)`. */
function cardLabel(d) {
  const known = d.card_id !== null && d.card_id !== undefined;
  const played = d.play !== null && d.play !== undefined;
  const key = known ? (played ? "card" : "card.no_play") : (played ? "card.hidden" : "card.hidden_no_play");
  return say("challenge", key, { card_id: d.card_id, play: d.play });
}

function signed(delta) {
  const value = Number(delta || 0);
  return value > 0 ? `+${value}` : String(value);
}

/** A correction of a ruling (`ProtestRuled.corrections`) in the challenge's words. */
function correctionWords(correction, who) {
  const key = `correction.${correction.kind}`;
  if (!has("challenge", key)) return String(correction.kind);
  return say("challenge", key, { who: who(correction.seat), flag: correction.flag, card: correction.card,
    delta: signed(correction.delta), why: correction.why });
}

/** One 24 Challenge event as a sentence for the feed (names for seats). */
export function eventInWords(push, view) {
  const d = push.data || {};
  const kind = push.event_type;
  const who = (seat) => (seat === null || seat === undefined ? say("challenge", "nobody") : seatName(view, seat));
  const numbers = (d.numbers || []).join(" ");
  const fields = { who: who(d.seat), card: cardLabel(d), numbers };
  let key = `event.${kind}`;
  switch (kind) {
    case "TableCreated": Object.assign(fields, seatsNames(d)); break;
    case "RoundStarted": {
      Object.assign(fields, { round: d.round, n: count(d.deck) });
      const removed = count(d.removed);
      if (removed) {
        return sentence(`${say("challenge", key, fields)}, ${say("challenge", "event.RoundStarted.removed", { n: removed })}`);
      }
      break;
    }
    case "CardPlaced": if (d.numbers) key += ".shown"; break;
    case "CardRevealed": fields.n = d.dots || 0; break;
    case "CardTouched": fields.n = d.fingertips || 1; break;
    case "TouchRefused": fields.toucher = who(d.toucher); break;
    case "TouchClaimed": // R-PLAY-2, lag compensated: when it arrived, its lag and credit
      Object.assign(fields, { arrival: d.arrival, lag: lagWords(d.delay_us), credit: lagWords(d.credit_us), compensated: d.compensated_at });
      break;
    case "FirstTouchGranted": { // the arbitration's two orders: by compensated time, by arrival
      const considered = d.considered || [];
      const byTime = [...considered].sort((a, b) => (a.compensated_at || 0) - (b.compensated_at || 0) || (a.arrival || 0) - (b.arrival || 0));
      fields.compensated = byTime.map((c) => who(c.seat)).join(", ");
      fields.arrival = considered.map((c) => who(c.seat)).join(", ");
      break;
    }
    case "FirstTouchOverridden": fields.previous = who(d.previous); break;
    case "PatternDeclared": fields.pattern = d.canonical || d.pattern; break;
    case "StepsStated": case "SolutionFixed": fields.steps = (d.steps || []).join("; "); break;
    case "SolutionJudged": key += d.ok ? ".right" : ".wrong"; fields.why = answerReason(d.reason, d.message); break;
    case "CardWon": fields.n = d.dots || 0; break;
    case "FlagIssued": Object.assign(fields, { cause: flagCause(d.cause), flags: d.flags }); break;
    case "PlayerDisqualified": if (d.cause === "slap") key += ".slap"; fields.n = d.flags || 0; break;
    case "CardStumped": fields.why = codeInWords("challenge", "reason", d.reason); break;
    case "StumpedCardsReturned":
      fields.n = count(d.cards);
      fields.cards = Array.isArray(d.cards) ? d.cards.join(", ") : "";
      break;
    case "TablePaused": fields.cause = codeInWords("challenge", "reason", d.cause); break;
    case "PlayBegan": if (["students", "proctor", "director"].includes(d.by)) key += `.${d.by}`; break;
    case "SeatMarked": key += d.mark === "absent" ? ".absent" : ".present"; break;
    case "RoundEnded":
      fields.why = endReasonInWords(d.reason);
      fields.scores = scoresWords(d.scores, who);
      break;
    case "ProtestFiled":
      Object.assign(fields, { who: who(d.by), protest: d.protest, reason: d.reason, seqs: (d.seqs || []).map((seq) => `#${seq}`).join(", ") });
      break;
    case "ProtestRuled": {
      const ruling = say("challenge", `event.ProtestRuled.${d.upheld ? "upheld" : "rejected"}`, { protest: d.protest, by: byWords(d), text: d.ruling_text });
      const fixes = (d.corrections || []).map((correction) => correctionWords(correction, who));
      return sentence(fixes.length ? say("challenge", "event.ProtestRuled.corrections", { ruling, corrections: fixes.join(", ") }) : ruling);
    }
    case "FlagRescinded": Object.assign(fields, { flag: d.flag, n: d.flags }); break;
    case "PlayerReinstated": fields.from_play = d.from_play; break;
    case "CardAwarded": case "CardAwardRevoked": Object.assign(fields, { card: d.card, n: d.dots || 0 }); break;
    case "ScoreAdjusted": Object.assign(fields, { delta: signed(d.delta), why: d.why }); break;
    case "ScoreCardSigned":
      fields.initials = d.initials;
      fields.scores = scoresWords(d.scores, who);
      break;
    case "ScoreCardReopened": Object.assign(fields, { by: byWords(d), reason: d.reason }); break;
    default: break;
  }
  return sentence(has("challenge", key) ? say("challenge", key, fields) : unknownEvent());
}

/** One of the student's own events, said to them ("You won the card (3 points)."): the
 * result line of their attempt (student.js). Any other event as the feed says it. */
export function ownEventInWords(push, view) {
  const d = push.data || {};
  switch (push.event_type) {
    case "PatternDeclared": return web("own.PatternDeclared", { pattern: d.canonical || d.pattern });
    case "SolutionJudged": return d.ok ? web("own.SolutionJudged.right") : web("own.SolutionJudged.wrong", { why: answerReason(d.reason, d.message) });
    case "CardWon": return web("own.CardWon", { n: d.dots || 0 });
    case "FlagIssued": return web("own.FlagIssued", { cause: flagCause(d.cause), flags: d.flags });
    case "PlayerDisqualified": return web("own.PlayerDisqualified", { cause: flagCause(d.cause) });
    default: return eventInWords(push, view);
  }
}

// -- the casual games -------------------------------------------------------------------

const SUIT_SIGNS = { C: "♣", D: "♦", H: "♥", S: "♠", clubs: "♣", diamonds: "♦", hearts: "♥", spades: "♠" };

/** A playing card as the logs name it (`10H`, `AS`) or as a view draws it ({rank, suit}):
 * `10♥`, `A♠`. */
export function playingCardText(card) {
  if (card === null || card === undefined) return "??";
  if (typeof card === "string") return `${card.slice(0, -1)}${SUIT_SIGNS[card.slice(-1)] || "?"}`;
  return `${card.rank === 1 ? "A" : String(card.rank)}${SUIT_SIGNS[card.suit] || "?"}`;
}

function deck40Event(push, view, nameOf) {
  const d = push.data || {};
  const kind = push.event_type;
  const fields = { who: d.seat ? nameOf(view, d.seat) : say("challenge", "nobody"), set: d.set };
  let key = `event.${kind}`;
  switch (kind) {
    case "TableCreated": Object.assign(fields, seatsNames(d)); break;
    case "GameStarted": key += `.${d.layout}`; break;
    case "CardsTurnedUp":
      fields.cards = (d.cards || []).map((card) => playingCardText(card) + (card.seat ? ` (${nameOf(view, card.seat)})` : "")).join("  ");
      break;
    case "SolutionCalled": key += d.ok ? ".right" : ".wrong"; Object.assign(fields, { expression: d.expression, why: answerReason(d.reason, d.message) }); break;
    case "NoSolutionCalled": if (d.returns) fields.card = playingCardText(d.returns); else key += ".common"; break;
    case "NoSolutionAgreed":
      if (d.solvable === null || d.solvable === undefined) key += `.${d.reason}`;
      else { key += d.solvable ? ".solvable" : ".unsolvable"; fields.example = d.example; }
      break;
    case "RoundWon":
      if (d.taken_by) { key += ".house"; fields.loser = nameOf(view, d.taken_by); } else if (!d.points) key += ".cards";
      fields.n = d.points || 0;
      break;
    case "CardsReturned": fields.cards = (d.returns || []).map((entry) => playingCardText(entry.card)).join("  "); break;
    case "GameEnded": key += `.${d.reason}`; fields.names = namesInWords((d.winners || []).map((seat) => nameOf(view, seat))); break;
    default: break;
  }
  return has("deck40", key) ? say("deck40", key, fields) : null;
}

/** Why a Tjugoett turn was won or lost, in a whole sentence (a `TurnSettled`, a result). */
export function settledWhy(result, view, nameOf) {
  const key = `reason.${result.reason}`;
  if (!has("tjugoett", key)) return String(result.reason);
  return say("tjugoett", key, { who: nameOf(view, result.seat), player_sum: result.player_sum, dealer_sum: result.dealer_sum });
}

/** A Tjugoett hand as the terminal writes it: `8♣ 10♥ = 18`, `?? ??`, `-`. */
export function handText(cards, total, cardCount) {
  if (cards === null || cards === undefined) return Array.from({ length: cardCount }, () => "??").join(" ") || "-";
  if (!cards.length) return "-";
  const shown = cards.map(playingCardText).join(" ");
  return total === null || total === undefined ? shown : `${shown} = ${total}`;
}

function tjugoettEvent(push, view, nameOf) {
  const d = push.data || {};
  const kind = push.event_type;
  const fields = { who: nameOf(view, d.seat), sum: d.sum };
  let key = `event.${kind}`;
  switch (kind) {
    case "TableCreated": Object.assign(fields, seatsNames(d)); break;
    case "RoundStarted": fields.round = d.round; break;
    case "CardDealt": if (d.card === null || d.card === undefined) { key += ".hidden"; fields.n = d.cards; } else fields.card = playingCardText(d.card); break;
    case "PlayerStood": {
      const timeout = d.cause === "turn_seconds";
      const hidden = d.sum === null || d.sum === undefined;
      key += timeout ? (hidden ? ".timeout_hidden" : ".timeout") : (hidden ? ".hidden" : "");
      break;
    }
    case "DealerCardDealt": fields.card = playingCardText(d.card); break;
    case "TurnSettled":
      key += d.winner === "player" ? ".won" : ".lost";
      fields.why = settledWhy(d, view, nameOf);
      fields.hand = handText(d.player_cards, d.player_sum, 0);
      break;
    case "CardsDiscarded": fields.who = nameOf(view, d.holder); break;
    case "DiscardsReshuffled": fields.n = d.added; break;
    case "DrawFailed": fields.who = nameOf(view, d.for_whom); break;
    case "RoundEnded": key += `.${d.reason}`; fields.round = d.round; break;
    case "TableEnded": fields.n = d.rounds; break;
    default: break;
  }
  return has("tjugoett", key) ? say("tjugoett", key, fields) : null;
}

function pocketEvent(push, view, nameOf) {
  const d = push.data || {};
  const kind = push.event_type;
  const fields = { who: d.seat ? nameOf(view, d.seat) : say("challenge", "nobody"), number: d.number };
  let key = `event.${kind}`;
  switch (kind) {
    case "TableCreated": Object.assign(fields, seatsNames(d)); break;
    case "GameStarted": fields.n = count(d.stack); break;
    case "CardTurnedUp": Object.assign(fields, { numbers: (d.numbers || []).join(" "), n: d.dots }); break;
    case "AnswerJudged": key += d.ok ? ".right" : ".wrong"; Object.assign(fields, { expression: d.expression, why: answerReason(d.reason, d.message) }); break;
    case "PlayerExcluded": case "CardSetAside": case "GameEnded": key += `.${d.reason}`; break;
    case "CardWon": if ((d.bonus || []).length) key += ".bonus"; fields.n = d.points; break;
    case "GamePaused": fields.cause = codeInWords("pocket", "reason", d.cause); break;
    default: break;
  }
  return has("pocket", key) ? say("pocket", key, fields) : null;
}

/** A rating as the practice game says it (`1480 ± 120`). */
export function muText(rating) {
  if (!rating) return say("practice", "screen.rating.none");
  return say("practice", "screen.rating", { mu: Math.round(rating.mu), sigma: Math.round(rating.sigma) });
}

function waysText(solutions) {
  if (!solutions.length) return say("practice", "screen.ways.none");
  const ways = solutions.slice(0, 2).map((solution) => solution.expression);
  const joined = ways.length > 1 ? say("practice", "screen.or", { one: ways[0], other: ways[1] }) : ways[0];
  return say("practice", "screen.ways", { ways: joined });
}

function practiceEvent(push, view, nameOf) {
  const d = push.data || {};
  const kind = push.event_type;
  const fields = { who: d.seat ? nameOf(view, d.seat) : say("challenge", "nobody"), number: d.number };
  let key = `event.${kind}`;
  const secondsOf = (us) => (us === null || us === undefined ? "–" : (us / 1e6).toFixed(1));
  switch (kind) {
    case "TableCreated": Object.assign(fields, seatsNames(d)); break;
    case "CardDealt": Object.assign(fields, { numbers: (d.numbers || []).join(" "), card_rating: muText(d.card_rating), rating: muText(d.rating) }); break;
    case "AnswerJudged":
      key += d.ok ? ".right" : ".wrong";
      Object.assign(fields, { answer: [d.pattern, ...(d.steps || [])].filter(Boolean).join("; "), why: answerReason(d.reason, d.message) });
      break;
    case "CardSolved": Object.assign(fields, { seconds: secondsOf(d.after_us), touch: secondsOf(d.touch_us) }); break;
    case "CardMissed": key += `.${d.reason}`; fields.ways = waysText(d.solutions || []); break;
    case "RatingUpdated": for (const name of ["before", "after", "card_before", "card_after"]) fields[name] = muText(d[name]); break;
    case "PracticePaused": fields.cause = codeInWords("practice", "reason", d.cause); break;
    case "PracticeEnded":
      key += `.${d.reason}`;
      fields.ratings = say("practice", "screen.final_ratings", { ratings: Object.entries(d.ratings || {}).map(([seat, rating]) =>
        say("practice", "screen.final_rating", { who: nameOf(view, seat), rating: muText(rating), n: (d.played || {})[seat] || 0 })).join(", ") });
      break;
    default: break;
  }
  return has("practice", key) ? say("practice", key, fields) : null;
}

const CASUAL = { deck40: deck40Event, tjugoett: tjugoettEvent, pocket: pocketEvent, practice: practiceEvent };

/** An event of a casual game in words (the game's vocabulary), or "" for one it has no
 * words for; `nameOf(view, seat)` names a seat as the game's page does. */
export function casualEventWords(game, push, view, nameOf) {
  const describe = CASUAL[game];
  const text = describe ? describe(push, view, nameOf) : null;
  return sentence(text === null ? unknownEvent() : text);
}
