// Scorekeeper of a physical table: build a cacho-match/1 record throw by throw (or paste one),
// then POST /api/matches/import. The engine is the judge: a refusal shows its code and message.
import { L, api, h, showError } from "./api.js";

const $ = (id) => document.getElementById(id);
const errorBox = $("error");
const message = $("message");
const dice = (text) => text.trim() ? text.trim().split(/[\s,]+/).map(Number) : [];

function record() {
  try { return JSON.parse($("sk-record").value || "null"); } catch { return null; }
}
function save(r) { $("sk-record").value = JSON.stringify(r, null, 2); }
function players(r) {
  for (const id of ["t-by", "a-by"]) $(id).replaceChildren(...r.players.map((p) => h("option", { value: p }, p)));
  $("sk-alalay").hidden = r.game !== "alalay";
  $("sk-bidding").hidden = r.game === "alalay";
}

$("sk-start").addEventListener("submit", (event) => {
  event.preventDefault();
  const ruleset = $("sk-ruleset").value;
  const names = $("sk-players").value.split(",").map((s) => s.trim()).filter(Boolean);
  const r = { format: "cacho-match/1", game: ruleset === "alalay" ? "alalay" : "dudo", ruleset, options: {},
    players: names };
  if (ruleset === "alalay") r.turns = []; else r.rounds = [];
  save(r);
  players(r);
});

$("sk-turn").addEventListener("submit", (event) => {
  event.preventDefault();
  const r = record();
  if (!r) return;
  const turn = { by: $("t-by").value, throw: dice($("t-throw").value) };
  if ($("t-dice").value.trim() || $("t-keep").value.trim()) {
    turn.reroll = { keep: dice($("t-keep").value), dice: dice($("t-dice").value) };
  }
  if ($("t-turn").value.trim()) turn.turn = dice($("t-turn").value);
  turn[$("t-scratch").checked ? "scratch" : "score"] = $("t-box").value;
  r.turns.push(turn);
  save(r);
  event.target.reset();
  const next = r.players[(r.players.indexOf(turn.by) + 1) % r.players.length];
  $("t-by").value = next;
});

$("sk-round").addEventListener("submit", (event) => {
  event.preventDefault();
  const r = record();
  if (!r) return;
  const hands = {};
  for (const part of $("r-dice").value.split(";")) {
    const [name, values] = part.split(":");
    if (name && values) hands[name.trim()] = dice(values);
  }
  r.rounds.push({ dice: hands, actions: [] });
  save(r);
});

$("sk-action").addEventListener("submit", (event) => {
  event.preventDefault();
  const r = record();
  if (!r || !r.rounds.length) return;
  const kind = $("a-kind").value;
  const action = { by: $("a-by").value };
  if (kind === "bid") action.bid = dice($("a-bid").value);
  else if (kind === "dudo" || kind === "calza") action.call = kind;
  else action[kind] = true;
  r.rounds[r.rounds.length - 1].actions.push(action);
  save(r);
});

$("sk-import").addEventListener("click", async () => {
  errorBox.hidden = true;
  message.textContent = "";
  let body;
  try { body = JSON.parse($("sk-record").value); } catch (e) { showError(errorBox, e); return; }
  try {
    const match = await api("/api/matches/import", { method: "POST", body });
    message.replaceChildren(`${L.imported}: `, h("a", { href: `/matches/${match.id}/`, id: "sk-imported" }, match.id),
      " · ", h("a", { href: `/matches/${match.id}/replay` }, L.replay));
  } catch (e) {
    errorBox.hidden = false;
    errorBox.textContent = `${L.refused} — ${e.code}: ${e.message}`;
    errorBox.dataset.code = e.code;
  }
});
