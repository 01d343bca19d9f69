// The organiser console: create a tournament (ruleset options explained, a chain of stages such
// as groups then playoffs, an optional check-in), register entries, check them in, start,
// follow progress, export. Only the public API: the clubs you manage come from
// /api/me/memberships, the rulesets and their options from /api/rulesets.
import { L, api, fmt, h, showError } from "./api.js";

const FORMATS = JSON.parse(document.getElementById("formats").textContent);
const formatOf = Object.fromEntries(FORMATS.map((f) => [f.format, f]));
const errorBox = document.getElementById("error");
const message = document.getElementById("message");
const $ = (id) => document.getElementById(id);
const statusName = (code) => (L.statuses && L.statuses[code]) || code;
let rulesets = [];
let current = null;
let stages = [];

function fail(e) { message.textContent = ""; showError(errorBox, e); }
function ok(text) { errorBox.hidden = true; message.textContent = text; }

const rulesetOf = (code) => rulesets.find((r) => r.ruleset === code);
const game = () => (rulesetOf($("c-ruleset").value) || {}).game || "dudo";
const formatsFor = (g) => FORMATS.filter((f) => f.games.includes(g));

// ---------------------------------------------------------------- ruleset and options

function renderRulesets() {
  $("c-ruleset").replaceChildren(...rulesets.map((r) => h("option", { value: r.ruleset }, r.name)));
  renderOptions();
}

function renderOptions() {
  const ruleset = rulesetOf($("c-ruleset").value);
  const box = $("c-options");
  box.replaceChildren(box.querySelector("legend"));
  $("c-ruleset-help").textContent = ruleset ? ruleset.description : "";
  const options = ruleset ? ruleset.options : [];
  for (const spec of options) {
    const id = `opt-${spec.name}`;
    let input;
    if (spec.type === "boolean") {
      input = h("input", { type: "checkbox", id, "data-option": spec.name, checked: spec.default === true,
        "aria-describedby": `${id}-help` });
    } else {
      input = h("select", { id, "data-option": spec.name, "aria-describedby": `${id}-help` },
        spec.values.map((v) => h("option", { value: v, selected: v === spec.default },
          (spec.value_labels && spec.value_labels[v]) || String(v))));
    }
    box.append(h("div", { class: "option", "data-option-row": spec.name }, h("label", { for: id }, input, " ", spec.label),
      h("span", { class: "help", id: `${id}-help` }, spec.help)));
  }
  if (!options.length) box.append(h("p", { class: "help" }, L.none));
  // formats the new game cannot play are replaced
  const allowed = formatsFor(game()).map((f) => f.format);
  if (!stages.length || stages.some((s) => !allowed.includes(s.format))) setPreset("single");
  else renderStages();
}

// ---------------------------------------------------------------- stages

function newStage(format, name = "") {
  const spec = formatOf[format];
  const params = Object.fromEntries(spec.params.map((p) => [p.name, p.default]));
  return { name, format, params, advance: { mode: "per_group", per_group: 2, wildcards: 0, overall: 4 } };
}

function setPreset(kind) {
  const g = game();
  if (kind === "groups-playoffs") {
    const groups = newStage("round_robin", L.groups_stage);
    groups.params.groups = 2;
    groups.params.table_size = 2;
    groups.advance = { mode: "per_group", per_group: 2, wildcards: 0, overall: 4 };
    const finals = newStage(g === "alalay" ? "final_table" : "single_elimination", L.playoffs_stage);
    stages = [groups, finals];
  } else {
    stages = [newStage(g === "alalay" ? "alalay_event" : "swiss")];
  }
  renderStages();
}

function numberField(id, label, value, { min, max, onchange }) {
  const input = h("input", { type: "number", id, value, min, max, inputmode: "numeric", required: true });
  input.addEventListener("input", () => onchange(Number(input.value)));
  return h("label", { for: id, class: "param" }, label, input);
}

function stageView(stage, i) {
  const last = i === stages.length - 1;
  const id = (part) => `s-${i}-${part}`;
  const spec = formatOf[stage.format];
  const format = h("select", { id: id("format"), "aria-describedby": id("format-help") },
    formatsFor(game()).map((f) => h("option", { value: f.format, selected: f.format === stage.format }, f.name)));
  format.addEventListener("change", () => {
    const fresh = newStage(format.value, stage.name);
    stages[i] = { ...fresh, advance: stage.advance };
    renderStages();
    $(id("format"))?.focus();
  });
  const name = h("input", { id: id("name"), value: stage.name, maxlength: 80, placeholder: spec.name });
  name.addEventListener("input", () => { stage.name = name.value; });
  const params = spec.params.map((p) => numberField(id(p.name), p.label, stage.params[p.name] ?? p.default,
    { min: p.min, max: p.max, onchange: (v) => { stage.params[p.name] = v; } }));
  const tools = h("div", { class: "stage-tools" },
    h("button", { type: "button", class: "small", id: id("up"), disabled: i === 0, "aria-label": `${L.move_up} (${fmt(L.stage_n, { n: i + 1 })})`,
      onclick: () => { [stages[i - 1], stages[i]] = [stages[i], stages[i - 1]]; renderStages(); } }, "↑"),
    h("button", { type: "button", class: "small", id: id("down"), disabled: last, "aria-label": `${L.move_down} (${fmt(L.stage_n, { n: i + 1 })})`,
      onclick: () => { [stages[i + 1], stages[i]] = [stages[i], stages[i + 1]]; renderStages(); } }, "↓"),
    h("button", { type: "button", class: "small quiet", id: id("remove"), disabled: stages.length === 1,
      "aria-label": `${L.remove_stage} (${fmt(L.stage_n, { n: i + 1 })})`,
      onclick: () => { stages.splice(i, 1); renderStages(); } }, "✕"));
  const li = h("li", { class: "stage", "data-stage": i },
    h("div", { class: "stage-head" }, h("h3", {}, fmt(L.stage_n, { n: i + 1 })), tools),
    h("div", { class: "stage-fields" },
      h("label", { for: id("name"), class: "param" }, L.stage_name, name),
      h("label", { for: id("format"), class: "param" }, L.format, format), ...params),
    h("p", { class: "help", id: id("format-help") }, spec.help));
  if (last) {
    li.append(h("p", { class: "help last-stage" }, L.last_stage));
  } else {
    const adv = stage.advance;
    const mode = h("select", { id: id("advance") },
      h("option", { value: "per_group", selected: adv.mode === "per_group" }, L.advance_per_group),
      h("option", { value: "overall", selected: adv.mode === "overall" }, L.advance_overall));
    mode.addEventListener("change", () => { adv.mode = mode.value; renderStages(); $(id("advance"))?.focus(); });
    const fields = adv.mode === "overall"
      ? [numberField(id("overall"), L.overall, adv.overall, { min: 1, max: 10000, onchange: (v) => { adv.overall = v; } })]
      : [numberField(id("per_group"), L.per_group, adv.per_group, { min: 1, max: 1000, onchange: (v) => { adv.per_group = v; } }),
        numberField(id("wildcards"), L.wildcards, adv.wildcards, { min: 0, max: 1000, onchange: (v) => { adv.wildcards = v; } })];
    li.append(h("fieldset", { class: "advance" }, h("legend", {}, L.advance),
      h("div", { class: "stage-fields" }, h("label", { for: id("advance"), class: "param" }, h("span", { class: "sr-only" }, L.advance), mode), ...fields)));
  }
  return li;
}

function renderStages() {
  $("stage-list").replaceChildren(...stages.map(stageView));
}

function stagePlan() {
  return stages.map((stage, i) => {
    const params = { ...stage.params };
    if (i < stages.length - 1) {
      const adv = stage.advance;
      params.advance = adv.mode === "overall" ? { overall: adv.overall }
        : { per_group: adv.per_group, wildcards: adv.wildcards };
    }
    return { name: stage.name.trim() || formatOf[stage.format].name, format: stage.format, params };
  });
}

// ---------------------------------------------------------------- clubs, list, one tournament

async function loadClubs() {
  const mine = (await api("/api/me/memberships")).filter((m) => m.manages);
  $("c-club").replaceChildren(...mine.map((m) => h("option", { value: m.club.id }, m.club.name)));
  if (!mine.length) {
    $("c-club-help").textContent = L.no_clubs;
    $("c-submit").disabled = true;
  }
}

async function loadList() {
  const all = await api("/api/tournaments");
  $("t-list").replaceChildren(...(all.results || all).map((t) => h("li", { "data-tournament": t.id },
    h("a", { href: `/tournaments/${t.id}/` }, t.name),
    h("div", { class: "help" }, `${L.rulesets[t.ruleset] || t.ruleset} · ${statusName(t.status)}`),
    h("button", { type: "button", class: "small", "aria-label": fmt(L.manage, { name: t.name }), title: fmt(L.manage, { name: t.name }),
      onclick: () => manage(t.id).catch(fail) }, "⚙"))));
}

function entryRow(t, e, id) {
  const canCheckIn = t.status === "registration" && t.checkin_deadline && !e.checked_in_at && e.status === "registered";
  return h("tr", { "data-entry": e.id, "data-status": e.status },
    h("td", {}, e.name), h("td", {}, statusName(e.status)),
    h("td", {}, canCheckIn ? h("button", { type: "button", class: "small", id: `check-in-${e.id}`,
      onclick: () => api(`/api/entries/${e.id}/check-in`, { method: "POST" }).then(() => manage(id)).catch(fail) },
    L.check_in) : ""));
}

async function manage(id) {
  const [t, entries, rounds] = await Promise.all([api(`/api/tournaments/${id}`),
    api(`/api/tournaments/${id}/entries`), api(`/api/tournaments/${id}/rounds`)]);
  current = t;
  $("manage").hidden = false;
  $("m-link").textContent = t.name;
  $("m-link").href = `/tournaments/${t.id}/`;
  $("m-status").textContent = [statusName(t.status), t.checkin_deadline
    ? fmt(L.checkin_until, { when: new Date(t.checkin_deadline).toLocaleString() }) : ""].filter(Boolean).join(" · ");
  $("m-status").dataset.status = t.status;
  $("m-start").hidden = t.status !== "registration";
  $("entry-form").hidden = t.status !== "registration";
  $("m-entries").replaceChildren(h("tbody", {}, entries.map((e) => entryRow(t, e, id))));
  const base = `/api/tournaments/${t.id}/standings`;
  $("m-exports").replaceChildren(h("a", { href: `${base}/csv` }, "CSV"), " ", h("a", { href: `${base}/xlsx` }, "XLSX"),
    " ", h("a", { href: base }, "JSON"), " ", h("a", { href: `${base}/print` }, L.print));
  $("m-stages").replaceChildren(...(t.stage_plan || []).map((s, i) => h("li", { "data-stage": i + 1 },
    `${s.name || s.format} — ${L.formats[s.format] || s.format}`)));
  $("m-rounds").replaceChildren(...rounds.map((r) => h("li", { "data-round": r.number },
    `${fmt(L.stage_n, { n: r.stage })} · ${fmt(L.round, { n: r.number })}: ${statusName(r.status)} — `,
    r.tables.map((tb) => h("a", { href: tb.match_id ? `/matches/${tb.match_id}/` : "#" },
      `${fmt(L.table, { n: tb.number })} (${statusName(tb.status)}) `)))));
}

// ---------------------------------------------------------------- forms

$("c-ruleset").addEventListener("change", renderOptions);
$("add-stage").addEventListener("click", () => {
  const g = game();
  stages.push(newStage(g === "alalay" ? "final_table" : "single_elimination"));
  renderStages();
  $(`s-${stages.length - 1}-format`)?.focus();
});
$("preset-groups-playoffs").addEventListener("click", () => setPreset("groups-playoffs"));
$("preset-single").addEventListener("click", () => setPreset("single"));
$("create-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const options = {};
  for (const input of document.querySelectorAll("[data-option]")) {
    options[input.dataset.option] = input.type === "checkbox" ? input.checked : input.value;
  }
  const body = { club: Number($("c-club").value), name: $("c-name").value, ruleset: $("c-ruleset").value, options,
    turn_seconds: Number($("c-turn").value), seeding: $("c-seeding").value, stages: stagePlan() };
  if ($("c-checkin").value) body.checkin_deadline = new Date($("c-checkin").value).toISOString();
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

async function init() {
  rulesets = await api("/api/rulesets");
  renderRulesets();
  document.getElementById("create").dataset.ready = "1";
  await Promise.all([loadClubs(), loadList()]);
  const wanted = new URLSearchParams(location.search).get("t");
  if (wanted) await manage(wanted);
}
init().catch(fail);
