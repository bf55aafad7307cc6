// Registration: the roster per grade and school, one student added, renamed or withdrawn, a
// CSV roster previewed (the server's `preview_import` query: what would be registered and
// every bad row by its line, nothing recorded) then imported, and registration closed. The
// file is read as it is (a spreadsheet's byte order mark, `;` and Windows line endings are
// the server's to read, docs/tournament.md): the page never parses it.
import { fill, h, seatsTable } from "../draw.js";
import { DIRECTOR_WORDS as W } from "../word_tables.js";
import { errorInWords } from "../words.js";
import { act, choice, field, say, studentName, valueOf } from "./common.js";

/** A file's text: UTF-8 (a byte order mark stays, for the server to drop), or Windows-1252
 * when it is not UTF-8 (what Excel's plain "CSV" saves on Windows), as `t24 tournament
 * import` reads it. */
function decoded(bytes) {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return new TextDecoder("windows-1252").decode(bytes);
  }
}

export function registrationStep(main, connection, tid, stream) {
  let view = null;
  let preview = null; // {text, answer}: the file shown, and what the server said of it

  main.replaceChildren(
    h("section", { "aria-labelledby": "roster-heading", class: "wide roster" },
      h("h2", { id: "roster-heading" }, W.roster_heading),
      h("p", { id: "roster-count" }),
      h("div", { id: "roster" })),
    h("section", { "aria-labelledby": "import-heading", class: "import" },
      h("h2", { id: "import-heading" }, W.import_heading),
      h("p", {}, W.import_intro),
      field("roster-file", W.field_file, { type: "file", accept: ".csv,text/csv,text/plain", onchange: (e) => read(e.target) }),
      h("div", { id: "preview", "aria-live": "polite" }),
      h("button", { id: "import", type: "button", disabled: true, onclick: () => importRoster() }, W.import_idle)),
    h("section", { "aria-labelledby": "add-heading" },
      h("h2", { id: "add-heading" }, W.add_heading),
      h("form", { id: "add-form", onsubmit: (e) => { e.preventDefault(); add(); } },
        field("add-name", W.field_student_name, { maxlength: 64 }),
        field("add-school", W.field_school, { maxlength: 64 }),
        choice("add-grade", W.field_grade, []),
        h("button", { id: "add", type: "submit" }, W.add_button))),
    h("section", { "aria-labelledby": "rename-heading" },
      h("h2", { id: "rename-heading" }, W.rename_heading),
      choice("change-student", W.field_student, []),
      field("new-student-name", W.field_new_name, { maxlength: 64 }),
      h("div", { class: "row" },
        h("button", { id: "rename", type: "button", onclick: () => rename() }, W.rename_button),
        h("button", { id: "withdraw", type: "button", onclick: () => withdraw() }, W.withdraw_button))),
    h("section", { "aria-labelledby": "close-heading" },
      h("h2", { id: "close-heading" }, W.close_heading),
      h("p", { id: "close-state" }, W.close_intro),
      h("button", { id: "close-registration", type: "button", onclick: () => act(connection, stream, "close_registration") }, W.close_button(0))));

  async function read(input) {
    const file = input.files && input.files[0];
    if (!file) return;
    const text = decoded(await file.arrayBuffer());
    try {
      const answer = await connection.request("query", { table: stream, name: "preview_import", args: { csv: text } });
      preview = { text, answer: answer.result };
      say("");
    } catch (error) {
      preview = null;
      say(() => errorInWords(error));
    }
    drawPreview();
  }

  function drawPreview() {
    const button = document.getElementById("import");
    if (!preview) {
      fill("preview");
      button.disabled = true;
      button.textContent = W.import_idle;
      return;
    }
    const { students, problems, rows } = preview.answer;
    const count = preview.answer.problem_count || problems.length;
    const parts = [h("h3", {}, W.preview_heading)];
    if (problems.length) {
      parts.push(h("p", { class: "problems-line" }, W.preview_bad(count)),
        h("ul", { id: "preview-problems", class: "problems" }, problems.map((p) => h("li", {}, p))));
    } else {
      parts.push(h("p", {}, W.preview_good(rows)),
        seatsTable(W.preview_heading, W.preview_headings,
          students.map((s) => h("tr", {}, h("th", { scope: "row" }, s.name), h("td", {}, s.school), h("td", {}, s.grade))),
          "preview"));
    }
    fill("preview", parts);
    button.textContent = W.import_button(problems.length ? 0 : rows);
    button.disabled = Boolean(problems.length) || !rows || !view || !view.registration_open;
  }

  async function importRoster() {
    if (!preview) return;
    const count = preview.answer.rows;
    if (await act(connection, stream, "import_students", { csv: preview.text })) {
      say(() => W.imported(count), "ok");
      preview = null;
      document.getElementById("roster-file").value = "";
      drawPreview();
    }
  }

  async function add() {
    const args = { name: valueOf("add-name"), school: valueOf("add-school"), grade: valueOf("add-grade") };
    if (await act(connection, stream, "register", args)) {
      document.getElementById("add-name").value = "";
    }
  }

  function rename() {
    act(connection, stream, "rename_student", { student: valueOf("change-student"), name: valueOf("new-student-name") })
      .then((ok) => { if (ok) document.getElementById("new-student-name").value = ""; });
  }

  function withdraw() {
    const id = valueOf("change-student");
    if (id && confirm(W.withdraw_confirm(studentName(view, id)))) act(connection, stream, "withdraw", { student: id });
  }

  /** A select kept as chosen when its options are redrawn. */
  function options(id, pairs) {
    const select = document.getElementById(id);
    const kept = select.value;
    const markup = pairs.map(([value, words]) => h("option", { value }, words));
    if (select.innerHTML !== markup.map((o) => o.outerHTML).join("")) {
      select.replaceChildren(...markup);
      if (pairs.some(([value]) => value === kept)) select.value = kept;
    }
  }

  function drawRoster() {
    const students = view.students || [];
    fill("roster-count", W.roster_count(students.filter((s) => !s.withdrawn).length, view.grades.length));
    const tables = view.grades.map((grade) => {
      const ofGrade = students.filter((s) => s.grade === grade)
        .sort((a, b) => a.school.localeCompare(b.school) || a.name.localeCompare(b.name));
      return seatsTable(W.roster_caption(grade, ofGrade.filter((s) => !s.withdrawn).length), W.roster_headings,
        ofGrade.map((s) => h("tr", { "data-student": s.student, class: s.withdrawn ? "withdrawn" : null },
          h("th", { scope: "row" }, s.name), h("td", {}, s.school),
          h("td", {}, s.withdrawn ? W.withdrawn : W.registered))),
        "roster-grade");
    });
    fill("roster", students.length ? tables : [h("p", {}, W.no_students)]);
    options("add-grade", view.grades.map((g) => [g, g]));
    options("change-student", students.filter((s) => !s.withdrawn)
      .map((s) => [s.student, `${s.name} (${s.school}, ${s.grade})`]));
  }

  return {
    draw(next) {
      view = next;
      drawRoster();
      const open = view.registration_open;
      const active = (view.students || []).filter((s) => !s.withdrawn).length;
      for (const id of ["add", "close-registration", "roster-file"]) document.getElementById(id).disabled = !open;
      document.getElementById("close-registration").textContent = open ? W.close_button(active) : W.registration_closed(active);
      drawPreview();
    },
  };
}
