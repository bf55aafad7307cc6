// The 24 Challenge's events in words, for the feed, the replay, the protest picker and the
// student's own result line (TEMPORARY: English until the shared catalogue's challenge
// vocabulary lands).

import { seatName } from "./words.js";

const FLAG_CAUSES = {
  no_pattern: "no pattern within the time",
  no_solution: "no solution within the time",
  incorrect_solution: "an incorrect solution",
  too_many_fingertips: "too many fingertips",
  touched_before_reveal: "touching before the reveal",
  slap: "slapping the card (R-PLAY-3)",
};

export function flagCause(cause) {
  return FLAG_CAUSES[cause] || String(cause).replaceAll("_", " ");
}

function points(count) {
  return `${count} point${count === 1 ? "" : "s"}`;
}


// Why a round ended (RoundEnded `reason`, the view's `end_reason`).
const END_REASONS = {
  deck_empty: "the deck is played out",
  all_disqualified: "every student is disqualified",
  ended_by_proctor: "the proctor ended it",
  time_up: "its time is up",
};

export function endReasonInWords(reason) {
  return END_REASONS[reason] || String(reason).replaceAll("_", " ");
}


/** One event as a sentence for the feed. */
export function eventInWords(push, view) {
  const d = push.data || {};
  const who = (seat) => seatName(view, seat);
  switch (push.event_type) {
    case "TableCreated": return "Table created.";
    case "RoundStarted": return `Round ${d.round} started.`;
    case "PlayBegan": return d.by === "students" ? "Every student is here: play begins."
      : `The ${d.by} began play.`;
    case "SeatMarked": return `${who(d.seat)} is marked ${d.mark}.`;
    case "CardPlaced": return `Card ${d.play} placed face down.`;
    case "CardRevealed": return `Card ${d.play} revealed: ${(d.numbers || []).join(" ")}.`;
    case "CardTouched": return `${who(d.seat)} touched the card.`;
    case "TouchRefused": return `${who(d.seat)} touched too (not first).`;
    case "FirstTouchOverridden": return `The proctor ruled ${who(d.seat)} touched first.`;
    case "PatternDeclared": return `${who(d.seat)} declared the pattern ${d.canonical || d.pattern}.`;
    case "StepsStated": return `${who(d.seat)} stated: ${(d.steps || []).join("; ")}.`;
    case "SolutionFixed": return `${who(d.seat)} fixed the solution: equals 24.`;
    case "SolutionJudged":
      return d.ok ? `${who(d.seat)}'s solution is correct.`
        : `${who(d.seat)}'s solution is wrong: ${d.message || d.reason}.`;
    case "CardWon": return `${who(d.seat)} won the card (${d.dots} point${d.dots === 1 ? "" : "s"}).`;
    case "FlagIssued": return `Flag for ${who(d.seat)}: ${flagCause(d.cause)} (${d.flags} now).`;
    case "PlayerDisqualified": return `${who(d.seat)} is disqualified (${flagCause(d.cause)}).`;
    case "CardReturnedToDeck": return "The card went back under the deck.";
    case "StumpedDeclared": return `${who(d.seat)} is stumped.`;
    case "CardStumped": return "Nobody solved the card: it is set aside.";
    case "StumpedCardsReturned": return "The stumped cards go back under the deck.";
    case "TablePaused": return `Paused (${String(d.cause).replaceAll("_", " ")}).`;
    case "TableResumed": return "Resumed.";
    case "RoundEnded": return `The round ended: ${endReasonInWords(d.reason)}.`;
    case "ProtestFiled": return `Protest ${d.protest} filed by ${who(d.by)}: ${d.reason}`;
    case "ProtestRuled": return `Protest ${d.protest} ${d.upheld ? "upheld" : "rejected"}: ${d.ruling_text}`;
    case "FlagRescinded": return `A flag of ${who(d.seat)} is rescinded.`;
    case "PlayerReinstated": return `${who(d.seat)} is reinstated.`;
    case "CardAwarded": return `${who(d.seat)} is awarded a card.`;
    case "CardAwardRevoked": return `A card of ${who(d.seat)} is taken back.`;
    case "ScoreAdjusted": return `${who(d.seat)}'s score changes by ${d.delta}.`;
    case "ScoreCardSigned": return `Score card signed by ${d.initials}${d.by === "director" ? " (the director)" : ""}.`;
    case "ScoreCardReopened": return `The director reopened the score card: ${d.reason}`;
    default: return `${push.event_type}.`;
  }
}


/** One of the student's own events, said to them ("You won the card (3 points)."): the
 * result line of their attempt (student.js). Any other event as the feed says it. */
export function ownEventInWords(push, view) {
  const d = push.data || {};
  switch (push.event_type) {
    case "PatternDeclared": return `You declared the pattern ${d.canonical || d.pattern}.`;
    case "SolutionJudged": return d.ok ? "Your solution is correct." : `Your solution is wrong: ${d.message || d.reason}.`;
    case "CardWon": return `You won the card (${points(d.dots)}).`;
    case "FlagIssued": return `A flag for you: ${flagCause(d.cause)} (${d.flags} now).`;
    case "PlayerDisqualified": return `You are disqualified (${flagCause(d.cause)}).`;
    default: return eventInWords(push, view);
  }
}
