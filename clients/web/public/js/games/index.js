// The games' pages, chosen by the table's game and found by their file, never listed: the
// page of game `<g>` is the module `games/<g>.js`, whose default export is its parts (see
// pocket.js), loaded by `import()` when a table of that game is first drawn. A game without
// a module here gets the generic page (generic.js: its view as labelled values), so a new
// game is shown before its page is written. The welcome names the table but not its game:
// the first snapshot does (`snapshot.game`), so the page is picked when it arrives; a 24
// Challenge table keeps the student page and the console (the client's own pages). Each
// game's module only draws its view and sends its commands: no game rules.
import { h } from "../draw.js";
import { GAME_WORDS } from "../word_tables.js";
import { capitalized, pauseCause, seconds, statusInWords } from "../words.js";
// generic.js and shell.js are loaded by `import()` when a game's page needs them: a 24
// Challenge table's page (the student page, the console) never does.

/** Games drawn by the client's own pages (main.js), not by a module here. */
const OWN_PAGES = new Set(["challenge", "tournament"]);
const GAME_NAME = /^[a-z][a-z0-9_]{0,39}$/; // a game's folder name (server/games/<g>/)
const loaded = new Map(); // game name -> its parts, once its module is loaded (or generic)
const loading = new Map(); // game name -> the promise of its parts
const listeners = new Set();

/** The generic page's parts for `name` (generic.js, loaded once it is wanted). */
function generic(name) {
  return import("./generic.js").then(({ genericGame }) => genericGame(name));
}

/** The parts of `name`'s page: its module's default export, or the generic page's when it has
 * none (or the name could not be a module's). Loaded once; every caller shares the promise. */
export function loadGame(name) {
  if (loaded.has(name)) return Promise.resolve(loaded.get(name));
  if (!loading.has(name)) {
    const found = GAME_NAME.test(name) && !["index", "shell", "generic"].includes(name)
      ? import(`./${name}.js`).then((module) => module.default || generic(name), () => generic(name))
      : generic(name);
    loading.set(name, found.then((game) => {
      loaded.set(name, game);
      for (const listener of listeners) listener(name);
      return game;
    }));
  }
  return loading.get(name);
}

/** `listener(name)` after a game's page module loads (a page drawn meanwhile without it,
 * the scoreboard or the replay, draws again). */
export function whenGameLoads(listener) {
  listeners.add(listener);
}

/** Whether `view`'s game is drawn by a module not loaded yet: what is drawn of it meanwhile
 * (labelled values) is drawn again once it loads (`whenGameLoads`). */
export function gameStillLoading(view) {
  const name = view && view.game;
  return typeof name === "string" && !OWN_PAGES.has(name) && !loaded.has(name);
}

/** The parts of a loaded game's page, or null (and its loading starts) for one not loaded
 * yet or drawn by the client's own pages. */
function loadedGame(view) {
  const name = view && view.game;
  if (typeof name !== "string" || OWN_PAGES.has(name)) return null;
  if (!loaded.has(name)) {
    loadGame(name);
    return null;
  }
  return loaded.get(name);
}

// The games' own style sheet, beside the client's (so the shared style.css stays as it is).
if (typeof document !== "undefined" && !document.getElementById("games-css")) {
  const sheet = document.createElement("link");
  sheet.id = "games-css";
  sheet.rel = "stylesheet";
  sheet.href = new URL("./games.css", import.meta.url).href;
  document.head.append(sheet);
}

/** A page that waits for the table's first snapshot, then becomes its game's page (loaded
 * meanwhile: the table's updates wait for it), or `otherPage()` for the 24 Challenge;
 * `drawn()` once it is drawn (main.js gives back what was typed before a language switch). */
export function pageByGame(root, connection, welcome, table, otherPage, drawn = () => {}) {
  let page = null;
  let waiting = []; // status calls before the page exists
  let held = []; // the table's updates (state, push) while the game's module loads
  function becomes(chosen) {
    page = chosen;
    for (const args of waiting) page.status(...args);
    for (const args of held) page.table(...args); // in order: each push reaches the feed
    waiting = [];
    held = [];
    drawn();
  }
  return {
    status(...args) {
      if (page) {
        page.status(...args);
        return;
      }
      waiting.push(args); // replayed to the page; meanwhile the connection's state shows
      root.replaceChildren(h("header", {},
        h("h1", {}, GAME_WORDS.table(table)),
        h("p", { id: "status", role: "status", "aria-live": "polite" }, statusInWords(...args))));
    },
    table(state, push) {
      if (page) {
        page.table(state, push);
        return;
      }
      if (!state.game) return; // a push before the snapshot: the snapshot redraws it all
      held.push([state, push]);
      if (OWN_PAGES.has(state.game)) {
        becomes(otherPage());
        return;
      }
      if (held.length > 1) return; // its module is loading already
      Promise.all([loadGame(state.game), import("./shell.js")]).then(([game, { gameShell }]) => {
        if (!page) becomes(gameShell(root, connection, welcome, table, game));
      });
    },
    presence(message) {
      if (page) page.presence(message);
    },
  };
}

/** A casual table on the scoreboard (board.js): the game's summary of its view, or null
 * (until its module has loaded: `whenGameLoads`). */
export function casualSummary(view) {
  const game = loadedGame(view);
  return game ? game.summary(view) : null;
}

/** An event of a casual table in words (for the replay page and the feed), or null for a
 * game without a page here (words.js `eventInWords` draws the 24 Challenge's). */
export function casualEventInWords(push, view) {
  const game = loadedGame(view);
  return game ? game.words(push, view) || "" : null;
}

/** A casual table as it stood at one step of the replay page (the `view_at` answer): the
 * game's summary and the countdowns then (`at`: the server's time at that step), or null. */
export function casualStep(view, deadlines, at) {
  const game = loadedGame(view);
  if (!game) return null;
  const words = game.deadlineWords || {};
  const live = view.paused ? [] : deadlines.filter((deadline) => words[deadline.command]);
  const countdowns = live.map((deadline) => h("li", { "data-command": deadline.command },
    `${capitalized(words[deadline.command])} ${seconds(Math.max(0, (deadline.at - at) / 1e6))}`));
  return [...game.summary(view),
    countdowns.length ? h("ul", { class: "countdowns", "aria-label": GAME_WORDS.time_left_step }, countdowns) : null,
    view.paused ? h("p", { class: "pause" }, GAME_WORDS.paused_short(pauseCause(view.pause_cause, view.game))) : null,
  ].filter(Boolean);
}
