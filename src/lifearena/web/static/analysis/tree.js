// @ts-check
// The analysis board's local tree of variations: the game's own moves (the main line, never
// changed) and the branches a person plays from any of its positions. Pure data and
// functions: the controller keeps a Tree in its store, and nothing here reaches the server.

/**
 * @typedef {{from: number, moves: string[]}} Variation
 *   a branch: the main line's first `from` moves, then `moves`
 * @typedef {{line: number, at: number}} Cursor
 *   line -1: the main line, after its first `at` moves; else variation `line`, `at` of its
 *   moves played (0: the main line's position it branches from)
 * @typedef {{main: string[], variations: Variation[], cursor: Cursor}} Tree
 */

/**
 * A tree of the main line `main`, at its start.
 * @param {readonly string[]} main
 * @returns {Tree}
 */
export function newTree(main) {
  return { main: [...main], variations: [], cursor: { line: -1, at: 0 } };
}

/**
 * The moves from the start to the cursor: what a position request replays.
 *
 * path(play(newTree(["a", "b"]), "x")) is ["x"]
 * @param {Tree} tree
 * @returns {string[]}
 */
export function path(tree) {
  const { line, at } = tree.cursor;
  if (line < 0) return tree.main.slice(0, at);
  const branch = tree.variations[line];
  return [...tree.main.slice(0, branch.from), ...branch.moves.slice(0, at)];
}

/**
 * The number of moves from the start to the cursor.
 * @param {Tree} tree
 * @returns {number}
 */
export function plyOf(tree) { return path(tree).length; }

/**
 * The tree once `move` is played at the cursor: along the main line or a branch when it is
 * the next move there, else on a new branch (an existing one with the same moves is reused).
 * The main line never changes.
 * @param {Tree} tree
 * @param {string} move
 * @returns {Tree}
 */
export function play(tree, move) {
  const { line, at } = tree.cursor;
  const from = line < 0 ? at : tree.variations[line].from;
  const moves = line < 0 ? [move] : [...tree.variations[line].moves.slice(0, at), move];
  if (line < 0 && tree.main[at] === move) return { ...tree, cursor: { line: -1, at: at + 1 } };
  if (line >= 0) {
    const branch = tree.variations[line];
    if (branch.moves[at] === move) return { ...tree, cursor: { line, at: at + 1 } };
    if (at === branch.moves.length) {
      const grown = tree.variations.map((v, i) => (i === line ? { from: v.from, moves } : v));
      return { ...tree, variations: grown, cursor: { line, at: at + 1 } };
    }
  }
  const same = tree.variations.findIndex((v) => v.from === from && v.moves.length >= moves.length
    && moves.every((m, i) => v.moves[i] === m));
  if (same >= 0) return { ...tree, cursor: { line: same, at: moves.length } };
  return { ...tree, variations: [...tree.variations, { from, moves }],
    cursor: { line: tree.variations.length, at: moves.length } };
}

/**
 * The tree with its cursor moved `step` moves along its line (back before a branch's first
 * move leads onto the main line), kept within the line.
 * @param {Tree} tree
 * @param {number} step -1 back, +1 forward
 * @returns {Tree}
 */
export function step(tree, step) {
  const { line, at } = tree.cursor;
  if (line < 0) return { ...tree, cursor: { line, at: Math.max(0, Math.min(tree.main.length, at + step)) } };
  const branch = tree.variations[line];
  if (at + step <= 0) return { ...tree, cursor: { line: -1, at: branch.from } };
  return { ...tree, cursor: { line, at: Math.min(branch.moves.length, at + step) } };
}

/**
 * The tree with its cursor on the main line after `ply` moves (the way back from a branch).
 * @param {Tree} tree
 * @param {number} ply
 * @returns {Tree}
 */
export function toMain(tree, ply) {
  return { ...tree, cursor: { line: -1, at: Math.max(0, Math.min(tree.main.length, ply)) } };
}
