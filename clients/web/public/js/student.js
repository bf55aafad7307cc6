// The student's page: the card, the touch button (and the space bar), the pattern and three
// step fields, the live countdowns, results, flags, scores and the feed. Everything drawn
// comes from the server's snapshot and pushes; the server decides every command.
import { drawSaid, feedSection, fill, h, setDisabled } from "./draw.js";
import { challengeFrame } from "./table_frame.js";
import { errorInWords, eventInWords } from "./words.js";

export function studentPage(root, connection, welcome) {
  const table = welcome.table;
  const you = welcome.seat;

  const say = (text) => fill("message", text);
  const send = (name, args) =>
    connection.command(table, name, { seat: you, ...args }).then(() => { say(""); return true; },
      (error) => { say(errorInWords(error)); return false; });
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
    h("p", {}, h("label", { for: `step-${n}` }, `Step ${n}`),
      h("input", { id: `step-${n}`, name: `step-${n}`, autocomplete: "off", placeholder: n === 1 ? "e.g. 8 / 4 = 2" : "", onkeydown: keyStep(n) }));
  const steps = () => [1, 2, 3].map((n) => document.getElementById(`step-${n}`).value.trim()).filter(Boolean);

  root.replaceChildren(
    h("header", {},
      h("h1", {}, `Table ${table}`),
      h("p", { id: "who" }, `You are seat ${you}.`),
      h("p", { id: "status", role: "status", "aria-live": "polite" }, "Connecting…")),
    h("div", { id: "pause", class: "pause", role: "alert" }),
    h("main", { class: "student" },
      h("section", { "aria-labelledby": "card-heading", class: "play" },
        h("h2", { id: "card-heading" }, "The card"),
        h("div", { id: "card", "aria-live": "polite" }),
        h("ul", { id: "countdowns", class: "countdowns", "aria-label": "Time left" }),
        h("button", { id: "touch", class: "touch", type: "button", "aria-keyshortcuts": "Space",
          onclick: () => send("touch_card", { fingertips: 1 }) }, "Touch the card (space)"),
        h("button", { id: "stumped", type: "button", onclick: () => send("declare_stumped", {}) }, "I'm stumped")),
      h("section", { "aria-labelledby": "answer-heading", class: "answer" },
        h("h2", { id: "answer-heading" }, "Your answer"),
        h("form", { id: "pattern-form", onsubmit: (e) => { e.preventDefault(); send("declare_pattern", { pattern: document.getElementById("pattern").value.trim() }).then((ok) => ok && focus("step-1")); } },
          h("label", { for: "pattern" }, "Pattern (say it within the time, e.g. 4 × 6)"),
          h("input", { id: "pattern", name: "pattern", autocomplete: "off" }),
          h("button", { id: "declare", type: "submit" }, "Declare the pattern")),
        h("form", { id: "steps-form", onsubmit: (e) => { e.preventDefault(); send("state_steps", { steps: steps() }); } },
          stepField(1), stepField(2), stepField(3),
          h("button", { id: "state-steps", type: "submit" }, "State the steps"),
          h("button", { id: "fix", type: "button", onclick: () => { const s = steps(); send("fix_solution", s.length ? { steps: s } : {}); } },
            "Equals 24: fix the solution")),
        h("div", { id: "said", "aria-live": "polite" }),
        h("p", { id: "message", class: "message", role: "alert" }),
        h("p", { id: "result", class: "result", "aria-live": "polite" })),
      h("section", { "aria-labelledby": "scores-heading", class: "scores" },
        h("h2", { id: "scores-heading" }, "Scores"),
        h("div", { id: "seats" })),
      feedSection(table)));

  // The space bar touches, unless a field takes it (typing) or a control presses itself; a
  // control the page has disabled (after a won card, say) takes nothing, so the key touches.
  document.addEventListener("keydown", (event) => {
    if (event.code !== "Space" && event.key !== " ") return;
    const target = event.target;
    const tag = target && target.tagName;
    if (["INPUT", "TEXTAREA", "BUTTON", "SELECT", "A"].includes(tag) && !target.disabled) return;
    event.preventDefault();
    const touch = document.getElementById("touch");
    if (!touch.disabled) touch.click();
  });

  // The frame draws the status, the pause, the card, the seats and the countdowns; this
  // page draws which of its controls the view makes sensible now.
  function draw(view) {
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
    if (d.seat !== you) return;
    if (push.event_type === "CardTouched") resultLines = [];
    if (["SolutionJudged", "CardWon", "FlagIssued", "PlayerDisqualified", "PatternDeclared"].includes(push.event_type)) {
      resultLines.push([push.event_type, eventInWords(push, frame.state.view)]);
      fill("result", resultLines.flatMap(([type, text], i) => [i ? " " : null, h("span", { "data-event": type }, text)]));
    }
    if (push.event_type === "CardWon" || push.event_type === "FlagIssued") {
      for (const id of ["pattern", "step-1", "step-2", "step-3"]) document.getElementById(id).value = "";
    }
  }

  const { frame, handlers } = challengeFrame(connection, {
    draw,
    pushed: (push) => { if (!push.catchUp) result(push); },
  });
  return handlers;
}
