// The proctor's console for one table: start, place, reveal, a touch or an answer for a seat
// (proctored tables), flags with their causes, pause/resume, override, stumped, a slap, end;
// protests, rulings and the score-card signature (and, for the director, its reopening).
// Each button sends one command; the server decides and its pushes redraw the page.
import { feedSection, fill, h } from "./draw.js";
import { challengeFrame } from "./table_frame.js";
import { errorInWords, flagCause, seatName } from "./words.js";

const CAUSES = ["no_pattern", "no_solution", "incorrect_solution", "too_many_fingertips", "touched_before_reveal"];

export function consolePage(root, connection, table) {
  const director = Boolean(connection.welcome && connection.welcome.role === "director");

  const say = (text) => fill("message", text);
  const value = (id) => document.getElementById(id).value.trim();
  const seat = () => value("seat");
  const send = (name, args = {}) =>
    connection.command(table, name, args).then(() => say(`${name.replaceAll("_", " ")}: done.`), (error) => say(errorInWords(error)));
  const button = (id, text, action) => h("button", { id, type: "button", onclick: action }, text);
  const field = (id, text, attrs = {}) => h("p", {}, h("label", { for: id }, text), h("input", { id, name: id, autocomplete: "off", ...attrs }));

  root.replaceChildren(
    h("header", {},
      h("h1", {}, `Proctor console: table ${table}`),
      h("p", { id: "status", role: "status", "aria-live": "polite" }, "Connecting…")),
    h("div", { id: "pause", class: "pause", role: "alert" }),
    h("main", { class: "console" },
      h("section", { "aria-labelledby": "card-heading" },
        h("h2", { id: "card-heading" }, "Card in play"),
        h("div", { id: "card" }),
        h("p", { id: "phase" }),
        h("ul", { id: "countdowns", class: "countdowns", "aria-label": "Time left" }),
        h("div", { class: "row", role: "group", "aria-label": "Round" },
          button("start", "Start the round", () => send("start_round")),
          button("place", "Place a card", () => send("place_card")),
          button("reveal", "Reveal the card", () => send("reveal_card")),
          button("pause-table", "Pause", () => send("pause_table", { cause: "proctor" })),
          button("resume", "Resume", () => send("resume_table")),
          button("end", "End the round", () => { if (confirm("End the round now?")) send("end_round"); }))),
      h("section", { "aria-labelledby": "seat-heading" },
        h("h2", { id: "seat-heading" }, "For a seat"),
        h("p", {}, h("label", { for: "seat" }, "Seat"), h("select", { id: "seat", name: "seat" })),
        h("div", { class: "row", role: "group", "aria-label": "Seat actions" },
          button("touch-for", "Record a touch", () => send("touch_card", { seat: seat(), fingertips: 1 })),
          button("override", "First touch was this seat", () => send("override_first_touch", { seat: seat() })),
          button("stumped-for", "Stumped", () => send("declare_stumped", { seat: seat() })),
          // R-PLAY-3: a slap seen at a physical table disqualifies at once, so it is confirmed
          button("slap", "Rule a slap (disqualifies)", () => {
            if (confirm(`Rule that seat ${seat()} slapped the card? This disqualifies them.`)) send("rule_slap", { seat: seat() });
          })),
        field("pattern-for", "Pattern said"),
        button("declare-for", "Record the pattern", () => send("declare_pattern", { seat: seat(), pattern: value("pattern-for") })),
        field("steps-for", "Steps said (separate with ;)"),
        h("div", { class: "row" },
          button("steps-record", "Record the steps", () => send("state_steps", { seat: seat(), steps: value("steps-for").split(";").map((s) => s.trim()).filter(Boolean) })),
          button("fix-for", "Equals 24 (fix)", () => send("fix_solution", { seat: seat() }))),
        h("p", {}, h("label", { for: "cause" }, "Flag cause"),
          h("select", { id: "cause", name: "cause" }, CAUSES.map((c) => h("option", { value: c }, flagCause(c))))),
        button("flag", "Issue a flag", () => send("issue_flag", { seat: seat(), cause: value("cause") }))),
      h("section", { "aria-labelledby": "scores-heading" },
        h("h2", { id: "scores-heading" }, "Scores"),
        h("div", { id: "seats" })),
      h("section", { "aria-labelledby": "protest-heading" },
        h("h2", { id: "protest-heading" }, "Protests and the score card"),
        h("ul", { id: "protests" }),
        field("ruling", "Ruling text"),
        field("corrections", "Corrections of an upheld protest (e.g. rescind_flag s2 57; rescind_slap s2; award_card s1 a; revoke_card s1 a; adjust_score s1 2 why)"),
        button("preview", "Preview the ruling of the first open protest", () => preview()),
        h("p", { id: "preview-result", "aria-live": "polite" }),
        field("protest-seqs", "Protest: event numbers (e.g. 12 13)"),
        field("protest-reason", "Protest: reason"),
        button("file-protest", "File a protest", () => send("file_protest", {
          seqs: value("protest-seqs").split(/[\s,]+/).filter(Boolean).map(Number), reason: value("protest-reason") })),
        field("initials", "Your initials", { maxlength: 16 }),
        button("sign", "Sign the score card", () => send("sign_score_card", { initials: value("initials") })),
        h("p", { id: "signed" }),
        // R-ROUND-7/8: only the director reopens a signed card (a late protest)
        director ? [
          field("reopen-reason", "Why the director reopens the signed score card"),
          button("reopen", "Reopen the score card", () => send("reopen_score_card", { reason: value("reopen-reason") })),
        ] : []),
      h("p", { id: "message", class: "message", role: "alert" }),
      feedSection(table)));

  /** The corrections field as the maps `rule_protest` takes (docs/rules.md): words only,
   * the server checks them. */
  function corrections() {
    return value("corrections").split(";").map((part) => part.trim().split(/\s+/)).filter((w) => w[0])
      .map(([kind, seat, arg, ...why]) => {
        if (kind === "rescind_flag") return { kind, seat, flag: Number(arg) };
        if (kind === "rescind_slap") return { kind, seat };
        if (kind === "adjust_score") return { kind, seat, delta: Number(arg), why: why.join(" ") || "ruling" };
        return { kind, seat, card: arg };
      });
  }

  function ruling(protest, upheld) {
    return { protest, upheld, ruling_text: value("ruling") || (upheld ? "upheld" : "rejected"),
      corrections: upheld ? corrections() : [] };
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
        `${s} score ${before.scores[s]} → ${after.scores[s]}, flags ${before.flags[s]} → ${after.flags[s]}`).join("; "));
    } catch (error) {
      fill("preview-result", errorInWords(error));
    }
  }

  function drawProtests(view) {
    return (view.protests || []).map((protest) => h("li", { "data-protest": protest.protest },
      `Protest ${protest.protest} by ${seatName(view, protest.by)} (events ${protest.seqs.join(", ")}): ${protest.reason} — ${protest.status}`,
      protest.ruling_text ? ` (${protest.ruling_text})` : "",
      protest.status === "open" ? [
        h("button", { type: "button", onclick: () => send("rule_protest", ruling(protest.protest, true)) }, `Uphold protest ${protest.protest}`),
        h("button", { type: "button", onclick: () => send("rule_protest", ruling(protest.protest, false)) }, `Reject protest ${protest.protest}`),
      ] : []));
  }

  // The frame draws the status, the pause, the card, the seats and the countdowns; the
  // console draws the phase, the seat picker, the protests and the score card.
  function draw(view) {
    fill("phase", `Phase: ${String(view.phase).replaceAll("_", " ")}; ${view.cards_left} card(s) left; ${view.mode} table.`);
    const select = document.getElementById("seat");
    const chosen = select.value;
    if (select.options.length !== (view.seats || []).length) {
      select.replaceChildren(...(view.seats || []).map((s) => h("option", { value: s.seat }, seatName(view, s.seat))));
      if (chosen) select.value = chosen;
    }
    fill("protests", drawProtests(view));
    const card = view.score_card || {};
    fill("signed", card.signed ? `Signed by ${card.initials}.` : "Not signed yet.");
    const reopen = document.getElementById("reopen");
    if (reopen) reopen.disabled = !card.signed;
  }

  const { frame, handlers } = challengeFrame(connection, { draw });
  return handlers;
}
