// Clubs list and one club with its tournaments (public pages).
import { L, api, h, showError } from "./api.js";

const errorBox = document.getElementById("error");

async function clubsList() {
  const list = document.getElementById("clubs");
  const clubs = await api("/api/clubs");
  const rows = clubs.results || clubs;
  list.replaceChildren(...(rows.length ? rows.map((c) => h("li", {},
    h("a", { href: `/clubs/${c.id}/` }, c.name), h("div", { class: "help" }, c.slug))) : [h("li", {}, L.none)]));
  list.removeAttribute("aria-busy");
}

async function clubPage(section) {
  const id = section.dataset.clubId;
  const club = await api(`/api/clubs/${id}`);
  document.getElementById("club-name").textContent = club.name;
  const about = document.getElementById("club-description");
  about.textContent = club.description || "";
  about.hidden = !club.description;
  if (document.querySelector('meta[name="csrf-token"]') && document.querySelector("form[action*='logout']")) {
    // the management links for the club's owners and organisers
    const mine = await api("/api/me/memberships").catch(() => []);
    const manages = mine.some((m) => String(m.club.id) === String(id) && m.manages);
    document.getElementById("club-manage-link").hidden = !manages;
  }
  const all = await api("/api/tournaments");
  const rows = (all.results || all).filter((t) => String(t.club) === String(id));
  const list = document.getElementById("tournaments");
  list.replaceChildren(...(rows.length ? rows.map((t) => h("li", { "data-tournament": t.id },
    h("a", { href: `/tournaments/${t.id}/` }, t.name),
    h("div", { class: "help" },
      `${(L.rulesets || {})[t.ruleset] || t.ruleset} · ${(L.statuses || {})[t.status] || t.status}`))) : [h("li", {}, L.none)]));
}

const section = document.getElementById("club");
(section ? clubPage(section) : clubsList()).catch((e) => showError(errorBox, e));
