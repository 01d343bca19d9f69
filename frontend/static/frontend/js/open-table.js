// An open table's waiting room: its seats as they change (/ws/tables/<id>/), take a seat,
// leave it, and for the host: fill the empty seats with bots and start. A private table's
// link (`?join=<secret>`) seats whoever opens it signed in. Once the table starts, its
// players go to the match.
import { api, h, showError } from "./api.js";
import { O, facts, follow, seatItems } from "./open-seats.js";

const root = document.getElementById("open-table");
const id = root.dataset.tableId;
const me = root.dataset.user;
const join = new URLSearchParams(location.search).get("join");
const $ = (x) => document.getElementById(x);
let table = null;
let link = null;
let strength = null;
let leaving = false; // on the way to the match: the answer and the socket both say it started

async function act(path, body) {
  $("ot-error").hidden = true;
  try {
    const fresh = await api(`/api/open-tables/${id}/${path}`, { method: "POST", body: body || {} });
    update(fresh);
  } catch (error) {
    showError($("ot-error"), error);
  }
}

function update(fresh) {
  if (fresh.you && fresh.you.link) link = fresh.you.link;
  table = fresh;
  draw();
}

function draw() {
  const seated = table.seats.some((s) => s.player === me);
  const host = me && table.host === me;
  $("ot-ruleset").textContent = table.ruleset_name;
  $("ot-facts").textContent = facts(table);
  $("ot-seats").replaceChildren(...seatItems(table));
  root.dataset.status = table.status;
  const open = table.status === "open";
  const status = { open: O.waiting, playing: O.started, finished: O.finished, closed: O.closed }[table.status];
  $("ot-status").replaceChildren(status,
    table.match ? h("span", {}, " ", h("a", { href: `/matches/${table.match}/`, class: "button primary" }, O.go)) : "");
  const actions = [];
  if (open && !seated && table.free > 0) {
    actions.push(me ? h("button", { type: "button", class: "primary", id: "ot-sit",
      onclick: () => act("seats", join ? { token: join } : {}) }, O.sit)
      : h("a", { href: `${root.dataset.login}?next=${encodeURIComponent(location.pathname + location.search)}` }, O.sign_in));
  }
  if (open && seated) actions.push(h("button", { type: "button", id: "ot-leave", onclick: () => act("leave") }, O.leave));
  $("ot-actions").replaceChildren(...actions);
  drawHost(open && host);
  $("ot-link").hidden = !(open && link);
  if (open && link) {
    const url = new URL(link, location.origin).href;
    $("ot-link").replaceChildren(h("label", { for: "ot-link-url" }, table.private ? O.link : O.share),
      h("div", { class: "form-row" }, h("input", { id: "ot-link-url", readonly: true, value: url, size: 40 }),
        h("button", { type: "button", onclick: () => copy(url) }, O.copy)));
  }
  if (table.status === "playing" && table.match && seated && !leaving) {
    leaving = true; // a second navigation would abort the first and load the match twice
    location.assign(`/matches/${table.match}/`);
  }
}

function drawHost(show) {
  const box = $("ot-host");
  box.hidden = !show;
  if (!show) return;
  const seatedCount = table.size - table.free;
  const strengths = Object.keys(O.bots || {});
  strength = strength || strengths[0];
  const parts = [];
  if (table.free > 0 && !table.rated) {
    parts.push(h("label", { for: "ot-strength" }, O.strength,
      h("select", { id: "ot-strength", onchange: (e) => { strength = e.target.value; } },
        strengths.map((s) => h("option", { value: s, selected: s === strength }, O.bots[s])))),
    h("button", { type: "button", id: "ot-bots", onclick: () => act("bots", { strength }) }, O.fill));
  } else if (table.rated) {
    parts.push(h("p", { class: "help" }, O.no_bots_rated));
  }
  parts.push(h("div", { class: "form-row" },
    h("button", { type: "button", class: "primary", id: "ot-start", disabled: seatedCount < 2, onclick: () => act("start") }, O.start),
    seatedCount < 2 ? h("span", { class: "help" }, O.need_two) : null));
  box.replaceChildren(...parts);
}

async function copy(url) {
  try { await navigator.clipboard.writeText(url); $("ot-status").textContent = O.copied; } catch { $("ot-link-url").select(); }
}

async function start() {
  const query = join ? `?token=${encodeURIComponent(join)}` : "";
  update(await api(`/api/open-tables/${id}${query}`));
  if (join && me && table.status === "open" && !table.seats.some((s) => s.player === me) && table.free > 0) {
    await act("seats", { token: join }); // the private link seats whoever opens it signed in
  }
  follow(`/ws/tables/${id}/${query}`, (frame) => { if (frame.t === "table") update(frame.d); });
}

start().catch((error) => showError($("ot-error"), error));

