// Step-by-step replay of a match from its public events (revealed dice at each resolution,
// with the dice that counted for the bid marked as in the live reveal).
import { L, api, fmt, h, showError } from "./api.js";
import { die } from "./dice.js";
import { acesWildByRule, countedDice, fromEvent } from "./reveal.js";

const section = document.getElementById("replay");
const matchId = section.dataset.matchId;
const errorBox = document.getElementById("error");
let events = [];
let index = 0;
let rules = { ruleset: "", options: {} };

function pairs(value) {
  return Array.isArray(value) ? value : Object.entries(value || {});
}

function describe(frame) {
  const d = frame.d;
  const act = L.act || {};
  switch (frame.t) {
    case "bid_made": return `${d.player} ${act.bid} ${d.quantity} × ${d.face}${d.timed_out ? " " + L.timed_out : ""}`;
    case "paso_announced": return `${d.player} ${act.paso}`;
    case "salpicon_announced": return `${d.player} ${act.salpicon}`;
    case "round_started": return `${fmt(L.round, { n: d.number })} (${L[`mode_${d.mode}`] || d.mode})`;
    case "round_resolved": return `${(L.result_kind || {})[d.result] || d.result}: ${d.caller} → ${d.target}`;
    case "dice_thrown": return `${d.entry}: ${L.throw} ${d.dice.join(" ")}`;
    case "dice_rerolled": return `${d.entry}: ${L.reroll} ${d.dice.join(" ")}`;
    case "die_turned": return `${d.entry}: ${L.turn_die} #${d.position + 1}`;
    case "box_scored": return `${d.entry}: ${(L.boxes || {})[d.box] || d.box} ${d.points} (${d.de_mano ? L.de_mano : L.de_huevo})`;
    case "box_scratched": return `${d.entry}: ${(L.boxes || {})[d.box] || d.box} ✗`;
    case "match_ended": return (d.winners || []).map((w) => fmt(L.winner, { name: w })).join(" ");
    default: return (L.event_types || {})[frame.t] || frame.t;
  }
}

/** The mode of the round an event belongs to (from the round_started before it). */
function modeAt(position) {
  for (let i = position; i >= 0; i -= 1) {
    if (events[i].t === "round_started") return events[i].d.mode || "normal";
  }
  return "normal";
}

function detail(frame) {
  const d = frame.d;
  const box = h("article", { class: "reveal", "data-step": frame.v }, h("h2", {}, `v${frame.v} · ${(L.event_types || {})[frame.t] || frame.t}`),
    h("p", {}, describe(frame)));
  if (frame.t === "round_resolved") {
    if (d.count !== null && d.count !== undefined && d.face) {
      box.append(h("p", { id: "replay-count" }, fmt(L.count_was, { count: d.count, face: d.face, q: d.quantity })));
    }
    const counted = countedDice(fromEvent(d), acesWildByRule(rules.ruleset, rules.options, modeAt(index), d.face));
    const mark = new Map(counted.map(([name, i, wild]) => [`${name}#${i}`, wild ? "counted wild" : "counted"]));
    const hands = h("ul", { class: "hands" });
    for (const [name, hand] of pairs(d.revealed)) {
      hands.append(h("li", { "data-revealed": name }, h("span", { class: "name" }, name),
        h("span", { class: "dice-row" }, hand.map((f, i) =>
          die(f, { size: 30, owner: `revealed:${name}`, className: mark.get(`${name}#${i}`) || "" })))));
    }
    box.append(hands);
    if (counted.some(([, , wild]) => wild)) box.append(h("p", { class: "wild-note" }, L.aces_wild));
    for (const [name, delta] of pairs(d.dice_change)) {
      if (delta) box.append(h("p", {}, fmt(delta < 0 ? L.lost_die : L.gained_die, { name, n: Math.abs(delta) })));
    }
  }
  if (frame.t === "round_started") {
    const counts = h("ul", {});
    for (const [name, n] of pairs(d.dice_counts)) counts.append(h("li", {}, `${name}: ${fmt(L.dice_count, { n })}`));
    box.append(counts);
  }
  if (Array.isArray(d.dice) && (frame.t === "dice_thrown" || frame.t === "dice_rerolled")) {
    box.append(h("div", { class: "dice-row" }, d.dice.map((f) => die(f, { size: 40 }))));
  }
  return box;
}

function show() {
  if (!events.length) { document.getElementById("r-pos").textContent = L.none; return; }
  index = Math.max(0, Math.min(index, events.length - 1));
  document.getElementById("r-pos").textContent = fmt(L.step, { i: index + 1, n: events.length });
  document.getElementById("r-step").replaceChildren(detail(events[index]));
  document.getElementById("r-log").replaceChildren(...events.slice(0, index + 1).map((f) => h("li", {}, describe(f))));
  document.getElementById("r-prev").disabled = index === 0;
  document.getElementById("r-first").disabled = index === 0;
  document.getElementById("r-next").disabled = index === events.length - 1;
  document.getElementById("r-last").disabled = index === events.length - 1;
}

document.getElementById("r-first").addEventListener("click", () => { index = 0; show(); });
document.getElementById("r-prev").addEventListener("click", () => { index -= 1; show(); });
document.getElementById("r-next").addEventListener("click", () => { index += 1; show(); });
document.getElementById("r-last").addEventListener("click", () => { index = events.length - 1; show(); });
document.addEventListener("keydown", (e) => {
  if (e.target.closest("input, textarea, select")) return;
  if (e.key === "ArrowRight") { index += 1; show(); }
  if (e.key === "ArrowLeft") { index -= 1; show(); }
});

async function load() {
  const match = await api(`/api/matches/${matchId}`);
  rules = { ruleset: match.ruleset || "", options: match.options || {} };
  let after = 0;
  for (;;) { // the API pages by 1000
    const page = await api(`/api/matches/${matchId}/events?after=${after}`);
    events = events.concat(page.events);
    if (!page.events.length || events[events.length - 1].v >= page.version) break;
    after = events[events.length - 1].v;
  }
  section.dataset.loaded = String(events.length);
  show();
}
load().catch((e) => showError(errorBox, e));
