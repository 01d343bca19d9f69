// The Alalay table: the traditional scoresheet (three columns of three boxes and the two
// grandes), the dice of the turn, re-roll by choosing what to keep, turning, hints per box.
import { L, fmt, h } from "./api.js";
import { die } from "./dice.js";

const COLUMNS = [["ones", "twos", "threes"], ["straight", "full", "four"], ["fours", "fives", "sixes"]];
const GRANDES = ["grande_1", "grande_2"];

// Words, not emoji: a scoresheet must read the same on every machine (a missing emoji font
// shows an empty box).
function mark(how) {
  if (how === true) return h("span", { class: "mark mano" }, L.de_mano);
  if (how === false) return h("span", { class: "mark huevo" }, L.de_huevo);
  return null;
}

function boxCell(entry, box, match, ui) {
  const value = entry.card[box];
  const turn = match.state.turn;
  const mine = ui.canAct(match);
  const onTurn = turn && turn.entry === entry.name;
  const cell = h("div", { class: "box", "data-box": box, "data-entry": entry.name },
    h("span", { class: "box-name" }, L.boxes[box] || box));
  if (value === "X") {
    cell.classList.add("scratched");
    cell.append(h("span", { class: "value", "aria-label": L.scratch }, "✗"));
  } else if (value !== null && value !== undefined) {
    cell.classList.add("filled");
    cell.append(h("span", { class: "value" }, String(value)), mark(ui.scored[entry.name]?.[box]));
  } else if (onTurn && turn.hints && box in turn.hints) {
    cell.append(h("span", { class: "hint" }, fmt(L.would_give, { n: turn.hints[box] })));
    if (mine && turn.legal.score.includes(box)) {
      cell.append(h("button", { type: "button", class: "small", "data-score": box,
        onclick: () => ui.send({ type: "score", box }) }, L.score));
    }
    if (mine && turn.legal.scratch.includes(box)) {
      cell.append(h("button", { type: "button", class: "small quiet", "data-scratch": box,
        onclick: () => ui.send({ type: "scratch", box }) }, L.scratch));
    }
  }
  return cell;
}

function sheet(entry, match, ui) {
  const turn = match.state.turn;
  const box = h("section", { class: `sheet${turn && turn.entry === entry.name ? " on-turn" : ""}`,
    "data-sheet": entry.name },
  h("h3", {}, entry.name, entry.members.length ? ` (${entry.members.join(", ")})` : "",
    entry.left ? ` — ${L.abandoned}` : ""));
  const grid = h("div", { class: "sheet-grid" });
  for (const column of COLUMNS) grid.append(h("div", { class: "column" }, column.map((b) => boxCell(entry, b, match, ui))));
  box.append(grid, h("div", { class: "grandes" }, GRANDES.map((b) => boxCell(entry, b, match, ui))));
  box.append(h("p", { class: "total" }, `${L.total}: `, h("strong", {}, String(entry.total))));
  return box;
}

function turnPanel(match, ui) {
  const turn = match.state.turn;
  if (!turn) return null;
  const mine = ui.canAct(match);
  const legal = turn.legal;
  const panel = h("section", { class: "alalay-turn", id: "alalay-turn" },
    h("h2", {}, fmt(L.turn_of, { name: turn.member && turn.member !== turn.entry ? `${turn.entry} (${turn.member})` : turn.entry })));
  if (!ui.keep || ui.keepFor !== match.version) { ui.keep = new Set(); ui.keepFor = match.version; }
  const row = h("div", { class: "dice-row", id: "turn-dice" });
  turn.dice.forEach((face, index) => {
    const turned = turn.turned.includes(index);
    const canTurn = mine && legal.turn.includes(index);
    const canKeep = mine && legal.reroll;
    const d = die(face, { size: 56, className: turned ? "turned" : "" });
    if (canKeep || canTurn) {
      const pressed = canKeep ? ui.keep.has(index) : false;
      const button = h("button", { type: "button", class: `die-button${pressed ? " kept" : ""}`,
        "data-index": index, "aria-pressed": canKeep ? String(pressed) : null,
        "aria-label": canTurn ? `${L.turn_die}: ${face}` : `${face}` }, d);
      button.addEventListener("click", () => {
        if (canTurn) { ui.send({ type: "turn", position: index }); return; }
        if (ui.keep.has(index)) ui.keep.delete(index); else ui.keep.add(index);
        button.classList.toggle("kept");
        button.setAttribute("aria-pressed", String(ui.keep.has(index)));
      });
      row.append(button);
    } else {
      row.append(d);
    }
  });
  panel.append(row);
  if (turn.de_mano !== null && turn.de_mano !== undefined && turn.phase !== "await") {
    panel.append(h("p", { class: "how" }, mark(turn.de_mano)));
  }
  if (turn.must_turn && mine) panel.append(h("p", { class: "must-turn", role: "note" }, L.must_turn));
  const buttons = h("div", { class: "action-buttons" });
  if (mine && legal.throw) {
    buttons.append(h("button", { type: "button", class: "primary", id: "do-throw",
      onclick: () => ui.send({ type: "throw" }) }, L.throw));
  }
  if (mine && legal.reroll) {
    panel.append(h("p", { class: "hint" }, L.keep_hint));
    buttons.append(h("button", { type: "button", id: "do-reroll", onclick: () => {
      const keep = [...ui.keep].sort().map((i) => turn.dice[i]);
      ui.send({ type: "reroll", keep });
    } }, L.reroll));
  }
  panel.append(buttons);
  return panel;
}

export function renderAlalay(root, match, ui) {
  const s = match.state;
  root.replaceChildren();
  const panel = turnPanel(match, ui);
  if (panel) root.append(panel);
  if (s.finished) {
    root.append(h("section", { class: "result-box", id: "alalay-result" },
      h("h2", {}, L.finished),
      h("p", {}, s.winners.map((w) => fmt(L.winner, { name: w })).join(" ")),
      s.win_reason ? h("p", { class: "win-reason" }, L.win_reason[s.win_reason] || s.win_reason) : null));
  }
  root.append(h("div", { class: "sheets" }, s.entries.map((e) => sheet(e, match, ui))));
}

export function alalayTurnOf(match) {
  const s = match.state;
  return s.turn && !s.finished ? s.turn.entry : null;
}

export function alalayAnnounce(frame) {
  const d = frame.d;
  if (frame.t === "match_ended") {
    const who = (d.winners || []).map((w) => fmt(L.winner, { name: w })).join(" ");
    return `${who} ${d.reason ? L.win_reason[d.reason] || d.reason : ""}`.trim();
  }
  if (frame.t === "box_scored") return `${d.entry}: ${L.boxes[d.box] || d.box} ${d.points} (${d.de_mano ? L.de_mano : L.de_huevo})`;
  if (frame.t === "box_scratched") return `${d.entry}: ${L.boxes[d.box] || d.box} ✗`;
  return "";
}

// What the scoresheet marks: de mano / de huevo per scored box, from the events.
export function noteScored(scored, frame) {
  if (frame.t !== "box_scored") return;
  const d = frame.d;
  (scored[d.entry] ||= {})[d.box] = Boolean(d.de_mano);
}
