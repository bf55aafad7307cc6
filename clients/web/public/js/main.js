// Which page: the token in the URL's fragment (#token=..., never sent to the server's log)
// says who this is; `page` and `table` (or `tournament`) in the fragment pick the console,
// the scoreboard, a replay, a table's analysis after the round (`page=analysis`), the director's
// console or its printed sheets. A player gets the student page, a proctor the console, a
// spectator and an auditor the scoreboard, and the director the director's console
// (js/director/).
import { analysisPage } from "./analysis.js";
import { boardFilter, boardPage } from "./board.js";
import { consolePage } from "./console.js";
import { directorPage } from "./director/index.js";
import { printPage } from "./director/print.js";
import { pageByGame } from "./games/index.js";
import { replayPage } from "./replay.js";
import { studentPage } from "./student.js";
import { Connection, serverUrl } from "./wire.js";
import { PAGE_WORDS } from "./word_tables.js";
import { chosenLanguage, drawLanguageSwitch, errorInWords, keepFields, language, loadWords, restoreFields, saidLines, sayLinesAgain, startLanguages, tableLanguage } from "./words.js";
import { endPage, h } from "./draw.js";

// The words first (js/words.js): the person's language, else their browser's; a table's
// default replaces the browser's once the table's first snapshot names it.
await loadWords(...startLanguages());
document.title = PAGE_WORDS.title;

const root = document.getElementById("app");
// A link to another page of the client changes only the fragment: start afresh with it.
window.addEventListener("hashchange", () => location.reload());

/** The language switch (index.html's `#language`): another language is remembered, its
 * words are loaded and the page is drawn again in them where it stands, without a reload:
 * the same connection, the table's updates heard so far given to the page drawn anew (its
 * feed, its result lines), what the person had typed, and the lines said once (a refusal on
 * the message line) said again in the new words. */
function drawSwitch() {
  drawLanguageSwitch(document.getElementById("language"), (lang) => {
    if (lang !== language()) switchLanguage(lang);
  });
}
drawSwitch();

async function switchLanguage(lang) {
  keepFields();
  const lines = saidLines();
  await loadWords(lang);
  document.title = PAGE_WORDS.title;
  drawSwitch();
  if (!drawAgain) { // no table to draw (a link without a token): its words again
    showFatal(PAGE_WORDS.no_token);
    return;
  }
  restored = false;
  linesToSay = lines;
  drawAgain();
}
const params = new URLSearchParams(location.hash.slice(1));
const token = params.get("token");

/** Which server this page plays on, when it is not the one that served the page (several
 * nodes: the connection followed a `moved`, wire.js). */
function showNode(state, detail) {
  const node = document.getElementById("node");
  if (!node) return;
  if (state === "moving") node.textContent = PAGE_WORDS.moving_to(detail.url);
  else if (state === "online") node.textContent = detail && detail.url ? PAGE_WORDS.served_by(detail.url) : "";
}

function showFatal(text) {
  root.replaceChildren(h("div", { id: "fatal", class: "fatal", role: "alert" },
    h("h1", {}, PAGE_WORDS.fatal), h("p", {}, text)));
}

const NOT_OPEN_RETRY_MS = 3000; // a tournament's table opens when its round starts

/** Joins the page's table; a table not created yet (a slip scanned before the round
 * started: its token names the table the tournament creates then) is tried again. */
function joinWhenOpen(table) {
  const connection = window.t24;
  connection.join(table, { presence: true, afterSeq: 0 }).catch((error) => {
    if (error.code === "unknown_table") {
      connection.tables.delete(table); // joined afresh, from seq 0, once it exists
      showNotOpen();
      setTimeout(() => joinWhenOpen(table), NOT_OPEN_RETRY_MS);
    } else if (error.code !== "disconnected") {
      showFatal(errorInWords(error));
    }
  });
}

function showNotOpen() {
  const node = document.getElementById("not-open") || h("p", { id: "not-open", class: "pause", role: "status" });
  node.textContent = PAGE_WORDS.not_open;
  if (!node.isConnected) root.prepend(node);
}

let tableLanguageSeen = false; // the first view with a table's default was looked at
let ownTable = null; // the one table this page is about (its default language applies), if any
let waitingForWords = null; // the pushes held while the table's language loads
let restored = false;
let linesToSay = null; // the lines said before a language switch, said again once drawn
let drawAgain = null; // draws the page anew in the page's language now (a language switch)

if (!token) {
  showFatal(PAGE_WORDS.no_token);
} else {
  let page = null;
  // once a page is drawn, what the person had typed before a language switch: after a table
  // drawing, or when a game's page is drawn (its module loaded after the table's updates)
  const restoreOnce = () => {
    if (!restored && document.querySelector("main")) {
      restored = true;
      restoreFields();
      if (linesToSay) sayLinesAgain(linesToSay);
      linesToSay = null;
    }
  };
  // What the page has heard of the one table it follows live (main.js joins it): given
  // again, in order, to the page drawn anew after a language switch. The other pages (the
  // scoreboard, a replay, the director's) join their tables themselves and so again.
  let heard = [];
  let lastStatus = null;
  let lastPresence = null;
  let followed = null; // the table main.js joined for the page (`heard`)
  const deliver = (state, push) => {
    if (followed && state.table === followed) heard.push([state, push]);
    page.table(state, push);
    restoreOnce();
  };
  let welcomed = null;
  drawAgain = () => {
    if (!welcomed) return; // not welcomed yet: the page is drawn in the new words when it is
    endPage(); // its countdowns and key listeners
    page = null;
    root.replaceChildren(); // nothing of the page before is left to fill
    const held = heard;
    heard = [];
    build(welcomed);
    if (lastStatus) page.status(...lastStatus);
    for (const [state, push] of held) deliver(state, push);
    if (lastPresence) page.presence(lastPresence);
    restoreOnce();
  };
  /** Draws the page the welcome and the address ask for (again after a language switch). */
  function build(welcome) {
    const connection = window.t24;
    const wanted = params.get("page");
    const table = params.get("table") || welcome.table;
    let live = null; // the table this page follows live (the board and replay join their own)
    followed = null;
    const director = welcome.role === "director";
    if (wanted === "replay" && table) page = replayPage(root, connection, table);
    else if (wanted === "print" && director) page = printPage(root, connection, params);
    else if (director && (wanted === "director" || (!wanted && !params.get("table")))) {
      page = directorPage(root, connection, welcome, params);
    }
    else if (wanted === "analysis" && table) page = analysisPage(root, connection, welcome, table);
    else if (wanted === "console" && table) live = table;
    else if (wanted === "board" || !table) {
      const shown = boardFilter({ table: params.get("table"), tournament: params.get("tournament") });
      page = boardPage(root, connection, welcome, shown, Boolean(params.get("projector")));
    }
    else live = table;
    if (live) {
      ownTable = live;
      const challengePage = () => (welcome.role === "player" ? studentPage(root, connection, welcome)
        : consolePage(root, connection, live));
      if (welcome.role === "player" || welcome.role === "proctor" || welcome.role === "director") {
        // the table's game (in its first snapshot) picks the page: games/index.js
        page = pageByGame(root, connection, welcome, live, challengePage, restoreOnce);
        followed = live;
      } else {
        page = boardPage(root, connection, welcome, undefined, Boolean(params.get("projector")));
      }
    }
    document.body.dataset.page = welcome.role;
  }
  const connection = new Connection(serverUrl(location), token, {
    welcome(welcome) {
      if (page) return; // a reconnect: the page is already drawn
      welcomed = welcome;
      build(welcome);
      if (followed) joinWhenOpen(followed);
    },
    status(state, detail) {
      showNode(state, detail);
      lastStatus = [state, detail];
      if (page) page.status(state, detail);
    },
    table(state, push) {
      if (!page) return;
      if (waitingForWords) {
        waitingForWords.push([state, push]);
        return;
      }
      const lang = tableLanguage(state.view);
      if (!tableLanguageSeen && state.view && state.table === ownTable) {
        tableLanguageSeen = true;
        if (lang && !chosenLanguage() && lang !== language()) {
          // the table's default (the director's `lang`): the page is drawn in it from here on
          waitingForWords = [[state, push]];
          loadWords(lang).then(() => {
            const held = waitingForWords;
            waitingForWords = null;
            drawSwitch();
            for (const [s, p] of held) deliver(s, p);
          });
          return;
        }
      }
      deliver(state, push);
    },
    presence(message) {
      lastPresence = message;
      if (page) page.presence(message);
    },
    fatal(error) {
      showFatal(errorInWords(error));
    },
  });
  window.t24 = connection; // for the browser tests and the curious
  connection.start();
}
