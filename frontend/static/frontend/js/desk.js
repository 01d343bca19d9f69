// The desk of a tournament: add an entry (a guest by name, or an account by username; a late
// entry once it runs, where the format allows), paste a list of names, check entries in
// (search, big buttons, the count), seed by hand (drag, or type the numbers), withdraw,
// reinstate, disqualify, remove, link a guest to an account, fill the seeding ratings from
// the platform ratings (seeding by rating). Only the actions the
// tournament's state and the user's role allow are offered; each error shows on its row.
import { L, api, fmt, h } from "./api.js";
import { clearErrors, showAt, showInForm } from "./errors.js";

const D = (L.evening && L.evening.desk) || {};
const $ = (id) => document.getElementById(id);
const section = $("desk");
const id = section.dataset.tournamentId;
const statusName = (code) => (L.statuses && L.statuses[code]) || code;
const fold = (text) => text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
const PLAYING = ["registered", "checked_in", "active"];
const rules = new Intl.PluralRules(document.documentElement.lang || undefined);
const counted = (forms, n) => fmt((forms || {})[rules.select(n) === "one" ? "one" : "other"], { n });
let view = null; // {t, entries, console}
let seedOrder = []; // entry ids, top seed first, as the organiser arranges them

// ---------------------------------------------------------------- reading

async function load() {
  const [t, entries, console_] = await Promise.all([api(`/api/tournaments/${id}`),
    api(`/api/tournaments/${id}/entries`), api(`/api/tournaments/${id}/console`)]);
  view = { t, entries, console: console_ };
  if (t.status !== "registration") seedOrder = [];
  render();
  section.dataset.ready = "1";
}

const can = () => view.console.can;
const registration = () => view.t.status === "registration";
const running = () => view.t.status === "running";
const checkinOpen = () => Boolean(view.t.checkin_open);
// A tournament of pairs or teams: entries list their members and may substitute one.
const teams = () => view.t.entry_type !== "individual";
// A member as typed at the desk: "@ana" is the account ana, anything else a guest's name.
const member = (text) => (text.startsWith("@") ? { username: text.slice(1) } : text);

function render() {
  const { t, entries } = view;
  $("d-title").textContent = t.name;
  document.title = `${t.name} · Cacho`;
  $("d-status").textContent = statusName(t.status);
  $("d-status").dataset.status = t.status;
  const expected = entries.filter((e) => ["registered", "checked_in"].includes(e.status)).length;
  const checked = entries.filter((e) => e.status === "checked_in").length;
  $("d-counts").textContent = counted(D.counts, entries.length);
  renderAdd();
  renderCheckin(checked, expected);
  renderSeeding();
  renderRatingSeeding().catch((e) => showAt($("d-ratings-error"), e));
  renderEntries();
}

function renderAdd() {
  const late = running() && view.console.late_entry;
  const open = can().manage && (registration() || late);
  $("d-add").hidden = !can().manage || view.t.status === "finished";
  $("d-paste").hidden = !open || teams(); // a pasted line is one guest, never a team
  $("d-add-form").hidden = !open;
  $("d-add-title").textContent = running() ? D.late_title : D.add_title;
  $("d-members-label").hidden = !teams();
  $("d-late-note").hidden = !running();
  $("d-late-note").textContent = late ? D.late_open : D.late_closed;
}

function renderCheckin(checked, expected) {
  const t = view.t;
  $("d-checkin").hidden = !registration();
  const deadline = t.checkin_deadline ? new Date(t.checkin_deadline) : null;
  const waiting = view.entries.filter((e) => e.status === "registered").length;
  $("d-checkin-note").textContent = !deadline ? D.checkin_none
    : checkinOpen() ? fmt(D.checkin_until, { when: deadline.toLocaleString() })
      : fmt(D.checkin_closed_at, { when: deadline.toLocaleString(), checked, waiting });
  $("d-checkin").dataset.checkin = !deadline ? "none" : checkinOpen() ? "open" : "closed";
  // The deadline stays editable until the start: later, earlier, or again after a close.
  $("d-deadline-form").hidden = !can().manage;
  $("d-deadline-save").textContent = deadline ? D.deadline_change : D.deadline_save;
  if (deadline && document.activeElement !== $("d-deadline")) $("d-deadline").value = localInput(deadline);
  $("d-close-row").hidden = !(can().manage && checkinOpen());
  $("d-checkin-count").hidden = !deadline;
  $("d-checkin-count").textContent = fmt(D.checked_count, { checked, expected });
  $("d-checkin-count").dataset.checked = checked;
  $("d-checkin-count").dataset.expected = expected;
}

// A moment as a datetime-local input writes it: the browser's own time zone, to the minute.
function localInput(when) {
  const pad = (n) => String(n).padStart(2, "0");
  return `${when.getFullYear()}-${pad(when.getMonth() + 1)}-${pad(when.getDate())}T${pad(when.getHours())}:${pad(when.getMinutes())}`;
}

// ---------------------------------------------------------------- the entries and their actions

function rowButton(label, cls, onclick, extra = {}) {
  return h("button", { type: "button", class: `small ${cls}`, onclick, ...extra }, label);
}

async function act(row, request) {
  clearErrors(row);
  try {
    await request();
    await load();
  } catch (e) {
    showAt(row.querySelector(".row-error"), e);
  }
}

function inlineForm(row, label, inputAttrs, submitLabel, send) {
  const cell = row.querySelector(".row-actions");
  const input = h("input", { class: "inline-input", ...inputAttrs });
  const go = h("button", { type: "submit", class: "small primary" }, submitLabel);
  const cancel = h("button", { type: "button", class: "small quiet", onclick: () => render() }, D.cancel);
  const form = h("form", { class: "row-form", novalidate: true }, h("label", {}, label, " ", input), " ", go, " ", cancel,
    h("span", { class: "error row-error", role: "alert", hidden: true }));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    act(row, () => send(input.value.trim()));
  });
  cell.replaceChildren(form);
  input.focus();
}

function actionsFor(entry, row) {
  const post = (path, body) => () => api(`/api/entries/${entry.id}/${path}`, { method: "POST", body });
  const out = [];
  const manage = can().manage;
  const s = entry.status;
  if (registration()) {
    if (s === "registered" && checkinOpen()) {
      out.push(rowButton(D.check_in, "big primary check-in", () => act(row, post("check-in")), { "data-action": "check-in" }));
    }
    if (s === "checked_in") {
      out.push(rowButton(D.undo_check_in, "quiet", () => act(row, post("undo-check-in")), { "data-action": "undo-check-in" }));
    }
  }
  if (PLAYING.includes(s) && view.t.status !== "finished") {
    out.push(rowButton(D.withdraw, "", () => {
      if (window.confirm(fmt(D.withdraw_confirm, { name: entry.name }))) act(row, post("withdraw"));
    }, { "data-action": "withdraw" }));
  }
  if (s === "withdrawn" && view.t.status !== "finished") {
    out.push(rowButton(D.reinstate, "primary", () => act(row, post("reinstate")), { "data-action": "reinstate" }));
  }
  if (s === "disqualified" && manage && view.t.status !== "finished") {
    out.push(rowButton(D.lift, "", () => act(row, post("reinstate")), { "data-action": "lift" }));
  }
  if (running() && (PLAYING.includes(s) || s === "withdrawn")) {
    out.push(rowButton(D.disqualify, "danger", () => inlineForm(row, D.dq_reason,
      { maxlength: 500, required: true, "data-input": "reason" }, D.dq_confirm,
      (reason) => post("disqualify", { reason })()), { "data-action": "disqualify" }));
  }
  if (registration() && manage) {
    out.push(rowButton(D.remove, "quiet", () => {
      if (window.confirm(fmt(D.remove_confirm, { name: entry.name }))) {
        act(row, () => api(`/api/entries/${entry.id}`, { method: "DELETE" }));
      }
    }, { "data-action": "remove" }));
  }
  if (teams() && PLAYING.includes(s) && view.t.status !== "finished") {
    out.push(rowButton(D.substitute, "quiet", () => substituteForm(entry, row), { "data-action": "substitute" }));
  }
  if (manage && !entry.user && !entry.is_bot) {
    out.push(rowButton(D.claim, "quiet", () => inlineForm(row, D.claim_username,
      { maxlength: 150, required: true, autocomplete: "off", "data-input": "username" }, D.claim_save,
      (username) => post("claim", { username })()), { "data-action": "claim" }));
  }
  return out;
}

// Between rounds a member of a pair or team is replaced: who leaves, who comes in.
function substituteForm(entry, row) {
  const out = h("select", { "data-input": "out" }, entry.members.map((name) => h("option", { value: name }, name)));
  const incoming = h("input", { class: "inline-input", maxlength: 151, required: true, autocomplete: "off", "data-input": "in" });
  const go = h("button", { type: "submit", class: "small primary" }, D.substitute_save);
  const cancel = h("button", { type: "button", class: "small quiet", onclick: () => render() }, D.cancel);
  const form = h("form", { class: "row-form", novalidate: true }, h("label", {}, D.substitute_out, " ", out), " ",
    h("label", {}, D.substitute_in, " ", incoming), " ", go, " ", cancel,
    h("span", { class: "error row-error", role: "alert", hidden: true }));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const body = { out: out.value, incoming: member(incoming.value.trim()) };
    act(row, () => api(`/api/entries/${entry.id}/substitute`, { method: "POST", body }));
  });
  row.querySelector(".row-actions").replaceChildren(form);
  incoming.focus();
}

function entryRow(entry) {
  const row = h("tr", { "data-entry": entry.id, "data-status": entry.status, "data-name": fold(entry.name) },
    h("td", { class: "num" }, entry.seed ?? ""),
    h("th", { scope: "row" }, entry.name, entry.members.length ? ` (${entry.members.join(", ")})` : ""),
    h("td", {}, entry.username || h("span", { class: "help" }, D.guest)),
    h("td", {}, h("span", { class: `badge status ${entry.status}` }, statusName(entry.status))),
    h("td", { class: "row-actions" }));
  const cell = row.querySelector(".row-actions");
  cell.append(...actionsFor(entry, row), h("span", { class: "error row-error", role: "alert", hidden: true }));
  return row;
}

function renderEntries() {
  const q = fold($("d-search").value.trim());
  const rows = view.entries.filter((e) => !q || fold(e.name).includes(q) || fold(e.username || "").includes(q));
  const head = h("thead", {}, h("tr", {}, h("th", {}, D.seed), h("th", {}, L.entry), h("th", {}, D.account),
    h("th", {}, L.status), h("th", {}, D.actions)));
  $("d-entries").replaceChildren(head, h("tbody", {}, rows.map(entryRow)));
  $("d-no-match").hidden = rows.length > 0 || !view.entries.length;
  $("d-no-match").textContent = D.no_match;
  $("d-dq-note").hidden = !view.entries.some((e) => e.status === "disqualified");
  $("d-dq-note").textContent = D.disqualified_note;
}

// ---------------------------------------------------------------- seeding by rating

// Ratings as the page's language writes numbers ("12,5" in Spanish).
const ratingNumber = new Intl.NumberFormat(document.documentElement.lang || undefined, { maximumFractionDigits: 2 });

function ratingRow(r) {
  const mark = r.provisional && r.platform_rating !== null
    ? [" ", h("abbr", { class: "badge", title: D.provisional_title }, D.provisional)] : [];
  const platform = r.platform_rating === null ? D.no_platform_rating : ratingNumber.format(r.platform_rating);
  return h("tr", { "data-rating-entry": r.entry },
    h("td", {}, r.name), h("td", {}, platform, ...mark),
    h("td", {}, r.seeding_rating === null ? "—" : ratingNumber.format(r.seeding_rating)));
}

function showRatings(rows) {
  const head = h("thead", {}, h("tr", {}, h("th", {}, L.entry), h("th", {}, D.platform_rating),
    h("th", {}, D.seeding_rating)));
  $("d-rating-list").replaceChildren(head, h("tbody", {}, rows.map(ratingRow)));
}

async function renderRatingSeeding() {
  const show = registration() && view.t.seeding === "rating" && can().manage;
  $("d-rating-seeding").hidden = !show;
  if (show) showRatings(await api(`/api/tournaments/${id}/platform-ratings`));
}

$("d-ratings-fill").addEventListener("click", async () => {
  clearErrors($("d-rating-seeding"));
  $("d-ratings-done").textContent = "";
  try {
    showRatings(await api(`/api/tournaments/${id}/platform-ratings`, { method: "POST" }));
    $("d-ratings-done").textContent = D.ratings_filled;
  } catch (e) { showAt($("d-ratings-error"), e); }
});

// ---------------------------------------------------------------- seeding by hand

function renderSeeding() {
  const show = registration() && view.t.seeding === "manual" && can().manage;
  $("d-seeding").hidden = !show;
  if (!show) return;
  const playing = view.entries.filter((e) => ["registered", "checked_in"].includes(e.status));
  const known = new Set(playing.map((e) => e.id));
  const byId = new Map(playing.map((e) => [e.id, e]));
  if (!seedOrder.length || seedOrder.some((x) => !known.has(x)) || seedOrder.length !== known.size) {
    const sorted = [...playing].sort((a, b) => (a.seed ?? 1e9) - (b.seed ?? 1e9) || a.id - b.id);
    const kept = seedOrder.filter((x) => known.has(x));
    seedOrder = [...kept, ...sorted.map((e) => e.id).filter((x) => !kept.includes(x))];
  }
  const list = $("d-seed-list");
  list.replaceChildren(...seedOrder.map((entryId, i) => seedItem(byId.get(entryId), i)));
}

function moveSeed(from, to) {
  if (to < 0 || to >= seedOrder.length || from === to) return;
  const [moved] = seedOrder.splice(from, 1);
  seedOrder.splice(to, 0, moved);
  renderSeeding();
  $("d-seed-list").querySelector(`[data-seed-entry="${moved}"] input`)?.focus();
}

function seedItem(entry, i) {
  const number = h("input", { type: "number", min: 1, max: seedOrder.length, value: i + 1, inputmode: "numeric",
    "aria-label": fmt(D.seed_of, { name: entry.name }), class: "seed-number" });
  number.addEventListener("change", () => {
    if (!number.isConnected) return; // a list drawn again since: this input is gone
    const to = Math.max(1, Math.min(seedOrder.length, Math.round(Number(number.value)) || 1)) - 1;
    moveSeed(seedOrder.indexOf(entry.id), to);
  });
  const item = h("li", { draggable: "true", "data-seed-entry": entry.id, class: "seed-item" },
    h("span", { class: "grip", "aria-hidden": "true" }, "⠿"), number, h("span", { class: "seed-name" }, entry.name),
    h("button", { type: "button", class: "small quiet", "aria-label": fmt(D.up, { name: entry.name }), disabled: i === 0,
      onclick: () => moveSeed(i, i - 1) }, "↑"),
    h("button", { type: "button", class: "small quiet", "aria-label": fmt(D.down, { name: entry.name }),
      disabled: i === seedOrder.length - 1, onclick: () => moveSeed(i, i + 1) }, "↓"));
  item.addEventListener("dragstart", (event) => {
    event.dataTransfer.setData("text/plain", String(entry.id));
    event.dataTransfer.effectAllowed = "move";
    item.classList.add("dragging");
  });
  item.addEventListener("dragend", () => item.classList.remove("dragging"));
  item.addEventListener("dragover", (event) => { event.preventDefault(); item.classList.add("drop-target"); });
  item.addEventListener("dragleave", () => item.classList.remove("drop-target"));
  item.addEventListener("drop", (event) => {
    event.preventDefault();
    moveSeed(seedOrder.indexOf(Number(event.dataTransfer.getData("text/plain"))), seedOrder.indexOf(entry.id));
  });
  return item;
}

// ---------------------------------------------------------------- forms

$("d-add-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = $("d-add-form");
  clearErrors(form);
  $("d-add-done").textContent = "";
  const body = { name: $("d-name").value.trim() };
  if ($("d-username").value.trim()) body.username = $("d-username").value.trim();
  if (teams()) body.members = $("d-members").value.split("\n").map((l) => l.trim()).filter(Boolean).map(member);
  try {
    const entry = await api(`/api/tournaments/${id}/entries`, { method: "POST", body });
    $("d-name").value = "";
    $("d-username").value = "";
    $("d-members").value = "";
    $("d-add-done").textContent = fmt((L.evening.console || {}).added, { name: entry.name });
    await load();
    $("d-name").focus();
  } catch (e) {
    showInForm(form, e, $("d-add-error"), { "entry-name-taken": "d-name", "entry-name-invalid": "d-name",
      "user-unknown": teams() ? "d-members" : "d-username", "already-registered": "d-username",
      "entry-members-invalid": "d-members", "member-name-twice": "d-members", "member-invalid": "d-members",
      "member-already-entered": "d-members" });
  }
});

$("d-paste-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = $("d-paste-form");
  clearErrors(form);
  try {
    const result = await api(`/api/tournaments/${id}/entries/bulk`, { method: "POST", body: { names: $("d-names").value } });
    const items = result.refused.map((r) => h("li", { "data-line": r.line, "data-code": r.code, class: "error" },
      fmt(D.pasted_refused, { line: r.line, name: r.name, message: r.message })));
    $("d-paste-result").replaceChildren(h("p", { class: "done", "data-registered": result.registered.length },
      counted(D.pasted, result.registered.length), result.blank ? ` ${counted(D.pasted_blank, result.blank)}` : ""),
    items.length ? h("ul", { class: "refusals" }, items) : "");
    // the refused lines stay in the box, to be corrected and sent again
    $("d-names").value = result.refused.map((r) => r.name).join("\n");
    await load();
  } catch (e) { showAt($("d-paste-error"), e); }
});

$("d-deadline-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = $("d-deadline-form");
  clearErrors(form);
  if (!$("d-deadline").value) return;
  try {
    await api(`/api/tournaments/${id}`, { method: "PATCH",
      body: { checkin_deadline: new Date($("d-deadline").value).toISOString() } });
    await load();
  } catch (e) { showAt($("d-deadline-error"), e); }
});

$("d-close-checkin").addEventListener("click", async () => {
  clearErrors($("d-close-row"));
  const waiting = view.entries.filter((e) => e.status === "registered").length;
  if (!window.confirm(counted(D.close_confirm, waiting))) return;
  try {
    await api(`/api/tournaments/${id}/check-in/close`, { method: "POST" });
    await load();
  } catch (e) { showAt($("d-close-error"), e); }
});

$("d-seeds-save").addEventListener("click", async () => {
  clearErrors($("d-seeding"));
  $("d-seeds-done").textContent = "";
  try {
    await api(`/api/tournaments/${id}/seeds`, { method: "POST", body: { order: seedOrder } });
    await load(); // the rows in their new order first: "saved" means the page shows it
    $("d-seeds-done").textContent = D.seeds_saved;
  } catch (e) { showAt($("d-seeds-error"), e); }
});

$("d-search").addEventListener("input", () => { if (view) renderEntries(); });

load().catch((e) => showAt($("d-error"), e));
