// The dispute queue's "Signals" section (issue #23): the integrity signals of every club the
// user referees (GET /api/signals), each with its hint, its figures and links to the rounds
// it points at (the replay page at the event that ended the round). Hints, never penalties.
import { L, api, fmt, h, showError } from "./api.js";

const S = (L.disputes || {}).signals || {};
const status = document.getElementById("s-status");
const clubs = document.getElementById("s-clubs");

function evidence(s) {
  return h("ul", { class: "s-evidence" }, s.evidence.map((e) => h("li", {},
    h("a", { href: e.url, "data-evidence": `${e.match}:${e.round}` },
      fmt(S.round_of_match, { n: e.round, match: e.match.slice(0, 8) })))));
}

function signal(s) {
  const chance = s.p_value === null ? "" : ` · ${fmt(S.p_value, { p: s.p_value.toPrecision(2) })}`;
  return h("li", { class: "signal", "data-kind": s.kind, "data-players": s.players.join(",") },
    h("h4", {}, s.kind_label),
    h("p", {}, s.hint),
    h("p", { class: "help" }, fmt(S.strength, { n: s.strength }), chance),
    h("details", {}, h("summary", {}, fmt(S.evidence_n, { n: s.evidence.length })), evidence(s)));
}

function club(c) {
  return h("section", { class: "s-club", "data-club": c.club },
    h("h3", {}, c.name),
    h("p", { class: "help" }, fmt(S.rounds_read, { n: c.rounds })),
    c.signals.length ? h("ul", { class: "s-list" }, c.signals.map(signal)) : h("p", {}, S.none));
}

async function load() {
  try {
    const data = await api("/api/signals");
    clubs.replaceChildren(...data.clubs.map(club));
    const count = data.clubs.reduce((n, c) => n + c.signals.length, 0);
    status.textContent = data.clubs.length ? fmt(S.count, { n: count }) : S.no_clubs;
    status.dataset.count = String(count);
  } catch (error) {
    status.textContent = "";
    showError(document.getElementById("error"), error);
  }
  document.getElementById("signals").dataset.loaded = "1";
}

load();
