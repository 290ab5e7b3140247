// @ts-check
// A square to move to, then squares to block one at a time, or a stop: each click on a
// square with a part plays that part's move at once. A finger's tap only selects the square
// (on a phone the squares are small and a tap easily lands on the wrong one): a second tap on
// it, or its button, plays. Pure reducer.
import { NOTHING, key, movesAt, partAt, passButtons, same } from "./common.js";

/** @typedef {import("./common.js").Input} Input */

/** @type {Input["reduce"]} */
export function reduce(selection, event, legal) {
  if (event.type === "clear") return { selection: NOTHING };
  if (event.type === "play") return { selection: NOTHING, send: event.move };
  if (event.type !== "cell") return { selection };
  const part = partAt(legal, event.cell);
  const listed = movesAt(legal, event.cell)[0];
  const move = part ? part.text : listed ? listed.move : null;
  const name = event.name || key(event.cell);
  if (move) {
    const chosen = selection.cells[0];
    if (!event.touch || (chosen && same(chosen, event.cell))) return { selection: NOTHING, send: move };
    return { selection: { cells: [event.cell] },
      message: `${name}? Tap it again or press the button to play it.` };
  }
  return { selection: NOTHING, tone: "error",
    message: `Nothing can be played on ${name}: ${legal.interaction.prompt}.` };
}

/** @type {Input["buttons"]} */
export function buttons(selection, legal, name) {
  const cell = selection.cells[0];
  const part = cell ? partAt(legal, cell) : undefined;
  const listed = cell ? movesAt(legal, cell)[0] : undefined;
  const move = part ? part.text : listed ? listed.move : null;
  /** @type {import("./common.js").Button[]} */
  const shown = [];
  if (cell && move) {
    shown.push({ id: "play-selected", label: `Play ${name(cell)}`, event: { type: "play", move } },
      { id: "clear", label: "Clear", event: { type: "clear" }, quiet: true });
  }
  return shown.concat(passButtons(legal));
}

/** @type {Input["marks"]} */
export function marks(selection) {
  /** @type {Record<string, string>} */
  const result = {};
  if (selection.cells[0]) result[key(selection.cells[0])] = "selected";
  return result;
}
