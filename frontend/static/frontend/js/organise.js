// The organiser console: create a tournament (ruleset options explained), register entries,
// check them in, start, follow progress, export. Only the public API.
import { L, api, fmt, h, showError } from "./api.js";

const catalogue = JSON.parse(document.getElementById("catalogue").textContent);
const errorBox = document.getElementById("error");
const message = document.getElementById("message");
const $ = (id) => document.getElementById(id);
let current = null;

function fail(e) { message.textContent = ""; showError(errorBox, e); }
function ok(text) { errorBox.hidden = true; message.textContent = text; }

function renderOptions() {
  const ruleset = $("c-ruleset").value;
  const box = $("c-options");
  const specs = catalogue.rulesets[ruleset] || {};
  box.replaceChildren(box.querySelector("legend"));
  for (const [name, spec] of Object.entries(specs)) {
    const id = `opt-${name}`;
    let input;
    if (spec.values.length === 2 && spec.values.every((v) => typeof v === "boolean")) {
      input = h("input", { type: "checkbox", id, "data-option": name, checked: spec.default === true });
    } else {
      input = h("select", { id, "data-option": name },
        spec.values.map((v) => h("option", { value: v, selected: v === spec.default }, String(v))));
    }
    box.append(h("div", { class: "option" }, h("label", { for: id }, input, " ", name.replaceAll("_", " ")),
      h("span", { class: "help" }, spec.help)));
  }
  if (!Object.keys(specs).length) box.append(h("p", { class: "help" }, L.none));
  const formats = ruleset === "alalay" ? ["alalay_event", "final_table", "swiss", "round_robin"]
    : Object.keys(catalogue.formats).filter((f) => f !== "alalay_event");
  $("c-format").replaceChildren(...formats.map((f) => h("option", { value: f }, f.replaceAll("_", " "))));
  formatHelp();
}

function formatHelp() { $("c-format-help").textContent = catalogue.formats[$("c-format").value] || ""; }

async function loadClubs() {
  const clubs = await api("/api/clubs");
  $("c-club").replaceChildren(...(clubs.results || clubs).map((c) => h("option", { value: c.id }, c.name)));
}

async function loadList() {
  const all = await api("/api/tournaments");
  $("t-list").replaceChildren(...(all.results || all).map((t) => h("li", {},
    h("a", { href: `/tournaments/${t.id}/` }, t.name), h("div", { class: "help" }, `${t.ruleset} · ${t.status}`),
    h("button", { type: "button", class: "small", onclick: () => manage(t.id) }, "⚙"))));
}

async function manage(id) {
  const [t, entries, rounds] = await Promise.all([api(`/api/tournaments/${id}`),
    api(`/api/tournaments/${id}/entries`), api(`/api/tournaments/${id}/rounds`)]);
  current = t;
  $("manage").hidden = false;
  $("m-link").textContent = t.name;
  $("m-link").href = `/tournaments/${t.id}/`;
  $("m-status").textContent = t.status;
  $("m-status").dataset.status = t.status;
  $("m-start").hidden = t.status !== "registration";
  $("entry-form").hidden = t.status !== "registration";
  $("m-entries").replaceChildren(h("tbody", {}, entries.map((e) => h("tr", { "data-entry": e.id },
    h("td", {}, e.name), h("td", {}, e.status, e.checked_in_at ? ` · ${L.checked_in}` : ""),
    h("td", {}, e.checked_in_at || t.status !== "registration" ? "" : h("button", { type: "button", class: "small",
      onclick: () => api(`/api/entries/${e.id}/check-in`, { method: "POST" }).then(() => manage(id)).catch(fail) },
    L.check_in))))));
  const base = `/api/tournaments/${t.id}/standings`;
  $("m-exports").replaceChildren(h("a", { href: `${base}/csv` }, "CSV"), " ", h("a", { href: `${base}/xlsx` }, "XLSX"),
    " ", h("a", { href: base }, "JSON"), " ", h("a", { href: `${base}/print` }, "Print"));
  $("m-rounds").replaceChildren(...rounds.map((r) => h("li", { "data-round": r.number },
    `${fmt(L.round, { n: r.number })}: ${r.status} — `,
    r.tables.map((tb) => h("a", { href: tb.match_id ? `/matches/${tb.match_id}/` : "#" },
      `${fmt(L.table, { n: tb.number })} (${tb.status}) `)))));
}

$("c-ruleset").addEventListener("change", renderOptions);
$("c-format").addEventListener("change", formatHelp);
$("create-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const options = {};
  for (const input of document.querySelectorAll("[data-option]")) {
    options[input.dataset.option] = input.type === "checkbox" ? input.checked : input.value;
  }
  let params = {};
  try { params = $("c-params").value.trim() ? JSON.parse($("c-params").value) : {}; } catch (e) { fail(e); return; }
  const body = { club: Number($("c-club").value), name: $("c-name").value, ruleset: $("c-ruleset").value, options,
    turn_seconds: Number($("c-turn").value), seeding: $("c-seeding").value,
    stages: [{ name: $("c-format").value, format: $("c-format").value, params }] };
  try {
    const t = await api("/api/tournaments", { method: "POST", body });
    ok(L.created);
    await manage(t.id);
    await loadList();
  } catch (e) { fail(e); }
});
$("entry-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const body = { name: $("e-name").value };
  if ($("e-user").value) body.user = Number($("e-user").value);
  try {
    await api(`/api/tournaments/${current.id}/entries`, { method: "POST", body });
    $("e-name").value = "";
    $("e-user").value = "";
    ok(L.saved);
    await manage(current.id);
  } catch (e) { fail(e); }
});
$("m-start").addEventListener("click", async () => {
  try {
    await api(`/api/tournaments/${current.id}/start`, { method: "POST", body: {} });
    ok(L.started);
    await manage(current.id);
  } catch (e) { fail(e); }
});

renderOptions();
Promise.all([loadClubs(), loadList()]).catch(fail);
const wanted = new URLSearchParams(location.search).get("t");
if (wanted) manage(wanted).catch(fail);
