// One dispute: its facts and whole trail, a comment box; for the referees who may
// rule (`can_rule`) the table's pause and resume, the review "time machine" (the match's events
// one by one, as the referee, a seated player or a spectator sees them, with the round's
// fairness proof, and the players' disconnections and reconnections on the same timeline) and
// the ruling form with a preview of the standings (tiebreaks included) and the final ranking
// before committing.
// Everything comes from the public API (docs/disputes.md); each error is
// shown next to what caused it, code and message.
import { L, api, fmt, h, showError } from "./api.js";
import { disputeNotices } from "./disputes-live.js";
import { MatchSocket } from "./live.js";
import { describe, detail } from "./steps.js";
import { markReplays } from "./replays.js";
import { signalItem } from "./signal-list.js";
import { counted } from "./words.js";

const D = L.disputes || {};
const section = document.getElementById("dispute");
const id = section.dataset.disputeId;
const $ = (name) => document.getElementById(name);
const lang = document.documentElement.lang || undefined;
const when = (iso) => (iso ? new Date(iso).toLocaleString(lang) : "");
const clock = (ms) => new Date(ms).toLocaleString(lang, { dateStyle: "short", timeStyle: "medium" });

let dispute = null;
let seats = []; // the match's seat names, in seat order
let events = [];
let presence = []; // seated players' connections coming and going: [{seat, at, change}]
let index = 0;
let verify = null;
let formBuilt = false;
// The user referees this table's club: `can_rule` while the dispute is open; once it is closed,
// the match's own `viewer` says so. A referee keeps the review (read only) after the ruling.
let referee = false;
let matchOver = false; // a finished match has no clock to pause

function fail(box, error) {
  showError(box, error);
  box.dataset.code = error.code || "";
}

function clear(box) {
  box.hidden = true;
  box.textContent = "";
  delete box.dataset.code;
}

// ---------------------------------------------------------------- facts and trail

function pinnedText(pinned) {
  if (!pinned) return "";
  const parts = [];
  if (pinned.round) parts.push(fmt(D.round_n, { n: pinned.round }));
  if (pinned.turn) parts.push(fmt(D.turn_n, { n: pinned.turn }));
  if (pinned.version) parts.push(fmt(D.version_n, { n: pinned.version }));
  return parts.join(" · ");
}

function facts(d) {
  const rows = [
    [D.tournament, h("a", { href: `/tournaments/${d.tournament}/`, id: "d-tournament" }, d.tournament_name || d.tournament)],
    [D.table_round, fmt(D.table_n_round_n, { table: d.table, round: d.round_number })],
    [D.match, h("span", {}, h("a", { href: `/matches/${d.match}/`, id: "d-match" }, (L.rulesets || {})[d.ruleset] || d.ruleset),
      " · ", h("a", { href: `/matches/${d.match}/replay` }, L.replay))],
    [D.reason, (D.reasons || {})[d.reason] || d.reason_label || d.reason],
    [D.filed_by, fmt(D.by_at, { by: d.filed_by, at: when(d.filed_at) })],
    [D.pinned, pinnedText(d.pinned)],
  ];
  if (d.window_closes_at) rows.push([D.window_closes, when(d.window_closes_at)]);
  if (d.appeal_of) rows.push([D.appeal_of, h("a", { href: `/disputes/${d.appeal_of}/`, id: "d-appeal-of" }, fmt(D.dispute_n, { n: d.appeal_of }))]);
  if ((d.appeals || []).length) {
    rows.push([D.appeals, h("span", { id: "d-appeals" }, d.appeals.flatMap((n, i) => [i ? ", " : "",
      h("a", { href: `/disputes/${n}/` }, fmt(D.dispute_n, { n }))]))]);
  }
  if (d.ruling) {
    const r = d.ruling;
    rows.push([D.ruling, h("span", { id: "d-ruling" }, `${r.kind_label || (D.kinds || {})[r.kind] || r.kind}`,
      paramsText(r.params), r.reason ? ` — ${r.reason}` : "", ` (${fmt(D.by_at, { by: r.by, at: when(r.at) })})`)]);
  }
  $("d-facts").replaceChildren(...rows.filter(([, v]) => v !== "" && v !== null && v !== undefined)
    .flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v)]));
  const text = $("d-text");
  text.hidden = !d.text;
  text.textContent = d.text || "";
}

/** A ruling's parameters in words: a box by its name, a flag (scratch) by its label alone. */
function paramsText(params) {
  const entries = Object.entries(params || {}).filter(([k, v]) => k !== "kind" && v !== false);
  if (!entries.length) return "";
  const value = (k, v) => {
    if (v && typeof v === "object") return Object.entries(v).map(([a, b]) => `${a}: ${value(a, b)}`).join(", ");
    if (k === "box") return (L.boxes || {})[v] || v;
    return v;
  };
  const label = (k) => (D.params || {})[k] || k;
  return ` (${entries.map(([k, v]) => (v === true ? label(k) : `${label(k)}: ${value(k, v)}`)).join("; ")})`;
}

/** Who took a step: a user's name, or "referee" for the log's own corrections (in words). */
const actor = (by) => (by === "referee" ? D.referee_act : by);

function trail(d) {
  const items = (d.trail || []).map((t, i) => h("li", { class: `trail-item ${t.type}`, "data-type": t.type, "data-i": i },
    h("strong", {}, t.label || (D.trail || {})[t.type] || t.type),
    h("span", { class: "who" }, ` — ${fmt(D.by_at, { by: actor(t.by), at: when(t.at) })}`),
    t.text ? h("p", { class: "said" }, t.text) : null,
    t.details && t.details.params && Object.keys(t.details.params).length
      ? h("p", { class: "details" }, paramsText(t.details.params).trim()) : null));
  $("d-trail").replaceChildren(...items);
}

function render(d) {
  dispute = d;
  section.dataset.status = d.status;
  section.dataset.canRule = String(Boolean(d.can_rule));
  const status = $("d-status");
  status.textContent = d.status_label || (D.statuses || {})[d.status] || d.status;
  status.dataset.status = d.status;
  const paused = $("d-paused");
  paused.hidden = !d.paused;
  paused.textContent = d.paused ? D.paused : "";
  facts(d);
  trail(d);
  $("d-appeal-form").hidden = d.status !== "ruled" || (d.appeals || []).length > 0;
  if (d.can_rule || "notes" in d) referee = true;
  $("referee").hidden = !referee;
  $("d-all").hidden = !referee; // the queue is the referees'
  if (!referee) return;
  tools(d);
  // the pause and the ruling are for an open dispute; the review stays
  $("d-pause-panel").hidden = !d.can_rule || (matchOver && !d.paused);
  $("r-panel").hidden = !d.can_rule;
  $("d-table-state").textContent = d.paused ? D.paused : D.running;
  $("d-pause").disabled = Boolean(d.paused);
  $("d-resume").disabled = !d.paused;
  $("r-form").hidden = d.status !== "open";
  if (d.status !== "open") $("r-preview-out").hidden = true;
  if (!formBuilt) buildRulingForm(d);
  if (!events.length && !machine.loading) startMachine(d).catch((e) => fail($("tm-error"), e));
  if (!signalsLoaded) loadSignals().catch((e) => fail($("d-signals-error"), e));
}

// ---------------------------------------------------------------- signals about the players

let signalsLoaded = false;

async function loadSignals() {
  signalsLoaded = true;
  const S = D.signals || {};
  const data = await api(`/api/disputes/${id}/signals`);
  const names = data.players.join(", ");
  const found = { names, rounds: data.rounds };
  $("d-signals-status").textContent = !data.players.length ? S.no_accounts
    : data.signals.length ? counted(S.about_players, data.signals.length, found)
      : fmt(S.none_about_players, found);
  $("d-signals-list").replaceChildren(...data.signals.map(signalItem));
  $("d-signals").dataset.loaded = String(data.signals.length);
}

async function refresh() {
  const d = await api(`/api/disputes/${id}`);
  if (!d.can_rule) { // a closed dispute: is the user one of the club's referees?
    const match = await api(`/api/matches/${d.match}`).catch(() => null);
    referee = Boolean(match && match.viewer && match.viewer.kind === "referee");
  }
  render(d);
  section.dataset.loaded = "1";
}

// ---------------------------------------------------------------- the referees' tools

function tools(d) {
  $("d-assigned").textContent = `${D.assigned_to}: ${d.assigned_to || D.nobody}`;
  $("d-assigned").dataset.referee = d.assigned_to || "";
  const open = d.status === "open";
  for (const name of ["d-claim", "d-assign", "d-assign-to"]) $(name).disabled = !open;
  const notes = d.notes || [];
  $("d-notes").replaceChildren(...(notes.length ? notes.map((n) => h("li", { class: "trail-item note", "data-note": n.id },
    h("span", { class: "who" }, fmt(D.by_at, { by: n.by, at: when(n.at) })), h("p", { class: "said" }, n.text)))
    : [h("li", { class: "help" }, D.no_notes)]));
}

async function refereeAction(path, body, box) {
  clear(box);
  try {
    render(await api(`/api/disputes/${id}/${path}`, { method: "POST", body }));
    return true;
  } catch (e) { fail(box, e); return false; }
}
$("d-claim").addEventListener("click", () => refereeAction("claim", {}, $("d-assign-error")));
$("d-assign").addEventListener("click", () => refereeAction("assign",
  { referee: $("d-assign-to").value.trim() || null }, $("d-assign-error")));
$("d-note-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const box = $("d-note-error");
  clear(box);
  const text = $("d-note").value.trim();
  if (!text) return;
  try {
    await api(`/api/disputes/${id}/notes`, { method: "POST", body: { text } });
    $("d-note").value = "";
    render(await api(`/api/disputes/${id}`));
  } catch (e) { fail(box, e); }
});
$("d-appeal-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const box = $("d-appeal-error");
  clear(box);
  try {
    const filed = await api(`/api/disputes/${id}/appeal`, { method: "POST", body: { text: $("d-appeal-text").value.trim() } });
    location.assign(`/disputes/${filed.id}/`);
  } catch (e) { fail(box, e); }
});

// ---------------------------------------------------------------- comments, pause, resume

$("d-comment-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const box = $("d-comment-error");
  clear(box);
  const text = $("d-comment").value.trim();
  if (!text) return;
  try {
    render(await api(`/api/disputes/${id}/comments`, { method: "POST", body: { text } }));
    $("d-comment").value = "";
  } catch (e) { fail(box, e); }
});

async function tableAction(action, body) {
  const box = $("d-pause-error");
  clear(box);
  try {
    render(await api(`/api/disputes/${id}/${action}`, { method: "POST", body }));
  } catch (e) { fail(box, e); }
}
$("d-pause").addEventListener("click", () => {
  const reason = $("d-pause-reason").value.trim();
  tableAction("pause", reason ? { reason } : {});
});
$("d-resume").addEventListener("click", () => tableAction("resume", {}));

// ---------------------------------------------------------------- the time machine

const machine = { loading: false, as: "" };

function autoPlayed(frame) {
  return Boolean(frame.d && frame.d.timed_out) || frame.t.includes("timed_out");
}

/** The index of the step the dispute points at: its version, else its round's start, else the
 * start of its turn (counted over the match: after that many scored or scratched boxes), else
 * the last step. */
function pinnedIndex() {
  const pinned = (dispute && dispute.pinned) || {};
  if (!events.length) return 0;
  if (pinned.version) {
    const i = events.findIndex((f) => f.v >= pinned.version);
    if (i >= 0) return i;
  }
  if (pinned.round) {
    const i = events.findIndex((f) => f.t === "round_started" && f.d.number === pinned.round);
    if (i >= 0) return i;
  }
  if (pinned.turn) {
    let done = 0;
    for (let i = 0; i < events.length; i += 1) {
      if (done === pinned.turn - 1 && i > 0) return i;
      if (events[i].t === "box_scored" || events[i].t === "box_scratched") done += 1;
    }
  }
  return events.length - 1;
}

async function loadEvents(as) {
  const query = as ? `&as=${encodeURIComponent(as)}` : "";
  let all = [];
  let after = 0;
  for (;;) { // the API pages by 1000
    const page = await api(`/api/matches/${dispute.match}/events?after=${after}${query}`);
    all = all.concat(page.events);
    if (!page.events.length || all[all.length - 1].v >= page.version) break;
    after = all[all.length - 1].v;
  }
  return markReplays(all);
}

/** When each seated player connected, dropped and came back (kept apart from the match's
 * events: `GET /api/matches/<id>/presence`). */
async function loadPresence() {
  const data = await api(`/api/matches/${dispute.match}/presence`).catch(() => ({ changes: [] }));
  presence = data.changes || [];
}

const presenceText = (c) => fmt((D.presence || {})[c.change] || c.change, { name: c.seat });

function presenceItem(c) {
  return h("li", { class: `presence-change ${c.change}`, "data-presence": c.change, "data-seat": c.seat, "data-at": c.at },
    h("span", { class: "mark", "aria-hidden": "true" }, c.change === "disconnected" ? "‖" : "●"),
    ` ${clock(c.at)} · ${presenceText(c)}`);
}

/** The presence changes after the previous step and up to this one (the step's own moment). */
function presenceBefore(i) {
  const from = i > 0 ? events[i - 1].at : -Infinity;
  return presence.filter((c) => c.at > from && c.at <= events[i].at);
}

async function startMachine(d) {
  machine.loading = true;
  try {
    const [match, proof] = await Promise.all([api(`/api/matches/${d.match}`),
      api(`/api/matches/${d.match}/verify`).catch(() => null)]);
    seats = (match.seats || []).map((s) => s.name);
    matchOver = match.status === "finished";
    $("d-pause-panel").hidden = !dispute.can_rule || (matchOver && !dispute.paused);
    verify = proof;
    if (formBuilt) drawParams();
    const select = $("tm-as");
    select.replaceChildren(h("option", { value: "" }, D.as_referee),
      ...seats.map((name) => h("option", { value: name }, name)),
      h("option", { value: "spectator" }, D.as_spectator));
    [events] = await Promise.all([loadEvents(""), loadPresence()]);
    index = pinnedIndex();
    $("tm").dataset.loaded = String(events.length);
    show();
    if (formBuilt) voidsNote();
    follow(d.match);
  } finally {
    machine.loading = false;
  }
}

// The review follows the match live over the table's socket: each new event (a move, a
// pause, a ruling) is read again through the events API as the chosen viewer sees it and
// appended, so stepping goes on to it without a reload.
let following = null;
let catchUpTimer = null;
function follow(matchId) {
  if (following) return;
  following = new MatchSocket(matchId, {
    event: () => { clearTimeout(catchUpTimer); catchUpTimer = setTimeout(() => catchUp().catch(() => {}), 100); },
    status: (state) => {
      $("tm-live").textContent = state === "connected" ? D.live : "";
      $("tm").dataset.live = state;
    },
  });
}

async function catchUp() {
  if (machine.loading || !events.length) return;
  const last = events[events.length - 1].v;
  const query = machine.as ? `&as=${encodeURIComponent(machine.as)}` : "";
  const as = machine.as;
  const page = await api(`/api/matches/${dispute.match}/events?after=${last}${query}`);
  if (as !== machine.as || !page.events.length || events[events.length - 1].v !== last) return;
  events = markReplays(events.concat(page.events));
  await loadPresence();
  $("tm").dataset.loaded = String(events.length);
  show();
  if (formBuilt) voidsNote();
}

$("tm-as").addEventListener("change", async (event) => {
  const box = $("tm-error");
  clear(box);
  const version = events[index] ? events[index].v : 0;
  try {
    machine.as = event.target.value;
    events = await loadEvents(machine.as);
    const i = events.findIndex((f) => f.v === version);
    index = i >= 0 ? i : pinnedIndex();
    $("tm").dataset.as = machine.as || "referee";
    show();
  } catch (e) { fail(box, e); }
});

function show() {
  const pos = $("tm-pos");
  if (!events.length) { pos.textContent = L.none; return; }
  index = Math.max(0, Math.min(index, events.length - 1));
  const frame = events[index];
  const pinned = index === pinnedIndex();
  pos.textContent = fmt(L.step, { i: index + 1, n: events.length });
  $("tm").dataset.version = frame.v;
  const card = detail(frame, { hands: true });
  card.classList.add("tm-card");
  const meta = h("p", { class: "step-meta" }, h("time", { datetime: new Date(frame.at).toISOString() },
    fmt(D.step_time, { time: clock(frame.at) })));
  if (autoPlayed(frame)) {
    card.classList.add("auto");
    meta.append(" ", h("span", { class: "mark auto-mark", id: "tm-auto" }, D.auto_play));
  }
  if (pinned) meta.append(" ", h("span", { class: "mark pinned-mark", id: "tm-pinned" }, D.pinned_step));
  card.append(meta);
  const since = presenceBefore(index);
  if (since.length) {
    card.append(h("section", { class: "presence-since", id: "tm-presence", "aria-label": D.presence_since },
      h("h3", {}, D.presence_since), h("ul", {}, since.map(presenceItem))));
  }
  $("tm-step").replaceChildren(card);
  // The timeline: every step, and between them each connection that came or went, at its time.
  const items = [];
  let next = 0;
  events.forEach((f, i) => {
    while (next < presence.length && presence[next].at <= f.at) items.push(presenceItem(presence[next++]));
    items.push(h("li", {
      class: `${autoPlayed(f) ? "auto" : ""}${i === index ? " current" : ""}`.trim(),
      "aria-current": i === index ? "step" : null, "data-v": f.v, "data-at": f.at },
    h("button", { type: "button", class: "link-like", onclick: () => { index = i; show(); } },
      `v${f.v} · ${clock(f.at)} · ${describe(f)}`, autoPlayed(f) ? ` (${D.auto_play})` : "")));
  });
  items.push(...presence.slice(next).map(presenceItem));
  $("tm-log").replaceChildren(...items);
  $("tm-first").disabled = index === 0;
  $("tm-prev").disabled = index === 0;
  $("tm-next").disabled = index === events.length - 1;
  $("tm-last").disabled = index === events.length - 1;
  proof();
}

$("tm-first").addEventListener("click", () => { index = 0; show(); });
$("tm-prev").addEventListener("click", () => { index -= 1; show(); });
$("tm-next").addEventListener("click", () => { index += 1; show(); });
$("tm-last").addEventListener("click", () => { index = events.length - 1; show(); });
$("tm-pin").addEventListener("click", () => { index = pinnedIndex(); show(); });

/** The fairness proof of the round (or turn) of the current step: the committed hash of its
 * dice, the seed once revealed, and whether GET …/verify found them to match. */
function proof() {
  let commit = null;
  for (let i = index; i >= 0 && !commit; i -= 1) commit = events[i].fairness && events[i].fairness.commit;
  for (let i = index + 1; i < events.length && !commit; i += 1) commit = events[i].fairness && events[i].fairness.commit;
  const dl = $("tm-proof-facts");
  const line = $("tm-verify");
  line.className = "verify";
  if (!commit) { dl.replaceChildren(h("dt", {}, D.commitment), h("dd", {}, L.none)); line.textContent = ""; return; }
  const reveal = events.map((f) => f.fairness && f.fairness.reveal).find((r) => r && r.scope === commit.scope);
  dl.replaceChildren(h("dt", {}, D.scope), h("dd", { id: "tm-scope" }, commit.scope),
    h("dt", {}, D.commitment), h("dd", { class: "hash", id: "tm-commitment" }, commit.commitment),
    h("dt", {}, D.seed), h("dd", { class: "hash", id: "tm-seed" }, reveal ? reveal.seed : D.not_revealed));
  if (verify && !verify.valid && verify.error) {
    line.textContent = fmt(D.broken, { reason: verify.error.reason, v: verify.error.version, message: verify.error.message });
    line.classList.add("broken");
  } else if (verify && (verify.verified_scopes || []).includes(commit.scope)) {
    line.textContent = D.verified;
    line.classList.add("ok");
  } else {
    line.textContent = D.not_verified;
  }
  line.dataset.scope = commit.scope;
}

// ---------------------------------------------------------------- the ruling form

// The rulings the dispute's game offers, each with the fields it asks, and the values of a
// field offered as a list: the engine's, from the dispute document (`ruling_form`; pause and
// resume have their own buttons).
const rulingForm = () => dispute.ruling_form || { fields: {}, choices: {} };

function field(name, label, input) {
  return h("label", { for: `r-${name}`, class: "param", "data-param": name }, label, input);
}

function seatSelect(name) {
  return h("select", { id: `r-${name}`, name, required: true },
    h("option", { value: "" }, D.choose), seats.map((s) => h("option", { value: s }, s)));
}

function paramField(name, kind) {
  const P = D.params || {};
  const pinned = dispute.pinned || {};
  switch (name) {
    case "round":
      return field(name, P.round, h("input", { type: "number", id: "r-round", name, min: 1, required: true,
        value: pinned.round ?? "" }));
    case "turn":
      return field(name, P.turn, h("input", { type: "number", id: "r-turn", name, min: 1, required: true,
        value: pinned.turn ?? "" }));
    case "player": case "seat":
      return field(name, P[name], seatSelect(name));
    case "delta":
      return field(name, P.delta, h("input", { type: "number", id: "r-delta", name, required: true, step: 1 }));
    case "dice":
      return field(name, P.dice, h("input", { type: "number", id: "r-dice", name, min: 1, required: true }));
    case "points": {
      const label = kind === "penalty" ? P.penalty_points : P.points;
      return field(name, label, h("input", { type: "number", id: "r-points", name, min: kind === "penalty" ? 1 : 0,
        required: true }));
    }
    case "box":
      return field(name, P.box, h("select", { id: "r-box", name, required: true }, h("option", { value: "" }, D.choose),
        (rulingForm().choices.box || []).map((b) => h("option", { value: b }, (L.boxes || {})[b] || (L.boxes || {})[`${b}_1`] || b))));
    case "scratch": {
      const box = h("input", { type: "checkbox", id: "r-scratch", name });
      box.addEventListener("change", () => {
        const points = $("r-points");
        if (points) { points.disabled = box.checked; points.required = !box.checked; }
      });
      return h("label", { for: "r-scratch", class: "param check", "data-param": name }, box, " ", P.scratch);
    }
    case "placements":
      return h("fieldset", { class: "placements", "data-param": name }, h("legend", {}, P.placements),
        seats.map((s, i) => h("label", { for: `r-place-${i}`, class: "param" }, s,
          h("input", { type: "number", id: `r-place-${i}`, "data-seat": s, min: 1, max: seats.length,
            required: true, value: i + 1 }))));
    default:
      return null;
  }
}

function drawParams() {
  const kind = $("r-kind").value;
  const names = rulingForm().fields[kind] || [];
  $("r-params").replaceChildren(...names.map((n) => paramField(n, kind)).filter(Boolean));
  $("r-preview-out").hidden = true;
  const round = $("r-round");
  if (round) round.addEventListener("input", voidsNote);
  voidsNote();
}

/** What a void-round undoes: the round named and every round begun after it (the live
 * one included), as the review's events show them. */
function undoneRounds(first) {
  const started = events.filter((f) => f.t === "round_started" && f.d.number >= first).map((f) => f.d.number);
  return [...new Set(started)].sort((a, b) => a - b);
}

function voidsNote() {
  const note = $("r-voids");
  const round = $("r-round");
  const first = round ? Number(round.value) : 0;
  const rounds = $("r-kind").value === "void-round" && first >= 1 ? undoneRounds(first) : [];
  note.hidden = !rounds.length;
  note.textContent = rounds.length ? fmt(D.voids, { round: first, rounds: rounds.join(", ") }) : "";
  note.dataset.rounds = rounds.join(",");
}

function buildRulingForm(d) {
  formBuilt = true;
  const kinds = Object.keys((d.ruling_form || { fields: {} }).fields);
  $("r-kind").replaceChildren(...kinds.map((k) => h("option", { value: k }, (D.kinds || {})[k] || k)));
  $("r-kind").addEventListener("change", drawParams);
  if (seats.length) drawParams();
}

/** The ruling as the API takes it: `{kind, ...params}`, numbers as numbers. */
function ruling() {
  const out = { kind: $("r-kind").value };
  for (const el of $("r-params").querySelectorAll("[data-param]")) {
    const name = el.dataset.param;
    if (name === "placements") {
      out.placements = Object.fromEntries([...el.querySelectorAll("input")].map((i) => [i.dataset.seat, Number(i.value)]));
      continue;
    }
    const input = el.querySelector("input, select");
    if (!input || input.disabled) continue;
    if (input.type === "checkbox") { if (input.checked) out[name] = true; continue; }
    out[name] = input.type === "number" ? Number(input.value) : input.value;
  }
  return out;
}

// Figures for people, in the page's language (0,67 in Spanish).
const numbers = new Intl.NumberFormat(lang, { maximumFractionDigits: 2 });
const figure = (x) => (x === null || x === undefined ? "" : numbers.format(x));
const criterion = (code) => {
  const name = (L.criteria || {})[code] || code;
  return name.charAt(0).toUpperCase() + name.slice(1);
};

/** A stage's standings with every tiebreak column, each row's won tie said under its name;
 * the rows whose rank the ruling moves marked (`changed`, and in words for screen readers). */
function standingsTable(rows, changed, criteria, caption, idName) {
  const tiebreaks = criteria.filter((c) => c !== "points");
  const width = 4 + tiebreaks.length;
  return h("table", { class: "data", id: idName }, h("caption", {}, caption),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, L.place), h("th", { scope: "col" }, L.entry),
      h("th", { scope: "col" }, L.played), h("th", { scope: "col" }, L.points),
      tiebreaks.map((c) => h("th", { scope: "col", "data-criterion": c }, criterion(c))))),
    h("tbody", {}, rows.length ? [] : h("tr", {}, h("td", { colspan: width }, L.none)), rows.map((r) => {
      const moved = changed.has(String(r.entry));
      return h("tr", { "data-entry": r.entry, class: moved ? "changed" : "" },
        h("td", {}, r.rank), h("td", {}, r.name, moved ? h("span", { class: "sr-only" }, ` (${D.changed})`) : null,
          r.tiebreak_text ? h("div", { class: "reason", title: L.tiebreak }, r.tiebreak_text) : null),
        h("td", { class: "num" }, r.played ?? ""), h("td", { class: "num" }, figure(r.points)),
        tiebreaks.map((c) => h("td", { class: "num", "data-criterion": c }, figure((r.values || {})[c]))));
    })));
}

/** The tournament's final ranking, the entries whose place the ruling moves marked. */
function rankingTable(rows, changed, caption, idName) {
  return h("table", { class: "data", id: idName }, h("caption", {}, caption),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, L.place), h("th", { scope: "col" }, L.entry))),
    h("tbody", {}, rows.map((r) => {
      const moved = changed.has(String(r.entry));
      return h("tr", { "data-entry": r.entry, class: moved ? "changed" : "" }, h("td", {}, r.place),
        h("td", {}, r.name, moved ? h("span", { class: "sr-only" }, ` (${D.place_changes})`) : null));
    })));
}

function preview(data) {
  const current = data.current || [];
  const after = data.after || [];
  const criteria = data.criteria || ["points"];
  const before = new Map(current.map((r) => [String(r.entry), r.rank]));
  const changed = new Set((data.changed || []).map(String));
  for (const r of after) if (before.has(String(r.entry)) && before.get(String(r.entry)) !== r.rank) changed.add(String(r.entry));
  const out = $("r-preview-out");
  out.hidden = false;
  out.dataset.changed = String(changed.size);
  // With their tiebreak columns the two standings are wide: one above the other, each
  // scrolling sideways on a narrow screen.
  out.replaceChildren(...((data.voids || []).length
    ? [h("p", { class: "note", id: "r-preview-voids" }, fmt(D.voids_preview, { rounds: data.voids.join(", ") }))] : []),
  h("h4", {}, D.preview_title),
    h("div", { class: "side-by-side stacked" },
      h("div", { class: "scroll" }, standingsTable(current, changed, criteria, D.current, "r-current")),
      h("div", { class: "scroll" }, standingsTable(after, changed, criteria, D.after, "r-after"))));
  if (!changed.size) out.append(h("p", { class: "help", id: "r-no-change" }, D.no_change));
  // The final ranking: once the tournament has finished (or would have, after the ruling).
  const ranked = data.ranking_current || [];
  const rankedAfter = data.ranking_after || [];
  const moved = new Set((data.ranking_changed || []).map(String));
  out.dataset.rankingChanged = String(moved.size);
  out.append(h("h4", {}, D.ranking_title));
  if (!ranked.length && !rankedAfter.length) {
    out.append(h("p", { class: "help", id: "r-no-ranking" }, D.ranking_none));
    return;
  }
  out.append(h("div", { class: "side-by-side" }, rankingTable(ranked, moved, D.current, "r-ranking-current"),
    rankingTable(rankedAfter, moved, D.after, "r-ranking-after")));
  if (!moved.size) out.append(h("p", { class: "help", id: "r-ranking-same" }, D.ranking_same));
}

$("r-preview").addEventListener("click", async () => {
  const box = $("r-error");
  clear(box);
  if (!$("r-params").querySelectorAll("input, select").length || $("r-form").reportValidity()) {
    try {
      preview(await api(`/api/disputes/${id}/preview`, { method: "POST", body: { ruling: ruling() } }));
    } catch (e) { fail(box, e); }
  }
});

$("r-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const box = $("r-error");
  clear(box);
  try {
    const d = await api(`/api/disputes/${id}/rule`, { method: "POST",
      body: { ruling: ruling(), reason: $("r-reason").value.trim() } });
    render(d);
    $("r-preview-out").hidden = true;
    $("d-notice").hidden = false;
    $("d-notice").textContent = D.ruled;
    // the review shows the ruling's events too
    [events] = await Promise.all([loadEvents(machine.as), loadPresence()]);
    show();
  } catch (e) { fail(box, e); }
});

// ---------------------------------------------------------------- start

document.addEventListener("keydown", (e) => {
  if (!dispute || !referee || e.target.closest("input, textarea, select, button")) return;
  if (e.key === "ArrowRight") { index += 1; show(); }
  if (e.key === "ArrowLeft") { index -= 1; show(); }
});

refresh().catch((e) => fail($("error"), e));
// The trail and the pause state stay current while the page is open (forms are left alone):
// at once when /ws/disputes/ says this dispute changed, and every 5 s in any case.
function reload() {
  api(`/api/disputes/${id}`).then((d) => {
    if (JSON.stringify(d) !== JSON.stringify(dispute)) render(d);
  }).catch(() => {});
}
disputeNotices((frame) => { if (String(frame.id) === String(id)) reload(); });
setInterval(reload, 5000);
