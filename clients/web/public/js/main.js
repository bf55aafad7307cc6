// Which page: the token in the URL's fragment (#token=..., never sent to the server's log)
// says who this is; `page` and `table` (or `tournament`) in the fragment pick the console,
// the scoreboard, a replay or a table's analysis after the round (`page=analysis`). A player
// gets the student page, a proctor the console, a spectator, an auditor and the director the
// scoreboard.
import { analysisPage } from "./analysis.js";
import { boardFilter, boardPage } from "./board.js";
import { consolePage } from "./console.js";
import { pageByGame } from "./games/index.js";
import { replayPage } from "./replay.js";
import { studentPage } from "./student.js";
import { Connection, serverUrl } from "./wire.js";
import { errorInWords } from "./words.js";
import { h } from "./draw.js";

const root = document.getElementById("app");
// A link to another page of the client changes only the fragment: start afresh with it.
window.addEventListener("hashchange", () => location.reload());
const params = new URLSearchParams(location.hash.slice(1));
const token = params.get("token");

/** Which server this page plays on, when it is not the one that served the page (several
 * nodes: the connection followed a `moved`, wire.js). */
function showNode(state, detail) {
  const node = document.getElementById("node");
  if (!node) return;
  if (state === "moving") node.textContent = `This table is served by another server: moving to ${detail.url}…`;
  else if (state === "online") node.textContent = detail && detail.url ? `Connected to the server that holds this table: ${detail.url}` : "";
}

function showFatal(text) {
  root.replaceChildren(h("div", { id: "fatal", class: "fatal", role: "alert" },
    h("h1", {}, "Cannot open this page"), h("p", {}, text)));
}

if (!token) {
  showFatal("This link holds no token. Open the link your proctor or director gave you (it ends in #token=…).");
} else {
  let page = null;
  const connection = new Connection(serverUrl(location), token, {
    welcome(welcome) {
      if (page) return; // a reconnect: the page is already drawn
      const wanted = params.get("page");
      const table = params.get("table") || welcome.table;
      let live = null; // the table this page follows live (the board and replay join their own)
      if (wanted === "replay" && table) page = replayPage(root, connection, table);
      else if (wanted === "analysis" && table) page = analysisPage(root, connection, welcome, table);
      else if (wanted === "console" && table) live = table;
      else if (wanted === "board" || !table) {
        const shown = boardFilter({ table: params.get("table"), tournament: params.get("tournament") });
        page = boardPage(root, connection, welcome, shown, Boolean(params.get("projector")));
      }
      else live = table;
      if (live) {
        const challengePage = () => (welcome.role === "player" ? studentPage(root, connection, welcome)
          : consolePage(root, connection, live));
        if (welcome.role === "player" || welcome.role === "proctor" || welcome.role === "director") {
          // the table's game (in its first snapshot) picks the page: games/index.js
          page = pageByGame(root, connection, welcome, live, challengePage);
          connection.join(live, { presence: true, afterSeq: 0 }).catch((error) => showFatal(errorInWords(error)));
        } else {
          page = boardPage(root, connection, welcome, undefined, Boolean(params.get("projector")));
        }
      }
      document.body.dataset.page = welcome.role;
    },
    status(state, detail) {
      showNode(state, detail);
      if (page) page.status(state, detail);
    },
    table(state, push) {
      if (page) page.table(state, push);
    },
    presence(message) {
      if (page) page.presence(message);
    },
    fatal(error) {
      showFatal(errorInWords(error));
    },
  });
  window.t24 = connection; // for the browser tests and the curious
  connection.start();
}
