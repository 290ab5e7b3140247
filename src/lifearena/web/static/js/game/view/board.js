// @ts-check
// The board: the picture of the position on it (js/draw.js) with this page's marks (its
// pending choice, collisions, the input's marks), the keyboard's cursor, the last
// generation's births and deaths, or, while a composed move is previewed, the births and
// deaths that move would cause; or the 1978 program's printout. Pure: a description of what
// to draw, from the state, the room there is and the time.
import { boardSize, picture } from "../../draw.js";
import { inputFor } from "../../inputs/index.js";
import { actingSeat, cellName, shownDisplay } from "../read.js";

/** @typedef {import("../read.js").PageState} PageState */

export const BOARD_PX = 560;

/**
 * @typedef {{printed: true, text: string} | {printed: false, tree: import("../../draw.js").Node,
 *   label: string, legend: boolean, legendWords: [string, string], preview: string}} Board
 * printed: the 1978 program's text instead of a picture; legend: whether the births and
 * deaths legend shows, and its words (a preview's births are still to come); preview: the
 * preview's line ("" when none).
 */

/** The marks on the board: the seat's own pending choice, collisions, the input's marks.
 * @param {PageState} state @param {number} now @returns {Record<string, string>} */
export function marksFor(state, now) {
  const view = state.view;
  /** @type {Record<string, string>} */
  const marks = { ...state.hint };
  if (view.seats.length === 1) {
    for (const cells of Object.values(view.mine_cells || {})) {
      for (const [r, c] of /** @type {number[][]} */ (cells)) marks[r + "," + c] = "chosen";
    }
  }
  if (now < state.animateUntil) for (const [r, c] of view.display.collisions || []) marks[r + "," + c] = "collision";
  const seat = actingSeat(view);
  if (seat !== null) {
    const legal = view.legal[String(seat)];
    Object.assign(marks, inputFor(legal.interaction.kind).marks(state.selection, legal));
  }
  return marks;
}

/** The colour of the side this page picks for (its picks are drawn in it), if any.
 * @param {any} view @returns {string | undefined} */
export function ownColour(view) {
  const seat = actingSeat(view) ?? (view.seats.length === 1 ? view.seats[0] : null);
  return seat === null ? undefined : view.look.sides[seat].colour;
}

/** The preview's line: "preview: +3 born, −2 die". @param {any} display @returns {string} */
export function previewLine(display) {
  return `preview: +${(display.births || []).length} born, \u2212${(display.deaths || []).length} die`;
}

/**
 * What the board shows.
 * @param {PageState} state
 * @param {{width: number, now: number}} room the board's box width (0: unknown) and the time
 * @returns {Board}
 */
export function boardView(state, room) {
  const view = state.view;
  const display = shownDisplay(state);
  if (display.terminal) return { printed: true, text: display.text };
  // a preview is of the position on the board now, never of an earlier one
  const asked = !state.browsing && state.preview && state.preview.ply === view.ply ? state.preview : null;
  const preview = asked && asked.display;
  const animate = !state.browsing && !preview && room.now < state.animateUntil;
  // an earlier position shows its own generation's births and deaths too
  const changed = preview || display;
  const tree = picture(display, view.look, {
    size: Math.min(BOARD_PX, room.width || BOARD_PX), cursor: state.cursor,
    marks: state.browsing ? {} : marksFor(state, room.now),
    births: changed.births, deaths: changed.deaths, animate, own: ownColour(view),
  });
  const label = `board, ${boardSize(display)?.join(" by ")}: arrow keys move the cursor `
    + `(now ${cellName(state, state.cursor)}), Enter or Space picks, Escape clears`;
  return { printed: false, tree, label, legend: Boolean(display.before || preview),
    legendWords: preview ? ["would be born", "would die"] : ["born in the last generation", "died"],
    preview: preview ? previewLine(preview) : asked ? `preview: ${asked.error || "not available"}` : "" };
}
