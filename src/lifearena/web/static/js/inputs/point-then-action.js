// @ts-check
// A point, then one of the moves at it (one move there is played at once); a pass when the
// interaction can pass. Pure reducer over the listed moves.
import { NOTHING, capital, key, movesAt, passButtons } from "./common.js";

/** @typedef {import("./common.js").Input} Input */

/** @type {Input["reduce"]} */
export function reduce(selection, event, legal) {
  if (event.type === "clear") return { selection: NOTHING };
  if (event.type === "play") return { selection: NOTHING, send: event.move };
  if (event.type !== "cell") return { selection };
  const moves = movesAt(legal, event.cell);
  const name = event.name || key(event.cell);
  if (moves.length === 1) return { selection: NOTHING, send: moves[0].move };
  if (moves.length > 1) return { selection: { cells: [event.cell] }, message: `Choose what to do at ${name}.` };
  const any = (legal.moves || []).some((m) => m.cells.length);
  return { selection: NOTHING, tone: "error", message: any
    ? `Nothing can be played at ${name}; the highlighted points have a move.`
    : `Nothing can be played at ${name}: ${legal.interaction.prompt}.` };
}

/** @type {Input["buttons"]} */
export function buttons(selection, legal, name) {
  const cell = selection.cells[0];
  /** @type {import("./common.js").Button[]} */
  const shown = cell ? movesAt(legal, cell).map((m) => ({ label: `${capital(m.label)} at ${name(cell)}`,
    event: /** @type {const} */ ({ type: "play", move: m.move }) })) : [];
  return shown.concat(passButtons(legal, "Pass (no other move)"));
}

/** @type {Input["marks"]} */
export function marks(selection, legal) {
  /** @type {Record<string, string>} */
  const result = {};
  if (selection.cells[0]) result[key(selection.cells[0])] = "selected";
  return result;
}

/**
 * The points that have a move, for a page to highlight after a click found none.
 * @param {import("./common.js").LegalView} legal
 * @returns {Record<string, string>}
 */
export function hints(legal) {
  /** @type {Record<string, string>} */
  const result = {};
  for (const m of legal.moves || []) if (m.cells[0]) result[key(m.cells[0])] = "target";
  return result;
}
