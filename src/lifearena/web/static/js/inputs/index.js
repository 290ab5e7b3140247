// @ts-check
// The input module of each interaction kind the server names (core.InteractionKind).
import * as answer from "./answer.js";
import * as cellOrPass from "./cell-or-pass.js";
import * as cells from "./cells.js";
import * as pieceThenTarget from "./piece-then-target.js";
import * as pointThenAction from "./point-then-action.js";
import * as squareThenBlocks from "./square-then-blocks.js";

/** @type {Record<string, import("./common.js").Input>} */
export const INPUTS = {
  "piece-then-target": pieceThenTarget,
  cells,
  "cell-or-pass": cellOrPass,
  "point-then-action": pointThenAction,
  "square-then-blocks": squareThenBlocks,
  answer,
};

/**
 * The input module of an interaction kind (the typed answer's for a kind it does not know).
 * @param {string} kind
 * @returns {import("./common.js").Input}
 */
export function inputFor(kind) { return INPUTS[kind] || answer; }
