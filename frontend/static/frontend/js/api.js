// The public REST API, with the session cookie and the CSRF token of the page.
export const L = JSON.parse(document.getElementById("labels")?.textContent || "{}");

// The names shown for the seats of the match on the page (`seats[].label`, resolved by the
// server outside the match's chain): a seat named by a player id (`p7`) reads as its
// player's name, or "deleted player 7". The events keep the seat names; only text changes.
// A pair's or team's members are named the same way (`seats[].members`, only at a seat
// played by a pair or team): a member named by its player id reads as its player's name.
const seatLabels = new Map();
const memberLabels = new Map();
const shownAs = (named) => (named.deleted ? fmt(L.deleted_player, { n: named.deleted }) : named.label || named.name);
export function setSeatLabels(seats) {
  seatLabels.clear();
  memberLabels.clear();
  for (const seat of seats || []) {
    seatLabels.set(seat.name, shownAs(seat));
    memberLabels.set(seat.name, new Map((seat.members || []).map((m) => [m.name, shownAs(m)])));
  }
}
export function seatLabel(name) {
  return seatLabels.get(name) ?? name;
}
export function memberLabel(seat, name) {
  return memberLabels.get(seat)?.get(name) ?? name;
}
// A member beside its team's name, as in "Turn of Reds (ana)"; a seat played alone by its
// name. (A team's seat and its first member may both carry the holder's player id.)
export function seatWithMember(seat, member) {
  const team = memberLabels.get(seat)?.size || (member && member !== seat);
  return team ? `${seatLabel(seat)} (${memberLabel(seat, member)})` : seat;
}
export const seatList = (names) => (names || []).map(seatLabel).join(", ");

// The parameters that name a seat in the sentences (a formatted one is shown by its label).
const SEAT_PARAMS = new Set(["name", "entry", "winner", "player", "starter", "caller", "target", "against", "by"]);

export function fmt(template, params = {}) {
  return String(template ?? "").replace(/%\((\w+)\)s/g, (_, key) => {
    const value = String(params[key] ?? "");
    return SEAT_PARAMS.has(key) ? seatLabel(value) : value;
  });
}

function csrfToken() {
  const meta = document.querySelector('meta[name="csrf-token"]');
  if (meta && meta.content) return meta.content;
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

export class ApiError extends Error {
  constructor(status, body) {
    super((body && (body.message || body.detail)) || `HTTP ${status}`);
    this.status = status;
    this.code = (body && body.code) || String(status);
    this.body = body;
  }
}

export async function api(path, { method = "GET", body } = {}) {
  const headers = { Accept: "application/json" };
  if (method !== "GET") {
    headers["Content-Type"] = "application/json";
    headers["X-CSRFToken"] = csrfToken();
  }
  const response = await fetch(path, {
    method,
    headers,
    credentials: "same-origin",
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = { message: text.slice(0, 200) }; }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

// Tiny DOM helper: h("div", {class: "x", onclick: f}, child, "text", ...)
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function showError(target, error) {
  if (!target) return;
  target.hidden = false;
  target.textContent = error.code ? `${error.code}: ${error.message}` : String(error.message || error);
}
