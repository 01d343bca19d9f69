// The round clock, read from the API (`GET …/clock`: the time left at the server's now) and
// counted down here between two reads, so every screen shows the same time whatever its own
// clock says. On the tournament page and each table's match page an element
// `[data-round-clock][data-source]` mounts itself; the console uses `RoundClock` directly.
import { L, api, fmt } from "./api.js";

const C = (L.evening && L.evening.clock) || {};
const POLL_MS = 15000;

/** 2700000 → "45:00"; 3723000 → "1:02:03"; always positive (overtime says "over"). */
export function duration(ms) {
  const total = Math.floor(Math.abs(ms) / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const two = (n) => String(n).padStart(2, "0");
  return h ? `${h}:${two(m)}:${two(s)}` : `${two(m)}:${two(s)}`;
}

/** The clock's words: with the round's number (`withRound`) or alone. */
export function clockText(view, left, withRound = true) {
  if (!view || view.state === "none") return "";
  if (view.state === "idle") return C.idle;
  if (view.state === "finished") return C.finished;
  const time = duration(left);
  const n = view.round;
  if (left < 0) return fmt(withRound ? C.round_over : C.over, { n, time });
  if (view.state === "paused") return fmt(withRound ? C.round_paused : C.paused, { n, time });
  return fmt(withRound ? C.round_left : C.left, { n, time });
}

export class RoundClock {
  /** `el` shows the clock; `source` is the API path to read (or null: `set` feeds it). */
  constructor(el, source, { withRound = true, hideIdle = false, onChange = null } = {}) {
    Object.assign(this, { el, source, withRound, hideIdle, onChange, view: null, readAt: 0 });
    this.timer = setInterval(() => this.render(), 1000);
  }

  /** The time left now: what the server said, less what ran since (while running). */
  left() {
    if (!this.view) return 0;
    const ran = this.view.state === "running" ? performance.now() - this.readAt : 0;
    return this.view.remaining_ms - ran;
  }

  set(view) {
    const changed = !this.view || !view || this.view.state !== view.state || this.view.round_id !== view.round_id;
    this.view = view;
    this.readAt = performance.now();
    this.render();
    if (changed && this.onChange) this.onChange(view);
  }

  async load() {
    if (!this.source) return;
    try {
      this.set(await api(this.source));
    } catch {
      // a missed read: the clock counts on from the last one and the next read catches up
    }
  }

  render() {
    const view = this.view;
    const hidden = !view || view.state === "none" || (this.hideIdle && ["idle", "finished"].includes(view.state));
    this.el.hidden = hidden;
    if (hidden) return;
    const left = this.left();
    this.el.dataset.state = left < 0 && view.state !== "idle" && view.state !== "finished" ? "over" : view.state;
    this.el.textContent = clockText(view, left, this.withRound);
  }

  /** Read every few seconds; `untilNone`: stop once the source says there is no round (a
   * casual match never gets one). */
  poll(untilNone = false) {
    const read = async () => {
      await this.load();
      if (untilNone && this.view && this.view.state === "none") clearInterval(this.poller);
    };
    this.poller = setInterval(read, POLL_MS);
    read();
    return this;
  }
}

for (const el of document.querySelectorAll("[data-round-clock][data-source]")) {
  new RoundClock(el, el.dataset.source, { hideIdle: true }).poll("untilNone" in el.dataset);
}
