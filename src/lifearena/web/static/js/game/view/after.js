// @ts-check
// What the page offers about moves already played: after the computer's (or the opponent's)
// reply, the two generations of the last turn one after the other, "Your move" (the position
// after this page's move, with its own births and deaths) and "Their reply" (the game's
// position now); and once the game is over, the analysis board. Pure.
import { h } from "../h.js";

/**
 * @typedef {import("../h.js").VNode} VNode @typedef {import("../read.js").PageState} PageState
 * @typedef {{browse(upto: number): void}} AfterActions
 */

/**
 * The ply after this page's own last move when the move after it is the other side's reply
 * (a game with generations, one seat held); null otherwise.
 * @param {any} view
 * @returns {number | null}
 */
export function ownMovePly(view) {
  if (!view || view.seats.length !== 1 || !view.display || !view.display.before) return null;
  const sides = view.move_sides || [];
  const n = sides.length;
  const me = view.seats[0];
  if (n < 2 || view.ply < 2 || sides[n - 1] !== 1 - me || sides[n - 2] !== me) return null;
  return view.ply - 1;
}

/**
 * The two buttons of the last turn's generations ([] when there is no reply to a move of
 * this page's yet).
 * @param {PageState} state
 * @param {AfterActions} actions
 * @returns {VNode[]}
 */
export function generationsView(state, actions) {
  const own = ownMovePly(state.view);
  if (own === null) return [];
  const at = state.browsing ? state.browsing.upto : state.view.ply;
  const ply = state.view.ply;
  return [
    h("span", { class: "generations-label" }, ["Last turn:"]),
    h("button", { type: "button", class: "quiet small", id: "gen-mine", "aria-pressed": String(at === own),
      on: { click: () => actions.browse(own) } }, ["Your move"]),
    h("button", { type: "button", class: "quiet small", id: "gen-reply", "aria-pressed": String(at === ply),
      on: { click: () => actions.browse(ply) } }, ["Their reply"]),
  ];
}

/**
 * The analysis board's address once the game is over, else null.
 * @param {any} view
 * @param {string} gameId
 * @returns {string | null}
 */
export function analysisHref(view, gameId) {
  return view && view.outcome ? `/analysis/${encodeURIComponent(gameId)}` : null;
}
