// @ts-check
// The move list: one row per turn, a column per side, each move a button that shows the
// position after it; a long game's first row fetches the moves before. Pure.
import { turnRows } from "../../movelist.js";
import { h } from "../h.js";

/** @typedef {import("../h.js").VNode} VNode @typedef {import("../read.js").PageState} PageState */

/** The stretch of the move list the page holds. @param {PageState} state
 * @returns {import("../../movelist.js").Listed} */
export function shownList(state) {
  const view = state.view;
  return state.moveList || { from: 0, moves: view.moves, sides: view.move_sides, firstTurn: 1 };
}

/** What the list's drawing depends on: the list is drawn anew only when it changes (a
 * keyboard's place and the scroll stay). @param {PageState} state @returns {string} */
export function listSignature(state) {
  const view = state.view;
  const shown = shownList(state);
  return JSON.stringify([shown.from, shown.moves.length, view.ply, view.moves[view.moves.length - 1], view.look.sides]);
}

/** The first row of a list that leaves out the game's first `count` moves: a button that
 * fetches the page before (scrolling to the top of the list does too).
 * @param {number} count @param {() => void} onEarlier @returns {VNode} */
export function earlierItem(count, onEarlier) {
  return h("li", { class: "earlier" }, [h("button", { type: "button", id: "earlier-moves", on: { click: onEarlier } },
    [count === 1 ? "1 earlier move…" : `${count} earlier moves…`])]);
}

/** The list's items. @param {PageState} state @param {() => void} onEarlier @returns {VNode[]} */
export function moveItems(state, onEarlier) {
  const sides = state.view.look.sides;
  const shown = shownList(state);
  const items = turnRows(shown.moves, shown.sides, shown.from, shown.firstTurn).map((row) =>
    h("li", { class: "turn" }, [
      h("span", { class: "number" }, [`${row.number}.`]),
      ...row.sides.map((entries, side) => h("span", { class: "side side-" + side }, entries.map((entry) =>
        h("button", { type: "button", class: "move", tabindex: -1, "data-ply": entry.ply, "data-side": side,
          "aria-label": `${sides[side].name}: ${entry.text}, move ${entry.ply}` },
        [h("span", { class: "dot", style: { background: sides[side].colour } }), entry.text])))),
    ]));
  if (shown.from > 0) items.unshift(earlierItem(shown.from, onEarlier));
  return items;
}
