// @ts-check
// A typed answer to a prompt (a program's question): nothing on a board to click; the page's
// typed box sends it. Pure reducer.
import { NOTHING } from "./common.js";

/** @typedef {import("./common.js").Input} Input */

/** @type {Input["reduce"]} */
export function reduce(selection, event, legal) {
  if (event.type === "play") return { selection: NOTHING, send: event.move };
  return { selection: NOTHING, message: `Type your answer below: ${legal.interaction.prompt}.` };
}

/** @type {Input["buttons"]} */
export function buttons() { return []; }

/** @type {Input["marks"]} */
export function marks() { return {}; }
