// The match page of an open table: its bots named as bots, and after the end the rematch
// (GET /api/matches/<id>/open-table; asked again every few seconds until the table ends).
import { api, fmt, h } from "./api.js";
import { O } from "./open-seats.js";

const ASK_MS = 3000;
const ASKS = 600; // half an hour at most
const page = document.getElementById("match");
const box = document.getElementById("open-table-box");
const matchId = page && page.dataset.matchId;

async function rematch(table) {
  try {
    const again = await api(`/api/open-tables/${table.id}/rematch`, { method: "POST" });
    location.assign(`/tables/${again.id}/`);
  } catch (error) {
    box.append(h("p", { class: "error", role: "alert" }, error.message));
  }
}

function draw(table) {
  const bots = table.seats.filter((s) => s.bot).map((s) => (O.bots || {})[s.bot] || s.bot);
  const parts = [h("p", { class: "help" }, O.at_table, bots.length ? ` · ${fmt(O.bots_here, { names: bots.join(", ") })}` : "")];
  if (table.status === "finished") {
    if (table.rematch) {
      parts.push(h("p", {}, O.rematch_open, " ",
        h("a", { class: "button primary", id: "rematch-join", href: `/tables/${table.rematch}/` }, O.rematch_join)));
    } else if (table.you && table.you.seated) {
      parts.push(h("button", { type: "button", class: "primary", id: "rematch", onclick: () => rematch(table) }, O.rematch));
    }
  }
  box.replaceChildren(...parts);
  box.hidden = false;
}

async function watch(left = ASKS) {
  const { table } = await api(`/api/matches/${matchId}/open-table`);
  if (!table) return; // a tournament's table, or another match: nothing to add
  draw(table);
  const waiting = table.status === "playing" || (table.status === "finished" && !table.rematch);
  if (waiting && left > 0) setTimeout(() => watch(left - 1).catch(() => {}), ASK_MS);
}

if (box && matchId) watch().catch(() => {});
