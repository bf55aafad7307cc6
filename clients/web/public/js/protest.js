// Protests and rulings by picking, never by typing numbers (R-ROUND-8): a protest's disputed
// events are ticked in a numbered list of the table's events (the numbers the feed shows),
// and an upheld protest's corrections are built from lists the table's own pushes and view
// give: the seat by name, the seat's standing flags (each `FlagIssued` not rescinded since),
// the cards revealed at the table and the cards a seat has won. The server still judges
// every protest and correction; these lists only offer what can make sense.
import { h, setDisabled } from "./draw.js";
import { eventInWords, flagCause } from "./event_words.js";
import { CONSOLE_WORDS as W, CORRECTION_KINDS, correctionInWords } from "./word_tables.js";
import { seatName, web } from "./words.js";

/** What a page needs to know of the table's events for picking: every push (catch-up
 * included), the standing flags and the cards revealed. */
export class TableEvents {
  constructor() {
    this.bySeq = new Map();
    this.revealed = new Map(); // card id -> numbers, in the order revealed
  }

  add(push) {
    if (this.bySeq.has(push.seq)) return false;
    this.bySeq.set(push.seq, push);
    const d = push.data || {};
    if ((push.event_type === "CardRevealed" || push.event_type === "CardPlaced") && d.card_id !== undefined && d.numbers) {
      this.revealed.set(d.card_id, d.numbers); // a proctor sees a placed card's numbers
    }
    return true;
  }

  /** The FlagIssued pushes of `seat` that no FlagRescinded has taken back. */
  standingFlags(seat) {
    const rescinded = new Set([...this.bySeq.values()]
      .filter((push) => push.event_type === "FlagRescinded").map((push) => push.data.flag));
    return [...this.bySeq.values()].filter((push) => push.event_type === "FlagIssued"
      && push.data.seat === seat && !rescinded.has(push.seq));
  }

  /** The card ids revealed at the table (a card never revealed cannot be awarded). */
  revealedCards() {
    return [...this.bySeq.values()].filter((push) => push.event_type === "CardRevealed")
      .map((push) => push.data.card_id).filter((id, index, all) => all.indexOf(id) === index);
  }
}

/** The list a protest's events are ticked in (`listId`), in a fieldset (`listId`-set, which
 * the page disables while no protest can be filed) with its legend. */
export function eventPicker(listId, legend) {
  return h("fieldset", { id: `${listId}-set` },
    h("legend", {}, legend),
    h("ul", { id: listId, class: "pick-list", "aria-label": legend }));
}

/** Adds one event to a picker (newest first). The table's first event (its creation) holds
 * only the options: a protest cannot name it. */
export function addEventChoice(listId, push, view) {
  const list = document.getElementById(listId);
  if (!list || push.seq <= 1 || list.querySelector(`[data-seq="${push.seq}"]`)) return;
  const item = h("li", { "data-seq": push.seq },
    h("label", {},
      h("input", { type: "checkbox", value: push.seq, name: `${listId}-${push.seq}` }),
      h("span", { class: "seq" }, `${push.seq}.`),
      h("span", {}, eventInWords(push, view))));
  const newer = [...list.children].find((li) => Number(li.dataset.seq) < push.seq);
  list.insertBefore(item, newer || null);
}

/** The seqs ticked in a picker, oldest first. */
export function pickedSeqs(listId) {
  return [...document.querySelectorAll(`#${listId} input:checked`)].map((box) => Number(box.value)).sort((a, b) => a - b);
}

/** Unticks every event of a picker (after the protest is filed). */
export function clearPicked(listId) {
  for (const box of document.querySelectorAll(`#${listId} input:checked`)) box.checked = false;
}

/** The console's corrections builder: a kind, a seat, then the flag, the card or the points
 * (each from a list), added to the ruling's list. `corrections()` gives the list as
 * `rule_protest` takes it (docs/rules.md); `draw(view, usable)` refreshes the lists, all
 * disabled unless `usable` (a protest is open to rule on). */
export function correctionsBuilder(events) {
  let pending = [];
  let lastView = null;
  let lastUsable = false;
  const value = (id) => document.getElementById(id).value;
  const choice = (id, label, child) => h("p", { id: `${id}-row` }, h("label", { for: id }, label), child);
  const cardWords = (id) => (events.revealed.has(id) ? `${events.revealed.get(id).join(" ")}` : W.card_n(id));

  const element = h("fieldset", { id: "corrections-builder" },
    h("legend", {}, W.corrections_legend),
    choice("correction-kind", W.correction,
      h("select", { id: "correction-kind", name: "correction-kind", onchange: () => draw(lastView) },
        CORRECTION_KINDS.map((kind) => h("option", { value: kind }, web(`correction.kinds.${kind}`))))),
    choice("correction-seat", W.student, h("select", { id: "correction-seat", name: "correction-seat", onchange: () => draw(lastView) })),
    choice("correction-flag", W.which_flag, h("select", { id: "correction-flag", name: "correction-flag" })),
    choice("correction-card", W.which_card, h("select", { id: "correction-card", name: "correction-card" })),
    choice("correction-delta", W.delta, h("input", { id: "correction-delta", name: "correction-delta", type: "number", min: -100, max: 100, step: 1, value: 1 })),
    choice("correction-why", W.why, h("input", { id: "correction-why", name: "correction-why", autocomplete: "off" })),
    h("button", { id: "add-correction", type: "button", onclick: () => add() }, W.add_correction),
    h("ol", { id: "corrections", class: "corrections", "aria-label": W.corrections_label }));

  function options(id, entries, empty) {
    const select = document.getElementById(id);
    const kept = select.value;
    const fresh = entries.length ? entries.map(([key, words]) => h("option", { value: key }, words))
      : [h("option", { value: "" }, empty)];
    const markup = fresh.map((option) => option.outerHTML).join("");
    if (select.innerHTML !== markup) {
      select.replaceChildren(...fresh);
      if (entries.some(([key]) => String(key) === kept)) select.value = kept;
    }
    select.disabled = !entries.length;
  }

  function draw(view, usable = lastUsable) {
    if (!view) return;
    lastView = view;
    lastUsable = usable;
    document.getElementById("corrections-builder").disabled = !usable;
    const kind = value("correction-kind");
    const seats = view.seats || [];
    options("correction-seat", seats.map((s) => [s.seat, seatName(view, s.seat)]), W.no_students);
    const seat = seats.find((s) => s.seat === value("correction-seat"));
    const inPlay = view.card && view.card.card_id;
    const wonByAnyone = new Set(seats.flatMap((s) => s.cards_won || []));
    options("correction-flag", seat ? events.standingFlags(seat.seat).map((push) =>
      [push.seq, W.flag_event(push.seq, flagCause(push.data.cause))]) : [], W.no_flag);
    const cards = kind === "award_card"
      ? events.revealedCards().filter((id) => !wonByAnyone.has(id) && id !== inPlay)
      : seat ? seat.cards_won || [] : [];
    options("correction-card", cards.map((id) => [id, cardWords(id)]),
      kind === "award_card" ? W.no_card_to_award : W.no_card_won);
    document.getElementById("correction-flag-row").hidden = kind !== "rescind_flag";
    document.getElementById("correction-card-row").hidden = kind !== "award_card" && kind !== "revoke_card";
    document.getElementById("correction-delta-row").hidden = kind !== "adjust_score";
    document.getElementById("correction-why-row").hidden = kind !== "adjust_score";
    const ready = seat && (kind === "rescind_flag" ? value("correction-flag") !== ""
      : kind === "adjust_score" || kind === "rescind_slap" ? true : value("correction-card") !== "");
    setDisabled("add-correction", !ready);
  }

  function add() {
    const kind = value("correction-kind");
    const seat = value("correction-seat");
    const cardId = (key) => [...events.revealed.keys(), ...(lastView.seats || []).flatMap((s) => s.cards_won || [])]
      .find((id) => String(id) === key); // a card id keeps its type (a number stays a number)
    const correction = kind === "rescind_flag" ? { kind, seat, flag: Number(value("correction-flag")) }
      : kind === "rescind_slap" ? { kind, seat }
      : kind === "adjust_score" ? { kind, seat, delta: Number(value("correction-delta")), why: value("correction-why").trim() }
      : { kind, seat, card: cardId(value("correction-card")) };
    pending.push(correction);
    drawList();
  }

  function drawList() {
    document.getElementById("corrections").replaceChildren(...pending.map((correction, index) =>
      h("li", { "data-kind": correction.kind }, correctionInWords(correction, lastView, seatName, events.revealed), " ",
        h("button", { type: "button", onclick: () => { pending.splice(index, 1); drawList(); } },
          W.remove_correction(index + 1)))));
  }

  return {
    element,
    draw,
    corrections: () => pending.map((correction) => ({ ...correction })),
    clear() { pending = []; drawList(); },
  };
}
