// The dispute queue's "Signals" section: the integrity signals of every club the
// user referees (GET /api/signals), each drawn by `signalItem`. Hints, never penalties.
import { L, api, fmt, h, showError } from "./api.js";
import { signalItem } from "./signal-list.js";

const S = (L.disputes || {}).signals || {};
const status = document.getElementById("s-status");
const clubs = document.getElementById("s-clubs");

function club(c) {
  return h("section", { class: "s-club", "data-club": c.club },
    h("h3", {}, c.name),
    h("p", { class: "help" }, fmt(S.rounds_read, { n: c.rounds })),
    c.signals.length ? h("ul", { class: "s-list" }, c.signals.map(signalItem)) : h("p", {}, S.none));
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
