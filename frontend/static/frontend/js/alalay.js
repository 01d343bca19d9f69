// The Alalay table: the traditional scoresheet (three columns of three boxes and the two
// grandes), the dice of the turn, re-roll by choosing what to keep, turning, hints per box.
import { L, fmt, h, memberLabel, seatLabel, seatWithMember } from "./api.js";
import { die } from "./dice.js";
import { T, eventSentence, faceName } from "./words.js";
import { presenceMark } from "./bidding.js";

const boxName = (box) => (L.boxes && L.boxes[box]) || box;

/** Why an open box of the player on turn gives no Score button now, in plain words. */
function whyNot(box, turn, points) {
  if (turn.must_turn) return ""; // the note above the dice says it once, with which dice
  if (points > 0) return box === "grande_2" ? T.why_second_grande : "";
  return (T.why_zero || {})[box] || "";
}

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
    const points = turn.hints[box];
    const canScore = turn.legal.score.includes(box);
    cell.append(h("span", { class: `hint${points > 0 ? " scores" : ""}` }, fmt(T.points_now, { n: points })));
    const reason = canScore ? "" : whyNot(box, turn, points);
    if (reason) cell.append(h("span", { class: "why", "data-why": box }, reason));
    if (mine && canScore) {
      cell.append(h("button", { type: "button", class: "small", "data-score": box,
        "aria-label": `${L.score}: ${boxName(box)} ${points}`,
        onclick: () => ui.send({ type: "score", box }) }, L.score));
    }
    if (mine && turn.legal.scratch.includes(box)) {
      cell.append(h("button", { type: "button", class: "small quiet", "data-scratch": box,
        "aria-label": `${L.scratch}: ${boxName(box)}`,
        onclick: () => ui.send({ type: "scratch", box }) }, L.scratch));
    }
  }
  return cell;
}

function sheet(entry, match, ui) {
  const turn = match.state.turn;
  const box = h("section", { class: `sheet${turn && turn.entry === entry.name ? " on-turn" : ""}`,
    "data-sheet": entry.name },
  h("h3", {}, seatLabel(entry.name),
    entry.members.length ? ` (${entry.members.map((m) => memberLabel(entry.name, m)).join(", ")})` : "",
    entry.left ? ` — ${L.abandoned}` : "", " ", presenceMark(entry.name, ui),
    turn && turn.entry === entry.name && !match.state.paused
      ? h("span", { class: "clock", "data-clock": entry.name }, T.on_turn) : null));
  // the boxes as the table writes them: the engine's (`traits.sheet_columns`, `sheet_foot`)
  const grid = h("div", { class: "sheet-grid" });
  for (const column of match.traits.sheet_columns) {
    grid.append(h("div", { class: "column" }, column.map((b) => boxCell(entry, b, match, ui))));
  }
  box.append(grid, h("div", { class: "grandes" }, match.traits.sheet_foot.map((b) => boxCell(entry, b, match, ui))));
  box.append(h("p", { class: "total" }, `${L.total}: `, h("strong", {}, String(entry.total))));
  return box;
}

function turnPanel(match, ui) {
  const turn = match.state.turn;
  if (!turn) return null;
  const mine = ui.canAct(match);
  const legal = turn.legal;
  const panel = h("section", { class: "alalay-turn", id: "alalay-turn" },
    h("h2", {}, fmt(L.turn_of, { name: seatWithMember(turn.entry, turn.member) })));
  if (!ui.keep || ui.keepFor !== match.version) { ui.keep = new Set(); ui.keepFor = match.version; }
  const row = h("div", { class: "dice-row", id: "turn-dice" });
  const options = new Map((turn.turn_options || []).map((o) => [o.position, o]));
  turn.dice.forEach((face, index) => {
    const turned = turn.turned.includes(index);
    const option = options.get(index);
    const canTurn = mine && legal.turn.includes(index);
    const canKeep = mine && legal.reroll;
    const d = die(face, { size: 56, className: turned ? "turned" : "" });
    // What turning this die would give: its new face and the box it would then score best.
    const gives = option ? (option.box
      ? fmt(T.turn_gives_plain, { to: option.face, box: boxName(option.box), points: option.points })
      : fmt(T.turn_gives_nothing, { to: option.face })) : "";
    const short = option ? (option.box
      ? fmt(T.turn_caption, { to: option.face, box: boxName(option.box), points: option.points })
      : fmt(T.turn_caption_nothing, { to: option.face })) : "";
    const caption = option
      ? h("span", { class: "turn-caption", id: `turn-caption-${index}`, title: gives }, short) : null;
    let node = d;
    if (canKeep || canTurn) {
      const pressed = canKeep ? ui.keep.has(index) : false;
      const button = h("button", { type: "button", class: `die-button${pressed ? " kept" : ""}${canTurn ? " turnable" : ""}`,
        "data-index": index, "aria-pressed": canKeep ? String(pressed) : null,
        "aria-label": canTurn ? (option ? fmt(T.turn_to, { from: faceName(face), to: faceName(option.face) }) : L.turn_die)
          : `${face}`,
        "aria-describedby": caption ? caption.id : null, title: canTurn ? gives : null }, d);
      button.addEventListener("click", () => {
        if (canTurn) { ui.send({ type: "turn", position: index }); return; }
        if (ui.keep.has(index)) ui.keep.delete(index); else ui.keep.add(index);
        button.classList.toggle("kept");
        button.setAttribute("aria-pressed", String(ui.keep.has(index)));
      });
      node = button;
    }
    row.append(h("span", { class: `turn-die${option ? " may-turn" : ""}${turned ? " was-turned" : ""}`,
      "data-position": index }, node, caption));
  });
  panel.append(row);
  if (turn.de_mano !== null && turn.de_mano !== undefined && turn.phase !== "await") {
    panel.append(h("p", { class: "how" }, mark(turn.de_mano)));
  }
  if (turn.must_turn) panel.append(h("p", { class: "must-turn", id: "must-turn", role: "note" }, T.turn_required));
  else if (mine && legal.turn.length && turn.phase !== "first") {
    panel.append(h("p", { class: "may-turn-note", role: "note" }, T.turn_optional));
  }
  if (mine && legal.scratch.length) panel.append(h("p", { class: "scratch-note", role: "note" }, T.scratch_now));
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
  root.append(h("div", { class: "sheets" }, s.entries.map((e) => sheet(e, match, ui))));
}

export function alalayTurnOf(match) {
  const s = match.state;
  return s.turn && !s.finished ? s.turn.entry : null;
}

export function alalayAnnounce(frame) {
  const d = frame.d;
  if (frame.t === "turn_timed_out") return eventSentence(frame, boxName); // never the raw code
  if (frame.t === "match_ended") {
    const who = (d.winners || []).map((w) => fmt(L.winner, { name: w })).join(" ");
    return `${who} ${d.reason ? L.win_reason[d.reason] || d.reason : ""}`.trim();
  }
  if (frame.t === "box_scored") return `${seatLabel(d.entry)}: ${L.boxes[d.box] || d.box} ${d.points} (${d.de_mano ? L.de_mano : L.de_huevo})`;
  if (frame.t === "box_scratched") return `${seatLabel(d.entry)}: ${L.boxes[d.box] || d.box} ✗`;
  return "";
}

// What the scoresheet marks: de mano / de huevo per scored box, from the events.
export function noteScored(scored, frame) {
  if (frame.t !== "box_scored") return;
  const d = frame.d;
  (scored[d.entry] ||= {})[d.box] = Boolean(d.de_mano);
}
