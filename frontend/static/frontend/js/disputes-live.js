// Disputes as they change: /ws/disputes/ says that one changed, the API says what it is now.
// `watchQueue` is the referee queue's one source (the queue page, and any page that shows it).
import { api } from "./api.js";

/**
 * `onChange(frame)` on every `{"t": "dispute", id, status}` of /ws/disputes/ (the disputes of
 * the clubs the user referees and the user's own), reconnecting with backoff. Returns a stop
 * function. A nudge only: the pages fetch what changed from the API.
 */
export function disputeNotices(onChange) {
  let ws = null;
  let stopped = false;
  let backoff = 1000;
  function open() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    ws = new WebSocket(`${scheme}://${location.host}/ws/disputes/`);
    ws.onopen = () => { backoff = 1000; };
    ws.onmessage = (message) => {
      const frame = JSON.parse(message.data);
      if (frame.t === "dispute") onChange(frame);
    };
    ws.onclose = () => {
      if (stopped) return;
      setTimeout(open, backoff);
      backoff = Math.min(backoff * 2, 30000);
    };
  }
  open();
  return () => { stopped = true; ws?.close(); };
}

/**
 * Watch the queue: `onQueue(disputes)` on each change, `onError(error)` when a fetch fails
 * (the watch goes on). Reads the queue at once when /ws/disputes/ says a dispute changed, and
 * every 15 s besides (a socket that reconnects may have missed a notice). Returns a function
 * that stops the watch.
 */
export function watchQueue(onQueue, onError = () => {}, { every = 15000 } = {}) {
  let last = null;
  let stopped = false;
  let timer = null;
  let busy = false;
  async function poll() {
    clearTimeout(timer);
    if (busy) return;
    busy = true;
    try {
      const data = await api("/api/disputes?status=open");
      const text = JSON.stringify(data.disputes);
      if (text !== last) {
        last = text;
        onQueue(data.disputes);
      }
    } catch (error) {
      onError(error);
    } finally {
      busy = false;
    }
    if (!stopped) timer = setTimeout(poll, every);
  }
  const unsubscribe = disputeNotices(() => poll());
  poll();
  return () => { stopped = true; clearTimeout(timer); unsubscribe(); };
}
