// @ts-check
// The buttons under the board: the input's buttons for the composed move (confirm, clear,
// the actions at a point, pass), or cancelling a game nobody has joined yet. Pure.
import { inputFor } from "../../inputs/index.js";
import { h } from "../h.js";
import { actingSeat, cellName } from "../read.js";

/**
 * @typedef {import("../h.js").VNode} VNode @typedef {import("../read.js").PageState} PageState
 * @typedef {{cancel(): void, dispatch(event: import("../../inputs/common.js").InputEvent): void,
 *   hoverMove?(move: string | null): void}} ChoiceActions
 * hoverMove: a button's move pointed at or focused (null: left), for its preview
 */

/**
 * @param {string} label @param {Record<string, any>} attrs @param {boolean} [quiet]
 * @returns {VNode}
 */
function button(label, attrs, quiet) {
  return h("button", { type: "button", class: quiet ? "quiet" : null, ...attrs }, [label]);
}

/** The choice bar's buttons. @param {PageState} state @param {ChoiceActions} actions @returns {VNode[]} */
export function choicesView(state, actions) {
  const view = state.view;
  if (view.waiting_for_opponent && view.seats.length) {
    return [button("Cancel the game", { id: "cancel", on: { click: () => actions.cancel() } }, true)];
  }
  const seat = actingSeat(view);
  if (seat === null || state.browsing) return [];
  const legal = view.legal[String(seat)];
  return inputFor(legal.interaction.kind).buttons(state.selection, legal, (cell) => cellName(state, cell)).map((shown) => {
    const event = shown.event;
    /** @type {Record<string, (e: any) => void>} */
    const on = { click: () => actions.dispatch(event) };
    if (event.type === "play" && actions.hoverMove) {
      const hover = actions.hoverMove;
      Object.assign(on, { pointerenter: () => hover(event.move), focus: () => hover(event.move),
        pointerleave: () => hover(null), blur: () => hover(null) });
    }
    return button(shown.label, { id: shown.id, disabled: Boolean(shown.disabled), on }, Boolean(shown.quiet));
  });
}
