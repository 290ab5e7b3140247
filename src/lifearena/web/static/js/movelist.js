// @ts-check
// The move list's rows and the words a screen reader hears after a move. Pure: one row per
// turn, a column per side (a side's consecutive moves share its cell; a simultaneous turn's
// "a | b" fills both), from the server's moves and which side played each (view.move_sides).

/**
 * @typedef {{ply: number, text: string}} Entry  ply: the position after this move (1-based)
 * @typedef {{number: number, sides: [Entry[], Entry[]]}} Row
 */

/**
 * The rows of a move list. turnRows(["a", "b", "c"], [0, 1, 0]) has two rows: a|b and c|.
 * @param {readonly string[]} moves
 * @param {readonly (number | null)[] | null | undefined} sides
 * @returns {Row[]}
 */
export function turnRows(moves, sides) {
  /** @type {Row[]} */
  const rows = [];
  /** @type {Row | null} */
  let row = null;
  let last = -1;
  moves.forEach((text, index) => {
    const ply = index + 1;
    const side = sides && index < sides.length ? sides[index] : index % 2;
    if (side === null || side === undefined) {
      const [first, second] = text.split(" | ");
      rows.push({ number: rows.length + 1, sides: [[{ ply, text: first }], second === undefined ? [] : [{ ply, text: second }]] });
      row = null;
      last = -1;
      return;
    }
    if (!row || side < last) {
      row = { number: rows.length + 1, sides: [[], []] };
      rows.push(row);
    }
    row.sides[side].push({ ply, text });
    last = side;
  });
  return rows;
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
