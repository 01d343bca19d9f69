// A tournament's public page: facts, live matches, once finished its podium and final ranking
// (GET …/ranking), the standings of the stage in play with groups and tiebreak reasons in the
// page's language, the rounds drawn as columns of table cards (each with its result, live
// tables marked), entries. Everything from the public API.
import { L, api, fmt, h, showError } from "./api.js";

const section = document.getElementById("tournament");
const id = section.dataset.tournamentId;
const errorBox = document.getElementById("error");
const T = L.tournament_page || {};
const statusName = (code) => (L.statuses && L.statuses[code]) || code;
const criterion = (code) => (L.criteria && L.criteria[code]) || code;
// Figures for people, in the page's language: 3, 0.67 (0,67 in Spanish).
const numbers = new Intl.NumberFormat(document.documentElement.lang || undefined, { maximumFractionDigits: 2 });
const figure = (x) => (x === null || x === undefined ? "" : numbers.format(x));
const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

// A stage left unnamed is stored under its format's code ("final_table") or a default
// stage's name (`L.default_stage_names`): it shows as its format's name, in the page's language.
const DEFAULT_STAGE_NAMES = new Set(L.default_stage_names || []);
function stageName(s) {
  const generic = !s.name || s.name === s.format || DEFAULT_STAGE_NAMES.has(s.name);
  return generic ? (L.formats || {})[s.format] || s.name || s.format : s.name;
}

function facts(t) {
  const dl = document.getElementById("t-facts");
  const stages = (t.stage_plan || []).map(stageName).join(" → ");
  const rows = [[L.status, statusName(t.status)], [L.ruleset, (L.rulesets || {})[t.ruleset] || t.ruleset],
    [L.format, stages], [L.turn_time, `${t.turn_seconds} s`]];
  dl.replaceChildren(...rows.flatMap(([k, v]) => [h("dt", {}, k), h("dd", { "data-fact": k }, String(v ?? ""))]));
  document.getElementById("t-name").textContent = t.name;
}

// An entry some of whose tables time decided (docs/rules.md §9.1) says so beside its name,
// with how many when more than one.
function atTimeMark(n) {
  if (!(n > 0)) return null;
  const words = T.standing_at_time;
  return [" ", h("span", { class: "badge at-time", "data-at-time": n, title: fmt(T.standing_at_time_title, { n }) },
    n > 1 ? `${words} ×${n}` : words)];
}

// A pair's or team's players under its name (the API lists them for pairs and teams only).
function membersOf(r) {
  return r.members?.length ? h("div", { class: "members", "data-members": r.entry }, r.members.join(", ")) : null;
}

function standings(data) {
  const table = document.getElementById("t-standings");
  const tiebreaks = (data.criteria || []).filter((c) => c !== "points");
  const rows = data.standings || [];
  const grouped = new Set(rows.map((r) => r.group)).size > 1;
  const stage = data.stage;
  document.getElementById("t-stage").textContent = stage ? `· ${stageName(stage) || fmt(L.stage_n, { n: stage.number })}` : "";
  const head = h("tr", {}, h("th", {}, L.place), h("th", {}, L.entry), grouped ? h("th", {}, L.group) : null,
    h("th", {}, L.played), h("th", {}, L.points), tiebreaks.map((c) => h("th", {}, capital(criterion(c)))));
  // The tie an entry won is said under its name (a column of sentences would push the
  // figures off a narrow screen).
  const body = rows.map((r) => h("tr", { "data-entry": r.entry, "data-group": r.group }, h("td", {}, r.rank),
    h("td", {}, r.name, atTimeMark(r.decided_at_time), membersOf(r),
      r.tiebreak_text ? h("div", { class: "reason", title: L.tiebreak }, r.tiebreak_text) : null),
    grouped ? h("td", {}, r.group) : null, h("td", { class: "num" }, r.played),
    h("td", { class: "num" }, figure(r.points)), tiebreaks.map((c) => h("td", { class: "num" }, figure(r.values?.[c])))));
  const width = 4 + tiebreaks.length + (grouped ? 1 : 0);
  document.getElementById("t-tiebreak-legend").hidden = !(tiebreaks.length && rows.length);
  table.replaceChildren(h("thead", {}, head),
    h("tbody", {}, body.length ? body : h("tr", {}, h("td", { colspan: width }, L.none))));
}

// The podium: places 1 to 3 as the final ranking gives them, so shared places stand together
// on one step (1, 2, 3, 3: two names on the third step; 1, 1, 3: no second step).
function podium(data) {
  const section = document.getElementById("t-final");
  const ranking = data.ranking || [];
  section.hidden = !(data.finished && ranking.length);
  if (section.hidden) return;
  const steps = [1, 2, 3].map((place) => {
    const here = ranking.filter((p) => p.place === place);
    if (!here.length) return null;
    const title = L.podium_places[place] + (here.length > 1 ? ` (${L.shared_place})` : "");
    return h("li", { class: `step place-${place}`, "data-place": place, "data-shared": here.length > 1,
      "aria-label": `${title}: ${here.map((p) => p.name).join(", ")}` },
    h("ul", { class: "names" }, here.map((p) => h("li", { "data-entry": p.entry }, p.name, membersOf(p)))),
    h("div", { class: "block" }, h("span", { class: "medal" }, place), h("span", { class: "title" }, title)));
  });
  document.getElementById("t-podium").replaceChildren(...steps.filter(Boolean));
  document.getElementById("t-ranking").replaceChildren(
    h("thead", {}, h("tr", {}, h("th", {}, L.place), h("th", {}, L.entry))),
    h("tbody", {}, ranking.map((p) => h("tr", { "data-entry": p.entry, "data-place": p.place },
      h("td", {}, p.place), h("td", {}, p.name, membersOf(p))))));
}

const plural = (one, many, n) => fmt(n === 1 ? one : many, { n });

/** A finished table's result, winner first, in words: "1. Ana · 5 dice left". */
function resultLines(table) {
  const names = new Map(table.seats.map((s) => [s.entry, s.name]));
  const lines = [...(table.result || [])].sort((a, b) => a.placement - b.placement);
  return lines.map((line) => {
    const extra = [];
    if (line.alalay_total !== null && line.alalay_total !== undefined) extra.push(fmt(T.points_n, { n: line.alalay_total }));
    else if (line.dice_left) extra.push(plural(T.dice_left_one, T.dice_left_many, line.dice_left));
    return h("li", { class: line.placement === 1 ? "winner" : "", "data-entry": line.entry, "data-place": line.placement },
      h("span", { class: "place" }, fmt(T.result_line, { place: line.placement, name: names.get(line.entry) || "" })),
      extra.length ? h("span", { class: "extra" }, ` · ${extra.join(" · ")}`) : null);
  });
}

const isLive = (table) => Boolean(table.match_id) && table.status !== "finished";

/** One table of the rounds diagram: its number (a link to the match, named in full for a
 * screen reader), whether it is live, and its result or its players. */
function tableCard(round, table) {
  const players = table.seats.map((s) => s.name).join(", ");
  const live = isLive(table);
  const state = live ? L.live : table.status === "finished" ? statusName("finished") : T.waiting;
  const title = `${fmt(L.table, { n: table.number })}${table.group && round.tables.some((t) => t.group !== table.group) ? ` · ${L.group} ${table.group}` : ""}`;
  const name = fmt(live ? T.watch_table : T.open_table, { n: table.number, r: round.number, players, status: state });
  const head = table.match_id
    ? h("a", { href: `/matches/${table.match_id}/`, "aria-label": name, "data-table-link": table.id }, title)
    : h("span", {}, title);
  const body = (table.result || []).length ? h("ol", { class: "result" }, resultLines(table))
    : h("ul", { class: "seat-list" }, table.seats.map((s) => h("li", {}, s.name)));
  // A physical table's sheet, for the club's scorekeepers (the screen says who may keep score).
  const keep = table.scorekeeper_url && table.status !== "finished"
    ? h("a", { href: table.scorekeeper_url, class: "keep-score", "data-keep-score": table.id }, (L.sk || {}).keep_score)
    : null;
  // A table decided at time (docs/rules.md §9.1) says so in words, beside its result.
  const atTime = table.decided_at_time
    ? h("span", { class: "badge at-time", "data-at-time": "true" }, ((L.evening || {}).clock || {}).decided_at_time)
    : null;
  return h("li", { class: `table-card${live ? " live" : ""}`, "data-table": table.id, "data-status": table.status },
    h("div", { class: "table-head" }, head, atTime, h("span", { class: `badge ${live ? "live" : table.status}` }, state)), body, keep);
}

// The rounds as columns of table cards, in HTML (readable at any size, links named).
function tree(rounds) {
  const box = document.getElementById("t-tree");
  if (!rounds.length) { box.replaceChildren(h("p", {}, L.none)); return; }
  box.replaceChildren(h("ol", { class: "rounds-diagram" }, rounds.map((round) =>
    h("li", { class: "round-col", "data-round": round.number },
      h("h3", { id: `t-round-${round.number}` }, fmt(L.round, { n: round.number })),
      h("ol", { class: "tables", "aria-labelledby": `t-round-${round.number}` },
        round.tables.map((table) => tableCard(round, table)))))));
}

function roundsList(rounds) {
  const live = document.getElementById("t-live");
  const items = [];
  for (const round of rounds) {
    for (const table of round.tables) {
      if (isLive(table)) {
        items.push(h("li", { class: "live" }, h("span", { class: "badge live" }, L.live), " ",
          h("a", { href: `/matches/${table.match_id}/`, "data-live-match": table.match_id },
            `${fmt(L.round, { n: round.number })} · ${fmt(L.table, { n: table.number })}: `,
            table.seats.map((s) => s.name).join(" – "))));
      }
    }
  }
  live.replaceChildren(...(items.length ? items : [h("li", {}, L.none)]));
}

/** Once the tournament is over an entry's status is its final place, not "playing". */
function entries(rows, ranking) {
  const table = document.getElementById("t-entries");
  const places = new Map(ranking.finished ? (ranking.ranking || []).map((p) => [p.entry, p.place]) : []);
  const state = (e) => (places.has(e.id) ? `${L.place} ${places.get(e.id)}` : statusName(e.status));
  table.replaceChildren(h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, L.entries), h("th", {}, L.status))),
    h("tbody", {}, rows.map((e) => h("tr", { "data-entry": e.id }, h("td", {}, e.seed ?? ""),
      h("td", {}, e.name, e.members.length ? ` (${e.members.join(", ")})` : ""),
      h("td", {}, state(e))))));
}

async function load() {
  const [t, es, rounds, st, ranking] = await Promise.all([api(`/api/tournaments/${id}`),
    api(`/api/tournaments/${id}/entries`), api(`/api/tournaments/${id}/rounds`),
    api(`/api/tournaments/${id}/standings`), api(`/api/tournaments/${id}/ranking`)]);
  facts(t);
  entries(es, ranking);
  roundsList(rounds);
  tree(rounds);
  podium(ranking);
  standings(st);
  section.dataset.loaded = "1";
}

load().catch((e) => showError(errorBox, e));
setInterval(() => load().catch(() => {}), 15000);
