// "My matches" and a player's page: a player's matches (opponents, placement, date,
// tournament), filtered by result, state and tournament, a page at a time; on a player's
// page also their tournaments. Data from GET /api/me/match-history or
// /api/players/<username>/matches, and GET /api/players/<username>.
import { L, api, fmt, h, showError } from "./api.js";
import { playerName } from "./lobby.js";

const T = L.lobby || {};
const section = document.getElementById("matches");
// The viewer's own list (a live match is theirs to play) or someone else's (to watch).
const mine = section && section.dataset.viewer === section.dataset.username;
const dateFormat = new Intl.DateTimeFormat(document.documentElement.lang || undefined,
  { dateStyle: "medium", timeStyle: "short" });

function matchItem(m) {
  const placed = m.placement === null ? null
    : m.placement === 1 ? h("strong", { class: "won" }, T.won, " · ", fmt(T.placement, { n: 1, m: m.players }))
    : h("span", {}, fmt(T.placement, { n: m.placement, m: m.players }));
  const when = dateFormat.format(new Date(m.finished_at || m.started_at));
  const tournament = m.tournament
    ? h("a", { href: `/tournaments/${m.tournament.id}/` },
        fmt(T.table_in, { name: m.tournament.name, round: m.tournament.round, table: m.tournament.table }))
    : h("span", {}, T.casual);
  const opponents = [];
  m.opponents.forEach((o, i) => { if (i) opponents.push(", "); opponents.push(playerName(o)); });
  return h("li", { class: `match-row ${m.status}`, "data-match": m.match, "data-status": m.status,
                   "data-placement": m.placement ?? "" },
    h("div", { class: "match-main" },
      h("span", { class: `badge ${m.status}` }, (T.statuses || {})[m.status] || m.status),
      " ", placed || "",
      h("div", {}, h("span", { class: "help" }, `${fmt(T.playing_as, { name: m.label || m.seat })} ${T.vs} `), ...opponents)),
    h("div", { class: "match-meta help" },
      h("time", { datetime: m.finished_at || m.started_at }, when), " · ", m.ruleset_name, " · ", tournament),
    h("div", { class: "match-links" },
      m.status === "live"
        ? h("a", { class: "button primary", href: `/matches/${m.match}/` }, mine ? T.play : T.watch)
        : h("a", { class: "button", href: `/matches/${m.match}/replay` }, T.replay)));
}

let page = 1;
let latest = 0;

async function load() {
  const form = document.getElementById("match-filters");
  const params = new URLSearchParams();
  for (const [key, value] of new FormData(form)) if (value) params.set(key, value);
  const query = params.toString();
  if (page > 1) params.set("page", String(page));
  const error = document.getElementById("matches-error");
  const asked = ++latest;
  try {
    const data = await api(`${section.dataset.source}?${params}`);
    if (asked !== latest) return; // a later change of the filters has its own answer coming
    error.hidden = true;
    document.getElementById("matches-list").replaceChildren(
      ...(data.results.length ? data.results.map(matchItem) : [h("li", { class: "help" }, T.nothing)]));
    document.getElementById("matches-count").textContent =
      data.count === 1 ? T.count_one : fmt(T.count, { n: data.count });
    const pages = document.getElementById("matches-pages");
    pages.hidden = data.pages <= 1;
    document.getElementById("matches-page").textContent = fmt(T.page, { page: data.page, pages: data.pages });
    document.getElementById("matches-prev").disabled = data.page <= 1;
    document.getElementById("matches-next").disabled = data.page >= data.pages;
    section.dataset.query = query; // the filters this list shows (the tests wait for it)
    section.dataset.loaded = "true";
  } catch (err) {
    showError(error, err);
  }
}

function tournamentItem(t) {
  const place = t.place ? h("strong", {}, " · ", fmt(T.final_place, { n: t.place, m: t.entries })) : null;
  return h("li", { "data-tournament": t.id },
    h("a", { href: `/tournaments/${t.id}/` }, t.name),
    h("span", { class: "help" }, ` · ${t.club} · ${(L.statuses || {})[t.status] || t.status}`), place);
}

async function loadPlayer() {
  // Both pages fill the tournament filter; the player's page also lists the tournaments.
  const data = await api(`/api/players/${encodeURIComponent(section.dataset.username)}`);
  const select = document.querySelector('#match-filters select[name="tournament"]');
  for (const t of data.tournaments) select.append(h("option", { value: t.id }, t.name));
  const list = document.getElementById("player-tournaments");
  if (list) {
    list.replaceChildren(...(data.tournaments.length ? data.tournaments.map(tournamentItem)
      : [h("li", { class: "help" }, T.no_player_tournaments)]));
    list.dataset.loaded = "true";
  }
}

if (section) {
  document.getElementById("match-filters").addEventListener("change", () => { page = 1; load(); });
  document.getElementById("matches-prev").addEventListener("click", () => { page -= 1; load(); });
  document.getElementById("matches-next").addEventListener("click", () => { page += 1; load(); });
  loadPlayer().catch((err) => showError(document.getElementById("matches-error"), err));
  load();
}
