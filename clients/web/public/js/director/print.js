// The printed sheets of the day, printed from the browser (director.css: `@media print`):
// - a round's (or a tie-break's) plan: a page per table for its proctor (the table, who sits
//   there, the proctor's link as a QR code) and a page of slips, one per student (name,
//   school, table, their own link as a QR code, to cut out). The links come from the server
//   (`table_links`): signed, each with its own token, valid until the end of the tournament's
//   day; no token is printed as text (a tablet scans the code and is that student's page);
// - a certificate per champion, a page each.
// `#page=print&tournament=ID` and `round=N` or `tie=K` (`kind=plan`), or `kind=certificates`.
import { h } from "../draw.js";
import { DIRECTOR_WORDS as W } from "../word_tables.js";
import { errorInWords, statusInWords } from "../words.js";
import { consoleLink } from "./common.js";

function qr(person, who) {
  return h("a", { class: "qr", href: person.url, "aria-label": W.qr_alt(who) },
    h("img", { src: person.qr, alt: W.qr_alt(who), width: 220, height: 220 }));
}

export function printPage(root, connection, params) {
  const tid = params.get("tournament");
  const stream = `tournament/${tid}`;
  const kind = params.get("kind") || "plan";
  const round = Number(params.get("round")) || null;
  const tie = Number(params.get("tie")) || null;
  let started = false;

  root.replaceChildren(
    h("header", { class: "no-print print-header" },
      h("h1", {}, W.title),
      h("p", { id: "status", role: "status", "aria-live": "polite" }, statusInWords("connecting")),
      h("div", { class: "row" },
        h("button", { id: "print", type: "button", onclick: () => window.print() }, W.print_button),
        h("a", { href: consoleLink({ page: "director", kind: null, round: round || null, tie: null }) }, W.back_to_console))),
    h("p", { id: "message", class: "message no-print", role: "alert" }),
    h("main", { id: "sheets", class: "sheets" }));
  const sheets = document.getElementById("sheets");
  const message = (text) => { document.getElementById("message").textContent = text; };

  async function plan(view) {
    const found = tie ? (view.tie_breaks || []).find((t) => t.number === tie) : (view.rounds || []).find((r) => r.round === round);
    const tables = found ? found.tables : [];
    const heading = tie ? W.print_tie_round(found || { number: tie, round: "?" }) : W.print_round(round);
    if (!tables.length) {
      sheets.replaceChildren(h("p", {}, W.nothing_to_print));
      return;
    }
    const schools = new Map((view.students || []).map((s) => [s.student, s.school]));
    const pages = [];
    for (const [index, table] of tables.entries()) {
      message(W.printing(index, tables.length));
      const links = await connection.request("table_links", { tournament: tid, table: table.table });
      pages.push(
        h("section", { class: "print-page proctor-sheet", "data-table": table.table },
          h("h2", {}, W.print_proctor_heading(table.table, table.section)),
          h("p", {}, W.certificate_event(view.name, view.date), ". ", W.print_proctor_intro(heading)),
          h("table", { class: "seats print-seats" },
            h("caption", {}, W.print_seats_caption),
            h("tbody", {}, links.seats.map((seat) => h("tr", {},
              h("th", { scope: "row" }, seat.name), h("td", {}, schools.get(seat.seat) || ""))))),
          h("figure", { class: "proctor-qr", "data-person": "proctor" },
            qr(links.proctor, W.proctor_who(table.table)),
            h("figcaption", {}, links.proctor.name)),
          h("p", { class: "valid", "data-expires": links.expires }, W.print_valid(view.date))),
        h("section", { class: "print-page slips", "data-table": table.table },
          links.seats.map((seat) => h("div", { class: "slip", "data-seat": seat.seat, "data-student": seat.name },
            h("p", { class: "slip-name" }, seat.name),
            h("p", {}, `${schools.get(seat.seat) || ""} · ${table.section}`),
            h("p", {}, W.slip_table(table.table)),
            qr(seat, seat.name),
            h("p", { class: "hint" }, W.slip_intro)))));
    }
    message("");
    sheets.replaceChildren(...pages);
    sheets.dataset.ready = "true";
  }

  function certificates(view) {
    const names = new Map((view.students || []).map((s) => [s.student, s]));
    const champions = Object.entries(view.champions || {});
    sheets.replaceChildren(...(champions.length ? champions.map(([section, id]) => {
      const student = names.get(id) || { name: id, school: "" };
      return h("section", { class: "print-page certificate", "data-section": section },
        h("p", { class: "certificate-title" }, W.certificate_heading),
        h("p", { class: "certificate-name" }, student.name),
        h("p", { class: "certificate-school" }, student.school),
        h("p", { class: "certificate-line" }, W.certificate_line(section)),
        h("p", { class: "certificate-event" }, W.certificate_event(view.name, view.date)));
    }) : [h("p", {}, W.nothing_to_print)]));
    sheets.dataset.ready = "true";
  }

  return {
    status(next) {
      document.getElementById("status").textContent = statusInWords(next, null);
      if (next === "online" && !started) {
        started = true;
        connection.join(stream).catch((error) => message(errorInWords(error)));
      }
    },
    table(state) {
      if (state.table !== stream || sheets.dataset.ready || sheets.dataset.busy) return;
      sheets.dataset.busy = "true";
      const drawn = kind === "certificates" ? Promise.resolve(certificates(state.view)) : plan(state.view);
      drawn.catch((error) => message(errorInWords(error))).finally(() => { delete sheets.dataset.busy; });
    },
    presence() {},
  };
}
