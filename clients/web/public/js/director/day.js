// The tables of the day: every table of a round and of its tie-breaks, live. Each table is
// joined with `presence`, so its card shows who is connected (a student's page connected is
// checked in), who is marked present or absent, the cards played of the round's, the scores,
// flags, open protests and whether its score card is signed; a table that needs the
// director (paused, a protest open, a score card to sign, a student gone) stands out. While a
// table waits for its students the director marks them or begins play (docs/rules.md
// decision 30); an auto-proctored table's card is signed here, as the director's signature
// (R-ROUND-7). Above the tables: begin every waiting table, close the round, advance it,
// and the tie-breaks the server seated, each with its printed links. A timed table (a
// tie-break, R-ROUND-6) shows the time its round has left, counted down each second in place
// (a redraw of the cards would replace a button under the director's pointer).
//
// Why joins in groups: the server lets one connection join `max_joins` tables, so a round of
// more tables is followed on further connections of this page's token, as the scoreboard
// does (board.js).
import { every, fill, h } from "../draw.js";
import { replayLink } from "../links.js";
import { Connection, serverUrl } from "../wire.js";
import { flagCause } from "../event_words.js";
import { BOARD_WORDS, DIRECTOR_WORDS as W } from "../word_tables.js";
import { errorInWords, seatName } from "../words.js";
import { act, consoleLink, currentRound, field, say, valueOf } from "./common.js";

const DEFAULT_MAX_JOINS = 16;
const NOT_OPEN_RETRY_MS = 1500; // a started round's tables are created just after its push
const INITIALS_KEY = "t24-director-initials";
const TICK_MS = 250; // the countdowns of timed tables: a whole second shown, never late by one

/** The end of a timed round (R-ROUND-6) while it runs: its `round_deadline`, or null. */
function roundDeadline(state) {
  return (state && (state.deadlines || []).find((d) => d.command === "round_deadline")) || null;
}

export function boardStep(main, connection, tid, stream) {
  const asked = Number(new URLSearchParams(location.hash.slice(1)).get("round")) || null;
  const limits = (connection.welcome && connection.welcome.limits) || {};
  const perConnection = Math.max(1, (limits.max_joins || DEFAULT_MAX_JOINS) - 1); // one: the tournament
  const groups = [{ connection, joined: 0 }];
  const tables = new Map(); // hub id -> {state, presence}
  let view = null;
  let number = asked;

  main.replaceChildren(
    h("section", { "aria-labelledby": "board-heading", class: "wide board-controls" },
      h("h2", { id: "board-heading" }),
      h("nav", { id: "rounds", class: "row rounds", "aria-label": W.rounds }),
      field("initials", W.initials_label, { maxlength: 16, value: localStorage.getItem(INITIALS_KEY) || "",
        oninput: (e) => localStorage.setItem(INITIALS_KEY, e.target.value.trim()) }),
      h("div", { class: "row" },
        h("button", { id: "begin-all", type: "button", onclick: () => beginAll() }),
        h("button", { id: "close-round", type: "button", onclick: () => act(connection, stream, "close_round", { round: number }) }),
        h("button", { id: "advance-round", type: "button", onclick: () => act(connection, stream, "advance", { round: number }) }),
        h("a", { id: "seat-next", class: "button-link" }),
        h("button", { id: "projector", type: "button", "aria-pressed": "false", onclick: () => projector() }, BOARD_WORDS.projector_on))),
    h("section", { id: "day-champions", class: "wide champions", hidden: true, "aria-labelledby": "day-champions-heading" },
      h("h2", { id: "day-champions-heading" }, W.champions_heading),
      h("ul", { id: "day-champion-list", class: "champion-list" })),
    h("div", { id: "day-tables", class: "day-tables wide" }),
    h("div", { id: "tie-breaks", class: "wide" }));

  function projector() {
    const on = document.documentElement.classList.toggle("projector");
    const toggle = document.getElementById("projector");
    toggle.setAttribute("aria-pressed", String(on));
    toggle.textContent = on ? BOARD_WORDS.projector_off : BOARD_WORDS.projector_on;
  }

  /** Joins a table on the first connection with a join left (or a new one); a table not
   * created yet is tried again. */
  function follow(hub) {
    if (tables.has(hub)) return;
    tables.set(hub, { state: null, presence: null });
    let group = groups.find((g) => g.joined < perConnection);
    if (!group) {
      group = { connection: ownConnection(), joined: 0 };
      groups.push(group);
    }
    group.joined += 1;
    const join = () => group.connection.join(hub, { presence: true }).catch((error) => {
      if (error.code === "unknown_table") {
        group.connection.tables.delete(hub);
        setTimeout(join, NOT_OPEN_RETRY_MS);
      } else if (error.code !== "disconnected") {
        say(() => errorInWords(error));
      }
    });
    join();
  }

  function ownConnection() {
    const own = new Connection(serverUrl(location), connection.token, {
      table: (state) => part.table(state),
      presence: (message) => part.presence(message),
      fatal: (error) => say(() => errorInWords(error)),
    });
    own.start();
    return own;
  }

  async function beginAll() {
    for (const [hub, entry] of tables) {
      if (entry.state && entry.state.view && entry.state.view.waiting) await act(connectionOf(hub), hub, "begin_play");
    }
  }

  function initials() {
    const text = valueOf("initials");
    if (!text) say(() => W.initials_first);
    return text;
  }

  function sign(hub) {
    const mine = initials();
    if (mine) act(connectionOf(hub), hub, "sign_score_card", { initials: mine });
  }

  function connectionOf(hub) {
    const group = groups.find((g) => g.connection.tables.has(hub));
    return group ? group.connection : connection;
  }

  /** Why a table needs the director now (words of W.attention), from its view. */
  function attention(table, presence) {
    if (!table) return [];
    const why = [];
    if (table.paused) why.push("paused");
    if ((table.protests || []).some((p) => p.status === "open")) why.push("protest");
    if (table.phase === "ended" && !(table.score_card && table.score_card.signed)) why.push("unsigned");
    const here = new Set((presence && presence.seats) || []);
    const running = table.phase !== "ended" && table.phase !== "setup" && !table.waiting;
    const gone = (table.seats || []).some((s) => !s.disqualified && !here.has(s.seat)
      && (table.attendance || {})[s.seat] !== "absent");
    if (running && table.mode === "networked" && presence && gone) why.push("away");
    return why;
  }

  function stateWords(table, presence, state) {
    if (!table) return W.table_not_open;
    const card = table.score_card || {};
    if (card.signed) return W.table_signed(card.initials, card.by);
    if (table.phase === "ended") return W.table_ended;
    if (table.waiting) {
      const seats = table.seats || [];
      const here = new Set((presence && presence.seats) || []);
      const count = seats.filter((s) => here.has(s.seat) || (table.attendance || {})[s.seat]).length;
      return W.waiting_count(count, seats.length);
    }
    if (table.paused) return W.table_paused(table.pause_cause);
    const inPlay = table.card ? 1 : 0;
    const played = Math.max(0, table.cards_total - table.cards_left - inPlay);
    // a timed round ends on time, not when its deck does: the cards played and the time left
    return roundDeadline(state) ? W.table_timed(played) : W.table_playing(played, table.cards_total);
  }

  /** The time a timed table's round has left, in words (its element is updated by `tick`). */
  function timeLeft(hub, state) {
    const deadline = roundDeadline(state);
    if (!deadline || state.view.paused) return null;
    const seconds = Math.max(0, Math.ceil((deadline.at - connectionOf(hub).serverNow(state)) / 1e6));
    return h("p", { class: "table-time", "data-time": hub, "data-seconds": seconds }, W.time_left(seconds));
  }

  /** Counts each timed table's time down in place. */
  function tick() {
    for (const shown of document.querySelectorAll("[data-time]")) {
      const entry = tables.get(shown.dataset.time);
      const fresh = entry && entry.state && timeLeft(shown.dataset.time, entry.state);
      if (fresh && fresh.dataset.seconds !== shown.dataset.seconds) {
        shown.dataset.seconds = fresh.dataset.seconds;
        shown.textContent = fresh.textContent;
      }
    }
  }
  every(TICK_MS, tick);

  function seatRows(hub, table, presence) {
    const here = new Set((presence && presence.seats) || []);
    const over = table.phase === "ended"; // who is connected no longer matters
    return (table.seats || []).map((seat) => {
      const name = seatName(table, seat.seat);
      const mark = (table.attendance || {})[seat.seat];
      const connected = here.has(seat.seat);
      const markButton = (kind, words) => h("button", { type: "button", class: "small", "data-mark": kind,
        "aria-label": words(name), onclick: () => act(connectionOf(hub), hub, "mark_seat", { seat: seat.seat, mark: kind }) },
      W.mark_short[kind]);
      const marks = table.waiting && !connected
        ? [h("span", { class: "marks" }, markButton("present", W.mark_present), markButton("absent", W.mark_absent))] : [];
      return h("tr", { "data-seat": seat.seat, "data-connected": String(connected), "data-mark": mark || "" },
        h("th", { scope: "row" }, name, seat.disqualified ? ` (${flagCause(seat.disqualified_cause)})` : ""),
        h("td", { class: connected ? "here" : over ? "left" : "away" }, connected ? W.connected : W.not_connected,
          mark ? ` · ${W.marked[mark]}` : "", ...marks),
        h("td", { class: "score", "data-score": seat.score }, seat.score),
        h("td", { class: "flags" }, String(seat.flags)));
    });
  }

  function tableCard(hub, name, section) {
    const entry = tables.get(hub) || {};
    const table = entry.state && entry.state.view;
    const why = attention(table, entry.presence);
    const signed = Boolean(table && table.score_card && table.score_card.signed);
    const open = Boolean(table && (table.protests || []).some((p) => p.status === "open"));
    const state = !table ? "closed" : signed ? "signed" : table.phase === "ended" ? "ended"
      : table.waiting ? "waiting" : table.paused ? "paused" : "playing";
    return h("section", { class: `table-card${why.length ? " attention" : ""}`, "data-table": hub, "data-state": state,
      "aria-label": W.table_heading(name, section) },
      h("h3", {}, W.table_heading(name, section)),
      h("p", { class: "table-state" }, stateWords(table, entry.presence, entry.state)),
      table && !table.waiting && table.phase !== "ended" ? timeLeft(hub, entry.state) : null,
      why.length ? h("p", { class: "attention-why" }, why.map((w) => W.attention[w]).join(" · ")) : null,
      table ? h("table", { class: "seats day-seats" },
        h("thead", {}, h("tr", {}, W.seat_headings.map((t) => h("th", { scope: "col" }, t)))),
        h("tbody", {}, seatRows(hub, table, entry.presence))) : null,
      h("div", { class: "row table-actions" },
        table && table.waiting ? h("button", { type: "button", "data-begin": hub, onclick: () => act(connectionOf(hub), hub, "begin_play") }, W.begin_button) : null,
        table && table.phase === "ended" && !signed && !open
          ? h("button", { type: "button", "data-sign": hub, onclick: () => sign(hub) }, W.sign_button) : null,
        h("a", { href: consoleLink({ page: "console", table: hub, tournament: null, step: null, round: null }) }, W.console_of(name)),
        h("a", { href: replayLink(hub) }, W.replay_of(name))));
  }

  function render() {
    if (!view) return;
    const round = view.rounds.find((r) => r.round === number);
    fill("board-heading", W.board_heading(number));
    const shown = view.finished ? view.rounds.filter((r) => r.started) : view.rounds; // no round to come
    fill("rounds", shown.map((r) => h("a", { href: consoleLink({ page: "director", step: "board", round: r.round }),
      "aria-current": r.round === number ? "page" : null }, W.round_heading(r.round))));
    const cards = round.started ? round.tables.map((t) => tableCard(`${tid}.${t.table}`, t.table, t.section)) : [];
    fill("day-tables", cards.length ? cards : [h("p", {}, W.no_tables)]);
    const ties = (view.tie_breaks || []).filter((tie) => tie.round === number);
    fill("tie-breaks", ties.map((tie) => h("section", { class: "tie-break", "data-tie": tie.number },
      h("h3", {}, W.tie_heading(tie)),
      h("p", {}, h("a", { href: consoleLink({ page: "print", tie: tie.number, round: null, kind: "plan", step: null }) }, W.print_tie(tie.number))),
      h("div", { class: "day-tables" }, tie.tables.map((t) => tableCard(`${tid}.${t.table}`, t.table, t.section))))));
    const names = new Map((view.students || []).map((s) => [s.student, s]));
    const champions = Object.entries(view.champions || {});
    document.getElementById("day-champions").hidden = !champions.length;
    fill("day-champion-list", champions.map(([section, id]) => {
      const student = names.get(id) || { name: id, school: "" };
      return h("li", { "data-section": section, "data-student": id }, W.champion_line(section, student.name, student.school));
    }));
    const waiting = [...tables.values()].filter((e) => e.state && e.state.view && e.state.view.waiting).length;
    const begin = document.getElementById("begin-all");
    begin.textContent = W.begin_all(waiting);
    begin.disabled = !waiting;
    const close = document.getElementById("close-round");
    close.textContent = W.close_round(number);
    close.disabled = !round.started || round.closed;
    const advance = document.getElementById("advance-round");
    advance.textContent = W.advance_round(number);
    advance.hidden = number === 1;
    advance.disabled = !round.closed || round.advanced;
    const next = document.getElementById("seat-next");
    next.hidden = number === 4 || view.finished || !(round.closed && (number === 1 || round.advanced));
    next.textContent = W.seat_next(number + 1);
    next.href = consoleLink({ page: "director", step: "seating", round: number + 1 });
  }

  const part = {
    draw(next) {
      view = next;
      number = asked || currentRound(view);
      const round = view.rounds.find((r) => r.round === number);
      if (round.started) for (const t of round.tables) follow(`${tid}.${t.table}`);
      for (const tie of view.tie_breaks || []) {
        if (tie.round === number) for (const t of tie.tables) follow(`${tid}.${t.table}`);
      }
      render();
    },
    table(state) {
      const entry = tables.get(state.table);
      if (!entry) return;
      entry.state = state;
      render();
    },
    presence(message) {
      const entry = tables.get(message.table);
      if (!entry) return;
      entry.presence = message;
      render();
    },
  };
  return part;
}
