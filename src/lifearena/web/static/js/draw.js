// @ts-check
// Pictures of positions as SVG, from the server's display data and the game's look. Pure:
// `picture` returns a plain tree of element descriptions (no DOM), so it runs under node's
// test runner; `mount` puts a tree into an <svg> element. What is drawn is chosen by the
// display's shape (a grid, the queen's squares, a printed text), never by a game's name.

/**
 * @typedef {{name: string, colour: string, outline: string}} Side
 * @typedef {{board: string, line: string, stones: boolean, sides: Side[]}} Look
 * The look of a game as the server sends it (core.Look): board and line colours, whether the
 * pieces are stones (drawn larger), and each side's name, colour and outline.
 * @typedef {{tag: string, attrs: Record<string, string | number>, children?: Node[], text?: string}} Node
 * One SVG element: its tag, attributes, children and text.
 * @typedef {[number, number]} Cell  a [row, column] cell, row 0 at the top
 * @typedef {{
 *   size?: number, labels?: boolean, marks?: Record<string, string>, cells?: number[][],
 *   births?: number[][], deaths?: number[][], animate?: boolean, cursor?: Cell | null,
 *   showLast?: boolean, own?: string
 * }} Options
 * size: pixels of the longer side (default 560); labels: row and column labels (default
 * true); marks: {"r,c": "selected" | "target" | "pick" | "chosen" | "last" | "collision"}
 * ("pick": a cell picked for a piece of one's own, "chosen": one's committed choice, both
 * drawn as a faint piece of the colour `own`, the page's side); cells: the
 * cells to draw instead of the display's; births, deaths: rings on the cells the last
 * generation changed; animate: dying pieces fade out and newborns grow in (CSS classes
 * `dying` and `newborn`); cursor: the keyboard's cell; showLast: mark `display.last` (default
 * true).
 */

/** A neutral look for a display that comes without one. @type {Look} */
export const PLAIN_LOOK = {
  board: "#fbfaf7", line: "#d9d4ca", stones: false,
  sides: [{ name: "Player 1", colour: "#2f6db3", outline: "rgba(0,0,0,0.25)" },
    { name: "Player 2", colour: "#c4453c", outline: "rgba(0,0,0,0.25)" }],
};

const MARK_FILLS = {
  target: "rgba(46,139,87,0.22)",
  chosen: "rgba(120,120,120,0.10)",
  pick: "rgba(120,120,120,0.10)",
  selected: "rgba(47,109,179,0.30)",
  last: "rgba(166,106,0,0.16)",
  collision: "rgba(184,58,50,0.18)",
};
// dark enough for AA contrast on every board colour, the darkest included
const LABEL_INK = "#3a3c40";

/**
 * A cell as the game's notation names it, from the board's own labels: the display's
 * `cell_name` template orders them ("{row},{col}" row first, "{col}{row}" a Go point);
 * without one, "col,row" for numbered columns, else the column's letter then the row.
 *
 * cellName({grid: {row_labels: ["1", "2"], col_labels: ["1", "2"]}, cell_name: "{row},{col}"}, [0, 1]) === "1,2"
 * @param {any} display
 * @param {readonly number[]} cell [row, column]
 * @returns {string}
 */
export function cellName(display, cell) {
  const grid = display && display.grid;
  if (!grid) return `${cell[1]},${cell[0]}`;
  const col = grid.col_labels[cell[1]], row = grid.row_labels[cell[0]];
  const template = display.cell_name || (/^\d+$/.test(col) ? "{col},{row}" : "{col}{row}");
  return template.replace("{row}", row).replace("{col}", col);
}

/**
 * The key of a cell in a marks table.
 * @param {number} r
 * @param {number} c
 * @returns {string}
 */
export function cellKey(r, c) { return r + "," + c; }

/**
 * @param {string} tag
 * @param {Record<string, string | number>} attrs
 * @param {Node[]} [children]
 * @returns {Node}
 */
function node(tag, attrs, children) {
  return children ? { tag, attrs, children } : { tag, attrs };
}

/**
 * @param {string} content
 * @param {Record<string, string | number>} attrs
 * @returns {Node}
 */
function text(content, attrs) { return { tag: "text", attrs, text: content }; }

/**
 * The size of the board a display shows, in cells: [rows, columns] (null for a text).
 * @param {any} display
 * @returns {[number, number] | null}
 */
export function boardSize(display) {
  if (!display) return null;
  if (display.grid) return [display.grid.rows, display.grid.cols];
  if (display.queen && display.start) {
    const n = Math.max(display.start[0], display.start[1]) + 1;
    return [n, n];
  }
  return null;
}

/**
 * The picture of a position: an <svg> element description (tag "svg") with its viewBox,
 * width and height, and its children. Cells carry `data-r`/`data-c` (and `data-cell`) for a
 * page's clicks.
 * @param {any} display the server's display data of the position
 * @param {Look | null | undefined} look the game's look (PLAIN_LOOK when missing)
 * @param {Options} [opts]
 * @returns {Node}
 */
export function picture(display, look, opts = {}) {
  const shown = look && look.sides ? look : PLAIN_LOOK;
  if (display && display.grid) return gridPicture(display, shown, opts);
  if (display && display.queen && display.start) return squaresPicture(display, shown, opts);
  const printed = display && typeof display.text === "string" ? display.text : "";
  return node("svg", { viewBox: "0 0 320 40", width: 320, height: 40 },
    [text(printed, { x: 10, y: 24, "font-size": 13 })]);
}

/**
 * @param {Options} opts
 * @param {any} display
 * @returns {Record<string, string>}
 */
function allMarks(opts, display) {
  /** @type {Record<string, string>} */
  const marks = {};
  if (opts.showLast !== false && Array.isArray(display.last)) {
    for (const [r, c] of display.last) marks[cellKey(r, c)] = "last";
  }
  return Object.assign(marks, opts.marks || {});
}

/**
 * @param {any} display
 * @param {Look} look
 * @param {Options} opts
 * @returns {Node}
 */
function gridPicture(display, look, opts) {
  const grid = display.grid;
  const rows = grid.rows, cols = grid.cols;
  const labels = opts.labels !== false;
  const pad = labels ? 22 : 3;
  const unit = Math.max(6, Math.floor(((opts.size || 560) - 2 * pad) / Math.max(rows, cols)));
  const width = cols * unit + 2 * pad, height = rows * unit + 2 * pad;
  const cells = opts.cells || grid.cells;
  const marks = allMarks(opts, display);
  /** @type {Node[]} */
  const layer = [];
  (display.goal_rows || []).forEach((/** @type {number} */ row, /** @type {number} */ seat) => {
    layer.push(node("rect", { x: 0, y: row * unit, width: cols * unit, height: unit,
      fill: look.sides[seat].colour, "fill-opacity": 0.3, class: "goal-row" }));
  });
  /** @type {Node[]} */
  const pieces = [];
  const dying = new Set((opts.animate && display.before ? opts.deaths || [] : []).map(([r, c]) => cellKey(r, c)));
  const newborn = new Set((opts.animate ? opts.births || [] : []).map(([r, c]) => cellKey(r, c)));
  const radius = unit * (look.stones ? 0.44 : 0.36);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const key = cellKey(r, c);
      const mark = marks[key];
      const value = cells[r][c];
      /** @type {Record<string, string | number>} */
      const attrs = { x: c * unit, y: r * unit, width: unit, height: unit,
        fill: mark && mark in MARK_FILLS ? MARK_FILLS[/** @type {keyof MARK_FILLS} */ (mark)] : "transparent",
        // a pick is a selection too (class "selected pick")
        stroke: look.line, "stroke-width": 1, class: "cell" + (mark ? " " + (mark === "pick" ? "selected pick" : mark) : ""),
        "data-cell": key, "data-r": r, "data-c": c, "data-v": value };
      layer.push(node("rect", attrs));
      const cx = c * unit + unit / 2, cy = r * unit + unit / 2;
      if (value) {
        const side = look.sides[value - 1];
        pieces.push(node("circle", { cx, cy, r: radius, fill: side.colour, stroke: side.outline,
          "stroke-width": 1, "pointer-events": "none",
          class: `piece p${value}` + (newborn.has(key) ? " newborn" : "") }));
      } else if (dying.has(key)) {
        const was = display.before[r][c];
        if (was) {
          const side = look.sides[was - 1];
          pieces.push(node("circle", { cx, cy, r: radius, fill: side.colour, stroke: side.outline,
            "stroke-width": 1, "pointer-events": "none", class: `piece p${was} dying` }));
        }
      }
      if (mark === "target") {
        pieces.push(node("circle", { cx, cy, r: unit * 0.14, fill: "#2e8b57", "pointer-events": "none",
          class: "target-dot" }));
      }
      if ((mark === "pick" || mark === "chosen") && !value) {
        // a piece to be: the page's own colour, faint, so a pick never looks like the other side's
        pieces.push(node("circle", { cx, cy, r: radius, fill: opts.own || MARK_FILLS.selected,
          "fill-opacity": 0.45, stroke: opts.own || "#2f6db3", "stroke-width": Math.max(1.5, unit * 0.05),
          "stroke-dasharray": `${Math.max(2, unit * 0.08)}`, "pointer-events": "none", class: "pick-piece" }));
      }
      if (mark === "selected") { // the shading alone hides under a stone
        pieces.push(node("circle", { cx, cy, r: unit * 0.47, fill: "none", stroke: "#2f6db3",
          "stroke-width": Math.max(2, unit * 0.08), "pointer-events": "none", class: "selected-ring" }));
      }
    }
  }
  layer.push(...pieces);
  for (const [r, c] of opts.births || []) {
    layer.push(node("circle", { cx: c * unit + unit / 2, cy: r * unit + unit / 2, r: unit * 0.44,
      fill: "none", stroke: "#2e8b57", "stroke-width": Math.max(1.5, unit * 0.07),
      "pointer-events": "none", class: "born" }));
  }
  for (const [r, c] of opts.deaths || []) {
    layer.push(node("circle", { cx: c * unit + unit / 2, cy: r * unit + unit / 2, r: unit * 0.40,
      fill: "none", stroke: "#b83a32", "stroke-width": Math.max(1.2, unit * 0.05),
      "stroke-dasharray": `${unit * 0.12} ${unit * 0.09}`, "pointer-events": "none", class: "died" }));
  }
  if (opts.showLast !== false && Array.isArray(display.last_point)) {
    // the point the last move changed (a stone added, captured or taken away): a ring that
    // shows on a black stone, a white one and an empty point alike
    const [r, c] = display.last_point;
    layer.push(node("circle", { cx: c * unit + unit / 2, cy: r * unit + unit / 2, r: unit * 0.3,
      fill: "none", stroke: "#e07b00", "stroke-width": Math.max(2, unit * 0.1),
      "pointer-events": "none", class: "last-ring" }));
  }
  if (opts.cursor) {
    const [r, c] = opts.cursor;
    layer.push(node("rect", { x: c * unit + 1.5, y: r * unit + 1.5, width: unit - 3, height: unit - 3,
      fill: "none", stroke: "#2f6db3", "stroke-width": 3, rx: 3, class: "cursor", "pointer-events": "none" }));
  }
  /** @type {Node[]} */
  const children = [node("rect", { x: 0, y: 0, width, height, fill: look.board, rx: 8 }),
    node("g", { transform: `translate(${pad},${pad})` }, layer)];
  if (labels) {
    const font = Math.min(12, unit * 0.5);
    grid.col_labels.forEach((/** @type {string} */ label, /** @type {number} */ c) => {
      children.push(text(label, { x: pad + c * unit + unit / 2, y: pad - 7, "text-anchor": "middle",
        "font-size": font, fill: LABEL_INK }));
    });
    grid.row_labels.forEach((/** @type {string} */ label, /** @type {number} */ r) => {
      children.push(text(label, { x: pad - 5, y: pad + r * unit + unit / 2 + font / 3,
        "text-anchor": "end", "font-size": font, fill: LABEL_INK }));
    });
  }
  return node("svg", { viewBox: `0 0 ${width} ${height}`, width, height }, children);
}

/**
 * The queen's squares up to the start, x to the right and y downward, origin top left;
 * reachable squares shaded, blocked ones crossed.
 * @param {any} display
 * @param {Look} look
 * @param {Options} opts
 * @returns {Node}
 */
function squaresPicture(display, look, opts) {
  const n = Math.max(display.start[0], display.start[1]) + 1;
  const labels = opts.labels !== false;
  const pad = labels ? 22 : 3;
  const unit = Math.max(5, Math.floor(((opts.size || 560) - 2 * pad) / n));
  const side = n * unit + 2 * pad;
  const reach = new Set((display.reachable || []).map(([x, y]) => cellKey(y, x)));
  const blocked = new Set((display.blocked || []).map(([x, y]) => cellKey(y, x)));
  const marks = allMarks(opts, display);
  /** @type {Node[]} */
  const layer = [];
  /** @type {Node[]} */
  const crosses = [];
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const key = cellKey(y, x);
      const mark = marks[key];
      let fill = (x + y) % 2 ? "#f1ede5" : "#faf8f3";
      if (reach.has(key)) fill = display.blocking ? "#f4dcc0" : "#cfe6d6";
      if (mark === "last") fill = "#f1e3c2";
      if (mark === "selected" || mark === "chosen") fill = MARK_FILLS.selected;
      const kind = reach.has(key) ? " reachable" : blocked.has(key) ? " blocked-square" : "";
      layer.push(node("rect", { x: x * unit, y: y * unit, width: unit, height: unit, fill,
        stroke: look.line, "stroke-width": 0.5, class: "cell" + kind + (mark ? " " + mark : ""),
        "data-cell": key, "data-r": y, "data-c": x }));
      if (blocked.has(key)) {
        const m = unit * 0.25;
        crosses.push(node("path", { d: `M${x * unit + m},${y * unit + m}L${(x + 1) * unit - m},${(y + 1) * unit - m}` +
          `M${(x + 1) * unit - m},${y * unit + m}L${x * unit + m},${(y + 1) * unit - m}`,
          stroke: "#b83a32", "stroke-width": Math.max(1.5, unit * 0.1), "pointer-events": "none",
          class: "blocked" }));
      }
    }
  }
  layer.push(...crosses);
  layer.push(node("rect", { x: 0, y: 0, width: unit, height: unit, fill: "none", stroke: "#2e8b57",
    "stroke-width": 2, "pointer-events": "none", class: "goal" }));
  const [qx, qy] = display.queen;
  layer.push(text("\u265B", { x: qx * unit + unit / 2, y: qy * unit + unit * 0.8, "text-anchor": "middle",
    "font-size": unit * 0.85, fill: "#26282b", "pointer-events": "none", class: "queen" }));
  if (opts.cursor) {
    const [r, c] = opts.cursor;
    layer.push(node("rect", { x: c * unit + 1, y: r * unit + 1, width: unit - 2, height: unit - 2,
      fill: "none", stroke: "#2f6db3", "stroke-width": 2.5, class: "cursor", "pointer-events": "none" }));
  }
  /** @type {Node[]} */
  const children = [node("rect", { x: 0, y: 0, width: side, height: side, fill: look.board, rx: 8 }),
    node("g", { transform: `translate(${pad},${pad})` }, layer)];
  if (labels) {
    const step = n > 20 ? 5 : 1;
    for (let i = 0; i < n; i += step) {
      children.push(text(String(i), { x: pad + i * unit + unit / 2, y: pad - 7, "text-anchor": "middle",
        "font-size": 10, fill: LABEL_INK }));
      children.push(text(String(i), { x: pad - 5, y: pad + i * unit + unit / 2 + 3, "text-anchor": "end",
        "font-size": 10, fill: LABEL_INK }));
    }
  }
  return node("svg", { viewBox: `0 0 ${side} ${side}`, width: side, height: side }, children);
}

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * Put a picture into an <svg> element: the root's attributes on `svg`, its children
 * replacing svg's.
 * @param {SVGSVGElement | Element} svg
 * @param {Node} tree a tree from {@link picture}
 * @returns {void}
 */
export function mount(svg, tree) {
  for (const [key, value] of Object.entries(tree.attrs)) svg.setAttribute(key, String(value));
  svg.replaceChildren(...(tree.children || []).map(build));
}

/**
 * @param {Node} description
 * @returns {Element}
 */
function build(description) {
  const element = document.createElementNS(SVG_NS, description.tag);
  for (const [key, value] of Object.entries(description.attrs)) element.setAttribute(key, String(value));
  if (description.text !== undefined) element.textContent = description.text;
  for (const child of description.children || []) element.appendChild(build(child));
  return element;
}
