// @ts-check
// What every input module shares: the shapes of a selection, a board event, a legal view
// and a reducer's result, and the look-ups in a legal view (the moves at a cell, the part at
// a cell, a move composed from parts). Pure: no DOM.

/**
 * @typedef {[number, number]} Cell  [row, column], row 0 at the top
 * @typedef {{cells: Cell[]}} Selection  the cells picked so far, in click order
 * @typedef {{action: number, move: string, cells: Cell[], label: string, detail?: string}} Choice
 * detail: what the move does beyond its label, in the server's words (who scores, who wins)
 * @typedef {{cell: Cell, text: string}} Part
 * @typedef {{kind: string, prompt: string, count: number, can_pass: boolean,
 *   pass_move?: string | null, parts?: Part[], joiner?: string}} Interaction
 * @typedef {{count: number, interaction: Interaction, moves: Choice[] | null}} LegalView
 * A seat's legal view as the server sends it (moves is null when too many to list).
 * @typedef {{type: "cell", cell: Cell, value?: number, seat?: number, name?: string,
 *   names?: string[], touch?: boolean} | {type: "confirm"} | {type: "clear"} |
 *   {type: "play", move: string}} InputEvent
 * cell: a click (or Enter) on a cell holding `value` (0 empty, 1 or 2 a side's piece),
 * `name` the cell as the board labels it, `names` the sides' names, `touch` a finger's tap
 * (a small square is easily missed: a tap that would play at once selects first); confirm: play the
 * complete selection; clear: drop it; play: a button's move.
 * @typedef {{selection: Selection, send?: string, message?: string, tone?: "info" | "error"}} Result
 * @typedef {{id?: string, label: string, event: InputEvent, quiet?: boolean, disabled?: boolean}} Button
 * @typedef {{
 *   reduce(selection: Selection, event: InputEvent, legal: LegalView): Result,
 *   buttons(selection: Selection, legal: LegalView, name: (cell: Cell) => string): Button[],
 *   marks(selection: Selection, legal: LegalView): Record<string, string>
 * }} Input
 */

/** @type {Selection} */
export const NOTHING = Object.freeze({ cells: /** @type {Cell[]} */ ([]) });

/**
 * @param {readonly number[]} a
 * @param {readonly number[]} b
 * @returns {boolean}
 */
export function same(a, b) { return a[0] === b[0] && a[1] === b[1]; }

/**
 * @param {readonly number[]} cell
 * @returns {string}
 */
export function key(cell) { return cell[0] + "," + cell[1]; }

/**
 * The listed moves that start at `cell` (none when the moves are not listed).
 * @param {LegalView} legal
 * @param {readonly number[]} cell
 * @returns {Choice[]}
 */
export function movesAt(legal, cell) {
  return (legal.moves || []).filter((m) => m.cells.length > 0 && same(m.cells[0], cell));
}

/**
 * The part the interaction offers at `cell`, if any.
 * @param {LegalView} legal
 * @param {readonly number[]} cell
 * @returns {Part | undefined}
 */
export function partAt(legal, cell) {
  return (legal.interaction.parts || []).find((p) => same(p.cell, cell));
}

/**
 * The move made of the parts at `cells` in that order (their texts joined by the
 * interaction's joiner), or null when a cell has no part or the count is wrong.
 * @param {Interaction} interaction
 * @param {readonly Cell[]} cells
 * @returns {string | null}
 */
export function compose(interaction, cells) {
  const parts = interaction.parts || [];
  if (cells.length !== (interaction.count || 1)) return null;
  const texts = [];
  for (const cell of cells) {
    const part = parts.find((p) => same(p.cell, cell));
    if (!part) return null;
    texts.push(part.text);
  }
  return texts.join(interaction.joiner === undefined ? " " : interaction.joiner);
}

/**
 * The move without a cell (a pass, an end of blocking), from the interaction or the list.
 * @param {LegalView} legal
 * @returns {Choice | null}
 */
export function passChoice(legal) {
  const listed = (legal.moves || []).find((m) => m.cells.length === 0);
  if (listed) return listed;
  const text = legal.interaction.pass_move;
  return text ? { action: -1, move: text, cells: [], label: "pass" } : null;
}

/**
 * Whether every cell of `selection` may still be picked in `legal` (a part there, or a
 * listed move through it): a selection survives a new view only then.
 * @param {Selection} selection
 * @param {LegalView | null | undefined} legal
 * @returns {boolean}
 */
export function stillLegal(selection, legal) {
  if (!legal) return selection.cells.length === 0;
  return selection.cells.every((cell, index) => Boolean(partAt(legal, cell))
    || (legal.moves || []).some((m) => m.cells.length > index && same(m.cells[index], cell))
    || (index > 0 && (legal.moves || []).some((m) => m.cells.some((c) => same(c, cell)))));
}

/**
 * A move's label at a point with its detail, if the server gave one:
 * "Capture at H8 — White scores, 5th capture: White wins".
 * @param {Choice} choice
 * @param {string} name the point as the board names it
 * @returns {string}
 */
export function choiceText(choice, name) {
  return `${capital(choice.label)} at ${name}${choice.detail ? ` — ${choice.detail}` : ""}`;
}

/**
 * A label with its first letter in capitals.
 * @param {string} text
 * @returns {string}
 */
export function capital(text) { return text ? text[0].toUpperCase() + text.slice(1) : text; }

/**
 * The passing button of an interaction that can pass, labelled from the listed move.
 * @param {LegalView} legal
 * @param {string} [label]
 * @returns {Button[]}
 */
export function passButtons(legal, label) {
  const choice = legal.interaction.can_pass ? passChoice(legal) : null;
  if (!choice) return [];
  return [{ id: "pass", label: label || capital(choice.label || "pass"),
    event: { type: "play", move: choice.move }, quiet: true }];
}
