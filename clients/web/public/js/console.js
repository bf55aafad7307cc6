// The proctor's console for one table: start, place, reveal, a touch or an answer for a seat
// (proctored tables), flags with their causes, pause/resume, override, stumped, a slap, end;
// protests (their events ticked in a numbered list), rulings (their corrections picked from
// lists) and the score-card signature (and, for the director, its reopening). Each button
// sends one command; the server decides and its pushes redraw the page. A button whose
// command cannot apply now (commands.js) is disabled; a reply shows as done or refused.
import { canApply } from "./commands.js";
import { feedSection, fill, h, setDisabled } from "./draw.js";
import { TableEvents, addEventChoice, clearPicked, correctionsBuilder, eventPicker, pickedSeqs } from "./protest.js";
import { drawResults } from "./results.js";
import { challengeFrame } from "./table_frame.js";
import { WAITING_WORDS, doneInWords, errorInWords, flagCause, seatName } from "./words.js";

const CAUSES = ["no_pattern", "no_solution", "incorrect_solution", "too_many_fingertips", "touched_before_reveal"];

// Each command button: its id and the command whose state enables it.
const BUTTONS = {
  start: "start_round", begin: "begin_play", "mark-present": "mark_seat", "mark-absent": "mark_seat", place: "place_card", reveal: "reveal_card", "pause-table": "pause_table",
  resume: "resume_table", end: "end_round", "touch-for": "touch_card", override: "override_first_touch",
  "stumped-for": "declare_stumped", slap: "rule_slap", "declare-for": "declare_pattern",
  "pattern-for": "declare_pattern", "steps-for": "state_steps", "steps-record": "state_steps",
  "fix-for": "fix_solution", cause: "issue_flag", flag: "issue_flag", "file-protest": "file_protest",
  "protest-reason": "file_protest", "protest-for": "file_protest", preview: "rule_protest",
  ruling: "rule_protest", initials: "sign_score_card", sign: "sign_score_card", "reopen-reason": "reopen_score_card",
  reopen: "reopen_score_card",
};

export function consolePage(root, connection, table) {
  const director = Boolean(connection.welcome && connection.welcome.role === "director");
  const events = new TableEvents();
  const corrections = correctionsBuilder(events);

  /** A reply in words: `kind` "ok" (done) or "error" (refused), styled apart. */
  const say = (text, kind = "error") => {
    const message = document.getElementById("message");
    if (message) message.dataset.kind = kind;
    fill("message", text);
  };
  const value = (id) => document.getElementById(id).value.trim();
  const seat = () => value("seat");
  const send = (name, args = {}) =>
    connection.command(table, name, args).then(() => { say(doneInWords(name), "ok"); return true; },
      (error) => { say(errorInWords(error), "error"); return false; });
  const button = (id, text, action) => h("button", { id, type: "button", onclick: action, disabled: true }, text);
  const field = (id, text, attrs = {}) => h("p", {}, h("label", { for: id }, text), h("input", { id, name: id, autocomplete: "off", ...attrs }));

  root.replaceChildren(
    h("header", {},
      h("h1", {}, `Proctor console: table ${table}`),
      h("p", { id: "status", role: "status", "aria-live": "polite" }, "Connecting…")),
    h("div", { id: "pause", class: "pause", role: "alert" }),
    h("p", { id: "message", class: "message", role: "alert" }),
    h("main", { class: "console" },
      h("section", { id: "final", class: "final wide", hidden: true, "aria-live": "polite" }),
      h("section", { "aria-labelledby": "card-heading" },
        h("h2", { id: "card-heading" }, "Card in play"),
        h("div", { id: "card" }),
        h("p", { id: "phase" }),
        h("ul", { id: "countdowns", class: "countdowns", "aria-label": "Time left" }),
        h("div", { class: "row", role: "group", "aria-label": "Round" },
          button("start", "Start the round", () => send("start_round")),
          button("begin", WAITING_WORDS.begin, () => send("begin_play")),
          button("place", "Place a card", () => send("place_card")),
          button("reveal", "Reveal the card", () => send("reveal_card")),
          button("pause-table", "Pause", () => send("pause_table", { cause: "proctor" })),
          button("resume", "Resume", () => send("resume_table")),
          button("end", "End the round", () => { if (confirm("End the round now?")) send("end_round"); }))),
      h("section", { "aria-labelledby": "seat-heading" },
        h("h2", { id: "seat-heading" }, "For a student"),
        h("p", {}, h("label", { for: "seat" }, "Student"), h("select", { id: "seat", name: "seat" })),
        h("div", { class: "row", role: "group", "aria-label": "Student actions" },
          button("mark-present", WAITING_WORDS.mark_present, () => send("mark_seat", { seat: seat(), mark: "present" })),
          button("mark-absent", WAITING_WORDS.mark_absent, () => send("mark_seat", { seat: seat(), mark: "absent" })),
          button("touch-for", "Record a touch", () => send("touch_card", { seat: seat(), fingertips: 1 })),
          button("override", "First touch was this student", () => send("override_first_touch", { seat: seat() })),
          button("stumped-for", "Stumped", () => send("declare_stumped", { seat: seat() })),
          // R-PLAY-3: a slap seen at a physical table disqualifies at once, so it is confirmed
          button("slap", "Rule a slap (disqualifies)", () => {
            if (confirm(`Rule that ${currentName()} slapped the card? This disqualifies them.`)) send("rule_slap", { seat: seat() });
          })),
        field("pattern-for", "Pattern said", { disabled: true }),
        button("declare-for", "Record the pattern", () => send("declare_pattern", { seat: seat(), pattern: value("pattern-for") })),
        field("steps-for", "Steps said (separate with ;)", { disabled: true }),
        h("div", { class: "row" },
          button("steps-record", "Record the steps", () => send("state_steps", { seat: seat(), steps: value("steps-for").split(";").map((s) => s.trim()).filter(Boolean) })),
          button("fix-for", "Equals 24 (fix)", () => send("fix_solution", { seat: seat() }))),
        h("p", {}, h("label", { for: "cause" }, "Flag cause"),
          h("select", { id: "cause", name: "cause", disabled: true }, CAUSES.map((c) => h("option", { value: c }, flagCause(c))))),
        button("flag", "Issue a flag", () => send("issue_flag", { seat: seat(), cause: value("cause") }))),
      h("section", { "aria-labelledby": "scores-heading" },
        h("h2", { id: "scores-heading" }, "Scores"),
        h("div", { id: "seats" })),
      h("section", { "aria-labelledby": "protest-heading" },
        h("h2", { id: "protest-heading" }, "Protests and the score card"),
        h("ul", { id: "protests" }),
        field("ruling", "Ruling text"),
        corrections.element,
        button("preview", "Preview the first open protest upheld with these corrections", () => preview()),
        h("p", { id: "preview-result", "aria-live": "polite" }),
        h("h3", {}, "File a protest"),
        h("p", {}, h("label", { for: "protest-for" }, "For"), h("select", { id: "protest-for", name: "protest-for", disabled: true })),
        eventPicker("protest-events", "Which events (numbered as in the feed)"),
        field("protest-reason", "Protest: reason", { disabled: true }),
        button("file-protest", "File a protest", () => fileProtest()),
        field("initials", "Your initials", { maxlength: 16, disabled: true }),
        button("sign", "Sign the score card", () => send("sign_score_card", { initials: value("initials") })),
        h("p", { id: "signed" }),
        // R-ROUND-7/8: only the director reopens a signed card (a late protest)
        director ? [
          field("reopen-reason", "Why the director reopens the signed score card", { disabled: true }),
          button("reopen", "Reopen the score card", () => send("reopen_score_card", { reason: value("reopen-reason") })),
        ] : []),
      feedSection(table)));

  const currentName = () => seatName(frame.state && frame.state.view, seat());

  async function fileProtest() {
    const args = { seqs: pickedSeqs("protest-events"), reason: value("protest-reason") };
    if (value("protest-for")) args.seat = value("protest-for");
    if (await send("file_protest", args)) {
      clearPicked("protest-events");
      document.getElementById("protest-reason").value = "";
    }
  }

  function ruling(protest, upheld) {
    return { protest, upheld, ruling_text: value("ruling") || (upheld ? "upheld" : "rejected"),
      corrections: upheld ? corrections.corrections() : [] };
  }

  async function rule(protest, upheld) {
    if (await send("rule_protest", ruling(protest, upheld))) corrections.clear();
  }

  async function preview() {
    const view = frame.state && frame.state.view;
    const open = ((view && view.protests) || []).find((p) => p.status === "open");
    if (!open) { fill("preview-result", "No open protest."); return; }
    try {
      const answer = await connection.request("query", { table, name: "preview_ruling", args: ruling(open.protest, true) });
      const { before, after } = answer.result;
      const seats = Object.keys(after.scores || {});
      fill("preview-result", `If protest ${open.protest} is upheld: ` + seats.map((s) =>
        `${seatName(view, s)} score ${before.scores[s]} → ${after.scores[s]}, flags ${before.flags[s]} → ${after.flags[s]}`).join("; "));
    } catch (error) {
      fill("preview-result", errorInWords(error));
    }
  }

  function drawProtests(view) {
    const open = canApply(view, "rule_protest");
    return (view.protests || []).map((protest) => h("li", { "data-protest": protest.protest },
      `Protest ${protest.protest} by ${seatName(view, protest.by)} (events ${protest.seqs.join(", ")}): ${protest.reason} — ${protest.status}`,
      protest.ruling_text ? ` (${protest.ruling_text})` : "",
      protest.status === "open" ? [
        h("button", { type: "button", disabled: !open, onclick: () => rule(protest.protest, true) }, `Uphold protest ${protest.protest}`),
        h("button", { type: "button", disabled: !open, onclick: () => rule(protest.protest, false) }, `Reject protest ${protest.protest}`),
      ] : []));
  }

  /** A select of the seats by name (`first`: an option before them), kept as chosen. */
  function seatOptions(id, view, first = null) {
    const select = document.getElementById(id);
    const chosen = select.value;
    const options = [...(first ? [h("option", { value: "" }, first)] : []),
      ...(view.seats || []).map((s) => h("option", { value: s.seat }, seatName(view, s.seat)))];
    if (select.innerHTML !== options.map((o) => o.outerHTML).join("")) {
      select.replaceChildren(...options);
      if ([...select.options].some((o) => o.value === chosen)) select.value = chosen;
    }
  }

  // The frame draws the status, the pause, the card, the seats and the countdowns; the
  // console draws the phase, the seat pickers, which commands apply, the protests, the
  // results and the score card.
  function draw(view) {
    fill("phase", `Phase: ${String(view.phase).replaceAll("_", " ")}; ${view.cards_left} card(s) left; ${view.mode} table.`);
    seatOptions("seat", view);
    seatOptions("protest-for", view, "The proctor (in my own name)");
    const running = frame.link === "online";
    for (const [id, command] of Object.entries(BUTTONS)) setDisabled(id, !(running && canApply(view, command)));
    setDisabled("seat", !running || view.phase === "ended" || view.phase === "setup");
    if (view.waiting) setDisabled("seat", !running); // a student is marked present or absent
    fill("protests", drawProtests(view));
    corrections.draw(view, running && canApply(view, "rule_protest"));
    document.getElementById("protest-events-set").disabled = !(running && canApply(view, "file_protest"));
    const final = document.getElementById("final");
    final.hidden = view.phase !== "ended";
    fill("final", view.phase === "ended" ? drawResults(view) : []);
    const card = view.score_card || {};
    fill("signed", card.signed ? `Signed by ${card.initials}.` : "Not signed yet.");
  }

  const { frame, handlers } = challengeFrame(connection, {
    draw,
    pushed: (push) => {
      if (events.add(push)) addEventChoice("protest-events", push, frame.state && frame.state.view);
    },
  });
  return handlers;
}
