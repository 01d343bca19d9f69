// The print pages' toolbar (never printed): print, and another round of the same printable.
document.getElementById("print-now")?.addEventListener("click", () => window.print());
document.getElementById("print-round")?.addEventListener("change", (event) => {
  const url = new URL(window.location.href);
  url.searchParams.set("round", event.target.value);
  window.location.assign(url.toString());
});
document.body.dataset.ready = "1";
