// The lobby's open tables: GET /api/open-tables (public ones, and the viewer's own private
// tables and rematch invitations), then live over /ws/tables/: each frame is a table as it
// is now (one that starts or closes leaves the list).
import { api, fmt, h, showError } from "./api.js";
import { O, facts, follow, seatItems } from "./open-seats.js";

const list = document.getElementById("open-tables");
const me = list ? list.dataset.user : "";
const tables = new Map();

function card(table) {
  const seated = table.seats.some((s) => s.player && s.player === me);
  const invited = me && table.invited.includes(me);
  const canSit = me && !seated && table.free > 0 && (!table.private || invited);
  return h("li", {}, h("article", { class: "table-card", "data-open-table": table.id },
    h("header", {}, h("strong", {}, table.ruleset_name), " ",
      h("span", { class: "help" }, fmt(O.free_seats, { n: table.free }))),
    h("p", { class: "help" }, facts(table)),
    invited ? h("p", {}, O.invited) : null,
    h("ul", { class: "open-seats" }, seatItems(table)),
    h("div", { class: "form-row" },
      canSit ? h("button", { type: "button", class: "primary", "data-sit": table.id, onclick: () => sit(table) }, O.sit) : null,
      h("a", { class: "button", href: `/tables/${table.id}/` }, O.view))));
}

function draw() {
  const shown = [...tables.values()].filter((t) => t.status === "open").sort((a, b) => b.id - a.id);
  list.replaceChildren(...(shown.length ? shown.map(card) : [h("li", { class: "help" }, O.none)]));
  list.dataset.loaded = "true";
}

async function sit(table) {
  try {
    await api(`/api/open-tables/${table.id}/seats`, { method: "POST", body: {} });
    location.assign(`/tables/${table.id}/`);
  } catch (error) {
    showError(document.getElementById("lobby-error"), error);
  }
}

async function start() {
  for (const table of await api("/api/open-tables")) tables.set(table.id, table);
  draw();
  follow("/ws/tables/", (frame) => {
    if (frame.t === "tables") {
      for (const [id, table] of tables) if (!table.private) tables.delete(id);
      for (const table of frame.d) tables.set(table.id, { ...tables.get(table.id), ...table });
    } else if (frame.t === "table") {
      tables.set(frame.d.id, frame.d);
    } else return;
    draw();
  });
}

if (list) start().catch((error) => showError(document.getElementById("lobby-error"), error));
