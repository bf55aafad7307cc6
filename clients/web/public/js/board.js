// The scoreboard for spectators and the director: every table this token may see
// (`list_tables`), each joined for its live view: scores, the card in play as the viewer may
// see it, and the last events. A tournament stream shows its standings per grade.
import { casualEventInWords, casualSummary } from "./games/index.js";
import { pageLink } from "./links.js";
import { Connection, serverUrl } from "./wire.js";
import { drawCard, drawPause, drawSeats, drawStandings, h } from "./draw.js";
import { errorInWords, eventInWords, statusInWords } from "./words.js";

const MAX_JOINED = 15; // the server's max_joins is 16 per connection

/** `only`: one table's id (the fragment's `table` with `page=board`), else every table. */
export function boardPage(root, connection, welcome, only = null) {
  const tables = new Map(); // table -> {state, feed: []}
  let link = "online";
  let listed = false;

  root.replaceChildren(
    h("header", {},
      h("h1", {}, "Scoreboard"),
      h("p", { id: "status", role: "status", "aria-live": "polite" }, "Connecting…")),
    h("p", { id: "message", class: "message", role: "alert" }),
    h("main", { id: "tables", class: "board" }));

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
    if (view && view.game === "challenge") {
      body.push(drawCard(view), drawSeats(view, null), ...drawPause(view, link));
    } else if (view && casualSummary(view)) {
      body.push(...casualSummary(view));
    } else if (view && view.standings) {
      body.push(drawStandings(view.standings));
    } else if (view) {
      body.push(h("pre", {}, JSON.stringify(view, null, 1).slice(0, 2000)));
    } else if (!entry.live) {
      body.push(h("p", {}, `Not followed live: ${entry.listed.seq} events${entry.listed.over ? ", over" : ""}.`));
    }
    const links = [h("a", { href: pageLink("replay", id) }, `Replay ${id}`)];
    if (welcome.role === "director") {
      links.push(" ", h("a", { href: pageLink("console", id) }, `Console of ${id}`), " ",
        h("button", { type: "button", "data-links": id, onclick: () => makeLinks(id, entry) }, `Links for the people of ${id}`));
    }
    const people = entry.people
      ? h("ul", { class: "people", "aria-label": `Links for table ${id}` },
        entry.people.map(([who, url]) => h("li", {}, `${who}: `, h("a", { href: url, "data-person": who }, url))))
      : null;
    return h("section", { class: "board-table", "data-table": id, "aria-label": `Table ${id}` },
      h("h2", {}, `Table ${id}`, entry.game ? ` (${entry.game})` : ""),
      ...body,
      h("ol", { class: "feed", reversed: true }, entry.feed.map(([seq, text]) => h("li", { value: seq }, text))),
      h("p", {}, links), people);
  }

  /** The director issues a token per person of a table (`issue_token`) and lists their
   * links: the link holds the token, so each goes only to its person. */
  async function makeLinks(id, entry) {
    const view = entry.state && entry.state.view;
    const wanted = [["proctor", { role: "proctor", table: id, name: "proctor" }]];
    for (const seat of (view && view.seats) || []) {
      wanted.push([`player ${seat.seat} (${seat.name})`, { role: "player", table: id, seat: seat.seat }]);
    }
    if (view && view.dealer && view.dealer.seat) { // a Tjugoett table's person dealer
      wanted.push([`dealer ${view.dealer.seat} (${view.dealer.name})`, { role: "player", table: id, seat: view.dealer.seat }]);
    }
    wanted.push(["spectator", { role: "spectator", table: id, name: "spectator" }]);
    try {
      const people = [];
      for (const [who, claims] of wanted) {
        const issued = await connection.request("issue_token", claims);
        people.push([who, `${location.origin}${location.pathname}#token=${issued.token}`]);
      }
      entry.people = people;
      render();
    } catch (error) {
      document.getElementById("message").textContent = errorInWords(error);
    }
  }

  function render() {
    document.getElementById("status").textContent = statusInWords(link);
    const main = document.getElementById("tables");
    const drawn = [...tables.entries()].map(([id, entry]) => drawTable(id, entry));
    main.replaceChildren(...(drawn.length ? drawn : [h("p", {}, listed ? "No tables yet." : "Loading the tables…")]));
  }

  async function start() {
    try {
      const found = (await listAll()).filter((entry) => !only || entry.table === only);
      listed = true;
      // Tournaments first (their standings), then tables in play, then finished ones; the
      // first MAX_JOINED are followed live, the others listed with their last seq.
      const order = (t) => (t.game === "tournament" ? 0 : t.over ? 2 : 1);
      found.sort((a, b) => order(a) - order(b));
      found.forEach((entry, index) => {
        const live = index < MAX_JOINED;
        tables.set(entry.table, { state: null, feed: [], game: entry.game, feedSeq: 0, live, listed: entry });
        if (live) {
          connection.join(entry.table).catch((error) => {
            if (error.code === "moved") followAlone(entry.table);
            else document.getElementById("message").textContent = errorInWords(error);
          });
        }
      });
      if (found.length > MAX_JOINED) {
        document.getElementById("message").textContent =
          `${found.length} tables: the first ${MAX_JOINED} are followed live (a page can join ${MAX_JOINED + 1}).`;
      }
      render();
    } catch (error) {
      document.getElementById("message").textContent = errorInWords(error);
    }
  }
  start();

  /** A table another node serves (several nodes; a director's joins are answered `moved`):
   * followed on a connection of its own, which moves to the table's node and, after a
   * failover, back through this page's server (wire.js). */
  function followAlone(id) {
    const own = new Connection(serverUrl(location), connection.token, {
      table: (state, push) => page.table(state, push),
      fatal: (error) => { document.getElementById("message").textContent = errorInWords(error); },
    });
    own.start();
    own.join(id).catch(() => {}); // not open yet: joined on its hello, as after a reconnect
  }

  const page = {
    status(next) {
      link = next === "online" ? "online" : next === "error" ? link : next;
      render();
    },
    table(state, push) {
      const entry = tables.get(state.table);
      if (!entry) return;
      entry.state = state;
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
