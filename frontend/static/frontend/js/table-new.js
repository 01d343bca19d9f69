// "New table": game and rules with their options (GET /api/rulesets, as the tournament
// builder's), seats, turn time, rated or casual, open or by private link; POST
// /api/open-tables, then the table's waiting room.
import { L, api, showError } from "./api.js";
import { readOptions, renderOptions } from "./options-form.js";

const $ = (id) => document.getElementById(id);
let rulesets = [];
const chosen = () => rulesets.find((r) => r.ruleset === $("t-ruleset").value);

function draw() {
  const ruleset = chosen();
  $("t-ruleset-help").textContent = ruleset ? ruleset.description : "";
  renderOptions($("t-options"), ruleset, L.none);
}

async function load() {
  rulesets = await api("/api/rulesets");
  $("t-ruleset").replaceChildren(...rulesets.map((r) => new Option(r.name, r.ruleset)));
  draw();
}

$("t-ruleset").addEventListener("change", draw);
$("table-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = event.target;
  $("t-error").hidden = true;
  $("t-open").disabled = true;
  try {
    const table = await api("/api/open-tables", { method: "POST", body: {
      ruleset: $("t-ruleset").value,
      options: readOptions($("t-options"), chosen()),
      size: Number($("t-size").value),
      turn_seconds: Number($("t-turn").value),
      rated: form.elements.rated.value === "rated",
      private: form.elements.private.value === "private",
    } });
    location.assign(`/tables/${table.id}/`);
  } catch (error) {
    showError($("t-error"), error);
    $("t-open").disabled = false;
  }
});
load().catch((error) => showError($("t-error"), error));
