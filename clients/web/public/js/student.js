// The student's page: the card, the touch button (and the space bar), the pattern and three
// step fields, the live countdowns, results, flags, scores, the feed, a protest (its events
// ticked in a numbered list) and, once the round is over, the results: the winner, the
// student's own place and the ranking; and their rating over every table they played, with
// its history plot (js/rating_history.js, the `ratings` query). Everything drawn comes from the server's snapshot and
// pushes; the server decides every command.
import { canApply } from "./commands.js";
import { drawSaid, feedSection, fill, h, onDocument, setDisabled } from "./draw.js";
import { TableEvents, addEventChoice, clearPicked, eventPicker, pickedSeqs } from "./protest.js";
import { loadRatingHistory, ratingHistorySection } from "./rating_history.js";
import { drawResults } from "./results.js";
import { challengeFrame } from "./table_frame.js";
import { ownEventInWords } from "./event_words.js";
import { PAGE_WORDS as W, hintInWords } from "./word_tables.js";
import { errorInWords, sayLine, seatName, statusInWords } from "./words.js";

export function studentPage(root, connection, welcome) {
  const table = welcome.table;
  const you = welcome.seat;

  const events = new TableEvents();
  /** The message line: a refusal in words (`kind` "error"), a hint, or nothing. */
  const say = (words, kind = "error") => sayLine("message", words, kind);
  const send = (name, args) =>
    connection.command(table, name, { seat: you, ...args }).then(() => { say(""); return true; },
      (error) => { say(() => errorInWords(error)); return false; });
  const focus = (id) => { const el = document.getElementById(id); if (el && !el.disabled) el.focus(); };
  // Keyboard play, as at the terminal: space touches, the pattern field takes the focus,
  // Enter moves from the pattern to step 1, 2, 3, then states the steps and focuses
  // "Equals 24", where Enter fixes the solution.
  const keyStep = (n) => (event) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    if (n < 3) focus(`step-${n + 1}`);
    else send("state_steps", { steps: steps() }).then((ok) => ok && focus("fix"));
  };
  let wasHolding = false;
  let couldTouch = false;
  const focusLost = () => {
    const active = document.activeElement;
    return !active || active === document.body || active.disabled === true;
  };

  const stepField = (n) =>
    h("p", {}, h("label", { for: `step-${n}` }, W.step(n)),
      h("input", { id: `step-${n}`, name: `step-${n}`, autocomplete: "off", placeholder: n === 1 ? W.step_placeholder : "", onkeydown: keyStep(n) }));
  const steps = () => [1, 2, 3].map((n) => document.getElementById(`step-${n}`).value.trim()).filter(Boolean);

  root.replaceChildren(
    h("header", {},
      h("h1", {}, W.table(table)),
      h("p", { id: "who" }, W.welcome),
      h("p", { id: "status", role: "status", "aria-live": "polite" }, statusInWords("connecting"))),
    h("div", { id: "pause", class: "pause", role: "alert" }),
    h("main", { class: "student" },
      h("section", { id: "final", class: "final wide", hidden: true, "aria-live": "polite" }),
      h("section", { "aria-labelledby": "card-heading", class: "play" },
        h("h2", { id: "card-heading" }, W.card_heading),
        h("div", { id: "card", "aria-live": "polite" }),
        h("ul", { id: "countdowns", class: "countdowns", "aria-label": W.time_left }),
        h("button", { id: "touch", class: "touch", type: "button", "aria-keyshortcuts": "Space",
          onclick: () => send("touch_card", { fingertips: 1 }) }, W.touch),
        h("p", { id: "hint", class: "message", "data-kind": "hint", role: "status" }),
        h("button", { id: "stumped", type: "button", onclick: () => send("declare_stumped", {}) }, W.stumped)),
      h("section", { "aria-labelledby": "answer-heading", class: "answer" },
        h("h2", { id: "answer-heading" }, W.answer_heading),
        h("form", { id: "pattern-form", onsubmit: (e) => { e.preventDefault(); send("declare_pattern", { pattern: document.getElementById("pattern").value.trim() }).then((ok) => ok && focus("step-1")); } },
          h("label", { for: "pattern" }, W.pattern_label),
          h("input", { id: "pattern", name: "pattern", autocomplete: "off" }),
          h("button", { id: "declare", type: "submit" }, W.declare)),
        h("form", { id: "steps-form", onsubmit: (e) => { e.preventDefault(); send("state_steps", { steps: steps() }); } },
          stepField(1), stepField(2), stepField(3),
          h("button", { id: "state-steps", type: "submit" }, W.state_steps),
          h("button", { id: "fix", type: "button", onclick: () => { const s = steps(); send("fix_solution", s.length ? { steps: s } : {}); } },
            W.fix)),
        h("div", { id: "said", "aria-live": "polite" }),
        h("p", { id: "message", class: "message", role: "alert" }),
        h("p", { id: "result", class: "result", "aria-live": "polite" })),
      h("section", { "aria-labelledby": "scores-heading", class: "scores" },
        h("h2", { id: "scores-heading" }, W.scores),
        h("div", { id: "seats" })),
      feedSection(table),
      h("section", { "aria-labelledby": "protest-heading", class: "protest" },
        h("h2", { id: "protest-heading" }, W.protest),
        h("details", { id: "protest-details" },
          h("summary", {}, W.protest_summary),
          eventPicker("protest-events", W.protest_events),
          h("p", {}, h("label", { for: "protest-reason" }, W.protest_why),
            h("input", { id: "protest-reason", name: "protest-reason", autocomplete: "off" })),
          h("button", { id: "file-protest", type: "button", onclick: () => fileProtest() }, W.file_protest))),
      ratingHistorySection()));
  loadRatingHistory(connection, table);

  async function fileProtest() {
    const args = { seqs: pickedSeqs("protest-events"), reason: document.getElementById("protest-reason").value.trim() };
    if (await send("file_protest", args)) {
      say(() => W.protest_filed, "ok");
      clearPicked("protest-events");
      document.getElementById("protest-reason").value = "";
    }
  }

  // The space bar touches, unless a field takes it (typing) or a control presses itself; a
  // control the page has disabled (after a won card, say) takes nothing, so the key touches.
  // A digit typed outside a field does nothing, as at the terminal: the page says why.
  onDocument("keydown", (event) => {
    const target = event.target;
    const tag = target && target.tagName;
    if (/^[0-9]$/.test(event.key) && !["INPUT", "TEXTAREA", "SELECT"].includes(tag)) {
      const view = frame.state && frame.state.view;
      if (view && view.phase !== "ended" && !(view.phase === "solving" && view.toucher === you)) {
        fill("hint", hintInWords(view.phase === "revealed" ? "digit_before_touch" : "digit_while_waiting"));
      }
      return;
    }
    if (event.code !== "Space" && event.key !== " ") return;
    if (["INPUT", "TEXTAREA", "BUTTON", "SELECT", "A", "SUMMARY"].includes(tag) && !target.disabled) return;
    event.preventDefault();
    const touch = document.getElementById("touch");
    if (!touch.disabled) touch.click();
  });

  // The frame draws the status, the pause, the card, the seats and the countdowns; this
  // page draws which of its controls the view makes sensible now.
  function draw(view) {
    fill("who", W.you_are(seatName(view, you)));
    const final = document.getElementById("final");
    final.hidden = view.phase !== "ended";
    // nothing left to touch or answer; the last attempt's result stays in view
    for (const part of document.querySelectorAll("main.student .play, #pattern-form, #steps-form")) {
      part.hidden = view.phase === "ended";
    }
    fill("final", view.phase === "ended" ? drawResults(view, you) : []);
    const protest = frame.link === "online" && canApply(view, "file_protest");
    for (const id of ["protest-reason", "file-protest"]) setDisabled(id, !protest);
    document.getElementById("protest-events-set").disabled = !protest;
    const me = (view.seats || []).find((seat) => seat.seat === you) || {};
    const running = !view.paused && frame.link === "online" && !me.disqualified;
    const holding = view.phase === "solving" && view.toucher === you;
    const canTouch = running && view.phase === "revealed" && !(view.touches || []).includes(you);
    setDisabled("touch", !canTouch);
    setDisabled("stumped", !(running && view.phase === "revealed" && !(view.stumped_declared || []).includes(you)));
    setDisabled("pattern", !(running && holding && !view.pattern));
    setDisabled("declare", !(running && holding && !view.pattern));
    for (const id of ["step-1", "step-2", "step-3", "state-steps", "fix"]) setDisabled(id, !(running && holding));
    if (holding && !wasHolding && !view.pattern) focus("pattern");
    if (holding || view.phase === "ended") fill("hint", ""); // touched: the hint is done
    wasHolding = holding;
    // A card to touch (revealed, or back in play after another's flag): the focus goes to
    // the touch button, unless the student has put it somewhere (a link, a field). After a
    // won card or a flag it was on a control this page has since disabled: Chromium drops
    // it to the body, other browsers may keep it on the disabled control.
    if (canTouch && !couldTouch && focusLost()) focus("touch");
    couldTouch = canTouch;
    fill("said", drawSaid(view, you));
  }

  // The result of this student's attempt, line by line as the server judged it: the
  // pattern, the verdict on the fixed solution (its message names the first failing step),
  // then the card won or the flag. A new touch starts a new attempt.
  let resultLines = [];
  function result(push) {
    const d = push.data || {};
    if (push.event_type === "CardPlaced") {
      // a new card: what was said about the last one is stale
      say("");
      fill("hint", "");
      resultLines = [];
      fill("result", []);
    }
    if (d.seat !== you) return;
    if (push.event_type === "CardTouched") resultLines = [];
    if (["SolutionJudged", "CardWon", "FlagIssued", "PlayerDisqualified", "PatternDeclared"].includes(push.event_type)) {
      resultLines.push([push.event_type, ownEventInWords(push, frame.state.view)]);
      fill("result", resultLines.flatMap(([type, text], i) => [i ? " " : null, h("span", { "data-event": type }, text)]));
    }
    if (push.event_type === "CardWon" || push.event_type === "FlagIssued") {
      for (const id of ["pattern", "step-1", "step-2", "step-3"]) document.getElementById(id).value = "";
    }
  }

  const { frame, handlers } = challengeFrame(connection, {
    draw,
    pushed: (push) => {
      if (events.add(push)) addEventChoice("protest-events", push, frame.state && frame.state.view);
      if (!push.catchUp) result(push);
      // a signed score card is this table's result: the rating across the log moves
      if (!push.catchUp && push.event_type === "ScoreCardSigned") loadRatingHistory(connection, table);
    },
  });
  return handlers;
}
