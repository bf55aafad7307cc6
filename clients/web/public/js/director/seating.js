// Seating: a round seated (the server deals the tables, R-ROUND-2), its table plan, two
// students swapped before it starts, the plan printed (a page per table for its proctor, a
// slip per student: print.js), and the round started. Which round: the fragment's `round`,
// else the one the day is at; every round has a link.
import { fill, h, seatsTable } from "../draw.js";
import { DIRECTOR_WORDS as W } from "../word_tables.js";
import { act, choice, consoleLink, currentRound, studentName, valueOf } from "./common.js";

export function seatingStep(main, connection, tid, stream) {
  const asked = Number(new URLSearchParams(location.hash.slice(1)).get("round")) || null;
  let view = null;
  let number = asked;

  main.replaceChildren(
    h("section", { "aria-labelledby": "round-heading", class: "wide" },
      h("h2", { id: "round-heading" }),
      h("nav", { id: "rounds", class: "row rounds", "aria-label": W.rounds }),
      h("p", { id: "round-state" }),
      h("div", { class: "row" },
        h("button", { id: "seat-round", type: "button", onclick: () => act(connection, stream, "seat_round", { round: number }) }),
        h("button", { id: "start-round", type: "button", onclick: () => start() })),
      h("p", { class: "hint" }, W.start_intro),
      h("p", {}, h("a", { id: "print-plan" }))),
    h("section", { "aria-labelledby": "plan-heading", class: "wide" },
      h("h2", { id: "plan-heading" }, W.plan_heading),
      h("div", { id: "plan", class: "plan" })),
    h("section", { "aria-labelledby": "swap-heading" },
      h("h2", { id: "swap-heading" }, W.swap_heading),
      choice("swap-a", W.field_swap_a, []),
      choice("swap-b", W.field_swap_b, []),
      h("button", { id: "swap", type: "button", onclick: () => swap() }, W.swap_button)));

  async function start() {
    if (await act(connection, stream, "start_round", { round: number })) {
      location.hash = consoleLink({ page: "director", step: "board", round: number });
    }
  }

  function swap() {
    act(connection, stream, "swap_seats", { round: number, a: valueOf("swap-a"), b: valueOf("swap-b") });
  }

  function options(id, pairs) {
    const select = document.getElementById(id);
    const kept = select.value;
    const markup = pairs.map(([value, words]) => h("option", { value }, words));
    if (select.innerHTML !== markup.map((o) => o.outerHTML).join("")) {
      select.replaceChildren(...markup);
      if (pairs.some(([value]) => value === kept)) select.value = kept;
    }
  }

  return {
    draw(next) {
      view = next;
      number = asked || currentRound(view);
      const round = view.rounds.find((r) => r.round === number);
      fill("round-heading", W.round_heading(number));
      fill("rounds", view.rounds.map((r) => h("a", { href: consoleLink({ page: "director", step: "seating", round: r.round }),
        "aria-current": r.round === number ? "page" : null }, W.round_heading(r.round))));
      fill("round-state", W.round_state(round));
      const seatButton = document.getElementById("seat-round");
      seatButton.textContent = round.tables.length ? W.reseat_button(number) : W.seat_button(number);
      seatButton.disabled = round.started;
      const startButton = document.getElementById("start-round");
      startButton.textContent = W.start_button(number);
      startButton.disabled = round.started || !round.tables.length;
      const print = document.getElementById("print-plan");
      print.textContent = W.print_plan(number);
      print.href = consoleLink({ page: "print", round: number, tie: null, kind: "plan", step: null });
      print.hidden = !round.tables.length;
      fill("plan", round.tables.length ? round.tables.map((table) => seatsTable(
        W.plan_caption(table.table, table.section), W.plan_headings,
        table.students.map((s) => h("tr", { "data-student": s },
          h("th", { scope: "row" }, studentName(view, s)),
          h("td", {}, ((view.students || []).find((x) => x.student === s) || {}).school || ""))),
        "plan-table")) : [h("p", {}, W.no_plan)]);
      const seated = round.tables.flatMap((t) => t.students.map((s) => [s, `${studentName(view, s)} (${t.table})`]));
      options("swap-a", seated);
      options("swap-b", seated);
      for (const id of ["swap-a", "swap-b", "swap"]) document.getElementById(id).disabled = round.started || !seated.length;
    },
  };
}
