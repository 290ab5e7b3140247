// @ts-check
// What the page's state says, read the same way by the controller and the views: the seat
// this page acts for, the sides' names, the position on the board (an earlier one while
// browsing), a cell's name, why this page cannot move. Pure functions of the state.
import { cellName as displayCellName } from "../draw.js";
import { sideNames } from "../outcome.js";

/**
 * @typedef {import("../inputs/common.js").Cell} Cell
 * @typedef {import("../inputs/common.js").Selection} Selection
 * @typedef {{invite: string, you: string, spectator: string}} Links
 *   the game's links (paths): the invitation while it waits, this seat's, the spectators'
 * @typedef {{game: string, name: string, sections: {title: string, text: string}[],
 *   picture: any, caption: string, lesson: string}} Rules
 *   the game's rules as GET /api/games/{id}/rules sends them
 * @typedef {{move: string, ply: number, display: any, error?: string}} Preview
 *   the position after a composed move at ply `ply`, as POST /api/games/{id}/preview answers
 *   it (display null and the server's error when it refused)
 * @typedef {{
 *   view: any, moveList: import("../movelist.js").Listed | null,
 *   browsing: {upto: number, display: any} | null, selection: Selection,
 *   selectionSeat: number | null, cursor: Cell, message: {text: string, tone: string},
 *   hint: Record<string, string>, notice: string, connection: string, animateUntil: number,
 *   sound: boolean, announcement: string, early: {text: string, kind: string} | null,
 *   links: Links | null, rules: Rules | null, rulesOpen: boolean, preview: Preview | null
 * }} PageState
 * early: the banner before the first view (a refusal, a lost connection); announcement:
 * what the live region says last.
 */

/** The seat this page acts for now, or null. @param {any} view @returns {number | null} */
export function actingSeat(view) {
  if (!view || view.outcome || view.waiting_for_opponent || view.cancelled) return null;
  const mine = view.seats.filter((/** @type {number} */ s) => view.awaiting.includes(s) && view.legal[String(s)]);
  return mine.length ? mine[0] : null;
}

/** The sides' names. @param {any} view @returns {string[]} */
export function names(view) { return sideNames(view && view.look); }

/** The position on the board: an earlier one while browsing. @param {PageState} state @returns {any} */
export function shownDisplay(state) {
  return state.browsing ? state.browsing.display : state.view && state.view.display;
}

/** The cell as the board labels it, in the order of the game's notation.
 * @param {PageState} state @param {Cell} cell @returns {string} */
export function cellName(state, cell) { return displayCellName(shownDisplay(state), cell); }

/** Why this page cannot move now, in words. @param {PageState} state @returns {string} */
export function whyNot(state) {
  const { view, browsing } = state;
  if (browsing) return "You are looking at an earlier position; press End or the banner to return to the game.";
  if (view.cancelled) return "This game was cancelled.";
  if (view.waiting_for_opponent) return "Nobody can move until your opponent joins.";
  if (view.outcome) return "The game is over.";
  if (!view.seats.length) return "Spectators watch; only a seat's private link can move.";
  if (view.thinking) return "The agent is thinking; wait for its move.";
  if (view.simultaneous) return "You have chosen; waiting for your opponent.";
  return `It is ${names(view)[view.awaiting[0]]}'s turn, not yours.`;
}

/** What stands on a cell, for the cursor's announcement. @param {PageState} state
 * @param {Cell} cell @returns {string} */
export function cellWords(state, cell) {
  const view = state.view;
  const grid = view.display.grid;
  const value = grid ? grid.cells[cell[0]][cell[1]] : 0;
  const picked = state.selection.cells.some((c) => c[0] === cell[0] && c[1] === cell[1]);
  return (value ? `, ${names(view)[value - 1]}` : ", empty") + (picked ? ", picked" : "");
}
