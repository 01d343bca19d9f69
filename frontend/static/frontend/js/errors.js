// Errors where they happen: next to the control, the form or the row that caused them (not at
// the bottom of a long page). The message is the API's words; its stable code rides along in
// `data-code` (for tests and for support), and a field the API names is marked invalid.

/** Remove the errors shown inside `scope` (before a new attempt). */
export function clearErrors(scope) {
  if (!scope) return;
  for (const node of scope.querySelectorAll(".field-error")) node.remove();
  for (const node of scope.querySelectorAll("[aria-invalid]")) node.removeAttribute("aria-invalid");
  for (const node of scope.querySelectorAll(".error[data-slot]")) { node.hidden = true; node.textContent = ""; }
}

function text(error) {
  const fields = error && error.body && error.body.fields;
  if (error && error.code === "invalid-input" && fields && typeof fields === "object") {
    const parts = Object.entries(fields).map(([, v]) => (Array.isArray(v) ? v.join(" ") : String(v)));
    if (parts.length) return parts.join(" ");
  }
  return String((error && error.message) || error);
}

/** Show `error` in `slot` (an element of class "error" kept for it) or, when `slot` is a
 * control, right after it; `control` (optional) is marked invalid and described by it. */
export function showAt(slot, error, control = null) {
  if (!slot) return null;
  let box = slot;
  if (!slot.classList.contains("error")) {
    box = document.createElement("span");
    box.className = "error field-error";
    box.setAttribute("role", "alert");
    slot.after(box);
  }
  box.dataset.slot = "1";
  box.hidden = false;
  box.textContent = text(error);
  box.dataset.code = (error && error.code) || "";
  const marked = control || (slot.matches && slot.matches("input, select, textarea") ? slot : null);
  if (marked) {
    marked.setAttribute("aria-invalid", "true");
    if (!box.id) box.id = `err-${Math.random().toString(36).slice(2, 9)}`;
    marked.setAttribute("aria-describedby", [marked.getAttribute("aria-describedby"), box.id].filter(Boolean).join(" "));
  }
  return box;
}

/** For a form: the control the error names (`fields` of invalid input, or `codes[code]`),
 * else `fallback` (the slot beside the submit button). */
export function showInForm(form, error, fallback, codes = {}) {
  const fields = (error && error.body && error.body.fields) || {};
  for (const name of Object.keys(fields)) {
    const control = form.querySelector(`[name="${name}"]`);
    if (control) return showAt(control, error);
  }
  const id = codes[error && error.code];
  const control = id && document.getElementById(id);
  return control ? showAt(control, error) : showAt(fallback, error);
}
