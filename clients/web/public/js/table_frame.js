// The frame the student page and the proctor console share around one 24 Challenge table: the
// connection status, the pause banner, the card, the seats, the live countdowns (redrawn ten
// times a second) and the feed, kept from the snapshot and the pushes. Each page draws only
// its own part of the view (its controls), and hears each new push after the feed has it.
// Why one place: the two pages drew all of this line for line the same way, so a change to
// one (the feed, the countdowns, the link's states) had to be made twice.
import { addToFeed, drawCard, drawCountdowns, drawPause, drawSeats, every, fill, h, linkAfter } from "./draw.js";
import { statusInWords } from "./words.js";

/** A 24 Challenge table's page life. `draw(view)` draws the page's own part of a challenge
 * view after the frame's (elements with ids `status`, `pause`, `card`, `seats`,
 * `countdowns` and `feed`, which the page lays out); `pushed(push)` hears each new push once
 * (catch-up included: `push.catchUp`). Returns `frame` (the last `state`, `presence` and
 * `link`, for the page's actions) and `handlers`, the page object `main.js` drives. */
export function challengeFrame(connection, { draw, pushed = () => {} }) {
  const frame = { state: null, presence: null, link: "online" };
  let feedSeq = 0;

  function tick() {
    const state = frame.state;
    if (!state || !state.view) return;
    fill("countdowns", drawCountdowns(state.deadlines || [], connection.serverNow(state), state.view.paused));
  }
  every(100, tick);

  function render() {
    fill("status", statusInWords(frame.link));
    const view = frame.state && frame.state.view;
    fill("pause", drawPause(view, frame.link));
    if (!view) return;
    if (view.game !== "challenge") {
      fill("card", h("pre", {}, JSON.stringify(view, null, 1)));
      return;
    }
    fill("card", drawCard(view));
    fill("seats", drawSeats(view, frame.presence));
    draw(view);
    tick();
  }

  const handlers = {
    status(next) {
      frame.link = linkAfter(frame.link, next);
      render();
    },
    table(next, push) {
      frame.state = next;
      if (push && push.seq > feedSeq) {
        feedSeq = push.seq;
        addToFeed("feed", push, next.view);
        pushed(push);
      }
      render();
    },
    presence(message) {
      frame.presence = message;
      render();
    },
  };
  return { frame, handlers };
}
