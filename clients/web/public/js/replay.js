// The replay page: step through a stream this token may read, as `t24 replay` does: at each
// step the table is drawn as it stood right after that event, as this token saw it then.
// The events come from one join with after_seq 0 (the whole history, redacted for this
// viewer, then the live ones); the table at each step is the server's answer to the
// `view_at` query (the game's own evolve runs on the server: the browser has no rules),
// drawn by the live pages' own drawing code (draw.js). At most one query is in flight: a
// held arrow key skips the steps it passed, so stepping never floods the server.
import { drawCard, drawCountdowns, drawPause, drawSaid, drawSeats, drawStandings, fill, h, linkAfter, onDocument } from "./draw.js";
import { drawResults } from "./results.js";
import { eventInWords } from "./event_words.js";
import { REPLAY_WORDS as W } from "./word_tables.js";
import { errorInWords, statusInWords } from "./words.js";
import { casualEventInWords, casualStep, gameStillLoading, whenGameLoads } from "./games/index.js";
import { drawValue, viewNames } from "./games/generic.js";

const KEEP = 400; // answers kept (a step's view never changes, so a kept one is never stale)
const RETRY_MS = 1000; // before asking again after `rate_limited`

export function replayPage(root, connection, table) {
  const events = []; // the pushes, in seq order
  const answers = new Map(); // seq -> the `view_at` result
  let position = 0;
  let state = null; // the table now (the join's snapshot and pushes)
  let inFlight = null; // the seq asked for, while a query is out
  let link = "connecting";

  root.replaceChildren(
    h("header", {},
      h("h1", {}, W.title(table)),
      h("p", { id: "status", role: "status", "aria-live": "polite" }, statusInWords("connecting"))),
    h("p", { id: "message", class: "message", role: "alert" }),
    h("main", { class: "replay" },
      h("section", { "aria-labelledby": "step-heading" },
        h("h2", { id: "step-heading" }, W.step),
        h("div", { class: "row", role: "group", "aria-label": W.step_group },
          h("button", { id: "first", type: "button", "aria-keyshortcuts": "Home", onclick: () => go(0) }, W.first),
          h("button", { id: "previous", type: "button", "aria-keyshortcuts": "ArrowLeft", onclick: () => go(position - 1) }, W.previous),
          h("button", { id: "next", type: "button", "aria-keyshortcuts": "ArrowRight", onclick: () => go(position + 1) }, W.next),
          h("button", { id: "last", type: "button", "aria-keyshortcuts": "End", onclick: () => go(events.length - 1) }, W.last)),
        h("label", { for: "slider" }, W.event),
        h("input", { id: "slider", type: "range", min: 1, max: 1, value: 1, oninput: (e) => go(Number(e.target.value) - 1) }),
        h("p", { id: "position", "aria-live": "polite" }),
        h("p", { id: "sentence" }),
        h("details", {}, h("summary", {}, W.data), h("div", { id: "data", class: "data" }))),
      h("section", { "aria-labelledby": "table-heading" },
        h("h2", { id: "table-heading" }, W.after),
        h("div", { id: "step", "aria-live": "polite" }, h("p", {}, W.loading)))));

  // Arrow keys step, Home and End jump (the slider keeps its own arrows when it has focus).
  onDocument("keydown", (event) => {
    const tag = event.target && event.target.tagName;
    if (["INPUT", "TEXTAREA", "SELECT"].includes(tag)) return;
    const to = { ArrowRight: position + 1, ArrowLeft: position - 1, Home: 0, End: events.length - 1 }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    go(to);
  });

  function go(index) {
    position = Math.max(0, Math.min(index, events.length - 1));
    render();
  }

  /** The step's view: kept, or asked for (one query at a time, the latest step wins). */
  function ask() {
    const push = events[position];
    if (!push || answers.has(push.seq) || inFlight !== null || link !== "online") return;
    const seq = push.seq;
    inFlight = seq;
    connection.request("query", { table, name: "view_at", args: { seq } }).then((answer) => {
      inFlight = null;
      answers.set(seq, answer.result);
      if (answers.size > KEEP) answers.delete(answers.keys().next().value);
      render();
    }, (error) => {
      inFlight = null;
      fill("message", errorInWords(error));
      if (error.code === "rate_limited") setTimeout(render, RETRY_MS);
      // a lost connection: `status("online")` asks again once reconnected
    });
  }

  /** The table at one step, with the live pages' drawing code. */
  function drawStep(seq, result) {
    const view = result.view;
    if (view && view.game === "challenge") {
      return [
        drawCard(view),
        h("ul", { class: "countdowns", "aria-label": W.time_left },
          drawCountdowns(result.deadlines || [], result.at, view.paused)),
        ...drawPause(view, "online"),
        h("div", { class: "said" }, drawSaid(view, null)),
        drawSeats(view, null),
        view.phase === "ended" ? h("div", { class: "final" }, drawResults(view)) : null,
      ].filter(Boolean);
    }
    if (view && view.standings) return drawStandings(view.standings); // a tournament: a table per section
    const casual = casualStep(view, result.deadlines || [], result.at); // pocket, deck40, Tjugoett
    if (casual) return casual;
    return [drawValue(view, viewNames(view))]; // a game without a page here: labelled values
  }

  function render() {
    fill("status", statusInWords(link));
    const slider = document.getElementById("slider");
    slider.max = Math.max(1, events.length);
    slider.value = position + 1;
    slider.disabled = events.length === 0;
    const push = events[position];
    if (!push) {
      fill("position", W.no_events);
      return;
    }
    const result = answers.get(push.seq);
    const names = (result && result.view) || (state && state.view);
    fill("position", W.position(position + 1, events.length, push.seq));
    fill("sentence", casualEventInWords(push, names) || eventInWords(push, names));
    fill("data", drawValue(push.data, viewNames(names))); // the event's data, seats by name
    const step = document.getElementById("step");
    if (result) {
      if (step.dataset.seq !== String(push.seq)) {
        step.replaceChildren(...drawStep(push.seq, result));
        step.dataset.seq = String(push.seq);
      }
      // busy while the step's game is drawn as labelled values, its module still loading
      if (gameStillLoading(result.view)) step.setAttribute("aria-busy", "true");
      else step.removeAttribute("aria-busy");
      fill("message", "");
    } else {
      step.setAttribute("aria-busy", "true"); // the previous step stays until this one comes
      ask();
    }
  }

  whenGameLoads(() => { // a step drawn before its game's module loaded: drawn again
    const step = document.getElementById("step");
    if (!step) return;
    step.dataset.seq = "";
    render();
  });
  connection.join(table, { afterSeq: 0 }).catch((error) => fill("message", errorInWords(error)));

  return {
    status(next) {
      link = linkAfter(link, next);
      render();
    },
    table(next, push) {
      state = next;
      if (push && !events.some((e) => e.seq === push.seq)) {
        const following = position >= events.length - 1;
        events.push(push);
        events.sort((a, b) => a.seq - b.seq);
        if (following && !push.catchUp) position = events.length - 1; // at the end: follow
      }
      render();
    },
    presence() {},
  };
}
