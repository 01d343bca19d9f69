// A round played again after a referee voided one: round numbers never repeat (nor do their
// dice scopes), so after "void round 3" the next round is round 4, and it replays round 3.
// Every page that lists rounds (the table's log, the replay, the referee's review) says so.
import { L, fmt } from "./api.js";

/** Mark each `round_started` frame that replays a voided round with `frame.replays`: the
 * number of that round (frames in version order; the marks are the page's, never sent). */
export function markReplays(frames) {
  let voided = null;
  for (const frame of frames) {
    if (frame.t === "round_voided") voided = frame.d.round;
    else if (frame.t === "round_started") {
      if (voided !== null) frame.replays = voided;
      voided = null;
    }
  }
  return frames;
}

/** "Round 4 — replays round 3", or `plain` (the page's own "Round 4"). */
export function roundTitle(frame, plain) {
  return frame.replays ? fmt(L.round_replays, { n: frame.d.number, of: frame.replays }) : plain;
}
