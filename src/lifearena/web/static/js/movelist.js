// @ts-check
// The move list's rows and the words a screen reader hears after a move. Pure: one row per
// turn, a column per side (a side's consecutive moves share its cell; a simultaneous turn's
// "a | b" fills both), from the server's moves and which side played each (view.move_sides).
// A view lists only the last moves of a long game (view.moves_from come before them); the
// page fetches earlier pages (GET /api/games/{id}/moves) and joins them to what it holds.

/**
 * @typedef {{ply: number, text: string}} Entry  ply: the position after this move (1-based)
 * @typedef {{number: number, sides: [Entry[], Entry[]]}} Row
 * @typedef {{from: number, moves: string[], sides: (number | null)[], firstTurn: number}} Listed
 *   a stretch of the move list: the moves from move `from` (0-based) on, the sides that
 *   played them, and the turn (row number) the first one is in
 */

/**
 * The rows of a move list, or of its stretch from move `from` on, whose first move is in turn
 * `firstTurn`. turnRows(["a", "b", "c"], [0, 1, 0]) has two rows: a|b and c|.
 * @param {readonly string[]} moves
 * @param {readonly (number | null)[] | null | undefined} sides
 * @param {number} [from]
 * @param {number} [firstTurn]
 * @returns {Row[]}
 */
export function turnRows(moves, sides, from = 0, firstTurn = 1) {
  /** @type {Row[]} */
  const rows = [];
  /** @type {Row | null} */
  let row = null;
  let last = -1;
  moves.forEach((text, index) => {
    const ply = from + index + 1;
    const side = sides && index < sides.length ? sides[index] : (from + index) % 2;
    if (side === null || side === undefined) {
      const [first, second] = text.split(" | ");
      rows.push({ number: firstTurn + rows.length, sides: [[{ ply, text: first }], second === undefined ? [] : [{ ply, text: second }]] });
      row = null;
      last = -1;
      return;
    }
    if (!row || side < last) {
      row = { number: firstTurn + rows.length, sides: [[], []] };
      rows.push(row);
    }
    row.sides[side].push({ ply, text });
    last = side;
  });
  return rows;
}

/**
 * The stretch of the move list a view lists (its last moves).
 * @param {{moves: string[], move_sides: (number | null)[], moves_from?: number, first_turn?: number}} view
 * @returns {Listed}
 */
export function listedOf(view) {
  return { from: view.moves_from || 0, moves: view.moves, sides: view.move_sides, firstTurn: view.first_turn || 1 };
}

/**
 * What the page lists after a new view: the earlier moves it already holds, up to where the
 * view's own list starts, then the view's (which says how the game ends now, after a
 * takeback too); the view's alone when they do not meet.
 * withView({from: 0, moves: ["a", "b"], ...}, {moves_from: 1, moves: ["b", "c"], ...}).moves
 *   === ["a", "b", "c"]
 * @param {Listed | null} known
 * @param {Parameters<typeof listedOf>[0]} view
 * @returns {Listed}
 */
export function withView(known, view) {
  const latest = listedOf(view);
  if (!known || known.from > latest.from || known.from + known.moves.length < latest.from) return latest;
  const kept = latest.from - known.from;
  return { from: known.from, moves: known.moves.slice(0, kept).concat(latest.moves),
    sides: known.sides.slice(0, kept).concat(latest.sides), firstTurn: known.firstTurn };
}

/**
 * What the page lists after fetching an earlier page of moves (the server's answer to
 * GET /api/games/{id}/moves): that page, then what it held from where the page ends; what it
 * held, unchanged, when the page does not reach it.
 * @param {Listed} known
 * @param {{from: number, moves: string[], move_sides: (number | null)[], first_turn: number}} page
 * @returns {Listed}
 */
export function withEarlier(known, page) {
  const end = page.from + page.moves.length;
  if (page.from >= known.from || end < known.from) return known;
  const skip = end - known.from;
  return { from: page.from, moves: page.moves.concat(known.moves.slice(skip)),
    sides: page.move_sides.concat(known.sides.slice(skip)), firstTurn: page.first_turn };
}

/**
 * The page of moves to fetch to list the `pageSize` moves before those `known` holds:
 * {from, limit}, or null when it starts at the first move.
 * earlierPage({from: 700, ...}, 500) → {from: 200, limit: 500}
 * @param {Listed} known
 * @param {number} pageSize
 * @returns {{from: number, limit: number} | null}
 */
export function earlierPage(known, pageSize) {
  if (known.from <= 0) return null;
  const from = Math.max(0, known.from - pageSize);
  return { from, limit: known.from - from };
}

/**
 * What a screen reader hears after the move that made `ply`: who played what, and what the
 * generation did. describeMove(["Blue", "Red"], ["[1,2,1,3]"], [0], {births: [[0, 0]], deaths: []})
 *   === "Blue played [1,2,1,3]; 1 born, 0 died"
 * @param {readonly string[]} names the sides' names
 * @param {readonly string[]} moves
 * @param {readonly (number | null)[] | null | undefined} sides
 * @param {{births?: unknown[], deaths?: unknown[], before?: unknown} | null | undefined} display
 * @returns {string}
 */
export function describeMove(names, moves, sides, display) {
  if (!moves.length) return "";
  const index = moves.length - 1;
  const text = moves[index];
  const side = sides && index < sides.length ? sides[index] : index % 2;
  let words;
  if (side === null || side === undefined) {
    const [first, second] = text.split(" | ");
    words = `${names[0]} chose ${first}, ${names[1]} chose ${second}`;
  } else {
    words = `${names[side]} played ${text}`;
  }
  if (display && display.before) {
    words += `; ${(display.births || []).length} born, ${(display.deaths || []).length} died`;
  }
  return words;
}
