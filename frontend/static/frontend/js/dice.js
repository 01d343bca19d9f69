// Dice drawn as SVG with pips; a cup (the leather cacho) with the number of dice under it.
const SVG = "http://www.w3.org/2000/svg";
const PIPS = {
  1: [[50, 50]],
  2: [[28, 28], [72, 72]],
  3: [[28, 28], [50, 50], [72, 72]],
  4: [[28, 28], [72, 28], [28, 72], [72, 72]],
  5: [[28, 28], [72, 28], [50, 50], [28, 72], [72, 72]],
  6: [[28, 25], [72, 25], [28, 50], [72, 50], [28, 75], [72, 75]],
};

function el(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

export function die(face, { size = 44, owner = "", className = "" } = {}) {
  const svg = el("svg", { viewBox: "0 0 100 100", width: size, height: size, class: `die ${className}`.trim(),
    role: "img", "aria-label": String(face), "data-face": face });
  if (owner) svg.setAttribute("data-owner", owner);
  svg.append(el("rect", { x: 4, y: 4, width: 92, height: 92, rx: 16, class: "die-body" }));
  for (const [cx, cy] of PIPS[face] || []) svg.append(el("circle", { cx, cy, r: 9, class: "pip" }));
  return svg;
}

export function cup(count, { size = 54, label = "" } = {}) {
  const svg = el("svg", { viewBox: "0 0 100 110", width: size, height: size * 1.1, class: "cup", role: "img",
    "aria-label": label });
  svg.append(el("path", { d: "M18 8 H82 L72 96 H28 Z", class: "cup-body" }));
  svg.append(el("rect", { x: 12, y: 96, width: 76, height: 10, rx: 4, class: "cup-rim" }));
  const text = el("text", { x: 50, y: 60, "text-anchor": "middle", class: "cup-count" });
  text.textContent = String(count);
  svg.append(text);
  return svg;
}
