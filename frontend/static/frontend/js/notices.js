// The notices' bell on every page of a signed-in player: the list from the API
// (GET /api/me/notices), a nudge over /ws/notices/ when one arrives, read once the menu is
// opened. It also registers the site's service worker (browser push) and, on a match page,
// says when the tab hides and shows (the "your turn" notice is for a hidden tab).
import { api, h } from "./api.js";

const root = document.getElementById("notices");

function render(data) {
  const count = document.getElementById("notices-count");
  const list = document.getElementById("notices-list");
  const empty = document.getElementById("notices-empty");
  count.textContent = String(data.unread);
  count.hidden = data.unread === 0;
  document.getElementById("notices-count-label").hidden = data.unread === 0;
  list.replaceChildren(
    ...data.notices.map((notice) =>
      h(
        "li",
        { class: notice.read ? "read" : "unread", "data-kind": notice.kind },
        h(
          "a",
          { href: notice.link || "#" },
          h("span", { class: "notice-title" }, notice.title),
          h("span", { class: "notice-body" }, notice.body),
        ),
      ),
    ),
  );
  empty.hidden = data.notices.length > 0;
}

let latest = { unread: 0, notices: [] };

async function refresh() {
  try {
    latest = await api("/api/me/notices");
    render(latest);
  } catch {
    // The bell waits for the next nudge; the page itself is not concerned.
  }
}

async function markRead() {
  const ids = latest.notices.filter((n) => !n.read).map((n) => n.id);
  if (!ids.length) return;
  try {
    const answer = await api("/api/me/notices/read", { method: "POST", body: { ids } });
    const count = document.getElementById("notices-count");
    count.textContent = String(answer.unread);
    count.hidden = answer.unread === 0;
    document.getElementById("notices-count-label").hidden = answer.unread === 0;
  } catch {
    // Still unread: shown again next time.
  }
}

function bell() {
  const button = document.getElementById("notices-button");
  const menu = document.getElementById("notices-menu");
  function close() {
    menu.hidden = true;
    button.setAttribute("aria-expanded", "false");
  }
  button.addEventListener("click", () => {
    const open = menu.hidden;
    menu.hidden = !open;
    button.setAttribute("aria-expanded", String(open));
    if (open) markRead();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !menu.hidden) {
      close();
      button.focus();
    }
  });
  document.addEventListener("click", (event) => {
    if (!menu.hidden && !root.contains(event.target)) close();
  });
}

function listen() {
  let backoff = 1000;
  function open() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/notices/`);
    ws.onopen = () => { backoff = 1000; root.dataset.live = "1"; refresh(); };
    ws.onmessage = (message) => {
      const frame = JSON.parse(message.data);
      if (frame.t === "notice") refresh();
    };
    ws.onclose = (event) => {
      delete root.dataset.live;
      if (event.code === 4401) return; // signed out
      setTimeout(open, backoff);
      backoff = Math.min(backoff * 2, 30000);
    };
  }
  open();
}

function hiddenTab() {
  const match = location.pathname.match(/^\/matches\/([0-9a-f-]{36})\/$/);
  if (!match) return;
  const say = (hidden) =>
    fetch("/api/me/hidden-tab", {
      method: "POST",
      keepalive: true,
      credentials: "same-origin",
      headers: {
        "Content-Type": "application/json",
        "X-CSRFToken": document.querySelector('meta[name="csrf-token"]')?.content || "",
      },
      body: JSON.stringify({ match: match[1], hidden }),
    }).catch(() => {});
  document.addEventListener("visibilitychange", () => say(document.hidden));
  if (!document.hidden) say(false); // a tab that was hidden and reloaded
}

if (root) {
  bell();
  refresh();
  listen();
  hiddenTab();
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});
}
