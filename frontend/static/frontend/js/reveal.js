// The reveal at a resolution (dudo, calza, a doubted paso, a denied salpicón): every revealed
// hand's cup lifts, the dice that counted for the bid light up one by one while a tally counts
// up to the total, then the round's result. Which dice counted is the engine's word (`counted`
// in the resolution, by player and position): no counting rule lives here.
//
// The stage lives outside the table that is re-drawn on every state, so the animation runs
// undisturbed while the next round starts underneath. Players and spectators alike receive the
// resolution event (the revealed dice are public from then on). With prefers-reduced-motion, in
// a background tab, or when the page is opened after the fact, the final picture is drawn at
// once. Screen readers hear the call at once and the count and result when the tally ends.
import { L, fmt, h, seatLabel } from "./api.js";
import { cup, die } from "./dice.js";
import { T, bidWords, callSentence, counted as countedPhrase, diceCount, faceName } from "./words.js";

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
    counted: d.counted ? pairs(d.counted) : [],
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
    counted: last.counted ? pairs(last.counted) : [],
    changes: pairs(last.dice_change),
    eliminated: last.eliminated || [],
    winner: (state && state.winner) || null,
    timedOut: false,
  };
}

function keyOf(r) {
  return JSON.stringify([r.result, r.caller, r.target, r.quantity, r.face, r.count, r.revealed, r.changes]);
}

/** The dice the engine counted for the bid, in its order: [player, index, wild]; a counted die
 * showing another face than the bid's is drawn as wild (an ace standing in for the face). */
export function countedDice(r) {
  const hands = new Map(r.revealed);
  return r.counted.flatMap(([name, positions]) =>
    positions.map((i) => [name, i, (hands.get(name) || [])[i] !== r.face]));
}

function resultLines(r) {
  const lines = [];
  for (const [name, delta] of r.changes) {
    if (!delta) continue;
    lines.push({ kind: delta < 0 ? "lost" : "gained", name,
      text: countedPhrase(delta < 0 ? T.loses : T.gains, Math.abs(delta), { name }) });
  }
  for (const name of r.eliminated) lines.push({ kind: "eliminated", name, text: fmt(T.is_out, { name }) });
  if (r.winner) lines.push({ kind: "winner", name: r.winner, text: fmt(L.winner, { name: r.winner }) });
  return lines;
}

/** The call in plain words: who called what on whose bid, and what was counted. */
function headline(r) {
  return callSentence({ ...r, changes: [], eliminated: [], winner: null });
}

function countText(r) {
  return fmt(L.count_was, { count: r.count, face: faceName(r.face), q: r.quantity });
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
  play(r) {
    this.show(r, { animate: !this.reducedMotion(), fresh: true });
  }

  /** The state's last resolution: drawn at rest, unless it is the one already on the stage. */
  sync(last, state) {
    if (!last) {
      if (!this.finish) this.clear();
      return;
    }
    const r = fromState(last, state);
    if (keyOf(r) === this.key) return; // the same reveal (maybe still animating)
    this.show(r, { animate: false, fresh: false });
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

  show(r, { animate, fresh }) {
    this.stop();
    this.key = keyOf(r);
    const counted = countedDice(r);
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
        h("span", {}, `${L.bid_was}: ${bidWords(r.quantity, r.face)}`), die(r.face, { size: 28, className: "bid-face" }),
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
        h("span", { class: "name" }, seatLabel(name)),
        h("span", { class: "lift" }, h("span", { class: "dice-row" }, dice),
          cup(hand.length, { size: 44, label: diceCount(hand.length) })));
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
