// @ts-check
// A point, then one of the moves at it: a first click never plays (a point's only move may
// be a change the person did not mean, a stone of the other colour): it selects the point
// and its moves show as buttons labelled by the server; a second click on the same point
// plays its move when it has exactly one. Each move says what it does in the server's words
// (who scores by it, who wins), and the points with a move are lit before any click. A pass
// when the interaction can pass. Pure reducer over the listed moves.
import { NOTHING, choiceText, key, movesAt, passButtons, same } from "./common.js";

/** @typedef {import("./common.js").Input} Input */

/** @type {Input["reduce"]} */
export function reduce(selection, event, legal) {
  if (event.type === "clear") return { selection: NOTHING };
  if (event.type === "play") return { selection: NOTHING, send: event.move };
  const chosen = selection.cells[0];
  if (event.type === "confirm") {
    const only = chosen ? movesAt(legal, chosen) : [];
    if (only.length === 1) return { selection: NOTHING, send: only[0].move };
    return { selection, tone: "error",
      message: chosen ? "Choose one of the buttons: this point has more than one move." : "Choose a point first." };
  }
  if (event.type !== "cell") return { selection };
  const moves = movesAt(legal, event.cell);
  const name = event.name || key(event.cell);
  if (moves.length === 1) {
    if (chosen && same(chosen, event.cell)) return { selection: NOTHING, send: moves[0].move };
    return { selection: { cells: [event.cell] },
      message: `${choiceText(moves[0], name)}? Click the point again or press the button.` };
  }
  if (moves.length > 1) {
    return { selection: { cells: [event.cell] },
      message: `Choose what to do at ${name}: ${moves.map((m) => m.label
        + (m.detail ? ` (${m.detail})` : "")).join(", ")}.` };
  }
  const any = (legal.moves || []).some((m) => m.cells.length);
  return { selection: NOTHING, tone: "error", message: any
    ? `Nothing can be played at ${name}; the highlighted points have a move.`
    : `Nothing can be played at ${name}: ${legal.interaction.prompt}.` };
}

/** @type {Input["buttons"]} */
export function buttons(selection, legal, name) {
  const cell = selection.cells[0];
  /** @type {import("./common.js").Button[]} */
  const shown = cell ? movesAt(legal, cell).map((m, index) => ({ id: `action-${index}`,
    label: choiceText(m, name(cell)),
    event: /** @type {const} */ ({ type: "play", move: m.move }) })) : [];
  if (cell) shown.push({ id: "clear", label: "Clear", event: { type: "clear" }, quiet: true });
  return shown.concat(passButtons(legal, "Pass (no other move)"));
}

/** @type {Input["marks"]} */
export function marks(selection, legal) {
  // the points that have a move are lit from the start, not only after a click found none
  /** @type {Record<string, string>} */
  const result = legal ? hints(legal) : {};
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
