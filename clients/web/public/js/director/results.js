// The results: the champions announced (each grade's, by name and school), the standings per
// grade, a certificate per champion to print (print.js), and the officials' bundle
// downloaded as one zip (`GET /bundle` with this page's token) with the key it is signed
// with shown beside it: the key to pin when it is checked (`t24 audit verify`).
import { drawStandings, fill, h } from "../draw.js";
import { DIRECTOR_WORDS as W } from "../word_tables.js";
import { consoleLink, say } from "./common.js";

export function resultsStep(main, connection, tid) {
  main.replaceChildren(
    h("section", { "aria-labelledby": "champions-heading", class: "wide champions" },
      h("h2", { id: "champions-heading" }, W.champions_heading),
      h("ul", { id: "champions", class: "champion-list" }),
      h("p", {}, h("a", { id: "print-certificates", href: consoleLink({ page: "print", kind: "certificates", round: null, tie: null, step: null }) }, W.print_certificates))),
    h("section", { "aria-labelledby": "bundle-heading", class: "wide" },
      h("h2", { id: "bundle-heading" }, W.bundle_heading),
      h("p", {}, W.bundle_intro),
      h("button", { id: "download-bundle", type: "button", onclick: () => download() }, W.bundle_button),
      h("div", { id: "bundle-result", "aria-live": "polite" })),
    h("section", { "aria-labelledby": "standings-heading", class: "wide" },
      h("h2", { id: "standings-heading" }, W.results_heading),
      h("div", { id: "standings" })));

  async function download() {
    const button = document.getElementById("download-bundle");
    button.disabled = true;
    try {
      const answer = await fetch(`/bundle?tournament=${encodeURIComponent(tid)}`,
        { headers: { Authorization: `Bearer ${connection.token}` }, cache: "no-store" });
      if (!answer.ok) {
        const why = (await answer.text()).trim();
        say(() => W.bundle_failed(answer.status, why));
        return;
      }
      const key = answer.headers.get("x-t24-signing-key") || "";
      const name = `${tid}-bundle.zip`;
      const url = URL.createObjectURL(await answer.blob());
      const save = h("a", { href: url, download: name, hidden: true });
      document.body.append(save);
      save.click();
      save.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      say(() => W.bundle_done(name), "ok");
      fill("bundle-result", h("p", {}, W.bundle_key), h("code", { id: "bundle-key", class: "key" }, key));
    } catch (error) {
      say(() => W.bundle_failed("-", String(error)));
    } finally {
      button.disabled = false;
    }
  }

  return {
    draw(view) {
      const names = new Map((view.students || []).map((s) => [s.student, s]));
      const champions = Object.entries(view.champions || {});
      fill("champions", champions.length ? champions.map(([section, id]) => {
        const student = names.get(id) || { name: id, school: "" };
        return h("li", { "data-section": section, "data-student": id }, W.champion_line(section, student.name, student.school));
      }) : [h("li", {}, W.no_champions)]);
      document.getElementById("print-certificates").hidden = !champions.length;
      fill("standings", drawStandings(view.standings || {}));
    },
  };
}
