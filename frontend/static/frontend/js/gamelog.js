// The game log: every round (bidding games) or turn (Alalay) of the match, built from the
// match's events (`GET /api/matches/<id>/events?after=0`, then the socket's event frames),
// one collapsible group each, the latest open. A round's reveal lands in its group: the
// call in plain words and the dice shown, the ones that counted marked.
import { L, api, fmt, h, seatLabel } from "./api.js";
import { die } from "./dice.js";
import { T, callSentence, eventSentence } from "./words.js";
import { fromEvent } from "./reveal.js";
import { markReplays, roundTitle } from "./replays.js";

const boxName = (box) => (L.boxes && L.boxes[box]) || box;

function revealLine(frame) {
  const r = fromEvent(frame.d);
  const counted = new Map(r.counted);
  const hands = r.revealed.map(([name, hand]) => h("span", { class: "log-hand" },
    h("span", { class: "log-hand-name" }, `${seatLabel(name)}:`),
    hand.map((face, i) => die(face, { size: 20,
      className: (counted.get(name) || []).includes(i) ? "counted" : "" }))));
  return h("li", { class: "log-call", "data-type": frame.t, "data-result": r.result },
    h("p", {}, callSentence(r)), hands.length ? h("div", { class: "log-hands" }, hands) : null);
}

export class GameLog {
  /** `container`: where the log is drawn; `game`: "dudo" (every bidding game) or "alalay". */
  constructor(container, matchId) {
    this.container = container;
    this.matchId = matchId;
    this.frames = new Map(); // version -> frame
    this.version = 0;
    this.opened = new Map(); // group key -> the reader's own open/closed choice
    this.loading = null;
    this.game = null;
    // The section is named by its heading: it is there before the first events arrive.
    container.replaceChildren(h("h2", { id: "game-log-title" }, T.log));
  }

  /** Everything after what the log holds, from the store (at start, or after a gap). */
  fetch() {
    if (this.loading) return this.loading;
    this.loading = api(`/api/matches/${this.matchId}/events?after=${this.version}`)
      .then((data) => {
        for (const frame of data.events || []) this.add(frame, { draw: false });
        this.draw();
        return data.events || [];
      })
      .finally(() => { this.loading = null; });
    return this.loading;
  }

  /** A state frame: fetch what the log lacks when the match moved on without it. Resolves
   * to the events fetched (none when the log had them all). */
  caughtUp(match) {
    this.game = match.game;
    if (match.version > this.version && !this.loading) return this.fetch().catch(() => []);
    return Promise.resolve([]);
  }

  add(frame, { draw = true } = {}) {
    if (typeof frame.v !== "number" || this.frames.has(frame.v)) return;
    this.frames.set(frame.v, frame);
    // Versions arrive in order from the socket; the fetched batch fills what came before.
    let v = this.version;
    while (this.frames.has(v + 1)) v += 1;
    this.version = v;
    if (draw) this.draw();
  }

  groups() {
    const out = [];
    let current = null;
    let turns = 0;
    const open = (key, title, round = null) => {
      current = { key, title, lines: [], round, voided: false };
      out.push(current);
    };
    open("start", T.log_start);
    const frames = markReplays([...this.frames.keys()].sort((a, b) => a - b).map((v) => this.frames.get(v)));
    for (const frame of frames) {
      const v = frame.v;
      if (frame.t === "round_started") {
        open(`round-${frame.d.number}-${v}`, roundTitle(frame, fmt(T.log_round, { n: frame.d.number })), frame.d.number);
      }
      if (frame.t === "round_voided") { // that round and every later one were played for nothing
        for (const group of out) if (group.round !== null && group.round >= frame.d.round) group.voided = true;
      }
      if (frame.t === "dice_thrown") {
        turns += 1;
        open(`turn-${turns}`, fmt(T.log_turn, { n: turns, name: frame.d.entry }));
      }
      if (frame.t === "round_resolved") {
        current.lines.push(revealLine(frame));
        continue;
      }
      const text = eventSentence(frame, boxName);
      if (text) current.lines.push(h("li", { "data-type": frame.t }, text));
    }
    return out.filter((g) => g.lines.length || g.key !== "start");
  }

  draw() {
    const groups = this.groups();
    const list = h("div", { class: "log-groups" });
    groups.forEach((group, index) => {
      const last = index === groups.length - 1;
      const isOpen = this.opened.has(group.key) ? this.opened.get(group.key) : last;
      const ol = h("ol", { class: "log-lines", id: last ? "bid-history" : null }, group.lines);
      const summary = h("summary", {}, group.title, group.voided ? ` (${T.log_voided})` : "",
        last ? h("span", { class: "log-now" }, ` · ${T.log_current}`) : "");
      const details = h("details", { class: `log-group${last ? " current" : ""}${group.voided ? " voided" : ""}`, "data-group": group.key,
        open: isOpen }, summary, ol);
      // Only the reader's own choice is kept (a click, or Enter/Space on the summary).
      summary.addEventListener("click", () => this.opened.set(group.key, !details.open));
      list.append(details);
    });
    this.container.replaceChildren(h("h2", { id: "game-log-title" }, T.log),
      groups.length ? list : h("p", { class: "note" }, T.log_empty));
    this.container.dataset.version = String(this.version);
  }
}
