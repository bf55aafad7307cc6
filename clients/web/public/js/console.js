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
import { flagCause } from "./event_words.js";
import { CONSOLE_WORDS as W, PAGE_WORDS, doneInWords } from "./word_tables.js";
import { errorInWords, sayLine, seatName, statusInWords } from "./words.js";

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
  const say = (words, kind = "error") => sayLine("message", words, kind);
  const value = (id) => document.getElementById(id).value.trim();
  const seat = () => value("seat");
  const send = (name, args = {}) =>
    connection.command(table, name, args).then(() => { say(() => doneInWords(name), "ok"); return true; },
      (error) => { say(() => errorInWords(error), "error"); return false; });
  const button = (id, text, action) => h("button", { id, type: "button", onclick: action, disabled: true }, text);
  const field = (id, text, attrs = {}) => h("p", {}, h("label", { for: id }, text), h("input", { id, name: id, autocomplete: "off", ...attrs }));

  root.replaceChildren(
    h("header", {},
      h("h1", {}, W.title(table)),
      h("p", { id: "status", role: "status", "aria-live": "polite" }, statusInWords("connecting"))),
    h("div", { id: "pause", class: "pause", role: "alert" }),
    h("p", { id: "message", class: "message", role: "alert" }),
    h("main", { class: "console" },
      h("section", { id: "final", class: "final wide", hidden: true, "aria-live": "polite" }),
      h("section", { "aria-labelledby": "card-heading" },
        h("h2", { id: "card-heading" }, W.card_heading),
        h("div", { id: "card" }),
        h("p", { id: "phase" }),
        h("ul", { id: "countdowns", class: "countdowns", "aria-label": PAGE_WORDS.time_left }),
        h("div", { class: "row", role: "group", "aria-label": W.round_group },
          button("start", W.start, () => send("start_round")),
          button("begin", PAGE_WORDS.begin, () => send("begin_play")),
          button("place", W.place, () => send("place_card")),
          button("reveal", W.reveal, () => send("reveal_card")),
          button("pause-table", W.pause, () => send("pause_table", { cause: "proctor" })),
          button("resume", W.resume, () => send("resume_table")),
          button("end", W.end, () => { if (confirm(W.confirm_end)) send("end_round"); }))),
      h("section", { "aria-labelledby": "seat-heading" },
        h("h2", { id: "seat-heading" }, W.for_student),
        h("p", {}, h("label", { for: "seat" }, W.student), h("select", { id: "seat", name: "seat" })),
        h("div", { class: "row", role: "group", "aria-label": W.student_group },
          button("mark-present", PAGE_WORDS.mark_present, () => send("mark_seat", { seat: seat(), mark: "present" })),
          button("mark-absent", PAGE_WORDS.mark_absent, () => send("mark_seat", { seat: seat(), mark: "absent" })),
          button("touch-for", W.touch_for, () => send("touch_card", { seat: seat(), fingertips: 1 })),
          button("override", W.override, () => send("override_first_touch", { seat: seat() })),
          button("stumped-for", W.stumped_for, () => send("declare_stumped", { seat: seat() })),
          // R-PLAY-3: a slap seen at a physical table disqualifies at once, so it is confirmed
          button("slap", W.slap, () => {
            if (confirm(W.confirm_slap(currentName()))) send("rule_slap", { seat: seat() });
          })),
        field("pattern-for", W.pattern_said, { disabled: true }),
        button("declare-for", W.record_pattern, () => send("declare_pattern", { seat: seat(), pattern: value("pattern-for") })),
        field("steps-for", W.steps_said, { disabled: true }),
        h("div", { class: "row" },
          button("steps-record", W.record_steps, () => send("state_steps", { seat: seat(), steps: value("steps-for").split(";").map((s) => s.trim()).filter(Boolean) })),
          button("fix-for", W.fix, () => send("fix_solution", { seat: seat() }))),
        h("p", {}, h("label", { for: "cause" }, W.flag_cause),
          h("select", { id: "cause", name: "cause", disabled: true }, CAUSES.map((c) => h("option", { value: c }, flagCause(c))))),
        button("flag", W.flag, () => send("issue_flag", { seat: seat(), cause: value("cause") }))),
      h("section", { "aria-labelledby": "scores-heading" },
        h("h2", { id: "scores-heading" }, W.scores),
        h("div", { id: "seats" })),
      h("section", { "aria-labelledby": "protest-heading" },
        h("h2", { id: "protest-heading" }, W.protests_heading),
        h("ul", { id: "protests" }),
        field("ruling", W.ruling_text),
        corrections.element,
        button("preview", W.preview, () => preview()),
        h("p", { id: "preview-result", "aria-live": "polite" }),
        h("h3", {}, W.file_heading),
        h("p", {}, h("label", { for: "protest-for" }, W.protest_for), h("select", { id: "protest-for", name: "protest-for", disabled: true })),
        eventPicker("protest-events", W.protest_events),
        field("protest-reason", W.protest_reason, { disabled: true }),
        button("file-protest", W.file_protest, () => fileProtest()),
        field("initials", W.initials, { maxlength: 16, disabled: true }),
        button("sign", W.sign, () => send("sign_score_card", { initials: value("initials") })),
        h("p", { id: "signed" }),
        // R-ROUND-7/8: only the director reopens a signed card (a late protest)
        director ? [
          field("reopen-reason", W.reopen_reason, { disabled: true }),
          button("reopen", W.reopen, () => send("reopen_score_card", { reason: value("reopen-reason") })),
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
    return { protest, upheld, ruling_text: value("ruling") || (upheld ? W.upheld : W.rejected),
      corrections: upheld ? corrections.corrections() : [] };
  }

  async function rule(protest, upheld) {
    if (await send("rule_protest", ruling(protest, upheld))) corrections.clear();
  }

  async function preview() {
    const view = frame.state && frame.state.view;
    const open = ((view && view.protests) || []).find((p) => p.status === "open");
    if (!open) { fill("preview-result", W.no_open_protest); return; }
    try {
      const answer = await connection.request("query", { table, name: "preview_ruling", args: ruling(open.protest, true) });
      const { before, after } = answer.result;
      const seats = Object.keys(after.scores || {});
      fill("preview-result", W.preview_if(open.protest, seats.map((s) =>
        W.preview_seat(seatName(view, s), before.scores[s], after.scores[s], before.flags[s], after.flags[s])).join("; ")));
    } catch (error) {
      fill("preview-result", errorInWords(error));
    }
  }

  function drawProtests(view) {
    const open = canApply(view, "rule_protest");
    return (view.protests || []).map((protest) => h("li", { "data-protest": protest.protest },
      W.protest_line(protest.protest, seatName(view, protest.by), protest.seqs.join(", "), protest.reason,
        W.protest_status[protest.status] || protest.status),
      protest.ruling_text ? ` (${protest.ruling_text})` : "",
      protest.status === "open" ? [
        h("button", { type: "button", disabled: !open, onclick: () => rule(protest.protest, true) }, W.uphold(protest.protest)),
        h("button", { type: "button", disabled: !open, onclick: () => rule(protest.protest, false) }, W.reject(protest.protest)),
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
    fill("phase", W.phase(W.phases[view.phase] || String(view.phase).replaceAll("_", " "), view.cards_left,
      W.modes[view.mode] || view.mode));
    seatOptions("seat", view);
    seatOptions("protest-for", view, W.proctor_self);
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
    fill("signed", card.signed ? W.signed_by(card.initials) : W.not_signed);
  }

  const { frame, handlers } = challengeFrame(connection, {
    draw,
    pushed: (push) => {
      if (events.add(push)) addEventChoice("protest-events", push, frame.state && frame.state.view);
    },
  });
  return handlers;
}
