// The referee queue: the open disputes of every club where the user is owner,
// organiser or referee (GET /api/disputes?status=open), kept current by `watchQueue`. New
// disputes are announced in an aria-live region; ages tick without re-drawing the rows.
import { L, api, fmt, h, showError } from "./api.js";
import { watchQueue } from "./disputes-live.js";

const D = L.disputes || {};
const rows = document.getElementById("q-rows");
const status = document.getElementById("q-status");
const news = document.getElementById("q-new");
const errorBox = document.getElementById("error");
const lang = document.documentElement.lang || undefined;
const relative = new Intl.RelativeTimeFormat(lang, { numeric: "auto" });

/** How long ago, in the page's language ("3 minutes ago", "hace 3 minutos"). */
export function age(iso, now = Date.now()) {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  const steps = [[60, "second"], [60, "minute"], [24, "hour"], [Infinity, "day"]];
  let value = seconds;
  for (const [size, unit] of steps) {
    if (Math.abs(value) < size) return relative.format(value, unit);
    value = Math.round(value / size);
  }
  return "";
}

function pinned(d) {
  const p = d.pinned || {};
  if (p.round) return ` · ${fmt(D.round_n, { n: p.round })}`;
  if (p.turn) return ` · ${fmt(D.turn_n, { n: p.turn })}`;
  return "";
}

function row(d) {
  return h("tr", { "data-dispute": d.id, class: d.paused ? "paused" : "" },
    h("td", {}, h("a", { href: `/tournaments/${d.tournament}/` }, d.tournament_name || d.tournament)),
    h("td", {}, fmt(D.table_n_round_n, { table: d.table, round: d.round_number })),
    // the pinned round or turn is the match's own (not the tournament's round): beside the match
    h("td", {}, h("a", { href: `/matches/${d.match}/` }, (L.rulesets || {})[d.ruleset] || d.ruleset), pinned(d)),
    h("td", { class: "q-reason" }, (D.reasons || {})[d.reason] || d.reason_label || d.reason,
      d.text ? h("div", { class: "help" }, d.text.length > 80 ? `${d.text.slice(0, 80)}…` : d.text) : null),
    h("td", {}, d.filed_by),
    h("td", { class: "age" }, h("time", { datetime: d.filed_at, "data-at": d.filed_at }, age(d.filed_at))),
    h("td", {}, h("a", { href: `/disputes/${d.id}/`, class: "button", "data-open": d.id,
      "aria-label": fmt(D.dispute_n, { n: d.id }) }, D.open)));
}

let seen = null;

function draw(disputes) {
  errorBox.hidden = true;
  rows.replaceChildren(...(disputes.length ? disputes.map(row)
    : [h("tr", {}, h("td", { colspan: 7 }, D.queue_empty))]));
  status.textContent = fmt(D.queue_count, { n: disputes.length });
  status.dataset.count = String(disputes.length);
  // Say which disputes arrived since the last look (not the first load: the count says it).
  if (seen !== null) {
    const fresh = disputes.filter((d) => !seen.has(d.id));
    if (fresh.length) {
      news.textContent = fresh.map((d) => fmt(D.queue_new, { match: d.tournament_name,
        reason: (D.reasons || {})[d.reason] || d.reason_label || d.reason })).join(". ");
    }
  }
  seen = new Set(disputes.map((d) => d.id));
  document.getElementById("queue").dataset.loaded = "1";
}

watchQueue(draw, (error) => showError(errorBox, error));

// Closed disputes, newest first: a ruling and its trail stay readable after the queue moves on.
async function drawClosed() {
  const all = await api("/api/disputes?status=all");
  const closed = (all.disputes || []).filter((d) => d.status !== "open").reverse().slice(0, 20);
  const section = document.getElementById("closed");
  document.getElementById("c-rows").replaceChildren(...closed.map(row));
  section.hidden = !closed.length;
  section.dataset.loaded = "1";
}
drawClosed().catch((error) => showError(errorBox, error));
setInterval(() => {
  for (const t of rows.querySelectorAll("time[data-at]")) t.textContent = age(t.dataset.at);
}, 1000);
