// The director's console (issue 26): the whole tournament day from the director's link, no
// terminal. Without `tournament` in the fragment it lists the tournaments and creates one;
// with it, it follows the tournament's stream (`tournament/ID`: its view holds the
// students, the rounds, the tables, the results and the standings) and draws one step:
// registration, seating, the tables of the day, or the results and the bundle. Each button
// sends one command of the protocol, the same the CLI (`t24 tournament`) sends; the
// server decides and its pushes redraw the page.
import { h, linkAfter } from "../draw.js";
import { DIRECTOR_WORDS as W } from "../word_tables.js";
import { errorInWords, statusInWords } from "../words.js";
import { consoleLink, currentRound } from "./common.js";
import { createSection } from "./create.js";
import { boardStep } from "./day.js";
import { registrationStep } from "./roster.js";
import { resultsStep } from "./results.js";
import { seatingStep } from "./seating.js";

const STEPS = { registration: registrationStep, seating: seatingStep, board: boardStep, results: resultsStep };

/** The step a tournament opens at when the address names none: where the day is. */
function stepFor(view) {
  if (view.registration_open) return "registration";
  if (view.finished) return "results";
  const round = view.rounds.find((r) => r.round === currentRound(view));
  return round && round.started ? "board" : "seating";
}

function frame(root, title, nav) {
  root.replaceChildren(
    h("header", { class: "director-header" },
      h("h1", {}, title),
      h("p", { id: "status", role: "status", "aria-live": "polite" }, statusInWords("connecting")),
      nav),
    h("p", { id: "message", class: "message", role: "alert" }),
    h("main", { id: "director", class: "director" }));
  return document.getElementById("director");
}

export function directorPage(root, connection, welcome, params) {
  const tid = params.get("tournament");
  return tid ? tournamentPage(root, connection, tid, params) : homePage(root, connection);
}

/** The tournaments of this server (each a link), and the form that creates one. */
function homePage(root, connection) {
  const main = frame(root, W.title,
    h("nav", { class: "steps", "aria-label": W.title },
      h("a", { href: consoleLink({ page: "board", tournament: null }) }, W.all_tables)));
  const list = h("ul", { id: "tournaments", class: "tournament-list" });
  main.append(
    h("section", { "aria-labelledby": "home-heading" },
      h("h2", { id: "home-heading" }, W.home_heading), list),
    createSection(connection));
  let link = "connecting";

  async function listTournaments() {
    const found = [];
    let after = null;
    do {
      const reply = await connection.request("list_tables", after ? { after } : {});
      found.push(...reply.tables.filter((row) => row.game === "tournament"));
      after = reply.next;
    } while (after);
    list.replaceChildren(...(found.length ? found.map((row) => {
      const id = row.table.slice("tournament/".length);
      return h("li", {}, h("a", { href: consoleLink({ page: "director", tournament: id, step: null }), "data-tournament": id }, id));
    }) : [h("li", {}, W.no_tournaments)]));
  }

  return {
    status(next) {
      link = linkAfter(link, next);
      document.getElementById("status").textContent = statusInWords(link);
      if (next === "online") listTournaments().catch((error) => { document.getElementById("message").textContent = errorInWords(error); });
    },
    table() {},
    presence() {},
  };
}

/** One tournament: the step the address names (or where the day is), redrawn on every
 * push of the tournament's stream. */
function tournamentPage(root, connection, tid, params) {
  const stream = `tournament/${tid}`;
  const asked = params.get("step");
  const nav = h("nav", { class: "steps", "aria-label": W.title },
    h("a", { href: consoleLink({ page: "director", tournament: null, step: null }) }, W.title),
    ...Object.entries(W.steps).map(([step, words]) =>
      h("a", { href: consoleLink({ page: "director", step }), "data-step": step, id: `step-${step}` }, words)));
  const main = frame(root, tid, nav);
  let link = "connecting";
  let view = null;
  let step = null;
  let joined = false;

  function draw() {
    if (!view) return;
    document.querySelector(".director-header h1").textContent = view.name;
    if (!step) {
      step = asked && STEPS[asked] ? asked : stepFor(view);
      main.dataset.step = step;
      for (const a of nav.querySelectorAll("a[data-step]")) {
        if (a.dataset.step === step) a.setAttribute("aria-current", "page");
      }
      step = { name: step, part: STEPS[step](main, connection, tid, stream) };
    }
    step.part.draw(view, link);
  }

  return {
    status(next) {
      link = linkAfter(link, next);
      document.getElementById("status").textContent = `${statusInWords(link)}${view ? ` ${W.header_line(view)}` : ""}`;
      if (next === "online" && !joined) {
        joined = true;
        connection.join(stream).catch((error) => { document.getElementById("message").textContent = errorInWords(error); joined = false; });
      }
      draw();
    },
    table(state, push) {
      if (state.table === stream) {
        view = state.view;
        document.getElementById("status").textContent = `${statusInWords(link)} ${W.header_line(view)}`;
        draw();
      } else if (step && step.part.table) {
        step.part.table(state, push);
      }
    },
    presence(message) {
      if (step && step.part.presence) step.part.presence(message);
    },
  };
}
