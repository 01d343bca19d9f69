// On the match page: a seated player's "Dispute" button and its small form
// (POST /api/matches/{match}/disputes), links to the disputes filed at this table, and the
// referee's pause: a banner with the reason and every action of the table disabled.
import { L, api, fmt, h, showError } from "./api.js";
import { disputeNotices } from "./disputes-live.js";

const D = L.disputes || {};
const $ = (name) => document.getElementById(name);

export class TableDispute {
  /** `matchId`; `pin(match)`: `{round: n}` or `{turn: n}` (the board's current or last one) or null. */
  /** `place`: a promise of `GET /api/matches/<id>/tournament` (a casual match has no disputes to list). */
  constructor(matchId, { pin, place = Promise.resolve({ tournament: true }) }) {
    this.matchId = matchId;
    this.pin = pin;
    this.place = place;
    this.box = $("dispute-box");
    this.form = $("dispute-form");
    this.toggle = $("dispute-open");
    this.errorBox = $("dispute-error");
    this.match = null;
    this.loaded = false;
    this.touched = false;
    this.toggle.addEventListener("click", () => this.open(this.form.hidden));
    $("dispute-cancel").addEventListener("click", () => this.open(false));
    $("dispute-where").addEventListener("input", () => { this.touched = true; });
    this.form.addEventListener("submit", (event) => { event.preventDefault(); this.file(); });
  }

  open(show) {
    this.form.hidden = !show;
    this.toggle.setAttribute("aria-expanded", String(show));
    if (show) {
      this.touched = false;
      this.fillWhere();
      $("dispute-reason").focus();
    }
  }

  /** The round or turn field, defaulting to the board's current (or last) one. */
  fillWhere() {
    const where = $("dispute-where");
    const pin = (this.match && this.pin(this.match)) || {};
    const kind = pin.turn !== undefined ? "turn" : "round";
    where.dataset.kind = kind;
    $("dispute-where-label").textContent = kind === "turn" ? D.params.turn : D.params.round;
    if (!this.touched) where.value = pin[kind] ?? "";
  }

  /** Each new state of the match: only seated players may file; the pause banner. */
  update(match) {
    this.match = match;
    // A walk-in playing from its seat link has no account to file with.
    const seated = match.viewer.kind === "player" && !("noAccount" in this.box.dataset);
    this.box.hidden = !seated;
    if (seated && !this.loaded) this.load();
    if (!this.form.hidden) this.fillWhere();
  }

  async load() {
    const first = !this.loaded;
    this.loaded = true;
    const place = await this.place.catch(() => ({ tournament: true }));
    if (!place.tournament) return; // asking would only earn a 404 in the console
    try {
      const data = await api(`/api/matches/${this.matchId}/disputes`);
      this.links(data.disputes || []);
      // a tournament table: its disputes' list follows them (filed, paused, ruled, withdrawn)
      if (first) disputeNotices(() => this.load());
    } catch {
      // no dispute API for this match (not a tournament table, or not there yet): no links
    }
  }

  links(disputes) {
    const list = $("dispute-links");
    list.hidden = !disputes.length;
    list.replaceChildren(h("h2", { class: "small-title" }, D.your_disputes), h("ul", {}, disputes.map((d) =>
      h("li", { "data-dispute": d.id }, h("a", { href: `/disputes/${d.id}/` }, fmt(D.see_dispute, { n: d.id })),
        ` · ${(D.reasons || {})[d.reason] || d.reason_label || d.reason} · ${d.status_label || d.status}`))));
  }

  async file() {
    this.errorBox.hidden = true;
    delete this.errorBox.dataset.code;
    const where = $("dispute-where");
    const body = { reason: $("dispute-reason").value, text: $("dispute-text").value.trim() };
    if (where.value) body[where.dataset.kind] = Number(where.value);
    else if (this.match) body.version = this.match.version;
    $("dispute-submit").disabled = true;
    try {
      const dispute = await api(`/api/matches/${this.matchId}/disputes`, { method: "POST", body });
      this.open(false);
      $("dispute-text").value = "";
      const done = $("dispute-done");
      done.hidden = false;
      done.replaceChildren(D.filed, " ", h("a", { href: `/disputes/${dispute.id}/`, id: "dispute-link" },
        fmt(D.see_dispute, { n: dispute.id })));
      const data = await api(`/api/matches/${this.matchId}/disputes`).catch(() => ({ disputes: [dispute] }));
      this.links(data.disputes || [dispute]);
    } catch (error) {
      showError(this.errorBox, error);
      this.errorBox.dataset.code = error.code || "";
    } finally {
      $("dispute-submit").disabled = false;
    }
  }
}

/** The referee's pause (`match.state.paused`: {reason} or null): a banner, and no action of
 * the table can be taken (the server refuses them with `match-paused` anyway). */
export function showPause(match, table) {
  const paused = match.state && match.state.paused;
  const banner = $("paused");
  banner.hidden = !paused;
  banner.textContent = paused ? fmt(D.paused_by_referee, { reason: paused.reason || "" }) : "";
  table.classList.toggle("is-paused", Boolean(paused));
  if (paused) {
    for (const el of table.querySelectorAll("button, input, select, textarea")) el.disabled = true;
  }
  return Boolean(paused);
}
