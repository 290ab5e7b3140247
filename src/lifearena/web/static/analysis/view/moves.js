// @ts-check
// The analysis board's move list: the main line with each move's mark, and the branches a
// person played, as plain data (rows of entries) the controller turns into elements.

import { SYMBOLS } from "./words.js";

/**
 * @typedef {{text: string, ply: number, line: number, at: number, mark: string | null,
 *   symbol: string, current: boolean}} Entry
 *   a move; selecting it puts the cursor at (line, at)
 * @typedef {{number: number, entries: Entry[], variations: {index: number, entries: Entry[]}[]}} Row
 */

/**
 * The rows of the main line (one per move) with the marks of `analysis` (its plies' sides,
 * joined for a simultaneous turn) and, after the move each branches from, its branches.
 * @param {import("../tree.js").Tree} tree
 * @param {any} analysis the server's analysis (plies) or null
 * @returns {Row[]}
 */
export function moveRows(tree, analysis) {
  const { line, at } = tree.cursor;
  /** @type {Row[]} */
  const rows = tree.main.map((text, i) => {
    const ply = analysis && analysis.plies ? analysis.plies[i] : null;
    const marks = ply ? ply.sides.map((/** @type {any} */ s) => s.mark).filter(Boolean) : [];
    const mark = worst(marks);
    return { number: i + 1, entries: [{ text, ply: i + 1, line: -1, at: i + 1, mark,
      symbol: mark ? SYMBOLS[mark] : "", current: line < 0 && at === i + 1 }], variations: [] };
  });
  tree.variations.forEach((branch, index) => {
    const entries = branch.moves.map((text, k) => ({ text, ply: branch.from + k + 1, line: index,
      at: k + 1, mark: null, symbol: "", current: line === index && at === k + 1 }));
    const host = rows[Math.max(0, branch.from - 1)];
    if (host) host.variations.push({ index, entries });
    else rows.push({ number: 0, entries: [], variations: [{ index, entries }] });
  });
  return rows;
}

/**
 * The most serious of some marks.
 * @param {readonly string[]} marks
 * @returns {string | null}
 */
export function worst(marks) {
  for (const mark of ["blunder", "mistake", "inaccuracy"]) if (marks.includes(mark)) return mark;
  return null;
}
