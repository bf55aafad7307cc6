// The frame every casual game's page shares: the header (who you are, the connection), the
// pause banner, the game's own sections, a message line for refusals (in words), the live
// countdowns and the feed, and for a player of a game of 24 their rating over all their tables
// (js/rating_history.js). A game module gives its parts (see pocket.js): its sections, how
// it draws a view, its events in words, the words of its deadlines and its keys. Everything
// drawn comes from the snapshot and the pushes; the server decides every command.
import { every, feedSection, fill, h, linkAfter, onDocument, setDisabled } from "../draw.js";
import { loadRatingHistory, ratingHistorySection } from "../rating_history.js";
import { GAME_WORDS as W } from "../word_tables.js";
import {
  capitalized,
  errorInWords,
  has,
  namesInWords,
  pauseCause,
  sayLine,
  seatName,
  seconds,
  statusInWords,
} from "../words.js";

const STEWARDS = ["proctor", "director"];
// The games whose results move a student's rating across the log (docs/analysis.md), and
// the events after which it has moved: the page asks the server again then.
const RATED_GAMES = ["pocket", "deck40", "practice"];
const RATING_MOVES = ["GameEnded", "RatingUpdated"];

/** A seat as people call it: its player's name, "Ada (2)" for a second Ada, "Player 3" for
 * a seat with no name yet (words.js `seatName`); never its id. */
export function nameOf(view, seat) {
  return seatName(view, seat);
}

/** Seats as words: "Ada", "Ada and Bo", "Ada, Bo and Cy" (the language's list), or "nobody". */
export function namesOf(view, seats) {
  return (seats || []).length ? namesInWords(seats.map((seat) => nameOf(view, seat))) : W.nobody;
}

export { setDisabled }; // the games' modules take it from their shell

/** Shows or hides a control by id: a role's controls only, never another's. */
export function setShown(id, shown) {
  const element = document.getElementById(id);
  if (element) element.hidden = !shown;
}

/** The game's row of buttons: start (any player, in setup), pause and resume (a game that
 * pauses: `playing` lists the phases a pause may stop), end (the officials, confirmed).
 * `showGameControls` shows each by the view; the server still judges every command. */
export function gameControls(ctx, playing = null) {
  return h("div", { class: "row", role: "group", "aria-label": W.controls },
    h("button", { id: "start", type: "button", onclick: () => ctx.send("start_game") }, W.start),
    playing ? [
      h("button", { id: "pause-game", type: "button", onclick: () => ctx.send("pause_game", { cause: ctx.role }) }, W.pause),
      h("button", { id: "resume", type: "button", onclick: () => ctx.send("resume_game") }, W.resume),
    ] : [],
    h("button", { id: "end", type: "button", onclick: () => { if (confirm(W.confirm_end)) ctx.send("end_game"); } }, W.end));
}

/** Shows `gameControls`' buttons for the view's phase (the same `playing` as given there). */
export function showGameControls(ctx, view, playing = null) {
  setShown("start", view.phase === "setup");
  setDisabled("start", !ctx.online());
  if (playing) {
    setShown("pause-game", ctx.steward && playing.includes(view.phase) && !view.paused);
    setShown("resume", playing.includes(view.phase) && view.paused);
  }
  setShown("end", ctx.steward && view.phase !== "ended");
}

/** The winners line of a finished casual game: a tie is shown as a tie. */
export function winnersInWords(view, result) {
  if (!result) return "";
  const winners = result.winners || [];
  if (!winners.length) return W.nobody_won;
  return result.tie ? W.tie(namesOf(view, winners)) : W.won(namesOf(view, winners));
}

/** A player's row heading in a casual game's table: the name (by the game's `name`, which
 * knows its own roles), and "(you)" on your own. */
export function playerCell(view, seat, name = nameOf) {
  return h("th", { scope: "row" }, seat === view.you ? W.you_mark(name(view, seat)) : name(view, seat));
}

/** A finished casual game in words: why it ended (`reasons`: the game's words for each
 * reason) and who won. */
export function gameOverInWords(view, result, reasons) {
  return W.over(reasons[result.reason] || result.reason, winnersInWords(view, result));
}

/** A refusal in words: the game's own sentence for its code (`refusal.<code>` of the game's
 * vocabulary in the catalogue, so a new game's refusals are words of its catalogue entries,
 * never of its module), else the protocol's (words.js `errorInWords`). A code the game
 * words is said in its words only, as the terminal says it: the server's own message (for
 * developers) names seats by id ("seat s2 is out of card 3"). */
export function refusalInWords(error, game) {
  const worded = error && typeof error === "object" && has(game.name, `refusal.${error.code}`);
  return errorInWords(worded ? { ...error, message: "" } : error, game.name);
}

/** The page of one casual table: `game` is a module's parts (pocket.js, deck40.js, ...). */
export function gameShell(root, connection, welcome, table, game) {
  const ctx = {
    table,
    role: welcome.role,
    you: welcome.role === "player" ? welcome.seat : null,
    steward: STEWARDS.includes(welcome.role),
    state: null,
    view: null,
    link: "online",
    /** Sends a command; true when accepted, else the refusal is shown in words (the game's). */
    send(name, args = {}) {
      return connection.command(table, name, args).then(
        () => { ctx.say(""); return true; },
        (error) => { ctx.say(() => refusalInWords(error, game)); return false; });
    },
    /** The message line: `words` says it in the page's language (said again after a
     * language switch); "" clears it. */
    say(words) { sayLine("message", words); },
    /** May the page act now (connected, a view to act on)? */
    online() { return ctx.link === "online" && ctx.view !== null; },
    focus(id) {
      const element = document.getElementById(id);
      if (element && !element.disabled && !element.hidden) element.focus();
    },
  };
  let feedSeq = 0;
  const rated = Boolean(ctx.you) && RATED_GAMES.includes(game.name);

  root.replaceChildren(
    h("header", {},
      h("h1", {}, W.title(game.title, table)),
      h("p", { id: "who" }, W.you_are_role(W.roles[ctx.role] || ctx.role)), // a player's name once the view comes
      h("p", { id: "status", role: "status", "aria-live": "polite" }, statusInWords("connecting", null, game.name))),
    h("div", { id: "pause", class: "pause", role: "alert" }),
    h("main", { class: `casual ${game.name}`, "data-game": game.name },
      ...game.sections(ctx),
      feedSection(table),
      rated ? ratingHistorySection() : null));
  document.body.dataset.game = game.name;
  if (rated) loadRatingHistory(connection, table);

  // The game's keys (space claims, D draws), never while typing in a field; on a button
  // or a link, space and Enter stay theirs. A control the page has disabled (a browser may
  // leave the focus on it) takes no key, so the game's keys work from there.
  onDocument("keydown", (event) => {
    const target = event.target;
    const tag = target && !target.disabled ? target.tagName : "";
    const key = event.key === " " ? "Space" : event.key.toLowerCase();
    if (["INPUT", "TEXTAREA", "SELECT"].includes(tag)) return; // typing
    if (["BUTTON", "A"].includes(tag) && (key === "Space" || key === "enter")) return; // its own
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const ids = [].concat((game.keys || {})[key] || []);
    const control = ids.map((id) => document.getElementById(id))
      .find((found) => found && !found.disabled && !found.closest("[hidden]"));
    if (!control) return;
    event.preventDefault();
    control.click();
  });

  function pauseLines() {
    const lines = [];
    if (ctx.link !== "online") {
      lines.push(statusInWords(ctx.link === "connecting" ? "connecting" : "reconnecting"));
    }
    const view = ctx.view;
    if (view && view.paused) {
      lines.push(W.paused(pauseCause(view.pause_cause || "director", game.name), game.resumeHint || W.waiting_resume));
    }
    return lines.map((line) => h("p", {}, line));
  }

  function tick() {
    const state = ctx.state;
    if (!state || !ctx.view) return;
    const now = connection.serverNow(state);
    const words = game.deadlineWords || {};
    const items = ctx.view.paused ? [h("li", {}, W.timers_stopped)]
      : (state.deadlines || []).filter((d) => words[d.command]).map((deadline) => {
        const left = Math.max(0, (deadline.at - now) / 1e6);
        return h("li", { "data-command": deadline.command }, `${capitalized(words[deadline.command])} ${seconds(left)}`);
      });
    fill("countdowns", items);
  }
  every(100, tick);

  function render() {
    fill("status", statusInWords(ctx.link, null, game.name));
    fill("pause", pauseLines());
    if (!ctx.view) return;
    if (ctx.you) fill("who", W.you_are((game.nameOf || nameOf)(ctx.view, ctx.you)));
    game.render(ctx);
    tick();
  }

  return {
    status(next) {
      ctx.link = linkAfter(ctx.link, next);
      render();
    },
    table(state, push) {
      ctx.state = state;
      ctx.view = state.view;
      if (push && push.seq > feedSeq) {
        feedSeq = push.seq;
        const list = document.getElementById("feed");
        const words = game.words(push, ctx.view) || "";
        const kind = game.feedClass ? game.feedClass(push, ctx) : "";
        list.prepend(h("li", { class: kind, value: push.seq, "data-seq": push.seq, "data-event": push.event_type }, words));
        while (list.children.length > 60) list.lastElementChild.remove();
        if (game.pushed) game.pushed(ctx, push);
        const seat = push.data && push.data.seat;
        if (rated && !push.catchUp && RATING_MOVES.includes(push.event_type) && (!seat || seat === ctx.you)) {
          loadRatingHistory(connection, table);
        }
      }
      render();
    },
    presence() {},
  };
}
