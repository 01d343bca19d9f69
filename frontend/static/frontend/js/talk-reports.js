// The moderation queue of table talk (docs/table-talk.md): GET /api/talk/reports lists the
// reports of the caller's queues (their clubs', the casual tables' for a site moderator), each
// with the messages around the reported one; a moderator dismisses it or marks it acted on.
import { L, api, fmt, h, showError } from "./api.js";

const Q = L.queue || {};
const list = document.getElementById("talk-reports");
const status = document.getElementById("talk-queue-status");
const errorBox = document.getElementById("error");
const filter = document.getElementById("talk-status");

function said(m) {
  return m.phrase ? ((Q.phrases || {})[m.phrase] || m.phrase) : m.text;
}

function card(report) {
  const title = `${report.queue === "club" ? Q.club : Q.site} · ${Q[report.message.c] || report.message.c}`;
  const context = h("ol", { class: "talk-context", "aria-label": Q.around },
    report.context.map((m) => h("li", { class: m.id === report.message.id ? "reported" : "" },
      h("span", { class: "talk-author" }, m.author), " ", h("span", {}, said(m)))));
  const body = [
    h("h2", {}, h("span", { class: "talk-author" }, report.message.author), " ", said(report.message)),
    h("p", { class: "help" }, title, " · ", fmt(Q.reported_by, { name: report.reporter }),
      " · ", (Q.statuses || {})[report.status] || report.status),
    report.reason ? h("p", {}, fmt(Q.reason, { reason: report.reason })) : null,
    context,
    h("p", {}, h("a", { href: `/matches/${report.match}/` }, Q.table)),
  ];
  if (report.status === "open") {
    const noteId = `talk-note-${report.id}`;
    const note = h("input", { id: noteId, type: "text", maxlength: 500, placeholder: Q.note });
    const resolve = async (outcome) => {
      try {
        await api(`/api/talk/reports/${report.id}/resolve`, { method: "POST", body: { outcome, note: note.value } });
        await load();
      } catch (error) {
        showError(errorBox, error);
      }
    };
    body.push(h("div", { class: "talk-resolve" },
      h("label", { for: noteId, class: "sr-only" }, Q.note), note,
      h("button", { type: "button", "data-resolve": "dismissed", onclick: () => resolve("dismissed") }, Q.dismiss),
      h("button", { type: "button", class: "primary", "data-resolve": "acted", onclick: () => resolve("acted") },
        Q.act)));
  }
  return h("li", { class: "talk-report-card", "data-report": report.id }, ...body);
}

async function load() {
  try {
    const { reports } = await api(`/api/talk/reports?status=${encodeURIComponent(filter.value)}`);
    list.replaceChildren(...reports.map(card));
    status.textContent = reports.length ? "" : Q.empty;
    errorBox.hidden = true;
  } catch (error) {
    status.textContent = "";
    showError(errorBox, error);
  }
}

filter.addEventListener("change", load);
load();
