// The scoreboard for spectators and the director: every table this token may see
// (`list_tables`), each joined for its live view: scores, the card in play as the viewer may
// see it, and the last events. A tournament stream shows its standings per grade.
//
// Every table is followed live, however many: the server lets one connection join
// `max_joins` tables (welcome.limits), so the page joins the first ones on its own
// connection and opens a further connection for each further group. On a node of several,
// a table another node serves is joined with `watch` and served from a read-only replica by
// this page's node, so the groups hold whatever node serves their tables. When a tournament's
// stream moves (a round started, a tie-break seated) the page lists the tables again and
// follows the new ones; and again, a little later each time, while a table its started rounds
// or tie-breaks name is not listed yet (the tournament creates them after the push that
// started the round, and another node's table is listed a refresh later).
import { casualEventInWords, casualSummary, whenGameLoads } from "./games/index.js";
import { pageLink } from "./links.js";
import { Connection, serverUrl } from "./wire.js";
import { drawCard, drawPause, drawSeats, drawStandings, every, h, linkAfter } from "./draw.js";
import { drawResults } from "./results.js";
import { eventInWords } from "./event_words.js";
import { BOARD_WORDS, DIRECTOR_WORDS, GAME_WORDS } from "./word_tables.js";
import { errorInWords, seatName, statusInWords } from "./words.js";

const DEFAULT_MAX_JOINS = 16; // the server says its own in welcome.limits.max_joins
const RELIST_MS = 300; // a burst of tournament events lists the tables once
const RELIST_TRIES = 6; // listed again while a tournament's table is missing: 0.6 s to ~19 s on
const TICK_MS = 250; // a timed round's time left, counted down in place

/** A timed round's time left (R-ROUND-6: a tie-break), in whole seconds, while it runs. */
function roundLeft(connection, state) {
  const deadline = (state.deadlines || []).find((d) => d.command === "round_deadline");
  if (!deadline || state.view.paused) return null;
  return Math.max(0, Math.ceil((deadline.at - connection.serverNow(state)) / 1e6));
}

/** Which tables a board shows: `table` (one table's id, the fragment's `table` with
 * `page=board`), `tournament` (a tournament's id: its stream `tournament/ID` and its tables
 * `ID.r1.s1.t01`, ...), else every table. */
export function boardFilter({ table = null, tournament = null } = {}) {
  if (table) return (id) => id === table;
  if (tournament) return (id) => id === `tournament/${tournament}` || id.startsWith(`${tournament}.`);
  return () => true;
}

/** Projector mode: everything large, one table across the whole screen, no links or feed,
 * for a classroom's projector (`&projector=1` in the fragment, or the page's button). */
function setProjector(on, remember = true) {
  document.documentElement.classList.toggle("projector", on);
  if (remember) { // in the address, so the link opens in projector mode
    const params = new URLSearchParams(location.hash.slice(1));
    if (on) params.set("projector", "1");
    else params.delete("projector");
    history.replaceState(null, "", `#${params.toString()}`); // no hashchange: no reload
  }
  const toggle = document.getElementById("projector");
  if (toggle) {
    toggle.textContent = on ? BOARD_WORDS.projector_off : BOARD_WORDS.projector_on;
    toggle.setAttribute("aria-pressed", String(on));
  }
}

/** `shown`: which tables (`boardFilter`); `projector`: start in projector mode. */
export function boardPage(root, connection, welcome, shown = boardFilter(), projector = false) {
  const tables = new Map(); // table -> {state, feed: []}
  const limits = (welcome && welcome.limits) || {};
  const perConnection = limits.max_joins || DEFAULT_MAX_JOINS;
  const groups = [{ connection, joined: 0 }]; // the connections and how many tables each joined
  let link = "online";
  let listed = false;

  const director = welcome && welcome.role === "director";
  root.replaceChildren(
    h("header", {},
      h("h1", {}, BOARD_WORDS.title),
      director ? h("p", {}, h("a", { id: "director-console", href: "#" + new URLSearchParams(
        [["token", connection.token], ["page", "director"]]).toString() }, DIRECTOR_WORDS.console_link)) : null,
      h("p", { id: "status", role: "status", "aria-live": "polite" }, statusInWords("connecting")),
      h("button", { id: "projector", type: "button", "aria-pressed": "false",
        onclick: () => setProjector(!document.documentElement.classList.contains("projector")) }, BOARD_WORDS.projector_on)),
    h("p", { id: "message", class: "message", role: "alert" }),
    h("main", { id: "tables", class: "board" }));

  setProjector(projector, false); // the address says so already

  // each timed table's time left, counted down in place (a redraw would be ten a second)
  every(TICK_MS, () => {
    for (const shown of document.querySelectorAll(".board [data-time]")) {
      const entry = tables.get(shown.dataset.time);
      const left = entry && entry.state ? roundLeft(connection, entry.state) : null;
      if (left !== null && String(left) !== shown.dataset.seconds) {
        shown.dataset.seconds = String(left);
        shown.textContent = BOARD_WORDS.round_ends(left);
      }
    }
  });

  async function listAll() {
    const found = [];
    let after = null;
    do {
      const page = await connection.request("list_tables", after ? { after } : {});
      found.push(...page.tables);
      after = page.next;
    } while (after);
    return found;
  }

  function drawTable(id, entry) {
    const view = entry.state && entry.state.view;
    const body = [];
    if (view && view.game === "challenge" && view.phase === "ended") {
      body.push(h("div", { class: "results" }, drawResults(view, null, false)), drawSeats(view, null));
    } else if (view && view.game === "challenge") {
      const left = roundLeft(connection, entry.state);
      body.push(h("div", { class: "table-body" },
        h("div", { class: "table-card" }, drawCard(view), ...drawPause(view, link),
          left === null ? null : h("p", { class: "round-time", "data-time": id, "data-seconds": left }, BOARD_WORDS.round_ends(left))),
        h("div", { class: "table-scores" }, drawSeats(view, null))));
    } else if (view && casualSummary(view)) {
      body.push(...casualSummary(view));
    } else if (view && view.standings) {
      body.push(drawStandings(view.standings));
    } else if (view) {
      body.push(h("pre", {}, JSON.stringify(view, null, 1).slice(0, 2000)));
    } else {
      body.push(h("p", {}, entry.listed.over ? BOARD_WORDS.loading_over(entry.listed.seq) : BOARD_WORDS.loading_events(entry.listed.seq)));
    }
    const links = [h("a", { href: pageLink("replay", id) }, BOARD_WORDS.replay_of(id))];
    if (welcome.role === "director") {
      links.push(" ", h("a", { href: pageLink("console", id) }, BOARD_WORDS.console_of(id)), " ",
        h("button", { type: "button", "data-links": id, onclick: () => makeLinks(id, entry) }, BOARD_WORDS.links_for(id)));
    }
    const people = entry.people
      ? h("ul", { class: "people", "aria-label": BOARD_WORDS.links_label(id) },
        entry.people.map(([who, label, url]) => h("li", {}, `${label}: `, h("a", { href: url, "data-person": who }, url))))
      : null;
    const tournament = entry.game === "tournament";
    return h("section", { class: tournament ? "board-table tournament" : "board-table", "data-table": id,
      "data-game": entry.game || "", "aria-label": BOARD_WORDS.table(id) },
      h("h2", {}, entry.game ? BOARD_WORDS.table_game(id, BOARD_WORDS.games[entry.game] || entry.game) : BOARD_WORDS.table(id)),
      ...body,
      h("ol", { class: "feed", reversed: true }, entry.feed.map(([seq, text]) => h("li", { value: seq }, text))),
      h("p", { class: "links" }, links), people);
  }

  /** The director issues a token per person of a table (`issue_token`) and lists their
   * links: the link holds the token, so each goes only to its person. */
  async function makeLinks(id, entry) {
    const view = entry.state && entry.state.view;
    // [who (the link's data-person), its words, the token's claims]
    const role = GAME_WORDS.roles;
    const wanted = [["proctor", role.proctor, { role: "proctor", table: id, name: "proctor" }]];
    for (const seat of (view && view.seats) || []) {
      wanted.push([`player ${seat.seat} (${seat.name})`, seatName(view, seat.seat), { role: "player", table: id, seat: seat.seat }]);
    }
    if (view && view.dealer && view.dealer.seat) { // a Tjugoett table's person dealer
      wanted.push([`dealer ${view.dealer.seat} (${view.dealer.name})`, `${role.dealer}: ${seatName(view, view.dealer.seat)}`,
        { role: "player", table: id, seat: view.dealer.seat }]);
    }
    wanted.push(["spectator", role.spectator, { role: "spectator", table: id, name: "spectator" }]);
    try {
      const people = [];
      for (const [who, label, claims] of wanted) {
        const issued = await connection.request("issue_token", claims);
        people.push([who, label, `${location.origin}${location.pathname}#token=${issued.token}`]);
      }
      entry.people = people;
      render();
    } catch (error) {
      document.getElementById("message").textContent = errorInWords(error);
    }
  }

  whenGameLoads(() => render()); // a casual table drawn before its game's module loaded

  function render() {
    document.getElementById("status").textContent = statusInWords(link);
    const main = document.getElementById("tables");
    const drawn = [...tables.entries()].map(([id, entry]) => drawTable(id, entry));
    main.replaceChildren(...(drawn.length ? drawn : [h("p", {}, listed ? BOARD_WORDS.no_tables : BOARD_WORDS.loading)]));
  }

  /** Lists the tables and follows each new one; again when a tournament moves. */
  async function refresh() {
    try {
      const found = (await listAll()).filter((entry) => shown(entry.table));
      listed = true;
      // Tournaments first (their standings), then tables in play, then finished ones.
      const order = (t) => (t.game === "tournament" ? 0 : t.over ? 2 : 1);
      found.sort((a, b) => order(a) - order(b));
      const fresh = found.filter((entry) => !tables.has(entry.table));
      const previous = new Map(tables);
      tables.clear();
      for (const row of found) tables.set(row.table, previous.get(row.table) || newEntry(row));
      for (const [id, entry] of previous) if (!tables.has(id)) tables.set(id, entry);
      for (const entry of fresh) follow(entry.table);
      render();
      if (createdByTournaments().some((id) => !tables.has(id)) && relistTries < RELIST_TRIES) {
        relistTries += 1;
        relistSoon(RELIST_MS * 2 ** relistTries);
      }
    } catch (error) {
      document.getElementById("message").textContent = errorInWords(error);
    }
  }
  refresh();

  function newEntry(listedRow) {
    return { state: null, feed: [], game: listedRow.game, feedSeq: 0, listed: listedRow };
  }

  let relisting = null;
  let relistTries = 0; // lists made since the last tournament push while a table was missing
  function relistSoon(delay = RELIST_MS) {
    if (relisting !== null) return;
    relisting = setTimeout(() => { relisting = null; refresh(); }, delay);
  }

  /** The tables the shown tournaments have created: their started rounds' and their
   * tie-breaks' (`<tournament id>.<table>`), as far as this board shows them. */
  function createdByTournaments() {
    const ids = [];
    for (const [id, entry] of tables) {
      const view = entry.state && entry.state.view;
      if (!view || view.game !== "tournament" || !id.startsWith("tournament/")) continue;
      const prefix = `${id.slice("tournament/".length)}.`;
      for (const round of view.rounds || []) {
        if (round.started) for (const table of round.tables || []) ids.push(prefix + table.table);
      }
      for (const tie of view.tie_breaks || []) {
        for (const table of tie.tables || []) ids.push(prefix + table.table);
      }
    }
    return ids.filter((id) => shown(id));
  }

  /** Joins `id` on the first connection with a join left, or on a new one. */
  function follow(id) {
    let group = groups.find((g) => g.joined < perConnection);
    if (!group) {
      group = { connection: ownConnection(), joined: 0 };
      groups.push(group);
    }
    group.joined += 1;
    group.connection.join(id, { watch: true }).catch((error) => { // another node's: a replica
      if (error.code === "moved") followAlone(id); // a server that serves no replica to a director
      else if (error.code !== "disconnected") showError(error); // not open yet: joined on hello
    });
  }

  function showError(error) {
    document.getElementById("message").textContent = errorInWords(error);
  }

  /** A further connection of this page, with this page's token: its tables' snapshots and
   * pushes are drawn as the first connection's are. */
  function ownConnection() {
    const own = new Connection(serverUrl(location), connection.token, {
      table: (state, push) => page.table(state, push),
      status: (state, error) => {
        if (state !== "error" || !error) return;
        // a table joined on its hello that another node serves: followed alone, as above
        if (error.code === "moved" && error.table) followAlone(error.table);
        else showError(error);
      },
      fatal: showError,
    });
    own.start();
    return own;
  }

  /** A table another node serves, joined `moved` all the same (a server without watch
   * replicas): followed on a connection of its own, which moves to the table's node and,
   * after a failover, back through this page's server (wire.js). */
  function followAlone(id) {
    ownConnection().join(id).catch(() => {}); // not open yet: joined on its hello, as after a reconnect
  }

  const page = {
    status(next) {
      link = linkAfter(link, next);
      render();
    },
    table(state, push) {
      const entry = tables.get(state.table);
      if (!entry) return;
      entry.state = state;
      if (push && !push.catchUp && state.game === "tournament") { // new tables?
        relistTries = 0;
        relistSoon();
      }
      if (push && push.seq > entry.feedSeq) {
        entry.feedSeq = push.seq;
        entry.feed.unshift([push.seq, casualEventInWords(push, state.view) || eventInWords(push, state.view)]);
        entry.feed.length = Math.min(entry.feed.length, 5);
      }
      render();
    },
    presence() {},
  };
  return page;
}
