// A tournament's public page: facts, live matches, standings with tiebreak reasons, the
// rounds drawn as an SVG tree of tables, entries. Everything from the public API.
import { L, api, fmt, h, showError } from "./api.js";

const section = document.getElementById("tournament");
const id = section.dataset.tournamentId;
const errorBox = document.getElementById("error");
const SVG = "http://www.w3.org/2000/svg";
const statusName = (code) => (L.statuses && L.statuses[code]) || code;
const criterion = (code) => (L.criteria && L.criteria[code]) || code;

function svg(tag, attrs, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

function facts(t) {
  const dl = document.getElementById("t-facts");
  const stages = (t.stage_plan || []).map((s) => s.name || (L.formats || {})[s.format] || s.format).join(" → ");
  const rows = [[L.status, statusName(t.status)], [L.ruleset, (L.rulesets || {})[t.ruleset] || t.ruleset],
    [L.format, stages], [L.turn_time, `${t.turn_seconds} s`]];
  dl.replaceChildren(...rows.flatMap(([k, v]) => [h("dt", {}, k), h("dd", { "data-fact": k }, String(v ?? ""))]));
  document.getElementById("t-name").textContent = t.name;
}

function standings(data) {
  const table = document.getElementById("t-standings");
  const criteria = data.criteria || [];
  const head = h("tr", {}, h("th", {}, "#"), h("th", {}, L.entries), h("th", {}, L.played), h("th", {}, L.points),
    criteria.map((c) => h("th", {}, criterion(c))), h("th", {}, L.tiebreak));
  const rows = (data.standings || []).map((r) => h("tr", {}, h("td", {}, r.rank), h("td", {}, r.name),
    h("td", {}, r.played), h("td", {}, r.points), criteria.map((c) => h("td", {}, String(r.values?.[c] ?? ""))),
    h("td", { title: r.tiebreak_reason || "" }, [r.tiebreak, r.tiebreak_reason].filter(Boolean).join(": "))));
  table.replaceChildren(h("thead", {}, head), h("tbody", {}, rows.length ? rows : h("tr", {}, h("td", {}, L.none))));
}

function tree(rounds) {
  const box = document.getElementById("t-tree");
  if (!rounds.length) { box.replaceChildren(h("p", {}, L.none)); return; }
  const colW = 190; const rowH = 22; const gap = 14;
  const heights = rounds.map((r) => r.tables.reduce((n, t) => n + (t.seats.length + 1) * rowH + gap, 0));
  const height = Math.max(...heights, 60) + 30;
  const root = svg("svg", { class: "tree", width: rounds.length * colW + 20, height, role: "img",
    "aria-label": L.rounds });
  const centers = [];
  rounds.forEach((round, i) => {
    const x = 10 + i * colW;
    root.append(svg("text", { x, y: 14, "font-weight": 700 }, fmt(L.round, { n: round.number })));
    let y = 24;
    const mine = [];
    for (const table of round.tables) {
      const hgt = (table.seats.length + 1) * rowH;
      const g = svg("g", { "data-table": table.id });
      g.append(svg("rect", { x, y, width: colW - 30, height: hgt, rx: 6 }));
      g.append(svg("text", { x: x + 6, y: y + 15, "font-weight": 700 },
        `${fmt(L.table, { n: table.number })}${table.group ? " · " + table.group : ""} ${statusName(table.status)}`));
      table.seats.forEach((seat, k) => g.append(svg("text", { x: x + 10, y: y + 15 + (k + 1) * rowH }, seat.name)));
      if (table.match_id) {
        const link = svg("a", { href: `/matches/${table.match_id}/` });
        link.append(g);
        root.append(link);
      } else root.append(g);
      mine.push([x + colW - 30, y + hgt / 2, x, y + hgt / 2]);
      y += hgt + gap;
    }
    if (i > 0) {
      const prev = centers[i - 1];
      mine.forEach((c, k) => {
        for (const p of prev.slice(k * 2, k * 2 + 2)) {
          root.append(svg("path", { d: `M${p[0]} ${p[1]} C${p[0] + 15} ${p[1]} ${c[2] - 15} ${c[3]} ${c[2]} ${c[3]}` }));
        }
      });
    }
    centers.push(mine);
  });
  box.replaceChildren(root);
}

function roundsList(rounds) {
  const live = document.getElementById("t-live");
  const items = [];
  for (const round of rounds) {
    for (const table of round.tables) {
      if (table.match_id && table.status !== "finished") {
        items.push(h("li", {}, h("a", { href: `/matches/${table.match_id}/`, "data-live-match": table.match_id },
          `${fmt(L.round, { n: round.number })} · ${fmt(L.table, { n: table.number })}: `,
          table.seats.map((s) => s.name).join(" – ")), ` (${L.live})`));
      }
    }
  }
  live.replaceChildren(...(items.length ? items : [h("li", {}, L.none)]));
}

function entries(rows) {
  const table = document.getElementById("t-entries");
  table.replaceChildren(h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, L.entries), h("th", {}, L.status))),
    h("tbody", {}, rows.map((e) => h("tr", { "data-entry": e.id }, h("td", {}, e.seed ?? ""),
      h("td", {}, e.name, e.members.length ? ` (${e.members.join(", ")})` : ""),
      h("td", {}, statusName(e.status))))));
}

async function load() {
  const [t, es, rounds, st] = await Promise.all([api(`/api/tournaments/${id}`),
    api(`/api/tournaments/${id}/entries`), api(`/api/tournaments/${id}/rounds`),
    api(`/api/tournaments/${id}/standings`)]);
  facts(t);
  entries(es);
  roundsList(rounds);
  tree(rounds);
  standings(st);
  section.dataset.loaded = "1";
}

load().catch((e) => showError(errorBox, e));
setInterval(() => load().catch(() => {}), 15000);
