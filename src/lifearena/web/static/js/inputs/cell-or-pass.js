// @ts-check
// One cell (its part is the move: place on an empty cell, remove one of one's own), chosen
// then confirmed by a second click or the button, or a pass. Pure reducer.
import { NOTHING, capital, key, movesAt, partAt, passButtons, same } from "./common.js";

/** @typedef {import("./common.js").Input} Input */
/** @typedef {import("./common.js").LegalView} LegalView */

/**
 * The move at `cell` and its label ("place", "remove"), from the parts or the list.
 * @param {LegalView} legal
 * @param {readonly number[]} cell
 * @returns {{move: string, label: string} | null}
 */
function moveAt(legal, cell) {
  const listed = movesAt(legal, cell)[0];
  const part = partAt(legal, cell);
  if (listed) return { move: listed.move, label: listed.label };
  return part ? { move: part.text, label: "play" } : null;
}

/** @type {Input["reduce"]} */
export function reduce(selection, event, legal) {
  if (event.type === "clear") return { selection: NOTHING };
  if (event.type === "play") return { selection: NOTHING, send: event.move };
  if (event.type === "confirm") {
    const chosen = selection.cells[0] && moveAt(legal, selection.cells[0]);
    return chosen ? { selection: NOTHING, send: chosen.move }
      : { selection, tone: "error", message: "Choose a cell first, or pass." };
  }
  if (event.type !== "cell") return { selection };
  const found = moveAt(legal, event.cell);
  const name = event.name || key(event.cell);
  if (!found) {
    const names = event.names || [];
    const seat = event.seat || 0;
    return { selection, tone: "error", message: event.value && event.value !== seat + 1
      ? `Cell ${name} holds a ${(names[event.value - 1] || "other").toLowerCase()} token; remove only your own.`
      : `Nothing can be played on ${name}.` };
  }
  if (selection.cells[0] && same(selection.cells[0], event.cell)) return { selection: NOTHING, send: found.move };
  return { selection: { cells: [event.cell] },
    message: `${capital(found.label)} on ${name}? Click it again or press the button.` };
}

/** @type {Input["buttons"]} */
export function buttons(selection, legal, name) {
  /** @type {import("./common.js").Button[]} */
  const shown = [];
  const cell = selection.cells[0];
  const found = cell && moveAt(legal, cell);
  if (cell && found) shown.push({ id: "confirm", label: `${capital(found.label)} on ${name(cell)}`, event: { type: "play", move: found.move } });
  return shown.concat(passButtons(legal, "Pass"));
}

/** @type {Input["marks"]} */
export function marks(selection) {
  /** @type {Record<string, string>} */
  const result = {};
  for (const cell of selection.cells) result[key(cell)] = "selected";
  return result;
}
