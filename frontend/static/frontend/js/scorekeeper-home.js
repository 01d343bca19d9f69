// The scorekeeper's home: the physical tables in play where the user keeps score (each
// opens its sheet), and the import of a record file that belongs to no table.
import { L, api, fmt, h } from "./api.js";

const S = L.sk || {};
const $ = (id) => document.getElementById(id);

async function tables() {
  const list = $("sk-tables");
  try {
    const rows = await api("/api/me/scorekeeping");
    list.replaceChildren(...(rows.length ? rows.map((t) => h("li", { "data-table": t.id },
      h("a", { href: t.scorekeeper_url, class: "button primary" }, S.open_sheet), " ",
      h("strong", {}, t.tournament.name), " · ", fmt(S.table_round, { n: t.number, r: t.round }),
      h("span", { class: "players" }, t.players.join(", ")))) : [h("li", {}, S.no_tables)]));
  } catch (e) {
    list.replaceChildren(h("li", { class: "error" }, e.message));
  }
  delete list.dataset.loading;
}

async function readRecord() {
  const file = $("sk-file").files[0];
  const text = file ? await file.text() : $("sk-record").value;
  return JSON.parse(text);
}

$("sk-file-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const errorBox = $("error");
  errorBox.hidden = true;
  $("message").textContent = "";
  let body;
  try { body = await readRecord(); } catch (e) { errorBox.hidden = false; errorBox.textContent = e.message; return; }
  try {
    const match = await api("/api/matches/import", { method: "POST", body });
    $("message").replaceChildren(`${L.imported}: `, h("a", { href: `/matches/${match.id}/`, id: "sk-imported" }, match.id),
      " · ", h("a", { href: `/matches/${match.id}/replay` }, L.replay));
  } catch (e) {
    errorBox.hidden = false;
    errorBox.dataset.code = e.code;
    errorBox.textContent = `${L.refused}: ${(S.rules || {})[e.code] && document.documentElement.lang !== "en" ? S.rules[e.code] : e.message}`;
  }
});

tables();
