// A new club, and a club's management page: its details, members (added by username or by
// email, each with every role held, changed or removed on their row), pending invitations and
// the club's log in words. Everything through the API; errors beside what caused them.
import { L, api, fmt, h } from "./api.js";
import { clearErrors, showAt, showInForm } from "./errors.js";

const C = (L.evening && L.evening.club) || {};
const roleName = (code) => (L.roles && L.roles[code]) || code;
const $ = (id) => document.getElementById(id);

// ---------------------------------------------------------------- a new club

const newClub = $("new-club");
if (newClub) {
  newClub.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors(newClub);
    const body = { name: $("nc-name").value.trim(), description: $("nc-description").value.trim() };
    if ($("nc-slug").value.trim()) body.slug = $("nc-slug").value.trim();
    try {
      const club = await api("/api/clubs", { method: "POST", body });
      window.location.assign(`/clubs/${club.id}/manage/`);
    } catch (e) {
      showInForm(newClub, e, $("nc-error"),
        { "club-name-invalid": "nc-name", "club-slug-invalid": "nc-slug", "club-slug-taken": "nc-slug" });
    }
  });
  newClub.dataset.ready = "1";
}

// ---------------------------------------------------------------- managing a club

const section = $("club-manage");
const clubId = section && section.dataset.clubId;
const me = section ? section.dataset.me : "";

function logLine(e) {
  const p = e.payload || {};
  const words = C.log || {};
  const actor = e.actor_name || C.system;
  const values = { actor, user: p.username || "", role: roleName(p.role), email: p.email || "" };
  if (e.type === "club-updated") {
    values.fields = Object.keys(p.to || {}).map((k) => (C.fields || {})[k] || k).join(", ");
  }
  if (e.type === "roles-changed") values.roles = (p.roles || []).map(roleName).join(", ") || C.no_roles;
  let template = words[e.type] || e.type;
  if (e.type === "member-removed" && e.actor_name === p.username) template = words.left;
  return fmt(template, values);
}

function memberRow(member, mine) {
  const boxes = (L.roles ? Object.keys(L.roles) : []).map((code) => h("label", { class: "role-box" },
    h("input", { type: "checkbox", "data-role": code, checked: member.roles.includes(code) }), " ", roleName(code)));
  const error = h("span", { class: "error row-error", role: "alert", hidden: true });
  const save = h("button", { type: "button", class: "small save-roles" }, C.save_roles);
  const remove = h("button", { type: "button", class: "small quiet remove" }, C.remove);
  const row = h("tr", { "data-member": member.username },
    h("th", { scope: "row" }, member.username, mine ? ` ${C.you}` : "",
      h("div", { class: "help" }, fmt(C.member_since, { when: new Date(member.since).toLocaleDateString() }))),
    h("td", {}, h("fieldset", { class: "role-boxes" }, h("legend", { class: "sr-only" }, fmt(C.roles_of, { name: member.username })), boxes)),
    h("td", { class: "row-actions" }, save, " ", remove, error));
  save.addEventListener("click", async () => {
    clearErrors(row);
    const roles = [...row.querySelectorAll("input[data-role]:checked")].map((i) => i.dataset.role);
    try {
      await api(`/api/clubs/${clubId}/members/${encodeURIComponent(member.username)}`, { method: "PUT", body: { roles } });
      await load();
    } catch (e) { showAt(error, e); }
  });
  remove.addEventListener("click", async () => {
    if (!window.confirm(fmt(C.remove_confirm, { name: member.username }))) return;
    clearErrors(row);
    try {
      await api(`/api/clubs/${clubId}/members/${encodeURIComponent(member.username)}`, { method: "DELETE" });
      await load();
    } catch (e) { showAt(error, e); }
  });
  return row;
}

function invitationItem(invitation) {
  const error = h("span", { class: "error row-error", role: "alert", hidden: true });
  const cancel = h("button", { type: "button", class: "small quiet" }, C.cancel_invitation);
  const item = h("li", { "data-invitation": invitation.id }, h("strong", {}, invitation.email), ` · ${roleName(invitation.role)} `, cancel, error);
  cancel.addEventListener("click", async () => {
    clearErrors(item);
    try {
      await api(`/api/clubs/${clubId}/invitations/${invitation.id}`, { method: "DELETE" });
      await load();
    } catch (e) { showAt(error, e); }
  });
  return item;
}

async function load() {
  const club = await api(`/api/clubs/${clubId}`);
  $("cm-title").textContent = club.name;
  document.title = `${club.name} · Cacho`;
  let people;
  try {
    people = await api(`/api/clubs/${clubId}/members`);
  } catch (e) {
    showAt($("cm-denied"), e);
    section.dataset.ready = "1";
    return;
  }
  const [events] = await Promise.all([api(`/api/clubs/${clubId}/log`)]);
  $("cm-body").hidden = false;
  $("cm-people").hidden = false;
  if (!$("cm-details").dataset.filled) {
    $("cm-name").value = club.name;
    $("cm-slug").value = club.slug;
    $("cm-description").value = club.description || "";
    $("cm-details").dataset.filled = "1";
  }
  $("cm-members").replaceChildren(h("tbody", {}, people.members.map((m) => memberRow(m, m.username === me))));
  $("cm-invitations").replaceChildren(...(people.invitations.length ? people.invitations.map(invitationItem)
    : [h("li", { class: "help" }, C.no_invitations)]));
  $("cm-log").replaceChildren(...events.map((e) => h("li", { "data-type": e.type, "data-version": e.version },
    h("time", { datetime: e.recorded_at }, new Date(e.recorded_at).toLocaleString()), " ", logLine(e))));
  section.dataset.ready = "1";
}

if (section) {
  $("cm-details").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = $("cm-details");
    clearErrors(form);
    $("cm-details-done").textContent = "";
    const body = { name: $("cm-name").value.trim(), slug: $("cm-slug").value.trim(), description: $("cm-description").value.trim() };
    try {
      await api(`/api/clubs/${clubId}`, { method: "PATCH", body });
      $("cm-details-done").textContent = C.saved;
      await load();
    } catch (e) {
      showInForm(form, e, $("cm-details-error"),
        { "club-name-invalid": "cm-name", "club-slug-invalid": "cm-slug", "club-slug-taken": "cm-slug",
          "club-description-invalid": "cm-description" });
    }
  });
  $("cm-add").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = $("cm-add");
    clearErrors(form);
    $("cm-add-done").textContent = "";
    const who = $("cm-who").value.trim();
    const role = $("cm-role").value;
    const body = who.includes("@") ? { email: who, role } : { username: who, role };
    try {
      const made = await api(`/api/clubs/${clubId}/members`, { method: "POST", body });
      $("cm-add-done").textContent = made.kind === "invitation"
        ? fmt(C.invited, { email: made.email, role: roleName(role) })
        : fmt(C.added, { who: made.username, role: roleName(role) });
      $("cm-who").value = "";
      await load();
    } catch (e) {
      showInForm(form, e, $("cm-add-error"), { "user-unknown": "cm-who", "email-invalid": "cm-who",
        "email-ambiguous": "cm-who", "member-identity-missing": "cm-who" });
    }
  });
  load().catch((e) => showAt($("cm-denied"), e));
}
