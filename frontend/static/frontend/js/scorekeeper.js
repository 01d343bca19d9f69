// The scorekeeper screen of a physical table (docs/physical.md). The sheet comes from the
// server (GET /api/tables/<id>/sheet) and every confirmed entry goes back at once (POST
// …/entries), so a closed browser loses nothing. The engine decides what may be entered:
// the buttons are its legal choices (`options`), an entry being typed is judged by it
// (POST …/check) and a refusal is shown next to the entry in the rule's words. The screen
// holds no rule of its own; it only remembers the entry being built.
import { L, api, fmt, h } from "./api.js";
import { die } from "./dice.js";
import { collapsibleNav } from "./nav.js";
import { showTimeCall } from "./time-call.js";

const S = L.sk || {};
collapsibleNav();
const root = document.getElementById("sk");
const tableId = root.dataset.tableId;
const $ = (id) => document.getElementById(id);
const english = (document.documentElement.lang || "en").startsWith("en");

let sheet = null; // the sheet as the server last sent it
let draft = {}; // the entry being built (nothing of it is saved until it is confirmed)
let checking = 0; // the latest check asked for (older answers are dropped)
let sending = false;

const newId = () => (crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`).slice(0, 64);
const boxName = (box) => (L.boxes || {})[box] || box;
const signed = (n) => (n > 0 ? `+${n}` : String(n));

// A game whose seats keep a scoresheet (Cacho Alalay) is entered turn by turn; the others
// round by round. The engine says which (the match document's traits).
const keepsScoresheet = () => Boolean(sheet.match && sheet.match.traits && sheet.match.traits.scoresheet);

/** A refusal in the rule's words: the engine's own (English, with the names), or the
 * page language's sentence for that rule. */
function words(error) {
  const translated = (S.rules || {})[error.code];
  return !english && translated ? translated : error.message;
}

function refusal(error) {
  return h("p", { class: "sk-error", role: "alert", "data-code": error.code }, words(error));
}

// ---------------------------------------------------------------- talking to the server

async function load() {
  try {
    sheet = await api(`/api/tables/${tableId}/sheet`);
  } catch (e) {
    const box = $("sk-problem");
    box.hidden = false;
    box.textContent = e.status === 403 ? (e.code === "forbidden" ? S.not_keeper : e.message)
      : e.code === "table-not-physical" ? S.not_physical : e.message;
    root.dataset.loaded = "error";
    return;
  }
  render();
}

async function send(entry) {
  if (sending) return;
  sending = true;
  try {
    sheet = await api(`/api/tables/${tableId}/entries`, { method: "POST",
      body: { command_id: newId(), expected_version: sheet.version, ...entry } });
    draft = {};
    render();
  } catch (e) {
    if (e.code === "version-conflict") {
      draft = {};
      await load();
      showEntryError({ code: e.code, message: S.reloaded });
    } else {
      showEntryError(e);
    }
  } finally {
    sending = false;
  }
}

/** Ask the engine whether the entry being typed is legal; `target` shows its verdict. */
async function check(entry, target, onVerdict) {
  const asked = ++checking;
  target.replaceChildren(h("span", { class: "sk-checking" }, S.checking));
  try {
    await api(`/api/tables/${tableId}/check`, { method: "POST", body: entry });
    if (asked !== checking) return;
    target.replaceChildren(h("span", { class: "sk-legal" }, `✓ ${S.legal}`));
    onVerdict(true);
  } catch (e) {
    if (asked !== checking) return;
    target.replaceChildren(refusal(e));
    onVerdict(false);
  }
}

function showEntryError(error) {
  const box = $("sk-entry-error");
  if (!box) return;
  box.replaceChildren(refusal(error));
  box.hidden = false;
}

// ---------------------------------------------------------------- small controls

function choice(label, attrs, onclick) {
  return h("button", { type: "button", ...attrs, onclick }, label);
}

/** A pad of faces 1–6 and a clear key, for entering dice. */
function facePad(onFace, onClear) {
  return h("div", { class: "sk-pad", role: "group", "aria-label": L.face },
    [1, 2, 3, 4, 5, 6].map((face) => h("button", { type: "button", class: "sk-face", "data-face": face,
      "aria-label": String(face), onclick: () => onFace(face) }, die(face, { size: 34 }))),
    h("button", { type: "button", class: "sk-clear", onclick: onClear }, S.clear));
}

function diceRow(faces, size = 30) {
  return h("span", { class: "sk-dice" }, faces.map((face) => die(face, { size })));
}

function slots(faces, count) {
  const shown = [];
  for (let i = 0; i < count; i++) {
    shown.push(i < faces.length ? die(faces[i], { size: 28 }) : h("span", { class: "sk-slot", "aria-hidden": "true" }));
  }
  return h("span", { class: "sk-dice" }, shown);
}

function leaving(names) {
  if (!names || !names.length) return null;
  return h("details", { class: "sk-leave" }, h("summary", {}, S.someone_leaves),
    h("div", { class: "sk-choices" }, names.map((name) => {
      const armed = draft.leaving === name;
      return choice(fmt(armed ? S.leaves_confirm : S.leaves, { name }),
        { class: armed ? "danger" : "", "data-leave": name },
        () => { if (armed) send({ type: "abandon", by: name }); else { draft = { ...draft, leaving: name }; render(); } });
    })));
}

// ---------------------------------------------------------------- bidding: between rounds

function effect(outcome) {
  const parts = [];
  if (outcome.winner) parts.push(fmt(S.wins, { name: outcome.winner }));
  for (const name of outcome.eliminated) parts.push(fmt(S.is_out, { name }));
  if (outcome.next_starter) parts.push(fmt(S.opens_next, { name: outcome.next_starter }));
  return parts.join(" · ");
}

function resultLabel(outcome, dice) {
  if (outcome.call !== "calza") return fmt(S.loses, { name: outcome.loser });
  const change = outcome.dice_change[outcome.by] || 0;
  if (outcome.exact) return fmt(dice[outcome.by] === 5 ? S.calza_exact_five : S.calza_exact, { name: outcome.by });
  return fmt(S.calza_wrong, { name: outcome.by, n: -change });
}

function betweenRounds(options) {
  const next = options.next_round;
  const mode = draft.mode || "outcome";
  const parts = [
    h("p", { class: "sk-info", id: "sk-round-info" }, fmt(S.next_round,
      { n: next.number, name: next.starter, mode: (S.modes || {})[next.mode] || next.mode })),
    h("div", { class: "sk-tabs", role: "tablist" },
      choice(S.by_outcome, { role: "tab", "aria-selected": mode === "outcome", id: "sk-tab-outcome", class: mode === "outcome" ? "on" : "" },
        () => { draft = { mode: "outcome" }; render(); }),
      choice(S.enter_dice, { role: "tab", "aria-selected": mode === "dice", id: "sk-tab-dice", class: mode === "dice" ? "on" : "" },
        () => { draft = { mode: "dice", hands: {} }; render(); })),
  ];
  parts.push(...(mode === "outcome" ? outcomeSteps(options) : diceEntry(options)));
  if (options.state_at_time) parts.push(stateAtTimeForm(options.state_at_time));
  return parts;
}

// Time was called between two entries: the round under way may be entered by the dice each
// player holds once it ended (docs/physical.md, "At time"); the engine judges them.
function stateAtTimeForm(held) {
  const inputs = Object.entries(held).map(([name, count]) =>
    h("label", { class: "sk-at-time-player" }, `${name} `,
      h("input", { type: "number", min: "0", max: "5", value: String(count), "data-player": name, inputmode: "numeric" })));
  const form = h("form", { class: "sk-at-time", id: "sk-state-at-time" },
    h("p", { class: "sk-step" }, S.state_at_time), h("p", { class: "sk-info" }, S.state_at_time_help),
    ...inputs, h("button", { type: "submit", class: "primary" }, S.state_at_time_send));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const dice = {};
    form.querySelectorAll("input[data-player]").forEach((input) => { dice[input.dataset.player] = Number(input.value); });
    send({ type: "state-at-time", dice });
  });
  return form;
}

function outcomeSteps(options) {
  const outcomes = options.outcomes;
  const dice = options.dice;
  const directions = options.next_round.directions;
  const direction = draft.direction || directions[0];
  const calls = [...new Set(outcomes.map((o) => o.call))];
  const steps = [h("p", { class: "sk-step" }, S.what_call),
    h("div", { class: "sk-choices", id: "sk-calls" }, calls.map((call) => choice((S.calls || {})[call] || call,
      { "data-call": call, class: draft.call === call ? "on" : "", "aria-pressed": draft.call === call },
      () => { draft = { mode: "outcome", call, direction: draft.direction }; render(); })))];
  if (!draft.call) return steps;
  if (directions.length > 1) {
    steps.push(h("div", { class: "sk-choices sk-direction", role: "group", "aria-label": L.direction },
      directions.map((d) => choice(L[d] || d, { "data-direction": d, class: d === direction ? "on" : "", "aria-pressed": d === direction },
        () => { draft = { ...draft, direction: d, result: undefined }; render(); }))));
  }
  const mine = outcomes.filter((o) => o.call === draft.call && o.direction === direction);
  const callers = [...new Set(mine.map((o) => o.by))];
  steps.push(h("p", { class: "sk-step" }, S.who_called),
    h("div", { class: "sk-choices", id: "sk-callers" }, callers.map((by) => {
      const against = mine.find((o) => o.by === by).against;
      return choice([h("strong", {}, by), h("small", {}, ` ${fmt(S.against, { name: against })}`)],
        { "data-by": by, class: draft.by === by ? "on" : "", "aria-pressed": draft.by === by },
        () => { draft = { ...draft, by, result: undefined }; render(); });
    })));
  if (!draft.by) return steps;
  const results = mine.filter((o) => o.by === draft.by);
  steps.push(h("p", { class: "sk-step" }, S.what_happened),
    h("div", { class: "sk-choices sk-results", id: "sk-results" }, results.map((o, i) => {
      const on = draft.result === i;
      return choice([h("span", {}, resultLabel(o, dice)), h("small", {}, effect(o))],
        { "data-loser": o.loser ?? "", "data-exact": o.exact ?? "", class: on ? "on" : "", "aria-pressed": on },
        () => { draft = { ...draft, result: i }; render(); });
    })));
  if (draft.result !== undefined) {
    const o = results[draft.result];
    const entry = { type: "outcome", call: o.call, by: o.by, direction: o.direction };
    if (o.call === "calza") entry.exact = o.exact; else entry.loser = o.loser;
    steps.push(h("p", { class: "action-buttons" },
      choice(S.confirm_entry, { class: "primary", id: "sk-confirm-entry" }, () => send(entry))));
  }
  return steps;
}

function diceEntry(options) {
  const counts = options.dice;
  const names = Object.keys(counts);
  const hands = draft.hands || {};
  const active = draft.active && names.includes(draft.active) ? draft.active
    : names.find((n) => (hands[n] || []).length < counts[n]) || names[names.length - 1];
  const full = names.every((n) => (hands[n] || []).length === counts[n]);
  const verdict = h("div", { class: "sk-verdict", id: "sk-dice-verdict" });
  const confirm = choice(S.confirm_dice, { class: "primary", id: "sk-confirm-dice", disabled: !full },
    () => send({ type: "dice", dice: hands }));
  const rows = h("ul", { class: "sk-hands" }, names.map((name) => h("li", { class: name === active ? "on" : "", "data-hand": name },
    choice([h("span", { class: "who" }, name), slots(hands[name] || [], counts[name])],
      { class: "sk-hand", "aria-pressed": name === active }, () => { draft = { ...draft, active: name }; render(); }))));
  const pad = facePad((face) => {
    const hand = [...(hands[active] || [])];
    if (hand.length >= counts[active]) return;
    hand.push(face);
    const next = { ...hands, [active]: hand };
    draft = { ...draft, hands: next, active: hand.length === counts[active] ? undefined : active };
    render();
  }, () => { draft = { ...draft, hands: { ...hands, [active]: [] } }; render(); });
  if (full) check({ type: "dice", dice: hands }, verdict, (ok) => { confirm.disabled = !ok; });
  return [h("p", { class: "sk-help" }, S.dice_help), rows, pad, h("div", { class: "sk-send" }, confirm, verdict)];
}

// ---------------------------------------------------------------- bidding: a round in play

function roundInPlay(options, state) {
  const round = state.round;
  const legal = options.legal || { actions: [] };
  const who = options.to_act;
  const bid = round.bid;
  const parts = [h("p", { class: "sk-info", id: "sk-round-info" },
    `${fmt(L.round, { n: round.number })} · ${(S.modes || {})[round.mode] || round.mode} · `,
    h("strong", {}, fmt(S.to_act, { name: who }))),
  h("p", { class: "sk-bid" }, bid ? fmt(S.standing_bid, { q: bid.quantity, face: bid.face, name: bid.by }) : S.no_bid)];
  if (legal.actions.includes("bid")) parts.push(bidBuilder(legal, who));
  const calls = legal.actions.filter((a) => !["bid", "abandon"].includes(a));
  const outOfTurn = options.calza_out_of_turn || [];
  if (calls.length || outOfTurn.length) {
    parts.push(h("div", { class: "sk-choices sk-calls", id: "sk-calls" },
      calls.map((call) => choice(fmt((S.call_of || {})[call], { name: who }), { "data-call": call },
        () => send({ type: call, by: who }))),
      outOfTurn.map((name) => choice(fmt((S.call_of || {}).calza, { name }), { "data-call": "calza", "data-by": name },
        () => send({ type: "calza", by: name })))));
  }
  return parts;
}

function bidBuilder(legal, who) {
  const minimums = legal.bid_minimums || {};
  const faces = Object.keys(minimums).map(Number).filter((f) => minimums[f] !== null);
  const face = draft.face && faces.includes(draft.face) ? draft.face : null;
  const least = face ? minimums[face] : Math.min(...faces.map((f) => minimums[f]));
  const quantity = draft.quantity ?? least;
  const directions = legal.directions || null;
  const direction = draft.direction || (directions ? directions[0] : null);
  const verdict = h("div", { class: "sk-verdict", id: "sk-bid-verdict" });
  const entry = { type: "bid", by: who, quantity, face: face ?? 0 };
  if (direction) entry.direction = direction;
  const button = choice(face ? fmt(S.bid_of, { q: quantity, face }) : L.bid, { class: "primary", id: "sk-bid", disabled: !face },
    () => send(entry));
  const setQuantity = (q) => { draft = { ...draft, quantity: Math.max(1, q) }; render(); };
  const builder = h("div", { class: "sk-bidder" },
    h("div", { class: "sk-quantity", role: "group", "aria-label": S.quantity },
      choice("−", { "aria-label": S.less, id: "sk-less" }, () => setQuantity(quantity - 1)),
      h("output", { id: "sk-quantity", "aria-live": "polite" }, String(quantity)),
      choice("+", { "aria-label": S.more, id: "sk-more" }, () => setQuantity(quantity + 1))),
    h("div", { class: "sk-pad", role: "group", "aria-label": L.face }, faces.map((f) => h("button",
      { type: "button", class: `sk-face${f === face ? " on" : ""}`, "data-face": f, "aria-pressed": f === face,
        "aria-label": `${f} (${fmt(L.min_hint, { n: minimums[f] })})`,
        onclick: () => { draft = { ...draft, face: f, quantity: Math.max(draft.quantity ?? minimums[f], 1) }; render(); } },
      die(f, { size: 34 }), h("small", {}, `≥${minimums[f]}`)))),
    directions ? h("div", { class: "sk-choices sk-direction", role: "group", "aria-label": L.direction },
      directions.map((d) => choice(L[d] || d, { "data-direction": d, class: d === direction ? "on" : "", "aria-pressed": d === direction },
        () => { draft = { ...draft, direction: d }; render(); }))) : null,
    h("div", { class: "sk-send" }, button, verdict));
  if (face) check(entry, verdict, (ok) => { button.disabled = !ok; });
  return builder;
}

// ---------------------------------------------------------------- Alalay

function alalayTurn(options) {
  const legal = options.legal;
  const who = options.to_act;
  const parts = [h("p", { class: "sk-info", id: "sk-round-info" }, h("strong", {}, fmt(S.turn_of, { name: who })),
    legal.member && legal.member !== who ? ` · ${fmt(S.member, { name: legal.member })}` : "")];
  if (legal.throw) return [...parts, ...throwEntry(who)];
  if (legal.dice.length) parts.push(h("div", { class: "sk-thrown", id: "sk-thrown" }, legal.dice.map((face, position) => {
    const turnable = legal.turn.includes(position);
    const kept = (draft.keep || []).includes(position);
    if (legal.reroll) {
      return h("button", { type: "button", class: `die-button${kept ? " kept" : ""}`, "data-position": position, "aria-pressed": kept,
        onclick: () => { const keep = kept ? draft.keep.filter((p) => p !== position) : [...(draft.keep || []), position];
          draft = { ...draft, keep, rolled: [] }; render(); } }, die(face, { size: 40 }));
    }
    if (turnable) {
      return h("button", { type: "button", class: "die-button sk-turn", "data-position": position,
        "aria-label": fmt(S.turn_die, { face }), onclick: () => send({ type: "turn", by: who, position }) }, die(face, { size: 40 }));
    }
    return die(face, { size: 40 });
  })));
  if (legal.must_turn) parts.push(h("p", { class: "sk-help sk-must" }, S.must_turn));
  else if (legal.turn.length) parts.push(h("p", { class: "sk-help" }, S.turn_help));
  const hints = legal.hints || {};
  if (legal.score.length || legal.scratch.length) {
    parts.push(h("div", { class: "sk-choices sk-boxes", id: "sk-boxes" },
      legal.score.map((box) => choice(fmt(S.score_box, { box: boxName(box), n: hints[box] }), { "data-score": box },
        () => send({ type: "score", by: who, box }))),
      legal.scratch.map((box) => choice(fmt(S.scratch_box, { box: boxName(box) }), { "data-scratch": box, class: "quiet" },
        () => send({ type: "scratch", by: who, box })))));
  }
  if (legal.reroll) parts.push(...rerollEntry(legal, who));
  return parts;
}

function throwEntry(who) {
  const faces = draft.thrown || [];
  const verdict = h("div", { class: "sk-verdict", id: "sk-throw-verdict" });
  return [h("p", { class: "sk-help" }, S.throw_help), slots(faces, 5),
    facePad((face) => { if (faces.length < 5) { draft = { ...draft, thrown: [...faces, face] }; render(); } },
      () => { draft = { ...draft, thrown: [] }; render(); }),
    h("div", { class: "sk-send" }, choice(S.throw, { class: "primary", id: "sk-throw", disabled: !faces.length },
      () => send({ type: "throw", by: who, dice: faces })), verdict)];
}

function rerollEntry(legal, who) {
  const keepPositions = draft.keep || [];
  const keep = keepPositions.map((p) => legal.dice[p]);
  const rolled = draft.rolled || [];
  const count = 5 - keep.length;
  return [h("p", { class: "sk-help" }, S.keep_help), slots(rolled, count),
    facePad((face) => { if (rolled.length < count) { draft = { ...draft, rolled: [...rolled, face] }; render(); } },
      () => { draft = { ...draft, rolled: [] }; render(); }),
    h("div", { class: "sk-send" }, choice(S.reroll, { class: "primary", id: "sk-reroll", disabled: !rolled.length },
      () => send({ type: "reroll", by: who, keep, dice: rolled })))];
}

// ---------------------------------------------------------------- the rest of the screen

function undoBar() {
  const bar = $("sk-undo");
  const last = sheet.undo;
  bar.hidden = !last;
  if (!last) { bar.replaceChildren(); return; }
  const what = (S.undone_kinds || {})[last.type] || last.type;
  bar.replaceChildren(h("span", {}, fmt(S.last_entry, { what })),
    choice(S.undo, { id: "sk-undo-button", class: "quiet" }, () => send({ type: "undo" })));
}

function entryPanel() {
  const panel = $("sk-entry");
  const options = sheet.options || {};
  const state = sheet.match ? sheet.match.state : {};
  const body = [];
  if (state.paused) body.push(h("p", { class: "sk-info" }, fmt(S.paused, { reason: state.paused.reason })));
  else if (!sheet.over && !keepsScoresheet() && options.phase === "awaiting-dice") body.push(...betweenRounds(options));
  else if (!sheet.over && !keepsScoresheet() && state.round) body.push(...roundInPlay(options, state));
  else if (!sheet.over && keepsScoresheet() && options.legal) body.push(...alalayTurn(options));
  if (!sheet.over && !state.paused) body.push(leaving(options.abandon));
  body.push(h("div", { id: "sk-entry-error", hidden: true }));
  panel.hidden = sheet.over && !body.some((node) => node && node.id !== "sk-entry-error");
  panel.replaceChildren(...body.filter(Boolean));
}

function confirmPanel() {
  const panel = $("sk-confirm");
  panel.hidden = !sheet.over;
  if (!sheet.over) return;
  if (sheet.closed) {
    const names = new Map(sheet.seats.map((seat) => [seat.entry, seat.name]));
    const lines = [...(sheet.table.result || [])].sort((a, b) => a.placement - b.placement);
    panel.replaceChildren(h("p", { class: "sk-closed", id: "sk-closed" }, S.closed),
      h("ol", { class: "sk-result" }, lines.map((line) => h("li", { "data-entry": line.entry, "data-place": line.placement },
        `${line.placement}. ${names.get(line.entry) || ""}`))),
      h("a", { href: `/tournaments/${sheet.table.tournament.id}/` }, sheet.table.tournament.name));
    return;
  }
  const winner = sheet.outcome && sheet.outcome.winner;
  const reason = sheet.outcome && (L.win_reason || {})[sheet.outcome.win_reason];
  const atTime = sheet.outcome && sheet.outcome.time_called && sheet.outcome.time_called.placements;
  panel.replaceChildren(...[ // no winner (a table decided at time): its places, never "null"
    winner ? h("p", { class: "sk-winner", id: "sk-winner" },
      fmt(S.winner, { name: Array.isArray(winner) ? winner.join(", ") : winner }), reason ? ` · ${reason}` : "") : null,
    !winner && atTime ? h("p", { class: "sk-winner", id: "sk-places-at-time" }, fmt(S.places_at_time, { places: placesLine(atTime) })) : null,
    h("p", {}, S.over),
    h("ul", { class: "sk-confirmations" }, sheet.seats.filter((seat) => seat.confirms).map(confirmRow))].filter(Boolean));
}

/** "1. Ana, Caro · 3. Beto": the places of a table decided at time, sharing on equal dice. */
function placesLine(placements) {
  const byPlace = new Map();
  for (const [name, place] of Object.entries(placements)) byPlace.set(place, [...(byPlace.get(place) || []), name]);
  return [...byPlace].sort((a, b) => a[0] - b[0]).map(([place, names]) => `${place}. ${names.join(", ")}`).join(" · ");
}

function confirmRow(seat) {
  if (seat.confirmed) {
    return h("li", { "data-entry": seat.entry, class: "done" }, h("strong", {}, seat.name), ` ✓ ${S.confirmed}`);
  }
  const field = seat.account ? "password" : "name";
  const id = `sk-proof-${seat.entry}`;
  const input = h("input", { id, type: seat.account ? "password" : "text", autocomplete: seat.account ? "current-password" : "off",
    "data-proof": field });
  const error = h("div", { class: "sk-row-error" });
  const form = h("form", { class: "sk-confirm-row", "data-entry": seat.entry, onsubmit: async (event) => {
    event.preventDefault();
    try {
      const done = await api(`/api/tables/${tableId}/confirm`, { method: "POST", body: { entry: seat.entry, [field]: input.value } });
      sheet = done.sheet;
      render();
    } catch (e) {
      error.replaceChildren(refusal(e));
    }
  } },
  h("label", { for: id }, h("strong", {}, seat.name), " ",
    h("small", {}, fmt(seat.account ? S.password_of : S.type_name, { name: seat.name }))),
  input, h("button", { type: "submit", class: "primary" }, S.confirm), error);
  return h("li", { "data-entry": seat.entry }, form);
}

function biddingSheet() {
  const rounds = (sheet.record && sheet.record.rounds) || [];
  const results = (sheet.outcome && sheet.outcome.rounds) || [];
  const players = (sheet.match.state.players || []);
  const rows = rounds.map((round, i) => {
    const result = results[i] || {};
    let what;
    if (round.outcome) {
      const kind = round.outcome.at_time ? "at-time" : round.outcome.abandon ? "restart" : round.outcome.call;
      what = fmt((S.outcome_words || {})[kind], { by: round.outcome.by, against: round.outcome.against || "" });
    } else {
      const moves = (round.actions || []).filter((a) => a.by);
      const last = moves[moves.length - 1];
      const answered = moves.slice(0, -1).reverse().find((a) => a.bid || a.paso || a.salpicon);
      const kind = result.result;
      what = kind && last && (S.outcome_words || {})[kind]
        ? fmt(S.outcome_words[kind], { by: last.by, against: answered ? answered.by : "" }) : "…";
      if (round.dice) what = [h("span", {}, what), " ", h("span", { class: "sk-all-dice" },
        Object.entries(round.dice).map(([name, faces]) => h("span", { class: "hand" }, `${name} `, diceRow(faces, 16))))];
    }
    const change = Object.entries(result.dice_change || {}).map(([name, delta]) => fmt(S.change, { name, delta: signed(delta) })).join(", ");
    return h("tr", { "data-round": i + 1 }, h("td", {}, fmt(S.round_n, { n: i + 1 })), h("td", {}, what),
      h("td", {}, change), h("td", {}, result.next_starter || ""));
  });
  return [h("table", { class: "sk-counts" }, h("tbody", {}, h("tr", {}, players.map((p) =>
    h("td", { "data-player": p.name, class: p.out ? "out" : "" }, h("span", { class: "who" }, p.name), h("strong", {}, String(p.dice))))))),
  h("table", { class: "sk-rounds", id: "sk-rounds" }, h("tbody", {}, rows.reverse()))];
}

function alalaySheet() {
  const entries = sheet.match.state.entries || [];
  // every box of the card, in the engine's order (its view lists a card's boxes so)
  const boxes = Object.keys((entries[0] || {}).card || {});
  return [h("table", { class: "sk-card", id: "sk-card" },
    h("thead", {}, h("tr", {}, h("th", {}, ""), entries.map((e) => h("th", { "data-entry": e.name }, e.name)))),
    h("tbody", {}, boxes.map((box) => h("tr", { "data-box": box }, h("th", {}, boxName(box)),
      entries.map((e) => h("td", {}, e.card[box] === null ? "" : String(e.card[box]))))),
    h("tr", { class: "total" }, h("th", {}, S.total), entries.map((e) => h("td", { "data-total": e.name }, String(e.total))))))];
}

function sheetPanel() {
  const panel = $("sk-sheet");
  // Hidden while empty: the section is named by its heading, which only a match gives it.
  panel.hidden = !sheet.match;
  if (!sheet.match) { panel.replaceChildren(); return; }
  panel.replaceChildren(h("h2", { id: "sk-sheet-title" }, S.sheet),
    ...(keepsScoresheet() ? alalaySheet() : biddingSheet()));
}

function importPanel() {
  const panel = $("sk-import");
  panel.hidden = !sheet.can_import;
  $("sk-import-help").textContent = S.import_help;
  $("sk-import-button").textContent = S.import_button;
}

$("sk-import-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const error = $("sk-import-error");
  error.hidden = true;
  try {
    const file = $("sk-import-file").files[0];
    const body = JSON.parse(file ? await file.text() : $("sk-import-text").value);
    sheet = await api(`/api/tables/${tableId}/import`, { method: "POST", body });
    draft = {};
    render();
  } catch (e) {
    error.hidden = false;
    error.replaceChildren(e.code ? refusal(e) : String(e.message));
  }
});

function render() {
  const t = sheet.table;
  $("sk-where").replaceChildren(h("a", { href: `/tournaments/${t.tournament.id}/` }, t.tournament.name), " · ",
    fmt(S.table_round, { n: t.number, r: t.round }), " · ", h("span", { class: "sk-version", id: "sk-version" }, fmt(S.version, { n: sheet.version })));
  showTimeCall(sheet.match); // time called, then "decided at time" (docs/physical.md, "At time")
  undoBar();
  entryPanel();
  confirmPanel();
  sheetPanel();
  importPanel();
  root.dataset.version = sheet.version;
  root.dataset.loaded = "1";
}

load();
