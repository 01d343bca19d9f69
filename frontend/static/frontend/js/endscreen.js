// The end of a match: the result as the server's view gives it, the tournament's standings
// as this table's result left them (the leaders and the viewer's own row), and where to go
// next (the standings, the viewer's next table there, the replay), from
// `GET /api/matches/<id>/tournament`.
import { L, api, fmt, h, seatList } from "./api.js";
import { T } from "./words.js";

// The table's result is recorded just after the match's last commit: the end screen asks
// again, briefly, until the standings it changed are there.
const ASK_AGAIN_MS = 500;
const ASKS = 20;
// The next round is drawn once every table of this one finishes: while the tournament runs,
// the end screen of a player at this table asks now and then for its next one (half an
// hour at most).
const NEXT_ASK_MS = 5000;
const NEXT_ASKS = 360;

export class EndScreen {
  /** `place`: a promise of `GET /api/matches/<id>/tournament`, asked once by the page. */
  constructor(container, matchId, place) {
    this.container = container;
    this.matchId = matchId;
    this.place = place;
    this.info = undefined; // undefined: not asked yet; null: no tournament
    this.asked = false;
  }

  /** `result`: {winners: [...], reason: text|null, places: [[name, place]…]|null} or null while playing. */
  update(result) {
    if (!result) {
      this.container.hidden = true;
      this.container.replaceChildren();
      return;
    }
    if (!this.asked) {
      this.asked = true;
      this.place
        .then((info) => { this.info = info.tournament ? info : null; })
        .catch(() => { this.info = null; })
        .finally(() => { this.draw(this.result); this.awaitStandings(ASKS); });
    }
    this.result = result;
    this.draw(result);
  }

  /** Ask again until this table's result (and so its standings) is recorded. */
  awaitStandings(left) {
    if (!this.info) return;
    if (this.info.standings || left <= 0) {
      this.awaitNext(NEXT_ASKS);
      return;
    }
    setTimeout(() => {
      api(`/api/matches/${this.matchId}/tournament`)
        .then((info) => { if (info.tournament) this.info = info; this.draw(this.result); })
        .catch(() => {})
        .finally(() => this.awaitStandings(left - 1));
    }, ASK_AGAIN_MS);
  }

  /** Ask again until the viewer's next table is drawn (redrawn only then: a redraw would
   * take the keyboard's focus away; the appeal period's line follows meanwhile). */
  awaitNext(left) {
    const info = this.info;
    if (!info || !info.seated || info.next_match || info.tournament.status !== "running" || left <= 0) return;
    setTimeout(() => {
      api(`/api/matches/${this.matchId}/tournament`)
        .then((fresh) => {
          if (fresh.tournament && fresh.next_match) {
            this.info = fresh;
            this.draw(this.result);
          } else if (fresh.tournament) {
            this.info.appeal = fresh.appeal;
            this.appealAt = Date.now();
            this.drawAppeal();
          }
        })
        .catch(() => {})
        .finally(() => this.awaitNext(left - 1));
    }, NEXT_ASK_MS);
  }

  /** The leaders, then the viewer's own rows further down (a gap marked between). */
  standings(shown) {
    const rows = [];
    let previous = -1;
    for (const r of shown.rows) {
      if (r.position > previous + 1) rows.push(h("tr", { class: "gap", "aria-hidden": "true" }, h("td", { colspan: 3 }, "…")));
      previous = r.position;
      rows.push(h("tr", { class: r.mine ? "mine" : null, "data-entry": r.entry, "aria-current": r.mine ? "true" : null },
        h("td", { class: "num" }, r.rank), h("td", {}, r.name, r.mine ? ` (${L.you})` : ""),
        h("td", { class: "num" }, r.points ?? "")));
    }
    return h("table", { class: "data end-standings", id: "end-standings-table" },
      h("caption", {}, T.end_standings, shown.stage && shown.stage.name ? ` · ${shown.stage.name}` : ""),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, L.place), h("th", { scope: "col" }, L.entry),
        h("th", { scope: "col" }, L.points))),
      h("tbody", {}, rows));
  }

  /** The appeal period's words: how long this table may still be disputed before the next
   * round is drawn (a countdown once the round is over), or what holds the draw. */
  appealText() {
    const info = this.info;
    const appeal = info && info.appeal;
    if (!appeal || appeal.next_drawn || !info.tournament || info.tournament.status !== "running") return "";
    if (appeal.held) return T.appeal_held;
    if (appeal.disputed) return T.appeal_disputed;
    if (!appeal.waiting) return appeal.minutes ? fmt(T.appeal_after_round, { minutes: appeal.minutes }) : "";
    if (!appeal.draw_at) return "";
    const left = Math.max(0, appeal.remaining_ms - (Date.now() - (this.appealAt || Date.now())));
    if (left <= 0) return T.appeal_drawing;
    const seconds = Math.ceil(left / 1000);
    const time = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
    return fmt(T.appeal_until, { time });
  }

  drawAppeal() {
    const line = this.container.querySelector("#end-appeal");
    if (!line) return;
    const text = this.appealText();
    if (line.textContent !== text) line.textContent = text;
    line.hidden = !text;
    clearTimeout(this.appealTick);
    if (text && this.info.appeal.waiting) this.appealTick = setTimeout(() => this.drawAppeal(), 1000);
  }

  draw(result) {
    if (!result) return;
    const info = this.info;
    const parts = [h("h2", { id: "end-title", tabindex: "-1" }, T.end_title)];
    if (result.winners.length) {
      const ruling = info && info.ruling;
      parts.push(h("p", { class: "end-winner", id: "end-winner" }, fmt(T.end_winner, { names: seatList(result.winners) }),
        ruling && ruling.reason ? h("span", { class: "end-ruling", id: "end-ruling" }, ` · ${fmt(T.end_ruling, { reason: ruling.reason })}`) : null));
    }
    if (result.reason) parts.push(h("p", { class: "win-reason" }, result.reason));
    const places = result.places && result.places.length ? result.places
      : (info && info.placements || []).map((p) => [p.name, p.placement]);
    if (places.length) {
      parts.push(h("h3", {}, T.end_places), h("ol", { class: "end-places", id: "end-places" },
        places.slice().sort((a, b) => a[1] - b[1]).map(([name, place]) =>
          h("li", { "data-place": place }, fmt(T.place, { place, name })))));
    }
    const links = h("ul", { class: "end-links" });
    if (info && info.tournament) {
      const t = info.tournament;
      parts.push(h("p", { class: "note" }, `${t.name} · ${fmt(T.end_table, { round: info.round, table: info.table })}`));
      if (info.standings && info.standings.rows.length) parts.push(this.standings(info.standings));
      if (info.next_match) {
        links.append(h("li", {}, h("a", { href: `/matches/${info.next_match}/`, id: "end-next", class: "button primary" },
          T.end_next)));
      }
      links.append(h("li", {}, h("a", { href: `/tournaments/${t.id}/#t-standings`, id: "end-standings" }, T.end_standings)));
      links.append(h("li", {}, h("a", { href: `/tournaments/${t.id}/`, id: "end-tournament" },
        fmt(T.end_tournament, { name: t.name }))));
    }
    links.append(h("li", {}, h("a", { href: `/matches/${this.matchId}/replay`, id: "end-replay" }, T.end_replay)));
    parts.push(links);
    if (info && info.tournament && !info.next_match) parts.push(h("p", { class: "note", id: "end-no-next" }, T.end_no_next));
    // the appeal period, read out when it changes state, not at each second of its countdown
    if (info && info.tournament && !info.next_match) parts.push(h("p", { class: "note appeal", id: "end-appeal", hidden: true }));
    this.container.replaceChildren(...parts);
    if (info && this.appealAt === undefined) this.appealAt = Date.now();
    this.drawAppeal();
    this.container.hidden = false;
    this.container.dataset.loaded = info === undefined ? "" : "true";
    this.container.dataset.standings = info && info.standings ? "true" : "";
  }
}
