// The live table of a bidding game (Dudo, Cacho): everything drawn from the viewer's state.
import { L, fmt, h, seatLabel } from "./api.js";
import { cup, die } from "./dice.js";
import { T, bidWords, diceCount } from "./words.js";

const FACES = [1, 2, 3, 4, 5, 6];

function bidText(bid) {
  if (!bid) return L.no_bid;
  const [q, f] = Array.isArray(bid) ? bid : [bid.quantity, bid.face];
  return bidWords(q, f);
}

/** Connected or away, from the socket's presence list (unknown until it first comes). */
export function presenceMark(name, ui) {
  if (ui.bots && ui.bots[name]) return h("span", { class: "badge bot", "data-bot": ui.bots[name] }, T.bot);
  if (!ui.presence || !ui.presence.players) return null;
  const here = ui.presence.players.includes(name);
  return h("span", { class: `presence ${here ? "here" : "gone"}`, role: "img",
    "aria-label": fmt(here ? T.connected_name : T.away_name, { name }),
    title: here ? fmt(T.connected_name, { name }) : T.away_legend }, here ? "●" : "‖");
}

function playersView(match, ui) {
  const s = match.state;
  const me = match.viewer.player;
  const round = s.round;
  const list = h("ul", { class: "players", "aria-label": L.players });
  for (const p of s.players) {
    const onTurn = round && round.to_act === p.name && s.phase !== "over";
    const away = ui.presence && ui.presence.players && !ui.presence.players.includes(p.name)
      && !(ui.bots && ui.bots[p.name]);
    const li = h("li", { class: `player${onTurn ? " on-turn" : ""}${p.out ? " out" : ""}${away ? " away" : ""}`,
      "data-player": p.name });
    li.append(cup(p.dice, { size: 40, label: diceCount(p.dice) }));
    li.append(h("span", { class: "who" },
      h("span", { class: "name" }, p.name === me ? `${seatLabel(p.name)} (${L.you})` : seatLabel(p.name), " ",
        presenceMark(p.name, ui)),
      h("span", { class: "count" }, p.out ? L.out : diceCount(p.dice)),
      p.abandoned ? h("span", { class: "tag" }, L.abandoned) : null,
      onTurn ? h("span", { class: "clock", "data-clock": p.name, "aria-label": T.on_turn }, T.on_turn) : null));
    list.append(li);
  }
  return list;
}

/** The referee's omniscient view: every player's dice under the cups, by player. */
function everyonesDice(match) {
  const s = match.state;
  if (!s.round) return null;
  const box = h("section", { class: "my-dice all-dice", "aria-label": L.all_dice }, h("h2", {}, L.all_dice));
  for (const [owner, faces] of Object.entries(s.round.dice)) {
    box.append(h("div", { class: "dice-row" }, h("span", { class: "owner" }, owner),
      ...faces.map((f) => die(f, { owner, size: 40 }))));
  }
  return box;
}

function myDice(match) {
  const s = match.state;
  if (match.viewer.kind === "referee") return everyonesDice(match);
  const me = match.viewer.player;
  if (!me || !s.round) return null;
  const mine = s.round.dice[me];
  const box = h("section", { class: "my-dice", "aria-label": L.your_dice }, h("h2", {}, L.your_dice));
  if (!mine) box.append(h("p", {}, L.hidden_dice));
  else box.append(h("div", { class: "dice-row" }, mine.map((f) => die(f, { owner: me, size: 56 }))));
  return box;
}

function controls(match, ui) {
  const s = match.state;
  const legal = s.legal;
  if (!legal || !legal.actions || legal.actions.length === 0) return null;
  const box = h("section", { class: "controls", "aria-label": L.bid });
  const actions = legal.actions;
  if (actions.includes("bid") && legal.bid_minimums) {
    const mins = legal.bid_minimums;
    const maxs = legal.bid_maximums || {};
    let first = FACES.find((f) => mins[f] !== null && mins[f] !== undefined);
    if (ui.face && mins[ui.face] !== null && mins[ui.face] !== undefined) first = ui.face;
    const qty = h("input", { type: "number", id: "bid-quantity", name: "quantity", inputmode: "numeric",
      min: mins[first], max: maxs[first] ?? "", value: Math.max(mins[first], ui.quantity || 0) });
    const picker = h("fieldset", { class: "bid-picker" }, h("legend", {}, L.face));
    for (const f of FACES) {
      const min = mins[f];
      const disabled = min === null || min === undefined;
      const input = h("input", { type: "radio", name: "face", value: f, id: `face-${f}`, disabled,
        checked: f === first });
      input.addEventListener("change", () => {
        ui.face = f;
        qty.min = min;
        qty.max = maxs[f] ?? "";
        if (Number(qty.value) < min) qty.value = min;
      });
      picker.append(h("label", { for: `face-${f}`, class: `face-choice${disabled ? " disabled" : ""}` },
        h("span", { class: "min", "data-face-min": f }, disabled ? "—" : `≥${min}`), input,
        die(f, { size: 36, className: "face-die" })));
    }
    let direction = null;
    if (legal.directions) {
      direction = h("select", { id: "bid-direction", name: "direction" },
        legal.directions.map((d) => h("option", { value: d }, L[d] || d)));
    }
    const label = s.round && s.round.salpicon_pending ? L.believe : L.bid;
    const form = h("form", { class: "bid-form", onsubmit: (event) => {
      event.preventDefault();
      const face = Number(form.querySelector('input[name="face"]:checked')?.value);
      const command = { type: "bid", quantity: Number(qty.value), face };
      if (direction) command.direction = direction.value;
      ui.quantity = null;
      ui.send(command);
    } }, picker, h("label", { for: "bid-quantity" }, L.quantity, " ", qty),
    direction ? h("label", { for: "bid-direction" }, L.direction, " ", direction) : null,
    h("button", { type: "submit", class: "primary", id: "do-bid" }, label));
    qty.addEventListener("input", () => { ui.quantity = Number(qty.value); });
    box.append(form);
  }
  const buttons = h("div", { class: "action-buttons" });
  for (const kind of ["dudo", "calza", "paso", "salpicon", "deny"]) {
    if (!actions.includes(kind)) continue;
    const term = (T.terms || {})[kind];
    buttons.append(h("button", { type: "button", id: `do-${kind}`, class: `act act-${kind}`,
      title: term ? term[1] : null, onclick: () => ui.send({ type: kind }) }, L[kind]));
  }
  if (actions.includes("abandon")) {
    buttons.append(h("button", { type: "button", id: "do-abandon", class: "act quiet",
      onclick: () => { if (confirm(L.abandon_confirm)) ui.send({ type: "abandon" }); } }, L.abandon));
  }
  box.append(buttons);
  return box;
}

function currentBid(match) {
  const s = match.state;
  if (s.round && s.round.bid) return `${bidText(s.round.bid)} (${seatLabel(s.round.bid.by)})`;
  if (s.round) return L.no_bid;
  return null; // between rounds or after the match: the log and the end screen say what happened
}

export function renderBidding(root, match, ui) {
  root.replaceChildren();
  const board = h("div", { class: "board" });
  const bid = currentBid(match);
  const round = match.state.round;
  board.append(h("section", { class: "felt" },
    round ? h("p", { class: "round-no" }, fmt(L.round, { n: round.number })) : null,
    playersView(match, ui),
    bid === null ? null : h("div", { class: "current-bid", id: "current-bid" }, h("span", {}, L.current_bid, ": "),
      h("strong", {}, bid))));
  const side = h("div", { class: "side" }, myDice(match), controls(match, ui));
  board.append(side);
  root.append(board);
}

export function bannerText(match) {
  const round = match.state.round;
  if (!round || round.mode === "normal") return "";
  return L[`mode_${round.mode}`] || round.mode;
}

export function turnOf(match) {
  const s = match.state;
  if (s.phase === "over" || !s.round) return null;
  return s.round.to_act;
}

/** What the aria-live region says for an event (a resolution is announced by the reveal). */
export function announceEvent(frame) {
  const d = frame.d;
  if (frame.t === "bid_made") return fmt((T.events || {}).bid_made, { player: d.player, bid: bidWords(d.quantity, d.face) });
  if (frame.t === "player_abandoned" && d.winner) return fmt(L.winner, { name: d.winner });
  return "";
}

