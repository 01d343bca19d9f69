// Plain words for what happened at the table: counted phrases in the page's language, bids
// with the face's name, and one sentence per call or event. Every fact comes from the
// server's event or view; this module only words it.
import { L, fmt, seatList, seatWithMember } from "./api.js";

export const T = L.t || {};
const RULES = typeof Intl !== "undefined" && Intl.PluralRules
  ? new Intl.PluralRules(document.documentElement.lang || "en") : null;

/** A counted phrase (`T.dice`, `T.loses` …) in the right form for `n`. */
export function counted(forms, n, params = {}) {
  const kind = RULES ? RULES.select(n) : (n === 1 ? "one" : "other");
  const template = (forms && (forms[kind] || forms.other)) || "";
  return fmt(template, { n, ...params });
}

export const diceCount = (n) => counted(T.dice, n);

export function faceName(face) {
  return (T.faces && T.faces[String(face)]) || String(face);
}

export function bidWords(quantity, face) {
  return fmt(T.bid, { q: quantity, face: faceName(face) });
}

/** Who gained or lost dice, who is out and who won, one phrase each. */
export function consequences(r) {
  const out = [];
  for (const [name, delta] of r.changes || []) {
    if (!delta) continue;
    out.push(counted(delta < 0 ? T.loses : T.gains, Math.abs(delta), { name }));
  }
  for (const name of r.eliminated || []) out.push(fmt(T.is_out, { name }));
  if (r.winner) out.push(fmt(T.wins, { name: r.winner }));
  return out;
}

/** "Ana called Dudo on Beto's 5 × six: 4 counted, Beto loses a die" for a resolution in the
 * reveal's shape (see reveal.js `fromEvent`). */
export function callSentence(r) {
  const calls = T.calls || {};
  const params = { caller: r.caller || "", target: r.target || "", count: r.count };
  let head;
  if (r.quantity && r.face && r.count !== null && r.count !== undefined && calls[r.result]) {
    head = fmt(calls[r.result], { ...params, bid: bidWords(r.quantity, r.face) });
  } else if ((T.call_plain || {})[r.result]) {
    head = fmt(T.call_plain[r.result], params);
  } else {
    head = fmt(calls[r.result] || r.result, params);
  }
  const tail = consequences(r);
  let text = tail.length ? `${head}, ${tail.join(", ")}` : head;
  if (r.timedOut) text += ` ${T.auto}`;
  return text;
}

function diceList(dice) {
  return (dice || []).join(" ");
}

/** One sentence for a log line, or "" for an event the log does not list on its own. */
export function eventSentence(frame, boxName) {
  const d = frame.d || {};
  const E = T.events || {};
  const by = { player: d.player, entry: d.entry, reason: d.reason || "" };
  switch (frame.t) {
    case "match_started": {
      const names = d.players || (d.entries || []).map((e) => (typeof e === "string" ? e : e.name));
      return fmt(E.match_started, { players: seatList(names) });
    }
    case "round_started":
      return fmt(E.round_started, { starter: d.starter, n: d.number })
        + (d.mode && d.mode !== "normal" && T.modes && T.modes[d.mode] ? ` ${T.modes[d.mode]}.` : "");
    case "bid_made": {
      const bid = bidWords(d.quantity, d.face);
      const text = d.direction
        ? fmt(E.bid_direction, { player: d.player, bid, direction: (L[d.direction] || d.direction).toLowerCase() })
        : fmt(E.bid_made, { player: d.player, bid });
      return d.timed_out ? `${text} ${T.auto}` : text;
    }
    case "paso_announced":
    case "salpicon_announced":
    case "player_abandoned":
    case "match_paused":
    case "match_resumed":
    case "ruling_upheld":
    case "entry_disqualified":
    case "entry_abandoned":
    case "turn_timed_out":
      return fmt(E[frame.t], by);
    case "round_voided":
      return fmt(E.round_voided, { round: d.round, reason: d.reason || "" });
    case "dice_changed":
      return fmt(E.dice_changed, { player: d.player, delta: d.delta > 0 ? `+${d.delta}` : d.delta, reason: d.reason || "" });
    case "result_awarded": {
      const places = (d.placements || []).slice().sort((a, b) => a[1] - b[1])
        .map(([name, place]) => fmt(T.place, { place, name })).join(", ");
      return fmt(E.result_awarded, { places, reason: d.reason || "" });
    }
    case "dice_thrown":
      return fmt(E.dice_thrown, { entry: seatWithMember(d.entry, d.member),
        dice: diceList(d.dice) });
    case "dice_rerolled":
      return fmt(E.dice_rerolled, { entry: d.entry, keep: d.keep && d.keep.length ? diceList(d.keep) : T.nothing_kept,
        dice: diceList(d.dice) });
    case "die_turned":
      return fmt(E.die_turned, { entry: d.entry, n: (d.position ?? 0) + 1 });
    case "box_scored":
      return fmt(E.box_scored, { entry: d.entry, points: d.points, box: boxName(d.box),
        how: d.de_mano ? L.de_mano : L.de_huevo });
    case "box_scratched":
      return fmt(E.box_scratched, { entry: d.entry, box: boxName(d.box) });
    case "turn_corrected":
      return fmt(E.turn_corrected, { turn: d.turn, entry: d.entry, box: boxName(d.box), points: d.points,
        reason: d.reason || "" });
    case "penalty_given":
      return fmt(E.penalty_given, { entry: d.entry, points: d.points, reason: d.reason || "" });
    case "match_reopened":
      return fmt(E.match_reopened, { turn: d.turn, reason: d.reason || "" });
    case "match_ended": {
      const winners = (d.winners || []).map((name) => fmt(T.wins, { name }));
      const why = d.reason && L.win_reason ? L.win_reason[d.reason] || "" : "";
      return [E.match_ended, ...winners, why].filter(Boolean).join(" ");
    }
    default:
      return "";
  }
}
