// The match websocket: versions checked in order, `sync` on a gap, reconnection with backoff
// that resumes from the last version seen (no reload).
export class MatchSocket {
  constructor(matchId, handlers) {
    this.matchId = matchId;
    this.h = handlers;
    this.version = 0;
    this.backoff = 500;
    this.seq = 0;
    this.stateTimer = null;
    this.shown = null; // the last state's document, which a frame carrying a view updates
    this.closedByUs = false;
    this.open();
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    // views=1: the view after each write comes in its last frame, for a spectator too
    return `${scheme}://${location.host}/ws/matches/${this.matchId}/?views=1`;
  }

  open() {
    this.h.status?.("connecting");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      this.backoff = 500;
      this.h.status?.("connected");
      if (this.version > 0) this.send({ t: "sync", v: this.version });
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.send({ t: "ping" }), 30000);
    };
    ws.onmessage = (message) => this.receive(JSON.parse(message.data));
    ws.onclose = (event) => {
      clearInterval(this.pinger);
      if (this.closedByUs || event.code === 4404) {
        if (event.code === 4404) this.h.status?.("missing");
        return;
      }
      this.h.status?.("reconnecting");
      setTimeout(() => this.open(), this.backoff);
      this.backoff = Math.min(this.backoff * 2, 10000);
    };
  }

  send(frame) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(frame));
      return true;
    }
    return false;
  }

  command(d) {
    const id = `c${Date.now().toString(36)}-${(this.seq += 1)}`;
    this.send({ t: "command", id, v: this.version, d });
    return id;
  }

  requestState() {
    clearTimeout(this.stateTimer);
    this.stateTimer = setTimeout(() => this.send({ t: "state" }), 40);
  }

  receive(frame) {
    switch (frame.t) {
      case "state":
        this.version = frame.v;
        this.shown = frame.d;
        this.h.state?.(frame.d, frame.v);
        return;
      case "ack":
        this.h.ack?.(frame);
        return;
      case "presence":
        this.h.presence?.(frame.d);
        return;
      case "pong":
        return;
      case "chat": // table talk (talk.js): no version, not an event of the match
      case "chat-history":
      case "chat-ack":
        this.h.chat?.(frame);
        return;
      case "error":
        this.h.error?.(frame);
        return;
      default:
        if (typeof frame.v !== "number") return;
        if (frame.v <= this.version) return; // already seen
        if (frame.v !== this.version + 1) { // a gap: ask for what is missing
          this.send({ t: "sync", v: this.version });
          return;
        }
        this.version = frame.v;
        this.h.event?.(frame);
        if (frame.state && this.shown) this.stateFrom(frame);
        else this.requestState(); // the server's view (legal actions included) after the events
    }
  }

  /** The frame that puts this player on turn carries their view, the match's status and its
   * deadline: the state is that, and no request goes to the server (one round trip sooner). */
  stateFrom(frame) {
    clearTimeout(this.stateTimer); // an earlier event's request is answered by this frame
    this.shown = { ...this.shown, version: frame.v, state: frame.state,
      status: frame.status ?? this.shown.status,
      deadline: frame.deadline === undefined ? this.shown.deadline : frame.deadline };
    this.h.state?.(this.shown, frame.v);
  }

  close() {
    this.closedByUs = true;
    this.ws?.close();
  }
}
