// The replay page: step through a stream this token may read, event by event, as
// `t24 replay` lists it. The events come from one join with after_seq 0 (the whole history,
// redacted for this viewer); the view beside them is the table now (drawing the table as it
// stood at each step would need the game's rules, which stay on the server).
import { drawCard, drawSeats, fill, h } from "./draw.js";
import { errorInWords, eventInWords } from "./words.js";

export function replayPage(root, connection, table) {
  const events = [];
  let position = 0;
  let state = null;

  root.replaceChildren(
    h("header", {}, h("h1", {}, `Replay of ${table}`)),
    h("p", { id: "message", class: "message", role: "alert" }),
    h("main", { class: "replay" },
      h("div", { class: "row", role: "group", "aria-label": "Step" },
        h("button", { id: "first", type: "button", onclick: () => go(0) }, "First"),
        h("button", { id: "previous", type: "button", onclick: () => go(position - 1) }, "Previous"),
        h("button", { id: "next", type: "button", onclick: () => go(position + 1) }, "Next"),
        h("button", { id: "last", type: "button", onclick: () => go(events.length - 1) }, "Last")),
      h("p", { id: "position", "aria-live": "polite" }),
      h("p", { id: "sentence" }),
      h("pre", { id: "data" }),
      h("h2", {}, "The table now"),
      h("div", { id: "now" })));

  document.addEventListener("keydown", (event) => {
    if (event.key === "ArrowRight") go(position + 1);
    if (event.key === "ArrowLeft") go(position - 1);
  });

  function go(index) {
    position = Math.max(0, Math.min(index, events.length - 1));
    render();
  }

  function render() {
    const push = events[position];
    fill("position", events.length ? `Event ${position + 1} of ${events.length} (seq ${push.seq}, ${push.event_type})` : "No events yet.");
    fill("sentence", push ? eventInWords(push, state && state.view) : "");
    fill("data", push ? JSON.stringify(push.data, null, 1) : "");
    const view = state && state.view;
    if (view && view.game === "challenge") fill("now", drawCard(view), drawSeats(view, null));
  }

  connection.join(table, { afterSeq: 0 }).catch((error) => fill("message", errorInWords(error)));

  return {
    status() {},
    table(next, push) {
      state = next;
      if (push && !events.some((e) => e.seq === push.seq)) events.push(push);
      render();
    },
    presence() {},
  };
}
