// The match page: one socket, the server's view of the match for this viewer, re-drawn on
// every state; the game log from the match's events; turn, countdown and results announced
// in aria-live regions ("Your turn!" once, in the turn line, never while paused or after the end).
import { L, api, fmt, h, setSeatLabels } from "./api.js";
import { MatchSocket } from "./live.js";
import { announceEvent, bannerText, renderBidding, turnOf } from "./bidding.js";
import { alalayAnnounce, alalayTurnOf, noteScored, renderAlalay } from "./alalay.js";
import { RevealStage, fromEvent } from "./reveal.js";
import { TableDispute, showPause } from "./table-dispute.js";
import { describe } from "./steps.js";
import { GameLog } from "./gamelog.js";
import { EndScreen } from "./endscreen.js";
import { termsPanel } from "./terms.js";
import { T } from "./words.js";
import { collapsibleNav } from "./nav.js";
import { showTimeCall } from "./time-call.js";
import { TableTalk } from "./talk.js";

const root = document.getElementById("match");
const matchId = root.dataset.matchId;
const table = document.getElementById("table");
const turnWho = document.getElementById("turn-who");
const countdownBox = document.getElementById("countdown-box");
const announce = document.getElementById("announce");
const banner = document.getElementById("banner");
const errorBox = document.getElementById("error");
const conn = document.getElementById("conn");
const revealAnnounce = document.getElementById("reveal-announce");
const reveal = new RevealStage(document.getElementById("reveal-stage"), {
  announce(text) { revealAnnounce.textContent = text; },
});
const log = new GameLog(document.getElementById("game-log"), matchId);
// Where the match sits in a tournament (or nowhere): asked once, for the end screen's links
// and to know whether the table has disputes to list.
const place = api(`/api/matches/${matchId}/tournament`).catch(() => ({ tournament: null }));
const end = new EndScreen(document.getElementById("end-screen"), matchId, place);
termsPanel(document.getElementById("terms"));
collapsibleNav();

let match = null;
let lastRound = null; // the last round seen (a bidding match between rounds shows none)
const ui = {
  scored: {},
  presence: null,
  canAct: (m) => !m.state.paused && m.viewer.kind === "player" && m.state.you && m.state.turn
    && m.state.turn.entry === m.state.you,
  send(command) {
    if (paused()) return;
    errorBox.hidden = true;
    socket.command(command);
  },
};

// Each game's board, keyed by the engine's game name: how the page draws its state, whose
// turn it is, how it ended, and what its events say. The rules themselves stay on the server.
const BOARDS = {
  dudo: {
    draw(m) {
      renderBidding(table, m, ui);
      // The last reveal stays on top only until the next round's first move: then it lives
      // in the game log, and the table shows the round being bid.
      const round = m.state.round;
      if (round && round.actions.length) {
        if (reveal.finish) reveal.finish(); // a reveal still counting finishes (and is announced) first
        reveal.clear();
      } else {
        reveal.sync(m.state.last_round, m.state);
      }
    },
    banner: bannerText,
    turn: turnOf,
    me: (m) => m.viewer.player,
    result(m) {
      const s = m.state;
      if (!(s.phase === "over" || s.winner || m.status === "finished")) return null;
      return { winners: s.winner ? [s.winner] : [], reason: null,
        places: s.placements ? Object.entries(s.placements) : null };
    },
    pin(m) {
      if (m.state.round) lastRound = m.state.round.number;
      return lastRound ? { round: lastRound } : { round: undefined };
    },
    event(frame) {
      if (frame.t === "round_resolved") reveal.play(fromEvent(frame.d));
      else say(announceEvent(frame));
    },
  },
  alalay: {
    draw(m) { renderAlalay(table, m, ui); },
    banner: () => "",
    turn: alalayTurnOf,
    me: (m) => m.state.you,
    result(m) {
      const s = m.state;
      if (!s.finished) return null;
      return { winners: s.winners || [], reason: s.win_reason ? (L.win_reason || {})[s.win_reason] || "" : "",
        places: s.placements ? Object.entries(s.placements) : null };
    },
    pin(m) { // turns counted over the match: the boxes filled so far, plus the one being played
      const done = (m.state.entries || []).reduce((n, e) =>
        n + Object.values(e.card || {}).filter((v) => v !== null && v !== undefined).length, 0);
      return { turn: m.state.turn ? done + 1 : Math.max(done, 1) };
    },
    event(frame) {
      noteScored(ui.scored, frame);
      say(alalayAnnounce(frame));
    },
  },
};
const boardOf = (m) => BOARDS[m.game];
const dispute = new TableDispute(matchId, { pin: (m) => boardOf(m).pin(m), place });
const paused = () => Boolean(match && match.state.paused);
// A referee's rulings in the match stream (the pause and the resume have the banner).
const RULINGS = new Set(["ruling_upheld", "round_voided", "dice_changed", "result_awarded", "turn_corrected",
  "penalty_given", "entry_disqualified", "match_reopened"]);

function say(text) {
  if (!text) return;
  announce.textContent = text;
}

function awayLegend() {
  if (!table.querySelector(".presence.gone")) return;
  const first = table.querySelector(".players, .sheets");
  const legend = h("p", { class: "legend", id: "away-legend" }, T.away_legend);
  if (first) first.after(legend); else table.append(legend);
}

function render() {
  if (!match) return;
  document.getElementById("ruleset").textContent = (L.rulesets || {})[match.ruleset] || match.ruleset;
  root.dataset.viewer = match.viewer.kind;
  root.dataset.version = match.version;
  root.dataset.status = match.status;
  const board = boardOf(match);
  // seats a bot plays: marked as bots, never "away" (they have no socket)
  ui.bots = Object.fromEntries((match.seats || []).filter((s) => s.bot).map((s) => [s.name, s.bot]));
  board.draw(match);
  const text = board.banner(match);
  banner.hidden = !text;
  banner.textContent = text;
  if (match.viewer.kind === "spectator") {
    table.prepend(h("p", { class: "note", id: "spectator-note" }, L.spectator));
  } else if (match.viewer.kind === "referee") {
    table.prepend(h("p", { class: "note referee-note", id: "referee-note" }, L.referee_view));
  }
  awayLegend();
  showPause(match, table);
  showTimeCall(match);
  dispute.update(match);
  const result = board.result(match);
  root.dataset.finished = result ? "true" : "false";
  if (result && end.container.hidden) announce.textContent = ""; // no stale "turn" news over the result
  end.update(result);
  tick();
}

function deadline() {
  if (!match) return null;
  const round = match.state.round;
  return (round && round.deadline) || match.deadline || null;
}

/** The turn line and the clock in the player's panel: updated in place, so the live region
 * speaks only when the player on turn changes. */
function tick() {
  if (!match) return;
  const board = boardOf(match);
  const finished = Boolean(board.result(match));
  const who = paused() || finished ? null : board.turn(match); // a paused or finished table is nobody's turn
  const me = board.me(match);
  let line = "";
  if (finished) line = L.finished;
  else if (who) line = who === me ? L.your_turn : fmt(L.turn_of, { name: who });
  if (turnWho.textContent !== line) turnWho.textContent = line;
  turnWho.className = who && who === me ? "mine" : "";
  const endAt = who ? deadline() : null; // no deadline runs while the referee pauses the table
  const left = endAt ? Math.max(0, Math.ceil((endAt - Date.now()) / 1000)) : null;
  if (left === null) countdownBox.replaceChildren();
  else {
    const text = fmt(L.seconds_left, { s: left });
    const current = document.getElementById("countdown");
    if (current) { if (current.textContent !== text) current.textContent = text; }
    else countdownBox.replaceChildren(h("span", { class: "countdown", id: "countdown" }, text));
  }
  for (const clock of table.querySelectorAll("[data-clock]")) {
    const text = left === null ? T.on_turn : fmt(T.clock, { s: left });
    if (clock.textContent !== text) clock.textContent = text;
    clock.classList.toggle("low", left !== null && left <= 5);
  }
}
setInterval(tick, 250);

let ruledVersion = 0;
/** A referee's ruling: the players see what changed and why (the latest ruling, whichever
 * way its frame came). Whether `frame` is a ruling. */
function showRuling(frame) {
  if (!RULINGS.has(frame.t)) return false;
  if (frame.v > ruledVersion) {
    ruledVersion = frame.v;
    const ruled = document.getElementById("ruled");
    ruled.hidden = false;
    ruled.textContent = describe(frame);
  }
  return true;
}

const talk = new TableTalk(document.getElementById("talk"), matchId, { send: (frame) => socket.send(frame) });

const socket = new MatchSocket(matchId, {
  status(s) {
    if (s === "connected") talk.connected();
    conn.textContent = { connecting: L.connecting, connected: L.connected, reconnecting: L.reconnecting,
      missing: "404" }[s] || s;
    conn.dataset.state = s;
  },
  state(d) {
    match = d;
    setSeatLabels(match.seats);
    // A ruling the socket's frames skipped (the table was resynchronised, or the page opened
    // after it) is still shown: it comes with the events the log fetches.
    log.caughtUp(match).then((events) => { for (const frame of events) showRuling(frame); });
    loadMarks();
    render();
    talk.matchState(match);
  },
  chat(frame) { talk.frame(frame); },
  event(frame) {
    log.add(frame);
    if (showRuling(frame)) return;
    if (match) boardOf(match).event(frame);
  },
  ack(frame) {
    if (!frame.ok) {
      errorBox.hidden = false;
      errorBox.textContent = `${frame.code}: ${frame.message}`;
      if (frame.code === "version-conflict") socket.requestState();
    }
  },
  presence(d) {
    const before = seatsHere(ui.presence);
    ui.presence = d;
    document.getElementById("conn").title = fmt(L.spectators, { n: d.spectators });
    // Only a seat's coming or going changes the table: a frame that changes none (a player's
    // second tab, a reconnect) leaves it as it is (drawn again, its buttons would be new
    // ones, and a click landing meanwhile lost).
    if (seatsHere(d) !== before) render();
  },
  error(frame) {
    errorBox.hidden = false;
    errorBox.textContent = `${frame.code}: ${frame.message}`;
  },
});
/** The seats connected, as one comparable value (null until the first presence). */
function seatsHere(presence) {
  return presence && presence.players ? [...presence.players].sort().join("\n") : null;
}

window.cachoSocket = socket; // for tests and debugging: the socket, never a hidden die

// Alalay scoresheet marks (de mano / de huevo) come from the events already played: the
// game log's first fetch brings them.
let marksLoaded = false;
function loadMarks() {
  if (marksLoaded || !match || !match.traits.scoresheet) return;
  marksLoaded = true;
  const fill = () => {
    for (const frame of log.frames.values()) noteScored(ui.scored, frame);
    render();
  };
  (log.loading || Promise.resolve()).then(fill).catch(() => { marksLoaded = false; });
}
