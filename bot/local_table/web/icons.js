// The page's own icons, drawn as small inline SVGs (a 24-unit grid, stroked in the text's
// colour): emoji would show as boxes where no emoji font is installed. The bot's own text
// keeps its emoji: that is its content, drawn as Discord draws it.

const SVG = "http://www.w3.org/2000/svg";

/** Each icon's shapes: [tag, attributes] on a 24×24 grid. */
const SHAPES = {
  warning: [["path", { d: "M12 3 2 21h20L12 3z" }], ["path", { d: "M12 10v5M12 18v.5" }]],
  thread: [["path", { d: "M4 5h16v10H9l-5 4V5z" }], ["path", { d: "M8 9h8M8 12h5" }]],
  pin: [["path", { d: "M9 3h6l-1 6 4 4H6l4-4-1-6z" }], ["path", { d: "M12 13v8" }]],
  file: [["path", { d: "M16 6v10a4 4 0 0 1-8 0V5a2.5 2.5 0 0 1 5 0v10a1 1 0 0 1-2 0V7" }]],
  eye: [["path", { d: "M2 12s4-7 10-7 10 7 10 7-4 7-10 7S2 12 2 12z" }],
    ["circle", { cx: "12", cy: "12", r: "3" }]],
  close: [["path", { d: "M6 6l12 12M18 6 6 18" }]],
  link: [["path", { d: "M14 4h6v6M20 4l-9 9" }], ["path", { d: "M18 14v6H4V6h6" }]],
  menu: [["path", { d: "M4 6h16M4 12h16M4 18h16" }]],
  help: [["circle", { cx: "12", cy: "12", r: "9" }],
    ["path", { d: "M9.5 9.5a2.5 2.5 0 1 1 3.5 2.3c-.7.3-1 .8-1 1.5v.7M12 17v.5" }]],
  hash: [["path", { d: "M9 4 7 20M17 4l-2 16M4 9h17M3 15h17" }]],
  waiting: [["path", { d: "M7 3h10M7 21h10M8 3c0 5 8 5 8 9s-8 4-8 9M16 3c0 5-8 5-8 9s8 4 8 9" }]],
  offline: [["path", { d: "M3 3l18 18" }], ["path", { d: "M5 12.5a10 10 0 0 1 4-2.3M12 9a10 10 0 0 1 7 3.5" }],
    ["path", { d: "M8.5 16a5 5 0 0 1 7 0M12 20v.5" }]],
};

/** The icon ``name`` as an SVG element; ``label``: what a screen reader says (else hidden). */
export function icon(name, label = null) {
  const svg = document.createElementNS(SVG, "svg");
  for (const [key, value] of Object.entries({
    viewBox: "0 0 24 24", width: "1em", height: "1em", fill: "none", stroke: "currentColor",
    "stroke-width": "2", "stroke-linecap": "round", "stroke-linejoin": "round",
  })) svg.setAttribute(key, value);
  svg.classList.add("glyph", `glyph-${name}`);
  if (label) {
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", label);
  } else {
    svg.setAttribute("aria-hidden", "true");
  }
  for (const [tag, attrs] of SHAPES[name]) {
    const shape = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attrs)) shape.setAttribute(key, value);
    svg.append(shape);
  }
  return svg;
}
