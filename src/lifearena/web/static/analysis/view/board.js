// @ts-check
// What the analysis board draws over a position: the search's best move as highlighted cells
// (its first cell "selected", the rest "target", as the game page marks a move), and a
// simultaneous turn's mixed strategy as shaded cells with their probabilities. Pure: marks
// for draw.js's picture, and a copy of a picture tree with the shading added.

import { cellKey } from "../../js/draw.js";

/**
 * @typedef {{move: string, cells: number[][]}} Choice
 * @typedef {{tag: string, attrs: Record<string, string | number>, children?: any[], text?: string}} Node
 */

/**
 * The cells of move `text` among `choices` (empty when it has none, e.g. a pass).
 * @param {readonly Choice[] | undefined} choices
 * @param {string} text
 * @returns {number[][]}
 */
export function cellsOf(choices, text) {
  const found = (choices || []).find((c) => c.move === text);
  return found ? found.cells : [];
}

/**
 * draw.js marks showing each acting side's best move: {"r,c": "selected" | "target"}.
 * @param {Record<string, Choice[]>} choices each side's choices, by side
 * @param {readonly {player: number, best: string[]}[]} sides the verdict's sides
 * @returns {Record<string, string>}
 */
export function bestMarks(choices, sides) {
  /** @type {Record<string, string>} */
  const marks = {};
  for (const side of sides) {
    const cells = side.best.length ? cellsOf(choices[String(side.player)], side.best[0]) : [];
    cells.forEach(([r, c], i) => { marks[cellKey(r, c)] = i === 0 && cells.length > 1 ? "selected" : "target"; });
  }
  return marks;
}

/**
 * The probability the mixed `strategy` puts on each cell (a move of several cells counts for
 * each of them), by "r,c".
 * @param {readonly Choice[] | undefined} choices
 * @param {readonly {move: string, p: number}[]} strategy
 * @returns {Record<string, number>}
 */
export function strategyShares(choices, strategy) {
  /** @type {Record<string, number>} */
  const shares = {};
  for (const { move, p } of strategy) {
    for (const [r, c] of cellsOf(choices, move)) shares[cellKey(r, c)] = (shares[cellKey(r, c)] || 0) + p;
  }
  return shares;
}

/**
 * A copy of picture `tree` with each cell of `shares` shaded in `colour` (the stronger the
 * likelier) and labelled with its percentage.
 * @param {Node} tree from draw.js's picture
 * @param {Record<string, number>} shares
 * @param {string} colour
 * @returns {Node}
 */
export function withShares(tree, shares, colour) {
  if (!Object.keys(shares).length) return tree;
  /** @type {Node[]} */
  const added = [];
  const visit = (/** @type {Node} */ n) => {
    const key = n.attrs && n.attrs["data-cell"];
    if (n.tag === "rect" && typeof key === "string" && key in shares) {
      const { x, y, width, height } = /** @type {any} */ (n.attrs);
      const p = shares[key];
      added.push({ tag: "rect", attrs: { x, y, width, height, fill: colour, "fill-opacity": (0.15 + 0.6 * p).toFixed(2),
        "pointer-events": "none", class: "share" } });
      added.push({ tag: "text", attrs: { x: Number(x) + Number(width) / 2, y: Number(y) + Number(height) - 4,
        "text-anchor": "middle", "font-size": Math.max(8, Math.floor(Number(width) / 4.5)), fill: "#111",
        "pointer-events": "none", class: "share-text" }, text: `${Math.round(p * 100)}%` });
    }
    (n.children || []).forEach(visit);
  };
  visit(tree);
  const copy = (/** @type {Node} */ n) => {
    const kids = (n.children || []).map(copy);
    if (n.tag === "g" && (n.children || []).some((k) => k.attrs && "data-cell" in k.attrs)) kids.push(...added);
    return { ...n, children: kids };
  };
  return copy(tree);
}

/**
 * The move a person composes by clicking `picked` cells, or null while it is not complete:
 * a move made of parts (the interaction's parts joined by its joiner, `count` of them), or
 * the listed choice whose cells are exactly `picked` in order.
 * @param {any} interaction the side's interaction
 * @param {readonly Choice[] | undefined} choices
 * @param {readonly number[][]} picked
 * @returns {{move: string | null, targets: number[][]}} targets: the cells that may come next
 */
export function composed(interaction, choices, picked) {
  const same = (/** @type {number[]} */ a, /** @type {number[]} */ b) => a[0] === b[0] && a[1] === b[1];
  if (interaction && interaction.parts && interaction.parts.length) {
    if (picked.length === interaction.count) {
      const texts = picked.map((cell) => interaction.parts.find((/** @type {any} */ p) => same(p.cell, cell)));
      if (texts.every(Boolean)) return { move: texts.map((p) => p.text).join(interaction.joiner), targets: [] };
    }
    return { move: null, targets: interaction.parts.map((/** @type {any} */ p) => p.cell)
      .filter((/** @type {number[]} */ cell) => !picked.some((q) => same(q, cell))) };
  }
  const starting = (choices || []).filter((c) => c.cells.length >= picked.length
    && picked.every((cell, i) => same(c.cells[i], cell)));
  const exact = starting.find((c) => c.cells.length === picked.length && picked.length > 0);
  if (exact && starting.length === 1) return { move: exact.move, targets: [] };
  return { move: exact ? exact.move : null,
    targets: starting.filter((c) => c.cells.length > picked.length).map((c) => c.cells[picked.length]) };
}
