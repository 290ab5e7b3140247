// @ts-check
// A piece of one's own, then the empty cell it goes to (the listed moves' first and second
// cells). Pure reducer; the server checks every move.
import { NOTHING, key, movesAt, same } from "./common.js";

/** @typedef {import("./common.js").Input} Input */

/** @type {Input["reduce"]} */
export function reduce(selection, event, legal) {
  if (event.type === "clear") return { selection: NOTHING };
  if (event.type === "play") return { selection: NOTHING, send: event.move };
  if (event.type !== "cell") return { selection };
  const cell = event.cell;
  const from = selection.cells[0];
  if (from) {
    const target = movesAt(legal, from).find((m) => m.cells[1] && same(m.cells[1], cell));
    if (target) return { selection: NOTHING, send: target.move };
    if (same(from, cell)) return { selection: NOTHING };
  }
  const moves = movesAt(legal, cell);
  if (moves.length) {
    const n = moves.length;
    return { selection: { cells: [cell] },
      message: `${n} cell${n > 1 ? "s" : ""} to go to: click a highlighted one.` };
  }
  const names = event.names || [];
  const seat = event.seat || 0;
  if (event.value && event.value === seat + 1) {
    return { selection: NOTHING, tone: "error",
      message: "This piece cannot move: every neighbouring cell is taken." };
  }
  if (event.value) {
    const theirs = (names[event.value - 1] || "other").toLowerCase();
    return { selection, tone: "error",
      message: `That is a ${theirs} piece; you play ${(names[seat] || "your side").toLowerCase()}.` };
  }
  return { selection, tone: "error", message: from
    ? "The chosen piece cannot go there: click a highlighted cell next to it."
    : "Click one of your pieces first, then where it goes." };
}

/** @type {Input["buttons"]} */
export function buttons(selection) {
  return selection.cells.length ? [{ id: "clear", label: "Clear", event: { type: "clear" }, quiet: true }] : [];
}

/** @type {Input["marks"]} */
export function marks(selection, legal) {
  /** @type {Record<string, string>} */
  const result = {};
  const from = selection.cells[0];
  if (!from) return result;
  result[key(from)] = "selected";
  for (const m of movesAt(legal, from)) if (m.cells[1]) result[key(m.cells[1])] = "target";
  return result;
}
