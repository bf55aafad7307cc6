// The results of a 24 Challenge round that is over, as the student page, the console, the
// scoreboard and the replay show them: who won, the ranking, and (for a student) their own
// place. Ranked as the terminal ranks them (clients/reference_cli/games/challenge/render.py,
// `results_lines`): by points, a disqualified student after everyone still in play; the
// winners are the students in play with the most points, when that is more than none; equal
// points share a place. Only the view's seats and scores: nothing is judged here.
import { h, seatsTable } from "./draw.js";
import { pageLink } from "./links.js";
import { RESULT_WORDS } from "./word_tables.js";
import { endReasonInWords, flagCause } from "./event_words.js";
import { seatName } from "./words.js";

/** The seats ranked: [{seat, place (null when disqualified), winner}], best first. */
export function rankSeats(view) {
  const seats = [...((view && view.seats) || [])];
  const standing = seats.filter((seat) => !seat.disqualified);
  const best = Math.max(0, ...standing.map((seat) => seat.score));
  seats.sort((a, b) => Number(Boolean(a.disqualified)) - Number(Boolean(b.disqualified)) || b.score - a.score);
  let place = 0;
  let previous = null;
  return seats.map((seat, index) => {
    const key = `${Boolean(seat.disqualified)}:${seat.score}`;
    if (key !== previous) place = index + 1;
    previous = key;
    return { seat, place: seat.disqualified ? null : place, winner: !seat.disqualified && best > 0 && seat.score === best };
  });
}

/** The results section's content: the end, the winner line, `you`'s own result (a
 * student's seat, or null), and the ranking table (unless `ranking` is false: the
 * scoreboard keeps its seats table, which a test or a reader follows live). */
export function drawResults(view, you = null, ranking = true) {
  const ranked = rankSeats(view);
  const winners = ranked.filter((row) => row.winner);
  const best = winners.length ? winners[0].seat.score : 0;
  const lines = [
    h("h2", { class: "over" }, RESULT_WORDS.over(endReasonInWords(view.end_reason))),
    h("p", { class: "winner-line", "data-winners": winners.map((row) => row.seat.seat).join(" ") },
      RESULT_WORDS.winners(winners.map((row) => seatName(view, row.seat.seat)), best)),
  ];
  const mine = ranked.find((row) => row.seat.seat === you);
  if (mine) {
    const text = mine.winner ? RESULT_WORDS.you_won(best, winners.length > 1)
      : mine.place === null ? RESULT_WORDS.you_disqualified(flagCause(mine.seat.disqualified_cause), mine.seat.score)
      : RESULT_WORDS.you_placed(mine.place, ranked.length, mine.seat.score);
    lines.push(h("p", { class: "own-result", id: "own-result" }, text));
  }
  if (!ranking) return lines;
  // the analysis after the round (js/analysis.js): a student's own, a proctor's every student
  lines.push(h("p", { class: "analysis-link" }, h("a", { id: "analysis-link", href: pageLink("analysis") }, RESULT_WORDS.analysis)));
  const rows = ranked.map((row) => h("tr", {
    "data-seat": row.seat.seat, "data-place": row.place === null ? "" : row.place,
    class: [row.winner ? "winner" : "", row.seat.seat === you ? "you" : ""].filter(Boolean).join(" ") || null,
  },
  h("td", { class: "number" }, row.place === null ? "–" : RESULT_WORDS.place(row.place)),
  h("th", { scope: "row" }, seatName(view, row.seat.seat),
    row.winner ? ` (${RESULT_WORDS.winner_mark})` : "", row.place === null ? ` (${RESULT_WORDS.disqualified_mark})` : ""),
  h("td", { class: "points", "data-points": row.seat.score }, row.seat.score),
  h("td", { class: "flag-count" }, view.flag_limit ? RESULT_WORDS.flags_of(row.seat.flags, view.flag_limit) : row.seat.flags),
  h("td", { class: "number" }, (row.seat.cards_won || []).length)));
  lines.push(seatsTable(RESULT_WORDS.ranking_caption, RESULT_WORDS.ranking_headings, rows, "ranking"));
  return lines;
}
