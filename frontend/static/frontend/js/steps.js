// One event of a match in words (`describe`) and as a card (`detail`), as the viewer who
// fetched it may see it: the replay and the referee's review share them.
import { L, fmt, h } from "./api.js";
import { die } from "./dice.js";
import { countedDice, fromEvent } from "./reveal.js";
import { plural, term, termsOf, words } from "./replay-words.js";
import { roundTitle } from "./replays.js";

function pairs(value) {
  return Array.isArray(value) ? value : Object.entries(value || {});
}

export function describe(frame) {
  if (L.replay_page) return words(frame); // the pages that carry the plain words (the replay)
  const d = frame.d;
  const act = L.act || {};
  switch (frame.t) {
    case "bid_made": return `${d.player} ${act.bid} ${d.quantity} × ${d.face}${d.timed_out ? " " + L.timed_out : ""}`;
    case "paso_announced": return `${d.player} ${act.paso}`;
    case "salpicon_announced": return `${d.player} ${act.salpicon}`;
    case "round_started": return `${roundTitle(frame, fmt(L.round, { n: d.number }))} (${L[`mode_${d.mode}`] || d.mode})`;
    case "round_resolved": return `${(L.result_kind || {})[d.result] || d.result}: ${d.caller} → ${d.target}`;
    case "dice_thrown": return `${d.entry}: ${L.throw} ${d.dice.join(" ")}`;
    case "dice_rerolled": return `${d.entry}: ${L.reroll} ${d.dice.join(" ")}`;
    case "die_turned": return `${d.entry}: ${L.turn_die} #${d.position + 1}`;
    case "box_scored": return `${d.entry}: ${(L.boxes || {})[d.box] || d.box} ${d.points} (${d.de_mano ? L.de_mano : L.de_huevo})`;
    case "box_scratched": return `${d.entry}: ${(L.boxes || {})[d.box] || d.box} ✗`;
    case "match_ended": return (d.winners || []).map((w) => fmt(L.winner, { name: w })).join(" ");
    default: {
      const kinds = (L.disputes || {}).kinds || {};
      const name = (L.event_types || {})[frame.t] || (d && kinds[d.kind]) || frame.t;
      return d && d.reason && typeof d.reason === "string" ? `${name}: ${d.reason}` : name;
    }
  }
}

/** The hidden dice of a round that the viewer who fetched the event may see (a referee: all;
 * a player: their own; a spectator: none), each die marked with its owner (`hand:<name>`). */
function hiddenHands(d) {
  const D = L.disputes || {};
  const shown = pairs(d.dice).filter(([, hand]) => Array.isArray(hand) && hand.length);
  if (!shown.length) return h("p", { class: "no-hands", id: "tm-no-hands" }, D.no_hands);
  return h("section", { class: "hidden-hands", "aria-label": D.hands }, h("h3", {}, D.hands),
    h("ul", { class: "hands" }, shown.map(([name, hand]) => h("li", { "data-hand": name },
      h("span", { class: "name" }, name),
      h("span", { class: "dice-row" }, hand.map((f) => die(f, { size: 30, owner: `hand:${name}` })))))));
}

/** The rule terms an event involves, each explained in a line (the replay). */
function explained(frame) {
  const keys = termsOf(frame);
  if (!keys.length) return null;
  return h("dl", { class: "terms-here", "aria-label": L.replay_page.terms_here }, keys.flatMap((key) => {
    const [name, text] = term(key);
    return [h("dt", { "data-term": key }, name), h("dd", {}, text)];
  }));
}

/** `hands`: also draw the round's hidden dice the viewer may see (the referee's review). */
export function detail(frame, { hands = false } = {}) {
  const d = frame.d;
  const kind = (L.replay_page?.kinds || {})[frame.t] || (L.event_types || {})[frame.t];
  const title = L.replay_page ? kind || L.replay_page.words.other : `v${frame.v} · ${kind || frame.t}`;
  const box = h("article", { class: "reveal", "data-step": frame.v }, h("h2", {}, title),
    h("p", { class: "words" }, describe(frame)));
  if (L.replay_page) box.append(explained(frame) || "");
  if (frame.t === "round_resolved") {
    if (d.count !== null && d.count !== undefined && d.face) {
      box.append(h("p", { id: "replay-count" }, fmt(L.count_was, { count: d.count, face: d.face, q: d.quantity })));
    }
    const counted = countedDice(fromEvent(d));
    const mark = new Map(counted.map(([name, i, wild]) => [`${name}#${i}`, wild ? "counted wild" : "counted"]));
    const hands = h("ul", { class: "hands" });
    for (const [name, hand] of pairs(d.revealed)) {
      hands.append(h("li", { "data-revealed": name }, h("span", { class: "name" }, name),
        h("span", { class: "dice-row" }, hand.map((f, i) =>
          die(f, { size: 30, owner: `revealed:${name}`, className: mark.get(`${name}#${i}`) || "" })))));
    }
    box.append(hands);
    if (counted.some(([, , wild]) => wild)) box.append(h("p", { class: "wild-note" }, L.aces_wild));
    // The replay's words already say who lost or gained (with the right plural).
    for (const [name, delta] of L.replay_page ? [] : pairs(d.dice_change)) {
      if (delta) box.append(h("p", {}, fmt(delta < 0 ? L.lost_die : L.gained_die, { name, n: Math.abs(delta) })));
    }
  }
  if (frame.t === "round_started") {
    const counts = h("ul", {});
    for (const [name, n] of pairs(d.dice_counts)) {
      const many = L.replay_page ? plural(L.replay_page.dice_one, L.replay_page.dice_many, n) : fmt(L.dice_count, { n });
      counts.append(h("li", {}, `${name}: ${many}`));
    }
    box.append(counts);
    if (hands) box.append(hiddenHands(d));
  }
  if (Array.isArray(d.dice) && (frame.t === "dice_thrown" || frame.t === "dice_rerolled")) {
    box.append(h("div", { class: "dice-row" }, d.dice.map((f) => die(f, { size: 40 }))));
  }
  return box;
}

