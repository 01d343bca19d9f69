// Table talk on the match page (docs/table-talk.md): the players' chat and the spectators'
// chat over the match's own socket (`chat`, `chat-history` frames); mute and report over the
// API. Every text goes in as text (h() sets textContent): nothing a player types is markup.
import { L, api, fmt, h, seatLabel } from "./api.js";

const T = L.talk || {};
const SHOWN = 100; // the newest messages drawn per chat

export class TableTalk {
  constructor(container, matchId, { send }) {
    this.root = container;
    this.matchId = matchId;
    this.send = send;
    this.messages = new Map();
    this.reported = new Set(); // ids this reader reported (the mark survives re-drawing)
    this.settings = null;
    this.channel = null;
    this.finished = false;
    this.seq = 0;
    if (container) this.build();
  }

  build() {
    this.title = h("h2", { id: "talk-title" }, T.title);
    this.tabs = h("div", { class: "talk-tabs", role: "group", "aria-label": T.title });
    this.note = h("div", { class: "talk-note", id: "talk-note", hidden: true });
    this.log = h("ol", { class: "talk-log", id: "talk-log", "aria-live": "polite", "aria-label": T.title });
    this.phrases = h("div", { class: "talk-phrases", role: "group", "aria-label": T.quick },
      Object.entries(T.phrases || {}).map(([key, text]) =>
        h("button", { type: "button", class: "talk-phrase", "data-phrase": key, onclick: () => this.post({ phrase: key }) },
          text)));
    this.input = h("input", { id: "talk-input", name: "text", type: "text", autocomplete: "off", maxlength: 280,
      "aria-describedby": "talk-error" });
    this.form = h("form", { class: "talk-form", id: "talk-form" },
      h("label", { for: "talk-input", class: "sr-only" }, T.message),
      this.input,
      h("button", { type: "submit", id: "talk-send" }, T.send));
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      const text = this.input.value.trim();
      if (text) this.post({ text });
    });
    this.error = h("p", { class: "error", id: "talk-error", role: "alert", hidden: true });
    this.composer = h("div", { class: "talk-composer", hidden: true }, this.phrases, this.form);
    this.root.replaceChildren(this.title, this.tabs, this.note, this.log, this.composer, this.error);
  }

  /** The socket (re)opened: ask for the history this viewer may read. */
  connected() {
    this.send({ t: "chat-history" });
  }

  /** Each new state of the match: at its end the players may read the spectators' chat. */
  matchState(match) {
    if (match && match.status === "finished" && !this.finished) {
      this.finished = true;
      if (this.settings) this.send({ t: "chat-history" });
    }
  }

  frame(frame) {
    if (!this.root) return;
    if (frame.t === "chat-history") {
      this.settings = frame.d.settings;
      this.messages = new Map(frame.d.messages.map((m) => [m.id, m]));
      if (!this.channel || !this.settings.reads.includes(this.channel)) {
        this.channel = this.settings.can_post[0] || this.settings.reads[0];
      }
      this.render();
    } else if (frame.t === "chat") {
      this.messages.set(frame.d.id, frame.d);
      if (frame.d.c === this.channel) this.render();
    } else if (frame.t === "chat-ack") {
      if (frame.ok) {
        if (frame.id === this.pending) this.input.value = "";
        this.error.hidden = true;
      } else {
        this.showError(frame.message || frame.code);
      }
    }
  }

  post(body) {
    if (!this.settings) return;
    this.pending = `t${Date.now().toString(36)}-${(this.seq += 1)}`;
    this.send({ t: "chat", id: this.pending, c: this.channel, ...body });
  }

  showError(text) {
    this.error.hidden = false;
    this.error.textContent = text;
  }

  muted() {
    return new Set((this.settings && this.settings.muted) || []);
  }

  render() {
    const s = this.settings;
    if (!s) return;
    this.tabs.replaceChildren(...(s.reads.length < 2 ? [] : s.reads).map((channel) =>
      h("button", { type: "button", class: "talk-tab", "data-channel": channel,
        "aria-pressed": channel === this.channel ? "true" : "false",
        onclick: () => { this.channel = channel; this.render(); } },
      T[channel])));
    this.tabs.hidden = s.reads.length < 2;
    const writable = s.can_post.includes(this.channel);
    this.composer.hidden = !writable;
    let note = "";
    if (this.channel === "players" && !s.player_chat) note = T.off;
    else if (!writable && this.channel === "spectators") note = T.sign_in;
    if (s.seat && !s.reads.includes("spectators")) note = [note, T.hidden].filter(Boolean).join(" ");
    if (s.muted.length) note = [note, fmt(T.muted_note, { names: s.muted.join(", ") })].filter(Boolean).join(" ");
    this.note.hidden = !note;
    this.note.replaceChildren(note, ...s.muted.map((seat) => h("button", { type: "button",
      class: "talk-action talk-unmute", "data-unmute": seat, onclick: () => this.mute(seat, false) },
    fmt(T.unmute, { name: seat }))));
    const muted = this.muted();
    const shown = [...this.messages.values()]
      .filter((m) => m.c === this.channel && !(m.seat && muted.has(m.seat)))
      .sort((a, b) => a.id - b.id)
      .slice(-SHOWN);
    this.log.replaceChildren(...(shown.length ? shown.map((m) => this.item(m))
      : [h("li", { class: "talk-empty" }, T.empty)]));
    this.log.scrollTop = this.log.scrollHeight;
  }

  mine(m) {
    const s = this.settings;
    return Boolean(s.seat ? m.seat === s.seat : false);
  }

  item(m) {
    const s = this.settings;
    const text = m.phrase ? ((T.phrases || {})[m.phrase] || m.phrase) : m.text;
    const actions = [];
    if (this.reported.has(m.id)) {
      actions.push(h("span", { class: "talk-reported" }, T.reported));
    } else if (s.can_report && !this.mine(m)) {
      actions.push(h("button", { type: "button", class: "talk-action talk-report", "data-report": m.id,
        "aria-label": fmt(T.report_label, { name: m.author }), onclick: (e) => this.report(m, e.currentTarget) },
      T.report));
    }
    if (s.seat && m.seat && m.seat !== s.seat) {
      actions.push(h("button", { type: "button", class: "talk-action talk-mute", "data-mute": m.seat,
        onclick: () => this.mute(m.seat) }, fmt(T.mute, { name: m.seat })));
    }
    return h("li", { class: `talk-message${m.phrase ? " phrase" : ""}`, "data-message": m.id, "data-channel": m.c },
      h("span", { class: "talk-author" }, m.seat ? seatLabel(m.seat) : m.author), " ",
      h("span", { class: "talk-text" }, text),
      actions.length ? h("span", { class: "talk-actions" }, ...actions) : null);
  }

  async report(m, button) {
    try {
      await api(`/api/matches/${this.matchId}/chat/reports`, { method: "POST", body: { message: m.id } });
      this.reported.add(m.id);
      button.replaceWith(h("span", { class: "talk-reported", role: "status" }, T.reported));
    } catch (error) {
      this.showError(error.message);
    }
  }

  async mute(seat, muted = true) {
    try {
      const answer = await api(`/api/matches/${this.matchId}/chat/mutes`, { method: "POST", body: { seat, muted } });
      this.settings.muted = answer.muted;
      this.render();
    } catch (error) {
      this.showError(error.message);
    }
  }
}
