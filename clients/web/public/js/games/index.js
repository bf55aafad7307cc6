// The casual games' pages (pocket, deck40, Tjugoett), chosen by the table's game. The
// welcome names the table but not its game: the first snapshot does (`snapshot.game`), so
// the page is picked when it arrives; a 24 Challenge table keeps the student page and the
// console. Each game's module only draws its view and sends its commands: no game rules.
import { h } from "../draw.js";
import { GAME_WORDS } from "../word_tables.js";
import { capitalized, pauseCause, seconds, statusInWords } from "../words.js";
import { deck40Game } from "./deck40.js";
import { gameShell } from "./shell.js";
import { pocketGame } from "./pocket.js";
import { practiceGame } from "./practice.js";
import { tjugoettGame } from "./tjugoett.js";

/** Game name (the snapshot's `game`) -> its page's parts. */
export const CASUAL_GAMES = { pocket: pocketGame, deck40: deck40Game, tjugoett: tjugoettGame, practice: practiceGame };

// The games' own style sheet, beside the client's (so the shared style.css stays as it is).
if (typeof document !== "undefined" && !document.getElementById("games-css")) {
  const sheet = document.createElement("link");
  sheet.id = "games-css";
  sheet.rel = "stylesheet";
  sheet.href = new URL("./games.css", import.meta.url).href;
  document.head.append(sheet);
}

/** A page that waits for the table's first snapshot, then becomes the casual game's page,
 * or `otherPage()` (the 24 Challenge's) for any other game. */
export function pageByGame(root, connection, welcome, table, otherPage) {
  let page = null;
  let waiting = []; // status calls before the page exists
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
      if (!page) {
        if (!state.game) return; // a push before the snapshot: the snapshot redraws it all
        const game = CASUAL_GAMES[state.game];
        page = game ? gameShell(root, connection, welcome, table, game) : otherPage();
        for (const args of waiting) page.status(...args);
        waiting = [];
      }
      page.table(state, push);
    },
    presence(message) {
      if (page) page.presence(message);
    },
  };
}

/** A casual table on the scoreboard (board.js): the game's summary of its view, or null. */
export function casualSummary(view) {
  const game = view && CASUAL_GAMES[view.game];
  return game ? game.summary(view) : null;
}

/** An event of a casual table in words (for the replay page and the feed), or null for a
 * game without a page here (words.js `eventInWords` draws the 24 Challenge's). */
export function casualEventInWords(push, view) {
  const game = view && CASUAL_GAMES[view.game];
  return game ? game.words(push, view) || "" : null;
}

/** A casual table as it stood at one step of the replay page (the `view_at` answer): the
 * game's summary and the countdowns then (`at`: the server's time at that step), or null. */
export function casualStep(view, deadlines, at) {
  const game = view && CASUAL_GAMES[view.game];
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
