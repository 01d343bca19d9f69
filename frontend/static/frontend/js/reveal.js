// The reveal at a resolution (dudo, calza, a doubted paso, a denied salpicón): every revealed
// hand's cup lifts, the dice that count for the bid (the face, and the aces where they are wild)
// light up one by one while a tally counts up to the total, then the round's result.
//
// The stage lives outside the table that is re-drawn on every state, so the animation runs
// undisturbed while the next round starts underneath. Players and spectators alike receive the
// resolution event (the revealed dice are public from then on). With prefers-reduced-motion, in
// a background tab, or when the page is opened after the fact, the final picture is drawn at
// once. Screen readers hear the call at once and the count and result when the tally ends.
import { L, fmt, h } from "./api.js";
import { cup, die } from "./dice.js";

const MOTION = typeof matchMedia === "function" ? matchMedia("(prefers-reduced-motion: reduce)") : null;

function pairs(value) {
  return Array.isArray(value) ? value : Object.entries(value || {});
}

/** One shape for a resolution, whether it came as an event frame or in a state's `last_round`. */
export function fromEvent(d) {
  return {
    result: d.result,
    caller: d.caller || null,
    target: d.target || null,
    quantity: d.quantity ?? null,
    face: d.face ?? null,
    count: d.count ?? null,
    revealed: pairs(d.revealed),
    changes: pairs(d.dice_change),
    eliminated: d.eliminated || [],
    winner: d.winner || null,
    timedOut: Boolean(d.timed_out),
  };
}

export function fromState(last, state) {
  const bid = last.bid || [null, null];
  return {
    result: last.result,
    caller: last.caller || null,
    target: last.target || null,
    quantity: bid[0],
    face: bid[1],
    count: last.count ?? null,
    revealed: pairs(last.revealed),
    changes: pairs(last.dice_change),
    eliminated: last.eliminated || [],
    winner: (state && state.winner) || null,
    timedOut: false,
  };
}

function keyOf(r) {
  return JSON.stringify([r.result, r.caller, r.target, r.quantity, r.face, r.count, r.revealed, r.changes]);
}

/** Whether aces stand for the bid face in this count, as the rules say (counting.py). */
export function acesWildByRule(ruleset, options, mode, face) {
  if (!face || face === 1 || ruleset === "liars-dice") return false;
  if (mode === "palifico") return Boolean(options && options.palifico_wild_pacos);
  return mode !== "obligado";
}

/** Which revealed dice count for the bid: [player, index, wild] in seat order. The server's
 * count decides when the rules alone cannot (e.g. aces that need a natural). */
export function countedDice(r, wildByRule) {
  if (!r.face || r.count === null || r.count === undefined) return [];
  const all = r.revealed.flatMap(([name, hand]) => hand.map((f, i) => ({ name, i, f })));
  const natural = all.filter((x) => x.f === r.face);
  const aces = r.face === 1 ? [] : all.filter((x) => x.f === 1);
  let wild = wildByRule;
  if (aces.length) {
    if (r.count === natural.length + aces.length) wild = true;
    else if (r.count === natural.length) wild = false;
  }
  return all.filter((x) => x.f === r.face || (wild && x.f === 1)).map((x) => [x.name, x.i, x.f !== r.face]);
}

function resultLines(r) {
  const lines = [];
  for (const [name, delta] of r.changes) {
    if (!delta) continue;
    lines.push({ kind: delta < 0 ? "lost" : "gained", name,
      text: fmt(delta < 0 ? L.lost_die : L.gained_die, { name, n: Math.abs(delta) }) });
  }
  for (const name of r.eliminated) lines.push({ kind: "eliminated", name, text: fmt(L.eliminated, { name }) });
  if (r.winner) lines.push({ kind: "winner", name: r.winner, text: fmt(L.winner, { name: r.winner }) });
  return lines;
}

function headline(r) {
  const kind = (L.result_kind && L.result_kind[r.result]) || r.result;
  let who = "";
  if (r.caller && r.target && r.target !== r.caller) who = ` — ${r.caller} → ${r.target}`;
  else if (r.caller) who = ` — ${r.caller}`;
  return `${kind}${who}${r.timedOut ? ` ${L.timed_out}` : ""}`;
}

function countText(r) {
  return fmt(L.count_was, { count: r.count, face: r.face, q: r.quantity });
}

/** What a screen reader hears when the tally ends: the count, then who lost or gained. */
export function summary(r) {
  const parts = [headline(r)];
  if (r.face && r.count !== null && r.count !== undefined) parts.push(countText(r));
  for (const line of resultLines(r)) parts.push(line.text);
  return parts.join(". ").replace(/\.\./g, ".");
}

export class RevealStage {
  /** `container`: the element to draw in; `announce(text)`: the page's aria-live region. */
  constructor(container, { announce } = {}) {
    this.container = container;
    this.announce = announce || (() => {});
    this.key = null;
    this.timers = [];
    this.finish = null;
  }

  reducedMotion() {
    return Boolean(MOTION && MOTION.matches) || document.hidden;
  }

  /** A resolution as it happens (an event frame): animated unless motion is reduced. */
  play(r, context = {}) {
    this.show(r, { ...context, animate: !this.reducedMotion(), fresh: true });
  }

  /** The state's last resolution: drawn at rest, unless it is the one already on the stage. */
  sync(last, state) {
    if (!last) {
      if (!this.finish) this.clear();
      return;
    }
    const r = fromState(last, state);
    if (keyOf(r) === this.key) return; // the same reveal (maybe still animating)
    this.show(r, { animate: false, fresh: false, ruleset: state.ruleset, options: state.options });
  }

  clear() {
    this.stop();
    this.key = null;
    this.container.replaceChildren();
  }

  stop() {
    for (const t of this.timers) clearTimeout(t);
    this.timers = [];
  }

  at(ms, fn) {
    this.timers.push(setTimeout(fn, ms));
  }

  show(r, { animate, fresh, ruleset, options, mode }) {
    this.stop();
    this.key = keyOf(r);
    const counted = countedDice(r, acesWildByRule(ruleset, options, mode || "normal", r.face));
    const hasCount = Boolean(r.face) && r.count !== null && r.count !== undefined;

    const title = h("h2", { id: "reveal-title", tabindex: "-1" }, L.reveal);
    const section = h("section", { class: "reveal-stage", id: "reveal", "aria-labelledby": "reveal-title",
      "data-phase": "cups", "data-result": r.result, "data-count": hasCount ? r.count : "" });
    const skip = h("button", { type: "button", class: "small quiet skip-reveal", id: "reveal-skip" }, L.skip);
    section.append(h("header", { class: "reveal-head" }, title, h("p", { class: "result" }, headline(r)),
      animate ? skip : null));

    let tally = null;
    if (hasCount) {
      const wildNote = counted.some(([, , wild]) => wild) ? h("span", { class: "wild-note" }, L.aces_wild) : null;
      tally = h("strong", { class: "tally", id: "reveal-tally", "aria-hidden": "true" }, "0");
      section.append(h("div", { class: "bid-line" },
        h("span", {}, `${L.bid_was}: ${r.quantity} ×`), die(r.face, { size: 28, className: "bid-face" }),
        h("span", { class: "tally-box" }, h("span", {}, L.counting, " "), tally, h("span", {}, ` / ${r.quantity}`)),
        wildNote));
    }

    const hands = h("ul", { class: "hands" });
    const dieOf = new Map();
    const handOf = new Map();
    for (const [name, hand] of r.revealed) {
      const dice = hand.map((f, i) => {
        const node = die(f, { size: 40, owner: `revealed:${name}` });
        dieOf.set(`${name}#${i}`, node);
        return node;
      });
      const li = h("li", { class: "hand", "data-revealed": name },
        h("span", { class: "name" }, name),
        h("span", { class: "lift" }, h("span", { class: "dice-row" }, dice),
          cup(hand.length, { size: 44, label: fmt(L.dice_count, { n: hand.length }) })));
      handOf.set(name, li);
      hands.append(li);
    }
    section.append(hands);
    const countLine = h("p", { class: "count" });
    const changes = h("ul", { class: "changes" });
    section.append(countLine, changes);
    this.container.replaceChildren(section);

    const showCount = () => {
      if (!hasCount) return;
      tally.textContent = String(r.count);
      countLine.id = "reveal-count";
      countLine.textContent = countText(r);
      countLine.classList.add(r.count >= r.quantity ? "enough" : "short");
    };
    const showResult = () => {
      for (const line of resultLines(r)) {
        changes.append(h("li", { class: `change ${line.kind}` }, line.text));
        handOf.get(line.name)?.classList.add(line.kind);
      }
    };
    const done = () => {
      this.stop();
      this.finish = null;
      section.dataset.phase = "done";
      section.classList.add("at-rest");
      for (const node of section.querySelectorAll(".hand")) node.classList.add("lifted");
      if (hasCount) {
        section.classList.add("counting");
        for (const [name, i, wild] of counted) {
          dieOf.get(`${name}#${i}`)?.classList.add("counted", ...(wild ? ["wild"] : []));
        }
      }
      if (!countLine.id) showCount();
      if (!changes.childElementCount) showResult();
      skip.remove();
      if (fresh) this.announce(summary(r));
    };

    if (!animate) {
      done();
      return;
    }
    this.announce(headline(r));
    this.finish = done;
    skip.addEventListener("click", () => {
      done();
      document.getElementById("reveal-title")?.focus?.();
    });
    // The cups lift one by one, then the matching dice light up one by one.
    let t = 250;
    for (const li of hands.children) {
      this.at(t, () => li.classList.add("lifted"));
      t += 220;
    }
    t += 450;
    if (hasCount) {
      this.at(t, () => { section.dataset.phase = "counting"; section.classList.add("counting"); });
      t += 350;
      const step = counted.length ? Math.max(140, Math.min(420, 3600 / counted.length)) : 0;
      counted.forEach(([name, i, wild], n) => {
        this.at(t, () => {
          dieOf.get(`${name}#${i}`)?.classList.add("counted", ...(wild ? ["wild"] : []));
          tally.textContent = String(n + 1);
        });
        t += step;
      });
      t += 300;
      this.at(t, () => { section.dataset.phase = "counted"; showCount(); });
      t += 700;
    }
    this.at(t, () => { section.dataset.phase = "result"; showResult(); });
    t += 600;
    this.at(t, done);
  }
}
