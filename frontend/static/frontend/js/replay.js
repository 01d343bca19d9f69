// Step-by-step replay of a match from its public events (revealed dice at each resolution,
// with the dice that counted for the bid marked as in the live reveal). A scrub bar and the
// move list side by side, grouped by round (Alalay: by turn) with a jump to any of them. The
// URL keeps the step (`#v=42`, the event's version), so a copied link opens at that moment.
import { L, api, fmt, h, setSeatLabels, showError } from "./api.js";
import { detail } from "./steps.js";
import { term, words } from "./replay-words.js";
import { markReplays, roundTitle } from "./replays.js";

const R = L.replay_page;
const $ = (id) => document.getElementById(id);
const section = $("replay");
const matchId = section.dataset.matchId;
let events = [];
let groups = []; // [{label, start}] in event order
let index = 0;


/** Rounds (bidding) or turns (Alalay, one per throw of all five dice) and where each starts. */
function grouping(list) {
  const out = [];
  let turns = 0;
  const byTurn = list.some((f) => f.t === "dice_thrown");
  list.forEach((f, i) => {
    if (f.t === "round_started" || f.t === "round_recorded") out.push({ label: roundTitle(f, fmt(R.round_n, { n: f.d.number })), start: i });
    // An Alalay turn starts with its throw, or with the timeout that plays it automatically.
    const opens = f.t === "turn_timed_out" || (f.t === "dice_thrown" && list[i - 1]?.t !== "turn_timed_out");
    if (byTurn && opens) { turns += 1; out.push({ label: fmt(R.turn_n, { n: turns }), start: i }); }
  });
  if (!out.length || out[0].start > 0) out.unshift({ label: byTurn ? R.start_turns : R.start, start: 0 });
  return out;
}

const groupOf = (i) => groups.reduce((found, g, k) => (g.start <= i ? k : found), 0);

function buildMoves() {
  const log = $("r-log");
  log.replaceChildren(...groups.map((g, k) => {
    const end = k + 1 < groups.length ? groups[k + 1].start : events.length;
    const items = events.slice(g.start, end).map((f, j) => h("li", { "data-v": f.v, "data-i": g.start + j },
      h("a", { href: `#v=${f.v}` }, words(f))));
    return h("li", { class: "move-group", "data-group": k }, h("h3", {}, g.label), h("ol", {}, items));
  }));
  $("r-round").replaceChildren(...groups.map((g, k) => h("option", { value: k }, g.label)));
  $("r-round-label").textContent = events.some((f) => f.t === "dice_thrown") ? R.jump_turn : R.jump_round;
  const scrub = $("r-scrub");
  scrub.max = String(Math.max(events.length, 1));
}

function markCurrent() {
  const log = $("r-log");
  for (const item of log.querySelectorAll("li[data-v]")) {
    const i = Number(item.dataset.i);
    item.classList.toggle("current", i === index);
    item.classList.toggle("future", i > index);
    const link = item.querySelector("a");
    if (i === index) link.setAttribute("aria-current", "step"); else link.removeAttribute("aria-current");
  }
  // Keep the current move in sight inside the list, without scrolling the page itself.
  const current = log.querySelector("li.current");
  if (current) {
    const top = current.getBoundingClientRect().top - log.getBoundingClientRect().top + log.scrollTop;
    if (top < log.scrollTop || top + current.offsetHeight > log.scrollTop + log.clientHeight) {
      log.scrollTop = Math.max(0, top - log.clientHeight / 3);
    }
  }
}

function show() {
  if (!events.length) { $("r-pos").textContent = L.none; return; }
  index = Math.max(0, Math.min(index, events.length - 1));
  const frame = events[index];
  const position = fmt(L.step, { i: index + 1, n: events.length });
  $("r-pos").textContent = position;
  const scrub = $("r-scrub");
  scrub.value = String(index + 1);
  scrub.setAttribute("aria-valuetext", `${position}: ${words(frame)}`);
  $("r-round").value = String(groupOf(index));
  $("r-step").replaceChildren(detail(frame));
  section.dataset.version = String(frame.v);
  for (const [id, off] of [["r-first", index === 0], ["r-prev", index === 0],
    ["r-next", index === events.length - 1], ["r-last", index === events.length - 1]]) $(id).disabled = off;
  markCurrent();
  if (location.hash !== `#v=${frame.v}`) history.replaceState(null, "", `#v=${frame.v}`);
}

function go(i) { index = i; show(); }

/** The step a `#v=42` hash names: that event, else the last one before it. */
function fromHash() {
  const wanted = Number((/^#v=(\d+)$/.exec(location.hash) || [])[1]);
  if (!wanted) return null;
  let found = 0;
  events.forEach((f, i) => { if (f.v <= wanted) found = i; });
  return found;
}

$("r-first").addEventListener("click", () => go(0));
$("r-prev").addEventListener("click", () => go(index - 1));
$("r-next").addEventListener("click", () => go(index + 1));
$("r-last").addEventListener("click", () => go(events.length - 1));
$("r-scrub").addEventListener("input", (e) => go(Number(e.target.value) - 1));
$("r-round").addEventListener("change", (e) => go(groups[Number(e.target.value)].start));
window.addEventListener("hashchange", () => { const i = fromHash(); if (i !== null) go(i); });
document.addEventListener("keydown", (e) => {
  if (e.target.closest("input, textarea, select")) return;
  if (e.key === "ArrowRight") go(index + 1);
  if (e.key === "ArrowLeft") go(index - 1);
});

$("r-copy").addEventListener("click", async () => {
  const url = `${location.origin}${location.pathname}#v=${events[index]?.v ?? 0}`;
  const status = $("r-copied");
  try {
    await navigator.clipboard.writeText(url);
    status.replaceChildren(R.copied);
  } catch {
    // No clipboard (an insecure page, a refused permission): the link, selected, to copy by hand.
    const field = h("input", { type: "text", readonly: true, value: url, "aria-label": R.copy_link, size: 40 });
    status.replaceChildren(`${R.copy_failed} `, field);
    field.select();
  }
  status.dataset.url = url;
});

/** The rule terms the game uses, as its engine lists them (`traits.terms`). */
function glossary(keys) {
  $("r-glossary").replaceChildren(...keys.flatMap((key) => {
    const [name, text] = term(key);
    return [h("dt", { "data-term": key }, name), h("dd", {}, text)];
  }));
}

/** The record as a file: `cacho-<ruleset>-<date>-<first 8 of the id>.json`, once finished. */
function download(match) {
  const finished = match.status === "finished";
  $("r-download").hidden = !finished;
  $("r-no-record").hidden = finished;
  if (!finished) return;
  const first = events[0];
  const day = first ? new Date(first.at).toISOString().slice(0, 10) : "";
  const name = ["cacho", match.ruleset, day, matchId.slice(0, 8)].filter(Boolean).join("-");
  $("r-download").setAttribute("download", `${name}.json`);
}

/** A match decided at time (docs/rules.md §9.1) says so beside the title: the bidding games'
 * decision event, or Alalay's end with the reason "at-time". */
function atTimeMark() {
  const decided = events.some((f) => f.t === "decided_at_time" || (f.t === "match_ended" && f.d && f.d.reason === "at-time"));
  const title = section.querySelector("h1");
  if (!decided || !title || title.querySelector("[data-at-time]")) return;
  title.append(" ", h("span", { class: "badge at-time", "data-at-time": "true" }, R.decided_at_time));
}

async function load() {
  let after = 0;
  const match = api(`/api/matches/${matchId}`);
  for (;;) { // the API pages by 1000
    const page = await api(`/api/matches/${matchId}/events?after=${after}`);
    events = events.concat(page.events);
    if (!page.events.length || events[events.length - 1].v >= page.version) break;
    after = events[events.length - 1].v;
  }
  const m = await match;
  setSeatLabels(m.seats); // before any sentence names a seat
  groups = grouping(markReplays(events));
  buildMoves();
  atTimeMark();
  glossary(m.traits.terms);
  download(m);
  index = fromHash() ?? 0;
  show();
  section.dataset.loaded = String(events.length);
}
load().catch((e) => showError($("error"), e));
