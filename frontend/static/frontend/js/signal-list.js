// One integrity signal as a list item: its hint, its figures and the rounds it
// points at (the replay page at the event that ended the round). Shared by the dispute
// queue's "Signals" section and a dispute's review page, where the rounds of the disputed
// match itself are marked.
import { L, fmt, h } from "./api.js";

const S = (L.disputes || {}).signals || {};

function evidence(s) {
  return h("ul", { class: "s-evidence" }, s.evidence.map((e) => h("li", { class: e.here ? "here" : null },
    h("a", { href: e.url, "data-evidence": `${e.match}:${e.round}` },
      fmt(S.round_of_match, { n: e.round, match: e.match.slice(0, 8) })),
    e.here ? h("strong", { class: "s-here" }, S.this_match) : null)));
}

export function signalItem(s) {
  const chance = s.p_value === null ? "" : ` · ${fmt(S.p_value, { p: s.p_value.toPrecision(2) })}`;
  return h("li", { class: "signal", "data-kind": s.kind, "data-players": s.players.join(",") },
    h("h4", {}, s.kind_label),
    h("p", {}, s.hint),
    h("p", { class: "help" }, fmt(S.strength, { n: s.strength }), chance),
    h("details", {}, h("summary", {}, fmt(S.evidence_n, { n: s.evidence.length })), evidence(s)));
}
