// Every match event in plain words ("Ana calls dudo on Beto's bid of 3 × five: there were 2.
// Beto loses 1 die."), never its type code, and the rule terms an event involves, each with a
// one-line explanation. The words come from the page's labels (`L.replay_page`), in its language.
import { L, fmt, seatLabel, seatList } from "./api.js";
import { roundTitle } from "./replays.js";
import { countedDice, fromEvent } from "./reveal.js";

const R = () => L.replay_page || {};
const W = () => R().words || {};

function pairs(value) {
  return Array.isArray(value) ? value : Object.entries(value || {});
}

/** "1 die" / "3 dice": the labels give both forms; English and Spanish split at one. */
export function plural(one, many, n) {
  return fmt(Math.abs(n) === 1 ? one : many, { n });
}

const dice = (n) => plural(R().dice_one, R().dice_many, n);
const face = (f) => (R().faces || {})[f] || String(f);
const boxName = (box) => (L.boxes || {})[box] || box;
const list = (names) => seatList(names);

/** What a resolution did to the dice: who lost or gained, who is out, who won. */
function consequences(d) {
  const out = [];
  for (const [name, delta] of pairs(d.dice_change)) {
    if (delta) out.push(fmt(delta < 0 ? R().loses : R().gains, { name, dice: dice(Math.abs(delta)) }));
  }
  for (const name of d.eliminated || []) out.push(fmt(R().out, { name }));
  if (d.winner) out.push(fmt(R().wins, { name: d.winner }));
  return out;
}

function resolved(d) {
  const text = W()[d.result] || W().other;
  const head = fmt(text, { caller: d.caller, target: d.target, q: d.quantity, face: face(d.face), count: d.count ?? "?" });
  return [head, ...consequences(d), d.timed_out ? R().auto : null].filter(Boolean).join(" ");
}

/** A physical table's round entered by its outcome: who called what, and what it did. */
function recorded(d) {
  const text = (R().recorded || {})[d.result] || W().other;
  return [fmt(text, { caller: d.caller, target: d.target || "" }), ...consequences(d)].join(" ");
}

function matchStarted(d) {
  const names = d.players || (d.entries || []).map((e) => e.name || e);
  return fmt(W().match_started, { players: list(names) });
}

function matchEnded(d) {
  const winners = d.winners || [];
  if (!winners.length) return W().match_ended_none;
  const reason = d.reason && L.win_reason ? L.win_reason[d.reason] : "";
  return [fmt(W().match_ended, { winners: list(winners) }), reason].filter(Boolean).join(" ");
}

/** One event in words. */
export function words(frame) {
  const d = frame.d || {};
  const w = W();
  switch (frame.t) {
    case "match_started": return matchStarted(d);
    case "round_started": {
      const mode = d.mode && d.mode !== "normal" ? ` ${L[`mode_${d.mode}`] || ""}` : "";
      const again = frame.replays ? `${roundTitle(frame, "")}: ` : ""; // after a voided round
      return again + fmt(w.round_started, { n: d.number, starter: d.starter }) + mode;
    }
    case "bid_made": return [fmt(w.bid_made, { player: d.player, q: d.quantity, face: face(d.face) }),
      d.timed_out ? R().auto : null].filter(Boolean).join(" ");
    case "round_resolved": return resolved(d);
    case "round_recorded": return recorded(d);
    case "dice_thrown": case "dice_rerolled":
      return fmt(w[frame.t], { entry: d.entry, dice: (d.dice || []).join(" ") });
    case "die_turned": return fmt(w.die_turned, { entry: d.entry, n: (d.position ?? 0) + 1 });
    case "box_scored": return fmt(w.box_scored, { entry: d.entry, points: d.points, box: boxName(d.box),
      how: d.de_mano ? L.de_mano : L.de_huevo });
    case "box_scratched": case "turn_corrected":
      return fmt(w[frame.t], { ...d, box: boxName(d.box) });
    case "match_ended": return matchEnded(d);
    case "dice_changed": return fmt(w.dice_changed, { ...d, delta: d.delta > 0 ? `+${d.delta}` : d.delta });
    case "time_called": return fmt(w.time_called, { policy: (R().policies || {})[d.policy] || d.policy });
    case "decided_at_time": return fmt(w.decided_at_time,
      { standing: pairs(d.standing).map(([name, held]) => `${seatLabel(name)} ${dice(held)}`).join(", ") });
    case "players_set_aside": return fmt(w.players_set_aside,
      { players: pairs(d.players).map(([name, held]) => `${seatLabel(name)} (${dice(held)})`).join(", "), starter: d.next_starter });
    case "result_awarded": return fmt(w.result_awarded, { reason: d.reason,
      placements: pairs(d.placements).map(([name, place]) => `${place}. ${seatLabel(name)}`).join(", ") });
    default: return w[frame.t] ? fmt(w[frame.t], d) : w.other;
  }
}

/** The glossary keys an event involves, in the order they appear in its words. */
export function termsOf(frame) {
  const d = frame.d || {};
  switch (frame.t) {
    case "round_started": return d.mode === "palifico" ? ["palifico"] : d.mode === "obligado" ? ["obligado"] : [];
    case "paso_announced": return ["paso"];
    case "salpicon_announced": return ["salpicon"];
    case "round_recorded": return ["dudo", "calza", "paso", "salpicon"].includes(d.result) ? [d.result] : [];
    case "round_resolved": {
      // "Aces wild" only where an ace did count as the bid's face.
      const wild = countedDice(fromEvent(d)).some(([, , isWild]) => isWild) ? ["aces"] : [];
      return ["dudo", "calza", "paso", "salpicon"].includes(d.result) ? [d.result, ...wild] : wild;
    }
    case "die_turned": return ["turning"];
    case "box_scored": return [d.de_mano ? "de_mano" : "de_huevo"];
    case "box_scratched": return ["scratch"];
    case "match_ended": return d.reason === "dormida" ? ["dormida"] : [];
    default: return [];
  }
}

/** [name, explanation] of a glossary key. */
export function term(key) {
  return (R().glossary || {})[key] || [key, ""];
}
