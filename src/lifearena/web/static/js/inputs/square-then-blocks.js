// @ts-check
// A square to move to, then squares to block one at a time, or a stop: each click on a
// square with a part plays that part's move at once. Pure reducer.
import { NOTHING, key, movesAt, partAt, passButtons } from "./common.js";

/** @typedef {import("./common.js").Input} Input */

/** @type {Input["reduce"]} */
export function reduce(selection, event, legal) {
  if (event.type === "clear") return { selection: NOTHING };
  if (event.type === "play") return { selection: NOTHING, send: event.move };
  if (event.type !== "cell") return { selection };
  const part = partAt(legal, event.cell);
  const listed = movesAt(legal, event.cell)[0];
  const move = part ? part.text : listed ? listed.move : null;
  if (move) return { selection: NOTHING, send: move };
  return { selection: NOTHING, tone: "error",
    message: `Nothing can be played on ${event.name || key(event.cell)}: ${legal.interaction.prompt}.` };
}

/** @type {Input["buttons"]} */
export function buttons(selection, legal) { return passButtons(legal); }

/** @type {Input["marks"]} */
export function marks() { return {}; }
