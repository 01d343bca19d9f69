// A ruleset's options as form controls, from `GET /api/rulesets` (each option's values,
// default, title and plain-language help): the tournament builder's metadata, shared by
// every form that chooses rules (the open tables' "New table").
import { h } from "./api.js";

/** Draw `ruleset`'s options into `box` (a fieldset whose legend stays). */
export function renderOptions(box, ruleset, noneText) {
  box.replaceChildren(box.querySelector("legend"));
  const options = ruleset ? ruleset.options : [];
  for (const spec of options) {
    const id = `opt-${spec.name}`;
    const input = spec.type === "boolean"
      ? h("input", { type: "checkbox", id, "data-option": spec.name, checked: spec.default === true,
        "aria-describedby": `${id}-help` })
      : h("select", { id, "data-option": spec.name, "aria-describedby": `${id}-help` },
        spec.values.map((v) => h("option", { value: v, selected: v === spec.default },
          (spec.value_labels && spec.value_labels[v]) || String(v))));
    box.append(h("div", { class: "option", "data-option-row": spec.name },
      h("label", { for: id }, input, " ", spec.label),
      h("span", { class: "help", id: `${id}-help` }, spec.help)));
  }
  if (!options.length) box.append(h("p", { class: "help" }, noneText));
}

/** The options chosen in `box`, as the API takes them (values in their JSON types). */
export function readOptions(box, ruleset) {
  const specs = Object.fromEntries(((ruleset && ruleset.options) || []).map((s) => [s.name, s]));
  const options = {};
  for (const input of box.querySelectorAll("[data-option]")) {
    const spec = specs[input.dataset.option];
    if (input.type === "checkbox") { options[input.dataset.option] = input.checked; continue; }
    const value = spec ? spec.values.find((v) => String(v) === input.value) : input.value;
    options[input.dataset.option] = value === undefined ? input.value : value;
  }
  return options;
}
