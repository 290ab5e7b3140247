// @ts-check
// `count` cells at once, confirmed together: the move is composed from the interaction's
// parts (so it works when the moves are too many to list). Pure reducer.
import { NOTHING, compose, key, partAt, same } from "./common.js";

/** @typedef {import("./common.js").Input} Input */

/** @type {Input["reduce"]} */
export function reduce(selection, event, legal) {
  const need = legal.interaction.count || 1;
  if (event.type === "clear") return { selection: NOTHING };
  if (event.type === "play") return { selection: NOTHING, send: event.move };
  if (event.type === "confirm") {
    const move = compose(legal.interaction, selection.cells);
    if (move === null) {
      const left = need - selection.cells.length;
      return { selection, tone: "error", message: `Pick ${left} more cell${left === 1 ? "" : "s"} first.` };
    }
    return { selection: NOTHING, send: move };
  }
  if (event.type !== "cell") return { selection };
  const cell = event.cell;
  const index = selection.cells.findIndex((c) => same(c, cell));
  if (index >= 0) return { selection: { cells: selection.cells.filter((_, i) => i !== index) } };
  if (!partAt(legal, cell)) {
    return { selection, tone: "error", message: `Cell ${event.name || key(cell)} is taken; choose empty cells.` };
  }
  let cells = selection.cells;
  if (cells.length >= need) {
    if (need !== 1) {
      return { selection, tone: "error", message: `You have picked ${need} cells; click one to unpick it.` };
    }
    cells = [];
  }
  cells = [...cells, cell];
  return { selection: { cells }, message: cells.length === need ? "Press Place (or Enter) to confirm." : "" };
}

/** @type {Input["buttons"]} */
export function buttons(selection, legal, name) {
  const need = legal.interaction.count || 1;
  const left = need - selection.cells.length;
  const ready = left === 0;
  /** @type {import("./common.js").Button[]} */
  const shown = [{ id: "confirm", event: { type: "confirm" }, disabled: !ready,
    label: ready ? `Place on ${selection.cells.map(name).join(" ")}` : `Pick ${left} more cell${left > 1 ? "s" : ""}` }];
  if (selection.cells.length) shown.push({ id: "clear", label: "Clear", event: { type: "clear" }, quiet: true });
  return shown;
}

/** @type {Input["marks"]} */
export function marks(selection) {
  /** @type {Record<string, string>} */
  const result = {};
  // a picked cell is drawn as a faint piece of the picker's colour (draw.js)
  for (const cell of selection.cells) result[key(cell)] = "pick";
  return result;
}
