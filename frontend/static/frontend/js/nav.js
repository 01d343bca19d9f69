// On a small screen the site's navigation folds behind a "Menu" button, so the page's own
// content (the table's actions) starts at the top. A page opts in by calling this; without
// it (or without script) the button stays hidden and the navigation shows as before.
export function collapsibleNav() {
  const button = document.querySelector(".nav-toggle");
  const nav = document.getElementById("site-nav");
  if (!button || !nav) return;
  document.body.classList.add("nav-collapsible");
  button.hidden = false;
  button.addEventListener("click", () => {
    const open = button.getAttribute("aria-expanded") !== "true";
    button.setAttribute("aria-expanded", String(open));
    nav.classList.toggle("open", open);
  });
}
