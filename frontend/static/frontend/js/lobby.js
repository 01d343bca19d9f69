// The lobby (home): live tables with a "TV" of the most interesting one, tournaments running
// and coming, and the logged-in player's own live matches. Everything from GET /api/lobby (public
// information only), refreshed every 15 s.
import { L, api, fmt, h, showError } from "./api.js";

const T = L.lobby || {};
const REFRESH_MS = 15000;
const PERCENT = new Intl.NumberFormat(document.documentElement.lang || undefined, { style: "percent" });

const profile = (username) => `/players/${encodeURIComponent(username)}/`;

export function playerName(player) {
  // A seated user's name links to their page; guests and bots are plain text.
  const shown = player.label || player.name; // a seat named by a player id reads as its player
  return player.username ? h("a", { href: profile(player.username) }, shown) : h("span", {}, shown);
}

// What a player holds is the game's trait (`standing`: "dice" or the card's "total"), never
// read from the game's name.
function standing(table, player) {
  const n = player[table.standing];
  if (table.standing === "total") return fmt(T.points, { n });
  return n === 1 ? T.die_of : fmt(T.dice_of, { n });
}

// A seat as the events name it (a player id for an account) read as its player's label.
function seatLabel(table, seat) {
  const player = table.players.find((p) => p.name === seat);
  return (player && player.label) || seat;
}

function tableCard(table, { tv = false } = {}) {
  const bid = table.bid
    ? fmt(T.bid, { q: table.bid.quantity, face: table.bid.face, name: seatLabel(table, table.bid.by) })
    : table.bids ? T.no_bid_yet : null;
  const percent = (x) => PERCENT.format(x);
  const where = table.tournament
    ? h("a", { href: `/tournaments/${table.tournament.id}/` },
        fmt(T.table_in, { name: table.tournament.name, round: table.tournament.round, table: table.tournament.table }))
    : h("span", {}, T.casual);
  return h("article", { class: tv ? "table-card tv" : "table-card", "data-match": table.match },
    h("header", {},
      h("strong", {}, table.ruleset_name),
      table.round ? h("span", { class: "help" }, " · ", fmt(T.round, { n: table.round })) : null,
      h("div", { class: "help" }, where)),
    h("ul", { class: "table-players" },
      table.players.map((p) => h("li", { class: [p.out ? "out" : "", p.name === table.to_act ? "acting" : ""].join(" ").trim() || null },
        playerName(p), " ", h("span", { class: "standing" }, p.out ? T.out : standing(table, p))))),
    table.paused ? h("p", { class: "paused" }, T.paused)
      : table.to_act ? h("p", { class: "help" }, fmt(T.to_act, { name: seatLabel(table, table.to_act) })) : null,
    bid ? h("p", { class: "bid" }, bid) : null,
    tv ? h("p", { class: "help interest" },
      fmt(table.bids ? T.interest : T.interest_alalay,
        { c: percent(table.interest.closeness), p: percent(table.interest.pressure) })) : null,
    h("a", { class: tv ? "button primary" : "button", href: `/matches/${table.match}/` }, T.watch));
}

function tournamentItem(t) {
  const count = t.entries === 1 ? T.entry_one : fmt(T.entries, { n: t.entries });
  return h("li", { "data-tournament": t.id },
    h("a", { href: `/tournaments/${t.id}/` }, t.name),
    h("span", { class: "help" }, ` · ${t.club} · ${t.ruleset_name} · ${count}`));
}

function matchCard(match) {
  return h("div", { class: match.your_turn ? "next-match mine" : "next-match", "data-your-match": match.match },
    h("strong", {}, match.ruleset_name),
    match.opponents.length ? h("span", {}, `${T.vs} `, ...match.opponents.flatMap((o, i) => [i ? ", " : "", playerName(o)])) : null,
    match.tournament ? h("span", { class: "help" }, match.tournament.name) : null,
    match.your_turn ? h("p", { class: "your-turn" }, T.your_turn) : null,
    h("a", { class: match.your_turn ? "button primary" : "button", href: `/matches/${match.match}/`, "data-next-match": match.match }, T.play));
}

// Every live match of the player, those on their turn first (the API's order); without one,
// the tournament where they wait for a table.
function renderYours(target, yours, next) {
  if (!target) return;
  if (yours && yours.length) {
    target.replaceChildren(h("ul", { class: "lobby-yours" }, yours.map((m) => h("li", {}, matchCard(m)))));
    return;
  }
  if (next && next.kind === "waiting") {
    target.replaceChildren(h("p", {}, fmt(T.waiting_in, { name: next.tournament.name }), " ",
      h("a", { href: `/tournaments/${next.tournament.id}/` }, T.open)));
    return;
  }
  target.replaceChildren(h("p", { class: "help" }, T.no_next));
}

function render(data) {
  const root = document.getElementById("lobby");
  document.getElementById("lobby-tv").replaceChildren(
    data.tv ? tableCard(data.tv, { tv: true }) : h("p", { class: "help" }, T.no_tables));
  const rest = data.tables.slice(1);
  document.getElementById("lobby-tables").replaceChildren(
    ...(rest.length ? rest.map((t) => h("li", {}, tableCard(t))) : [h("li", { class: "help" }, data.tv ? T.no_other_tables : T.no_tables)]));
  for (const [id, list] of [["lobby-running", data.tournaments.running], ["lobby-coming", data.tournaments.coming]]) {
    document.getElementById(id).replaceChildren(
      ...(list.length ? list.map(tournamentItem) : [h("li", { class: "help" }, T.no_tournaments)]));
  }
  renderYours(document.getElementById("lobby-next"), data.yours, data.next);
  root.dataset.loaded = "true";
}

async function refresh() {
  try {
    render(await api("/api/lobby"));
    document.getElementById("lobby-error").hidden = true;
  } catch (error) {
    showError(document.getElementById("lobby-error"), error);
  }
}

if (document.getElementById("lobby")) {
  refresh();
  setInterval(() => { if (!document.hidden) refresh(); }, REFRESH_MS);
}
