// Which page: the token in the URL's fragment (#token=..., never sent to the server's log)
// says who this is; `page` and `table` (or `tournament`) in the fragment pick the console,
// the scoreboard, a replay, a table's analysis after the round (`page=analysis`), the director's
// console or its printed sheets. A player gets the student page, a proctor the console, a
// spectator and an auditor the scoreboard, and the director the director's console
// (js/director/). Only the modules of the page drawn are loaded, by `import()` once the
// welcome names the role (`PAGE_MODULES`): opening a page fetches, parses and compiles its own
// modules, not every page's (a student's page never loads the director's console).
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

/** The modules of each page (main.js `chosen`), loaded once the welcome names the role. A
 * live table's page (games/index.js `pageByGame`) is its game's, or the student page or the
 * console for the 24 Challenge: both loaded, its game is known only from its first snapshot. */
const PAGE_MODULES = {
  replay: () => [import("./replay.js")],
  print: () => [import("./director/print.js")],
  director: () => [import("./director/index.js")],
  analysis: () => [import("./analysis.js")],
  board: () => [import("./board.js")],
  student: () => [import("./student.js"), import("./games/index.js")],
  console: () => [import("./console.js"), import("./games/index.js")],
};

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
  let welcomed = null; // the welcome, once the page's modules are loaded and it is drawn
  let loading = false; // the welcome came: the page's modules are loading, or loaded
  let early = []; // the status and presence calls while they load, given to the page after
  let pages = null; // the exports of the page's modules (`PAGE_MODULES`), once loaded
  drawAgain = () => {
    if (!welcomed) return; // not drawn yet: the page is drawn in the new words when it is
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
  /** Which page the welcome and the address ask for: its name in `PAGE_MODULES`, and the
   * table it follows live (main.js joins it; the board, replay and director's join their own). */
  function chosen(welcome) {
    const wanted = params.get("page");
    const table = params.get("table") || welcome.table;
    const director = welcome.role === "director";
    if (wanted === "replay" && table) return { name: "replay", table };
    if (wanted === "print" && director) return { name: "print" };
    if (director && (wanted === "director" || (!wanted && !params.get("table")))) return { name: "director" };
    if (wanted === "analysis" && table) return { name: "analysis", table };
    if (wanted === "board" || !table) return { name: "board", filtered: true };
    // the table followed live: the table's game (in its first snapshot) picks the page
    // (games/index.js), the student page or the console for the 24 Challenge
    if (welcome.role === "player") return { name: "student", live: table };
    if (welcome.role === "proctor" || welcome.role === "director") return { name: "console", live: table };
    return { name: "board", live: table };
  }
  /** Draws the page the welcome and the address ask for (again after a language switch),
   * its modules loaded (`pages`). */
  function build(welcome) {
    const connection = window.t24;
    const { name, table, live, filtered } = chosen(welcome);
    followed = null;
    if (name === "replay") page = pages.replayPage(root, connection, table);
    else if (name === "print") page = pages.printPage(root, connection, params);
    else if (name === "director") page = pages.directorPage(root, connection, welcome, params);
    else if (name === "analysis") page = pages.analysisPage(root, connection, welcome, table);
    else if (name === "board") {
      if (live) ownTable = live;
      const shown = filtered ? pages.boardFilter({ table: params.get("table"), tournament: params.get("tournament") }) : undefined;
      page = pages.boardPage(root, connection, welcome, shown, Boolean(params.get("projector")));
    } else {
      ownTable = live;
      const challengePage = () => (name === "student" ? pages.studentPage(root, connection, welcome)
        : pages.consolePage(root, connection, live));
      page = pages.pageByGame(root, connection, welcome, live, challengePage, restoreOnce);
      followed = live;
    }
    document.body.dataset.page = welcome.role;
  }
  const connection = new Connection(serverUrl(location), token, {
    welcome(welcome) {
      if (loading) return; // a reconnect: the page is drawn, or its modules are loading
      loading = true;
      Promise.all(PAGE_MODULES[chosen(welcome).name]()).then((modules) => {
        pages = Object.assign({}, ...modules);
        welcomed = welcome;
        build(welcome);
        if (followed) joinWhenOpen(followed);
        const calls = early;
        early = null;
        for (const [call, args] of calls) page[call](...args); // in order, as they came
      }, (error) => showFatal(errorInWords(error)));
    },
    status(state, detail) {
      showNode(state, detail);
      lastStatus = [state, detail];
      if (page) page.status(state, detail);
      else if (loading && early) early.push(["status", [state, detail]]);
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
      else if (loading && early) early.push(["presence", [message]]);
    },
    fatal(error) {
      showFatal(errorInWords(error));
    },
  });
  window.t24 = connection; // for the browser tests and the curious
  connection.start();
}
