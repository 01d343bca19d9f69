// Rounds at time on a table's page: the banner every table of the round shows once the
// director (or the round clock) has called time, from the engine's view of the match
// (`state.time_called`), so a reconnecting page shows it too. A module of its own, with no
// side effect: the round clock's module mounts itself where it is loaded.
import { L, fmt } from "./api.js";

const C = (L.evening && L.evening.clock) || {};

/** The banner of a table whose round is at time (`match.state.time_called` from the engine's
 * view): "Time has been called" with the rule that finishes the table, then "decided at time". */
export function showTimeCall(match, box = document.getElementById("time-called")) {
  if (!box) return;
  const called = match && match.state && match.state.time_called;
  box.hidden = !called;
  if (!called) { box.textContent = ""; return; }
  const policy = (C.policies || {})[called.policy] || called.policy;
  const text = fmt(called.decided_at_time ? C.decided_at_time_banner : C.time_called, { policy });
  if (box.textContent !== text) box.textContent = text;
  box.dataset.policy = called.policy;
  box.dataset.decided = called.decided_at_time ? "true" : "false";
}
