// An open table's seats and facts, drawn the same in the lobby and on the table's page:
// players by name, bots marked as bots (a badge with words) with their strength.
import { L, fmt, h } from "./api.js";

export const O = L.open || {};

export function facts(table) {
  return [
    table.rated ? O.rated : O.casual,
    table.private ? O.private : null,
    fmt(O.turn, { n: table.turn_seconds }),
    fmt(O.host, { name: table.host }),
  ].filter(Boolean).join(" · ");
}

export function seatItems(table) {
  return table.seats.map((seat) => {
    if (seat.player) return h("li", { "data-seat": seat.index }, seat.player);
    if (seat.bot) {
      return h("li", { "data-seat": seat.index, "data-bot": seat.bot },
        h("span", { class: "badge bot" }, O.bot), " ", (O.bots || {})[seat.bot] || seat.bot);
    }
    return h("li", { "data-seat": seat.index, class: "empty" }, fmt(O.seat, { n: seat.index + 1 }), " — ", O.free);
  });
}

export function socketUrl(path) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${location.host}${path}`;
}

/** Follow `/ws/tables/…`: `onFrame(frame)` for each frame, reconnecting with backoff. */
export function follow(path, onFrame) {
  let backoff = 1000;
  function open() {
    const ws = new WebSocket(socketUrl(path));
    ws.onopen = () => { backoff = 1000; };
    ws.onmessage = (message) => onFrame(JSON.parse(message.data));
    ws.onclose = () => { setTimeout(open, backoff); backoff = Math.min(backoff * 2, 30000); };
  }
  open();
}
