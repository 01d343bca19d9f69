// The match page: one socket, the server's view of the match for this viewer, re-drawn on
// every state; turn, countdown and results announced in aria-live regions.
import { L, api, fmt, h } from "./api.js";
import { MatchSocket } from "./live.js";
import { announceEvent, bannerText, renderBidding, turnOf } from "./bidding.js";
import { alalayAnnounce, alalayTurnOf, noteScored, renderAlalay } from "./alalay.js";
import { RevealStage, fromEvent } from "./reveal.js";

const root = document.getElementById("match");
const matchId = root.dataset.matchId;
const table = document.getElementById("table");
const turnBox = document.getElementById("turn");
const announce = document.getElementById("announce");
const banner = document.getElementById("banner");
const errorBox = document.getElementById("error");
const conn = document.getElementById("conn");
const revealAnnounce = document.getElementById("reveal-announce");
const reveal = new RevealStage(document.getElementById("reveal-stage"), {
  announce(text) { revealAnnounce.textContent = text; },
});

let match = null;
let lastTurnAnnounced = null;
const ui = {
  scored: {},
  presence: null,
  canAct: (m) => m.viewer.kind === "player" && m.state.you && m.state.turn && m.state.turn.entry === m.state.you,
  send(command) {
    errorBox.hidden = true;
    socket.command(command);
  },
};

const isAlalay = (m) => m.ruleset === "alalay";

function say(text) {
  if (!text) return;
  announce.textContent = text;
}

function render() {
  if (!match) return;
  document.getElementById("ruleset").textContent = (L.rulesets || {})[match.ruleset] || match.ruleset;
  root.dataset.viewer = match.viewer.kind;
  root.dataset.version = match.version;
  root.dataset.status = match.status;
  if (isAlalay(match)) {
    renderAlalay(table, match, ui);
  } else {
    renderBidding(table, match, ui);
    reveal.sync(match.state.last_round, { ...match.state, ruleset: match.ruleset });
  }
  const text = isAlalay(match) ? "" : bannerText(match);
  banner.hidden = !text;
  banner.textContent = text;
  if (match.viewer.kind === "spectator") {
    table.prepend(h("p", { class: "note", id: "spectator-note" }, L.spectator));
  }
  const who = isAlalay(match) ? alalayTurnOf(match) : turnOf(match);
  const me = isAlalay(match) ? match.state.you : match.viewer.player;
  if (who && who !== lastTurnAnnounced) {
    lastTurnAnnounced = who;
    if (who === me) say(L.your_turn);
  }
  const winner = isAlalay(match) ? null : match.state.winner;
  if (winner && !reveal.finish) say(fmt(L.winner, { name: winner })); // else the reveal says it last
  tick();
}

function deadline() {
  if (!match) return null;
  const round = match.state.round;
  return (round && round.deadline) || match.deadline || null;
}

function tick() {
  if (!match) return;
  const who = isAlalay(match) ? alalayTurnOf(match) : turnOf(match);
  const me = isAlalay(match) ? match.state.you : match.viewer.player;
  if (!who) {
    turnBox.textContent = match.status === "finished" || match.state.phase === "over" || match.state.finished
      ? L.finished : "";
    return;
  }
  const end = deadline();
  const left = end ? Math.max(0, Math.ceil((end - Date.now()) / 1000)) : null;
  turnBox.replaceChildren(
    h("strong", { class: who === me ? "mine" : "" }, who === me ? L.your_turn : fmt(L.turn_of, { name: who })),
    left === null ? "" : h("span", { class: "countdown", id: "countdown" }, " ", fmt(L.seconds_left, { s: left })),
  );
}
setInterval(tick, 250);

const socket = new MatchSocket(matchId, {
  status(s) {
    conn.textContent = { connecting: L.connecting, connected: L.connected, reconnecting: L.reconnecting,
      missing: "404" }[s] || s;
    conn.dataset.state = s;
  },
  state(d) {
    match = d;
    if (isAlalay(match)) loadMarks();
    render();
  },
  event(frame) {
    if (match && isAlalay(match)) {
      noteScored(ui.scored, frame);
      say(alalayAnnounce(frame));
    } else if (frame.t === "round_resolved") {
      // the round being resolved is still the one in `match` (its state comes after the event)
      const round = match && match.state.round;
      reveal.play(fromEvent(frame.d), { ruleset: match && match.ruleset, options: match && match.state.options,
        mode: round ? round.mode : "normal" });
    } else {
      say(announceEvent(frame));
    }
  },
  ack(frame) {
    if (!frame.ok) {
      errorBox.hidden = false;
      errorBox.textContent = `${frame.code}: ${frame.message}`;
      if (frame.code === "version-conflict") socket.requestState();
    }
  },
  presence(d) {
    ui.presence = d;
    document.getElementById("conn").title = fmt(L.spectators, { n: d.spectators });
  },
  error(frame) {
    errorBox.hidden = false;
    errorBox.textContent = `${frame.code}: ${frame.message}`;
  },
});
window.cachoSocket = socket; // for tests and debugging: the socket, never a hidden die

// Alalay scoresheet marks (de mano / de huevo) come from the events already played.
let marksLoaded = false;
function loadMarks() {
  if (marksLoaded) return;
  marksLoaded = true;
  api(`/api/matches/${matchId}/events?after=0`).then((data) => {
    for (const frame of data.events) noteScored(ui.scored, frame);
    render();
  }).catch(() => { marksLoaded = false; });
}
