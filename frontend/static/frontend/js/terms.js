// The words of the game in plain language: a collapsible panel on the table, one entry per
// term (its id `term-<name>` lets a button or the log point at it).
import { h } from "./api.js";
import { T } from "./words.js";

export function termsPanel(container) {
  const list = h("dl", { class: "terms-list" });
  for (const [key, [name, text]] of Object.entries(T.terms || {})) {
    list.append(h("dt", { id: `term-${key}` }, name), h("dd", {}, text));
  }
  container.replaceChildren(h("details", { class: "terms" },
    h("summary", {}, T.terms_open), h("h2", { class: "sr-only" }, T.terms_title), list));
}
