// @ts-check
// The evaluation graph of a game: the first side's expected score at every position, from
// +1 (top) to -1 (bottom), as an SVG description (draw.js's Node shape: mounted by the
// controller, tested under node). Each position is a point with `data-ply`: a click there
// goes to that position.

/**
 * @typedef {{tag: string, attrs: Record<string, string | number>, children?: any[], text?: string}} Node
 */

/**
 * The graph of `values` (one per position, in [-1, 1]), `selected` the position shown.
 * @param {readonly number[]} values
 * @param {number} selected
 * @param {{width?: number, height?: number, marks?: readonly (string | null)[]}} [size]
 *   marks: each move's mark (move i leads from position i to i + 1), coloured on its point
 * @returns {Node}
 */
export function evalGraph(values, selected, size = {}) {
  const width = size.width || 600, height = size.height || 120;
  const n = Math.max(1, values.length - 1);
  const x = (/** @type {number} */ i) => Math.round((i / n) * (width - 8) + 4);
  const y = (/** @type {number} */ v) => Math.round(((1 - Math.max(-1, Math.min(1, v))) / 2) * (height - 8) + 4);
  const line = values.map((v, i) => `${x(i)},${y(v)}`).join(" ");
  const area = `${x(0)},${y(0)} ${line} ${x(values.length - 1)},${y(0)}`;
  /** @type {Node[]} */
  const children = [
    { tag: "rect", attrs: { x: 0, y: 0, width, height, fill: "#2b2d31", rx: 6, class: "graph-back" } },
    { tag: "polygon", attrs: { points: area, fill: "#f4f1ea", "fill-opacity": 0.85, class: "graph-area" } },
    { tag: "line", attrs: { x1: 0, x2: width, y1: y(0), y2: y(0), stroke: "#888", "stroke-width": 1 } },
    { tag: "polyline", attrs: { points: line, fill: "none", stroke: "#c9a227", "stroke-width": 1.5 } },
  ];
  if (selected >= 0 && selected < values.length) {
    children.push({ tag: "line", attrs: { x1: x(selected), x2: x(selected), y1: 0, y2: height,
      stroke: "#4a90d9", "stroke-width": 2, class: "graph-cursor" } });
  }
  values.forEach((v, i) => {
    const mark = size.marks && i > 0 ? size.marks[i - 1] : null;
    children.push({ tag: "circle", attrs: { cx: x(i), cy: y(v), r: mark ? 4 : 3,
      fill: mark ? MARK_COLOURS[mark] || "#888" : "transparent", class: "graph-point" + (mark ? " " + mark : ""),
      "data-ply": i, tabindex: -1 } });
  });
  return { tag: "svg", attrs: { viewBox: `0 0 ${width} ${height}`, width, height,
    preserveAspectRatio: "none", role: "img", "aria-label": "evaluation graph" }, children };
}

/** The colours of the marks, as lichess has them. @type {Record<string, string>} */
export const MARK_COLOURS = { inaccuracy: "#e6c229", mistake: "#e6892a", blunder: "#d9412b" };
