// The organiser console: the round in play (its tables as they are: waiting, playing,
// finished or disputed, their results as they arrive, a link to each physical table's
// scorekeeper screen), the round clock, the printables of each round, and only the actions
// the tournament's state allows (register and start while registration is open; the desk's
// withdrawals, reinstatements and late entries while it runs). It also creates tournaments
// (ruleset options explained, a chain of stages such as groups then playoffs, the points
// scale and byes, an optional check-in, physical tables). Only the public API: the clubs you
// run come from /api/me/memberships, the rulesets from /api/rulesets, a tournament's state
// from …/console. Errors show beside the control or row that caused them.
import { L, api, fmt, h, showError } from "./api.js";
import { clearErrors, showAt, showInForm } from "./errors.js";
import { RoundClock } from "./round-clock.js";

const FORMATS = JSON.parse(document.getElementById("formats").textContent);
const STANDINGS = JSON.parse(document.getElementById("standings-options").textContent);
const formatOf = Object.fromEntries(FORMATS.map((f) => [f.format, f]));
const errorBox = document.getElementById("error");
const message = document.getElementById("message");
const $ = (id) => document.getElementById(id);
const statusName = (code) => (L.statuses && L.statuses[code]) || code;
const E = (L.evening && L.evening.console) || {};
const POLL_MS = 5000;
const plural = new Intl.PluralRules(document.documentElement.lang || undefined);
const counted = (forms, n) => fmt((forms || {})[plural.select(n) === "one" ? "one" : "other"], { n });
// Entries out of play, marked wherever the console names them (a badge with words, not a colour).
const OUT = ["withdrawn", "no_show", "disqualified"];
let rulesets = [];
let current = null; // the console's view of the tournament being managed
let poller = null;
let stages = [];

function fail(e) { message.textContent = ""; showError(errorBox, e); }
function ok(text) { errorBox.hidden = true; message.textContent = text; }

const rulesetOf = (code) => rulesets.find((r) => r.ruleset === code);
const chosen = () => rulesetOf($("c-ruleset").value) || rulesets[0];
const game = () => chosen().game;
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
  renderTimePolicies(ruleset);
  renderEntryType();
  // formats the new game cannot play are replaced
  const allowed = formatsFor(game()).map((f) => f.format);
  if (!stages.length || stages.some((s) => !allowed.includes(s.format))) setPreset("single");
  else renderStages();
}

// ---------------------------------------------------------------- pairs and teams

// Pairs and teams only where the game's seats can be teams (`team_seats`, Alalay).
function renderEntryType() {
  const teams = Boolean(chosen() && chosen().team_seats);
  $("c-entries-row").hidden = !teams;
  if (!teams) $("c-entry-type").value = "individual";
  $("c-team-size-label").hidden = $("c-entry-type").value !== "team";
}

// A member as typed: "@ana" is the account ana, anything else a guest's name.
const member = (text) => (text.startsWith("@") ? { username: text.slice(1) } : text);
const membersIn = (id) => $(id).value.split("\n").map((l) => l.trim()).filter(Boolean).map(member);

// ---------------------------------------------------------------- rounds at time
// The policies are the game's, from /api/rulesets, its default first and marked so.

function renderTimePolicies(ruleset) {
  const policies = (ruleset && ruleset.time_policies) || [];
  $("c-time").hidden = !policies.length;
  $("c-time-policy").replaceChildren(...policies.map((p) => h("option", { value: p.value, selected: p.default },
    p.default ? fmt(E.default_choice, { name: p.label }) : p.label)));
  showTimePolicy();
}

function showTimePolicy() {
  const ruleset = rulesetOf($("c-ruleset").value);
  const chosen = ((ruleset && ruleset.time_policies) || []).find((p) => p.value === $("c-time-policy").value);
  $("c-time-policy-help").textContent = chosen ? chosen.help : "";
}

// ---------------------------------------------------------------- stages

function newStage(format, name = "") {
  const spec = formatOf[format];
  const params = Object.fromEntries(spec.params.map((p) => [p.name, p.default]));
  return { name, format, params, advance: { mode: "per_group", per_group: 2, wildcards: 0, overall: 4 } };
}

function setPreset(kind) {
  if (kind === "groups-playoffs") {
    const groups = newStage("round_robin", L.groups_stage);
    groups.params.groups = 2;
    groups.params.table_size = 2;
    groups.advance = { mode: "per_group", per_group: 2, wildcards: 0, overall: 4 };
    const finals = newStage(chosen().playoff_format, L.playoffs_stage);
    stages = [groups, finals];
  } else {
    stages = [newStage(chosen().main_format)];
  }
  renderStages();
}

function numberField(id, label, value, { min, max, onchange }) {
  const input = h("input", { type: "number", id, value, min, max, inputmode: "numeric", required: true });
  input.addEventListener("input", () => onchange(Number(input.value)));
  return h("label", { for: id, class: "param" }, label, input);
}

function checkField(id, spec, value, onchange) {
  const input = h("input", { type: "checkbox", id, checked: value === true, "aria-describedby": `${id}-help` });
  input.addEventListener("change", () => onchange(input.checked));
  return h("label", { for: id, class: "param check" }, h("span", {}, input, " ", spec.label),
    h("span", { class: "help", id: `${id}-help` }, spec.help));
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
  const params = spec.params.map((p) => (p.type === "boolean"
    ? checkField(id(p.name), p, stage.params[p.name] ?? p.default, (v) => { stage.params[p.name] = v; })
    : numberField(id(p.name), p.label, stage.params[p.name] ?? p.default,
      { min: p.min, max: p.max, onchange: (v) => { stage.params[p.name] = v; } })));
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

// ---------------------------------------------------------------- standings: points scale, byes
// (the choices are rendered with the page; each scale's explanation follows the choice)

function showScale() {
  const chosen = STANDINGS.scales.find((sc) => sc.scale === $("c-scale").value);
  $("c-scale-help").textContent = chosen ? chosen.help : "";
  $("c-fixed-label").hidden = $("c-scale").value !== "fixed";
  $("c-fixed").required = $("c-scale").value === "fixed";
}

// The `standings` of the new tournament: only what differs from the defaults.
function standingsConfig() {
  const config = {};
  const scale = $("c-scale").value;
  if (scale !== STANDINGS.default_scale) config.scale = scale;
  if (scale === "fixed") {
    config.fixed = $("c-fixed").value.split(/[,;\s]+/).filter(Boolean).map(Number);
  }
  if ($("c-bye").value !== "") config.bye_points = Number($("c-bye").value);
  return config;
}

// ---------------------------------------------------------------- clubs and the list

let clubsRun = []; // the clubs where the user runs tournaments or sits at the desk

async function loadClubs() {
  const all = await api("/api/me/memberships");
  clubsRun = all.filter((m) => m.roles.some((r) => ["owner", "organiser", "referee"].includes(r))).map((m) => m.club.id);
  const mine = all.filter((m) => m.manages);
  $("c-club").replaceChildren(...mine.map((m) => h("option", { value: m.club.id }, m.club.name)));
  if (!mine.length) {
    $("c-club-help").textContent = L.no_clubs;
    $("c-no-club").hidden = false;
    $("c-submit").disabled = true;
  }
}

async function loadList(fresh = null) {
  const all = await api("/api/tournaments");
  const rows = (all.results || all).filter((t) => clubsRun.includes(t.club));
  $("t-list").replaceChildren(...(rows.length ? rows.map((t) => h("li", { "data-tournament": t.id, "data-new": t.id === fresh },
    h("a", { href: `/tournaments/${t.id}/` }, t.name),
    h("div", { class: "help" }, `${L.rulesets[t.ruleset] || t.ruleset} · ${statusName(t.status)}`),
    h("button", { type: "button", class: "small", "aria-label": fmt(L.manage, { name: t.name }), title: fmt(L.manage, { name: t.name }),
      onclick: () => manage(t.id, true).catch(fail) }, "⚙"))) : [h("li", { class: "help" }, L.none)]));
}

// ---------------------------------------------------------------- the tournament managed

const clock = new RoundClock($("clock-display"), null, { withRound: false, onChange: showClockControls });

function showClockControls(view) {
  const state = view ? view.state : "none";
  for (const node of document.querySelectorAll("#clock-controls [data-when]")) {
    node.hidden = !node.dataset.when.split(" ").includes(state);
  }
  $("m-clock").dataset.state = state;
}

const print = (t, n, kind) => `/api/tournaments/${t.id}/print/${kind}?round=${n}`;

function printLinks(t, n) {
  const kinds = [["cards", E.print_cards], ["pairings", E.print_pairings]];
  if (t.traits && t.traits.scoresheet) kinds.push(["sheets", E.print_sheets]);
  kinds.push(["slips", E.print_slips]);
  return kinds.map(([kind, name]) => h("a", { href: print(t, n, kind), target: "_blank", rel: "noopener",
    class: "button small", "data-print": kind }, name));
}

/** A table of the round in play: its state, its seats (its places once finished), and
 * where to follow it: the match, the scorekeeper screen of a physical table, its disputes. */
function outBadge(status) {
  return OUT.includes(status) ? [" ", h("span", { class: `badge status ${status}`, "data-out": status }, statusName(status))] : [];
}

function tableRow(table, manage) {
  const state = table.state || table.status;
  const seatOf = new Map(table.seats.map((seat) => [seat.entry, seat]));
  const lines = [...(table.result || [])].sort((a, b) => a.placement - b.placement);
  const seats = lines.length
    ? h("ol", { class: "result" }, lines.map((line) => h("li", { "data-entry": line.entry, class: line.placement === 1 ? "winner" : "" },
      fmt(E.place_line, { place: line.placement, name: (seatOf.get(line.entry) || {}).name || "" }), line.forfeit ? ` (${E.forfeit})` : "",
      ...outBadge((seatOf.get(line.entry) || {}).status))))
    : h("ul", { class: "seat-list" }, table.seats.map((seat) => h("li", { "data-entry": seat.entry, "data-status": seat.status || "" },
      seat.name, ...outBadge(seat.status))));
  const links = [];
  if (table.match_id) links.push(h("a", { href: `/matches/${table.match_id}/`, "data-watch": table.id }, E.watch));
  if (table.scorekeeper_url) {
    links.push(h("a", { href: table.scorekeeper_url, class: "button small primary", "data-keep-score": table.id }, E.keep_score));
  }
  // Physical or online only before the table's first move: the server refuses it later.
  if (manage && state === "waiting" && table.status === "playing") {
    const to = table.physical ? "online" : "physical";
    links.push(h("button", { type: "button", class: "small quiet", "data-switch": to, "data-table-id": table.id,
      onclick: (event) => switchTable(table, to, event.target) }, table.physical ? E.make_online : E.make_physical));
  }
  if (state === "disputed") links.push(h("a", { href: "/disputes/", class: "disputed-link" }, `${E.see_disputes} (${table.open_disputes})`));
  return h("li", { class: `table-row state-${state}`, "data-table": table.id, "data-state": state, "data-number": table.number },
    h("div", { class: "table-head" }, h("strong", {}, fmt(L.table, { n: table.number })),
      table.physical ? h("span", { class: "badge physical" }, E.physical) : null,
      table.decided_at_time ? h("span", { class: "badge at-time", "data-at-time": "true" }, (L.evening.clock || {}).decided_at_time) : null,
      h("span", { class: `badge state ${state}` }, (E.states || {})[state] || state)),
    seats, seatLinks(table), h("div", { class: "table-links" }, links),
    h("span", { class: "error row-error", role: "alert", hidden: true }));
}

/** The director's seat links of a table's walk-ins (docs/tournaments.md, "Seat links for
 * walk-ins"): the link and its code, whether the player took the seat, and a new link. */
const openSeatLinks = new Set(); // tables whose links the director opened: kept open across refreshes
function seatLinks(table) {
  const rows = table.seat_links || [];
  if (!rows.length) return null;
  const waiting = rows.filter((row) => row.status !== "claimed").length;
  const toggle = (event) => (event.target.open ? openSeatLinks.add(table.id) : openSeatLinks.delete(table.id));
  return h("details", { class: "seat-links-box", open: openSeatLinks.has(table.id), ontoggle: toggle },
    h("summary", {}, fmt(E.seat_links, { waiting, total: rows.length })),
    h("ul", { class: "seat-links" }, rows.map((row) => h("li", { "data-seat-link": row.entry, "data-status": row.status },
    h("img", { src: row.qr_url, alt: "", width: 56, height: 56, class: "seat-link-qr" }),
    h("a", { href: row.url, target: "_blank", rel: "noopener" }, fmt(E.seat_link, { name: row.name })), " ",
    h("span", { class: `badge ${row.status}` }, row.status === "claimed" ? E.seat_claimed : E.seat_waiting), " ",
    h("button", { type: "button", class: "small quiet", "data-reissue": row.entry,
      onclick: (event) => reissueLink(table, row, event.target) }, E.seat_reissue)))));
}

async function reissueLink(table, row, button) {
  if (!window.confirm(fmt(E.seat_reissue_confirm, { name: row.name }))) return;
  const item = button.closest(".table-row");
  clearErrors(item);
  try {
    await api(`/api/tables/${table.id}/seat-links/${row.entry}/reissue`, { method: "POST" });
    await manage(current.tournament.id);
  } catch (e) { showAt(item.querySelector(".row-error"), e); }
}

// The name of the rule that finishes a table at time, in the page's language.
const policyName = (code) => ((L.evening.clock || {}).policies || {})[code] || code;

/** "End round at time" while the round plays and time has not been called; then when it was. */
function renderTimeCall(data, rnd, playing) {
  const called = rnd.time_called_at;
  $("m-call-time-row").hidden = !(data.can.desk && playing && !called);
  $("m-time-called").hidden = !called;
  $("m-time-called").textContent = called ? fmt((L.evening.clock || {}).time_called_at,
    { time: new Date(called).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }), policy: policyName(rnd.time_policy) }) : "";
  $("m-round").dataset.timeCalled = called ? "true" : "false";
}

// The appeal period before the next draw: its countdown (ticking between two reads of the
// console), what holds it, and the director's "draw now" and a referee's hold.
let appealTick = null;
function renderAppeal(data, rnd) {
  const C = L.evening.clock || {};
  const appeal = rnd.appeal || {};
  const open = data.tournament.status === "running" && !appeal.next_drawn;
  const waiting = open && appeal.waiting;
  $("m-appeal").hidden = !(open && (waiting || appeal.held));
  $("m-appeal").dataset.waiting = waiting ? "true" : "false";
  $("m-draw-now").hidden = !(data.can.desk && waiting && !appeal.held && !appeal.disputed);
  $("m-hold-draw").hidden = !(data.can.desk && open && !appeal.held);
  $("m-release-draw").hidden = !(data.can.desk && appeal.held);
  const read = Date.now();
  const words = () => {
    if (appeal.held) return C.appeal_held;
    if (appeal.disputed) return C.appeal_disputed;
    const left = Math.max(0, (appeal.remaining_ms || 0) - (Date.now() - read));
    if (!appeal.draw_at || left <= 0) return C.appeal_drawing;
    const seconds = Math.ceil(left / 1000);
    return fmt(C.appeal_next_in, { time: `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}` });
  };
  clearInterval(appealTick);
  if ($("m-appeal").hidden) return;
  $("m-appeal-text").textContent = words();
  if (waiting && appeal.draw_at) appealTick = setInterval(() => { $("m-appeal-text").textContent = words(); }, 1000);
}

async function drawAction(path, confirmText = null) {
  clearErrors($("m-draw-row"));
  if (confirmText && !window.confirm(confirmText)) return;
  try {
    await api(path, { method: "POST" });
    await manage(current.tournament.id);
  } catch (e) { showAt($("m-draw-error"), e); }
}

function renderRound(data) {
  const t = data.tournament;
  const rnd = data.round;
  $("m-round").hidden = !rnd || t.status === "registration";
  if (!rnd) return;
  const playing = rnd.status === "playing" && t.status === "running";
  $("m-round-title").textContent = `${fmt(playing ? E.round_in_play : E.round_last, { n: rnd.number })} · ${fmt(E.stage_round, { stage: rnd.stage_name, n: rnd.stage_round })}`;
  $("m-round").dataset.round = rnd.number;
  $("m-round").dataset.status = rnd.status;
  // Once time is called the round ends by its rule, not by the clock: the clock and its
  // controls give way to when time was called (`renderTimeCall`).
  const called = Boolean(rnd.time_called_at);
  $("clock-controls").hidden = !(data.can.desk && playing && !called);
  renderTimeCall(data, rnd, playing);
  renderAppeal(data, rnd);
  clock.set(called ? null : rnd.clock);
  showClockControls(called ? null : rnd.clock);
  const done = rnd.tables.filter((x) => x.status === "finished").length;
  $("m-round-progress").textContent = fmt(E.tables_done, { done, all: rnd.tables.length });
  $("m-tables").replaceChildren(...rnd.tables.map((table) => tableRow(table, data.can.manage && playing)));
  $("m-byes").hidden = !rnd.byes.length;
  const byes = rnd.byes.flatMap((b, i) => [i ? ", " : "", h("span", { "data-entry": b.entry }, b.name, ...outBadge(b.status))]);
  $("m-byes").replaceChildren(...fmtParts(E.byes, "names", byes));
  $("m-print").replaceChildren(h("span", {}, fmt(E.print, { n: rnd.number })), " ", ...printLinks(t, rnd.number));
}

function render(data) {
  const t = data.tournament;
  const c = data.counts;
  $("manage").hidden = false;
  $("manage").dataset.tournament = t.id;
  $("manage").dataset.status = t.status;
  $("m-link").textContent = t.name;
  $("e-members-label").hidden = t.entry_type === "individual";
  $("m-link").href = `/tournaments/${t.id}/`;
  $("m-status").textContent = [statusName(t.status), t.checkin_deadline && t.status === "registration"
    ? fmt(L.checkin_until, { when: new Date(t.checkin_deadline).toLocaleString() }) : ""].filter(Boolean).join(" · ");
  $("m-status").dataset.status = t.status;
  $("m-problem").hidden = !t.problem;
  $("m-problem").textContent = t.problem ? fmt(L.problem, { message: t.problem.message }) : "";
  $("m-counts").textContent = t.status === "registration"
    ? fmt(E.counts, { total: c.registered + c.checked_in, checked: c.checked_in })
    : fmt(E.counts_running, { active: c.active, withdrawn: c.withdrawn, disqualified: c.disqualified });
  const desk = $("m-desk-link");
  desk.hidden = !data.can.desk || t.status === "finished";
  desk.href = `/organise/${t.id}/entries/`;
  desk.textContent = t.status === "registration" ? E.desk : E.desk_running;
  $("m-club-link").hidden = !data.can.manage;
  // Table talk: the organisers switch the players' chat at any time (docs/table-talk.md).
  $("m-chat-row").hidden = !data.can.manage || t.status === "finished";
  $("m-player-chat").checked = Boolean(t.player_chat);
  $("m-club-link").href = `/clubs/${t.club}/manage/`;
  $("m-registration").hidden = !(t.status === "registration" && data.can.manage);
  // Before the deadline the start closes check-in too, in one step (the server says whether it is open).
  $("m-start").textContent = t.checkin_open ? E.close_and_start : E.start;
  $("m-start").dataset.closesCheckin = t.checkin_open ? "1" : "";
  $("m-start-help").textContent = t.checkin_open ? E.close_and_start_help : E.start_help;
  renderRound(data);
  $("m-finished").hidden = t.status !== "finished";
  $("m-finished").replaceChildren(E.finished_note, " ", h("a", { href: `/tournaments/${t.id}/` }, E.final_ranking));
  const base = `/api/tournaments/${t.id}/standings`;
  $("m-exports").replaceChildren(h("a", { href: `${base}/csv` }, "CSV"), " ", h("a", { href: `${base}/xlsx` }, "XLSX"),
    " ", h("a", { href: base }, "JSON"), " ", h("a", { href: `${base}/print` }, L.print));
  $("m-stages").replaceChildren(...(t.stage_plan || []).map((st, i) => h("li", { "data-stage": i + 1 },
    `${st.name || st.format} — ${L.formats[st.format] || st.format}`)));
  $("m-rounds").replaceChildren(...data.rounds.map((r) => h("li", { "data-round": r.number, "data-status": r.status },
    `${fmt(L.round, { n: r.number })} · ${r.stage_name}: ${statusName(r.status)} `,
    h("a", { href: print(t, r.number, "pairings"), target: "_blank", rel: "noopener" }, E.print_pairings))));
}

async function manage(id, scroll = false) {
  const data = await api(`/api/tournaments/${id}/console`);
  current = data;
  render(data);
  if (scroll) $("manage").scrollIntoView({ block: "start" });
  clearInterval(poller);
  poller = data.tournament.status === "running" ? setInterval(refresh, POLL_MS) : null;
  $("manage").dataset.ready = "1";
}

// Results as they arrive: the console reads the round again every few seconds while it runs.
async function refresh() {
  if (!current || document.hidden) return;
  try {
    const data = await api(`/api/tournaments/${current.tournament.id}/console`);
    const moved = data.tournament.status !== current.tournament.status;
    current = data;
    render(data);
    if (moved) {
      message.textContent = ""; // "Tournament started." no longer says what happened last
      await manage(data.tournament.id);
      await loadList(); // the list shows the new status too
    }
  } catch {
    // the next read tries again
  }
}

// `template` with `%(key)s` replaced by nodes (a list of names with their badges).
function fmtParts(template, key, nodes) {
  const [before, after = ""] = String(template || "").split(`%(${key})s`);
  return [before, ...nodes, after];
}

async function switchTable(table, to, button) {
  const row = button.closest(".table-row");
  clearErrors(row);
  button.disabled = true;
  try {
    await api(`/api/tables/${table.id}/${to}`, { method: "POST" });
    await manage(current.tournament.id); // the scorekeeper's link appears at once
  } catch (e) {
    button.disabled = false;
    showAt(row.querySelector(".row-error"), e);
  }
}

async function clockAction(action, minutes, confirmed = false) {
  clearErrors($("clock-controls"));
  const body = { action };
  if (minutes !== undefined) body.minutes = minutes;
  if (confirmed) body.confirm = true;
  try {
    const view = await api(`/api/rounds/${current.round.id}/clock`, { method: "POST", body });
    current.round.clock = view;
    clock.set(view);
    showClockControls(view);
  } catch (e) {
    // Walk-ins have not taken their seats yet: the director confirms starting anyway.
    if (e.code === "unclaimed-guest-seats" && !confirmed && window.confirm(e.message)) {
      await clockAction(action, minutes, true);
      return;
    }
    showAt($("clock-error"), e);
  }
}

// ---------------------------------------------------------------- forms

/** After a create the form starts again from its defaults, so the next tournament cannot
 * inherit the last one's name, options, stages or rounds-at-time choices by accident. The
 * controls built from the ruleset (options, time policies, stages) are rebuilt, not reset. */
function resetCreateForm() {
  const form = $("create-form");
  form.reset();
  stages = [];
  renderOptions();
  showScale();
  form.querySelector("input, select, textarea").focus({ preventScroll: true });
}

$("c-ruleset").addEventListener("change", renderOptions);
$("c-entry-type").addEventListener("change", renderEntryType);
$("c-time-policy").addEventListener("change", showTimePolicy);
$("c-scale").addEventListener("change", showScale);
showScale();
$("add-stage").addEventListener("click", () => {
  stages.push(newStage(chosen().playoff_format));
  renderStages();
  $(`s-${stages.length - 1}-format`)?.focus();
});
$("preset-groups-playoffs").addEventListener("click", () => setPreset("groups-playoffs"));
$("preset-single").addEventListener("click", () => setPreset("single"));
$("create-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = $("create-form");
  clearErrors(form);
  const options = {};
  for (const input of document.querySelectorAll("[data-option]")) {
    options[input.dataset.option] = input.type === "checkbox" ? input.checked : input.value;
  }
  const body = { club: Number($("c-club").value), name: $("c-name").value, ruleset: $("c-ruleset").value, options,
    turn_seconds: Number($("c-turn").value), appeal_minutes: Number($("c-appeal").value),
    seeding: $("c-seeding").value, stages: stagePlan() };
  if ($("c-entry-type").value !== "individual") {
    body.entry_type = $("c-entry-type").value;
    if (body.entry_type === "team") body.team_size = Number($("c-team-size").value);
  }
  const standings = standingsConfig();
  if (Object.keys(standings).length) body.standings = standings;
  if ($("c-checkin").value) body.checkin_deadline = new Date($("c-checkin").value).toISOString();
  if ($("c-physical").checked) body.physical = true; // only when asked: the field is the physical tables' own
  const policy = (chosen().time_policies || []).find((p) => p.value === $("c-time-policy").value);
  if (policy && !policy.default) body.time_policy = policy.value; // none: the game's default
  if ($("c-call-time").checked) body.call_time_automatically = true;
  if ($("c-player-chat").checked) body.player_chat = true; // table talk (docs/table-talk.md)
  if ($("c-round-appeal").value !== "") body.round_appeal_minutes = Number($("c-round-appeal").value);
  let t;
  try {
    t = await api("/api/tournaments", { method: "POST", body });
  } catch (e) {
    showInForm(form, e, $("c-error"), { "name-missing": "c-name", "ruleset-unknown": "c-ruleset",
      "turn-seconds-invalid": "c-turn", "appeal-minutes-invalid": "c-appeal", "round-appeal-minutes-invalid": "c-round-appeal", "fixed-invalid": "c-fixed",
      "bye-points-invalid": "c-bye", "scale-unavailable": "c-scale", "options-invalid": "c-options", "time-policy-invalid": "c-time-policy",
      "stage-format": "stage-list", "stage-param-invalid": "stage-list", "stage-groups": "stage-list",
      "advancement-missing": "stage-list", "stages-missing": "stage-list", "forbidden": "c-club",
      "entry-type-game": "c-entry-type", "team-size-invalid": "c-team-size" });
    return;
  }
  resetCreateForm();
  ok(fmt(L.created, { name: t.name }));
  try {
    await loadList(t.id);
    await manage(t.id);
  } catch (e) { fail(e); }
  // The console of the new tournament is what comes next (its entries), so the view goes
  // there with the announcement above it; the focus waits in the emptied form without
  // pulling the view back down to it.
  message.scrollIntoView({ block: "start" });
});
$("entry-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = $("entry-form");
  clearErrors(form);
  $("e-done").textContent = "";
  const body = { name: $("e-name").value.trim() };
  if ($("e-username").value.trim()) body.username = $("e-username").value.trim();
  if (current.tournament.entry_type !== "individual") body.members = membersIn("e-members");
  try {
    const entry = await api(`/api/tournaments/${current.tournament.id}/entries`, { method: "POST", body });
    $("e-name").value = "";
    $("e-username").value = "";
    $("e-members").value = "";
    $("e-done").textContent = fmt(E.added, { name: entry.name });
    // Back to the name at once, not after the refresh: a focus moved later would take what
    // the organiser has started typing into the next entry's account field.
    $("e-name").focus();
    await manage(current.tournament.id);
  } catch (e) {
    showInForm(form, e, $("e-error"), { "entry-name-taken": "e-name", "entry-name-invalid": "e-name",
      "user-unknown": current.tournament.entry_type !== "individual" ? "e-members" : "e-username",
      "already-registered": "e-username", "entry-members-invalid": "e-members", "member-name-twice": "e-members",
      "member-invalid": "e-members", "member-already-entered": "e-members" });
  }
});
$("m-start").addEventListener("click", async () => {
  clearErrors($("m-start-row"));
  const closing = Boolean(current.tournament.checkin_open);
  if (closing && !window.confirm(counted(E.close_and_start_confirm, current.counts.registered))) return;
  try {
    await api(`/api/tournaments/${current.tournament.id}/start`, { method: "POST", body: closing ? { close_check_in: true } : {} });
    ok(L.started);
    await manage(current.tournament.id);
    await loadList();
  } catch (e) { showAt($("m-start-error"), e); }
});
$("m-call-time").addEventListener("click", async () => {
  clearErrors($("m-call-time-row"));
  const rnd = current.round;
  const words = fmt((L.evening.clock || {}).call_time_confirm, { n: rnd.number, policy: policyName(rnd.time_policy) });
  if (!window.confirm(words)) return;
  try {
    await api(`/api/rounds/${rnd.id}/call-time`, { method: "POST" });
    await manage(current.tournament.id);
  } catch (e) { showAt($("m-call-time-error"), e); }
});
$("m-draw-now").addEventListener("click", () => drawAction(`/api/tournaments/${current.tournament.id}/draw-now`,
  fmt((L.evening.clock || {}).draw_now_confirm, { n: current.round.number })));
$("m-hold-draw").addEventListener("click", () => drawAction(`/api/rounds/${current.round.id}/hold-draw`));
$("m-release-draw").addEventListener("click", () => drawAction(`/api/rounds/${current.round.id}/release-draw`));
$("clock-start").addEventListener("click", () => clockAction("start", Number($("clock-minutes").value)));
$("clock-pause").addEventListener("click", () => clockAction("pause"));
$("clock-resume").addEventListener("click", () => clockAction("resume"));
$("clock-extend").addEventListener("click", () => clockAction("extend", Number($("clock-extend-minutes").value)));
$("clock-reset").addEventListener("click", () => {
  if (window.confirm((L.evening.clock || {}).reset_confirm)) clockAction("reset");
});

async function init() {
  rulesets = await api("/api/rulesets");
  renderRulesets();
  document.getElementById("create").dataset.ready = "1";
  await loadClubs();
  await loadList();
  const wanted = new URLSearchParams(location.search).get("t");
  if (wanted) await manage(wanted);
}
init().catch(fail);

$("m-player-chat").addEventListener("change", async (event) => {
  const box = event.currentTarget;
  $("m-chat-error").hidden = true;
  try {
    await api(`/api/tournaments/${$("manage").dataset.tournament}`, { method: "PATCH", body: { player_chat: box.checked } });
  } catch (e) {
    box.checked = !box.checked;
    showAt($("m-chat-error"), e);
  }
});
