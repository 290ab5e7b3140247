// @ts-check
// One puzzle on its page, as pure state changes (no DOM, no requests): the puzzle as the
// server gave it, the attempt's moves, what the board shows, the verdict and, once the
// attempt is over, the rating change, the theme and the solution to step through. The page's
// controller (page.js) keeps this state in a store and renders it with views.js.

/**
 * @typedef {{cells: [number, number][]}} Selection
 * @typedef {{rated: boolean, player: {before: number, after: number, change: number, shown: string} | null,
 *   puzzle: {before: number, after: number, change: number} | null}} RatingChange
 * @typedef {{move: string, display: any}} Step
 * @typedef {{id: string, game: string, title: string, solver: number, depth: number, rating: number,
 *   prompt: string, side: string, display: any, look: any, legal: any, simultaneous: boolean,
 *   source: {game_id: string | null, link: string, record: string, ply: number},
 *   tried: {attempts: number, solved: boolean}, date?: string}} Puzzle
 * @typedef {{verdict: "right" | "solved" | "wrong", move: string, reply: string | null,
 *   moves: string[], over: boolean, shown: any, display: any, legal: any, winning: string[],
 *   theme?: string, solutions?: string[], solution?: Step[], rating?: RatingChange}} Answer
 * @typedef {{
 *   puzzle: Puzzle, phase: "solving" | "solved" | "failed", moves: string[], display: any,
 *   legal: any, selection: Selection, verdict: Answer["verdict"] | null, last: {move: string, reply: string | null} | null,
 *   retry: boolean, busy: boolean, error: string, rating: RatingChange | null, theme: string,
 *   winning: string[], solution: Step[], step: number
 * }} PuzzleState
 * step: the solution's move shown (-1: none; the attempt's own position is shown).
 */

/** @type {Selection} */
const NOTHING = Object.freeze({ cells: /** @type {[number, number][]} */ ([]) });

/**
 * The state of a puzzle just opened (or opened again to retry: `retry`).
 * @param {Puzzle} puzzle
 * @param {boolean} [retry]
 * @returns {PuzzleState}
 */
export function begin(puzzle, retry = false) {
  return { puzzle, phase: "solving", moves: [], display: puzzle.display, legal: puzzle.legal,
    selection: NOTHING, verdict: null, last: null, retry: retry || puzzle.tried.attempts > 0,
    busy: false, error: "", rating: null, theme: "", winning: [], solution: [], step: -1 };
}

/**
 * Whether the board takes a move now.
 * @param {PuzzleState} state
 */
export function canMove(state) {
  return state.phase === "solving" && !state.busy && Boolean(state.legal);
}

/**
 * The state after the server judged a move: on "right" the board shows the position after
 * the reply (the controller shows `answer.shown` first), on "solved" the won position, on
 * "wrong" the wrong move; an ended attempt keeps its rating change, theme and solution.
 * @param {PuzzleState} state
 * @param {Answer} answer
 * @returns {PuzzleState}
 */
export function answered(state, answer) {
  const common = { busy: false, error: "", selection: NOTHING, verdict: answer.verdict,
    last: { move: answer.move, reply: answer.reply } };
  if (answer.verdict === "right") {
    return { ...state, ...common, moves: answer.moves, display: answer.display, legal: answer.legal };
  }
  const ended = { ...state, ...common, moves: answer.moves, legal: null,
    rating: answer.rating || null, theme: answer.theme || "", winning: answer.winning || [],
    solution: answer.solution || [] };
  if (answer.verdict === "solved") return { ...ended, phase: "solved", display: answer.display };
  return { ...ended, phase: "failed", display: answer.shown };
}

/**
 * The state after a refused request (an illegal move, a busy server): said, nothing played.
 * @param {PuzzleState} state
 * @param {string} error
 * @returns {PuzzleState}
 */
export function refused(state, error) {
  return { ...state, busy: false, error, selection: NOTHING };
}

/**
 * The puzzle from its start again: a retry (judged, never rated).
 * @param {PuzzleState} state
 * @returns {PuzzleState}
 */
export function retry(state) {
  return begin(state.puzzle, true);
}

/**
 * Show the solution's move `index` (clamped; -1 the puzzle's position), once the attempt is over.
 * @param {PuzzleState} state
 * @param {number} index
 * @returns {PuzzleState}
 */
export function showStep(state, index) {
  if (state.phase === "solving" || !state.solution.length) return state;
  const step = Math.max(-1, Math.min(state.solution.length - 1, index));
  return { ...state, step, display: step < 0 ? state.puzzle.display : state.solution[step].display };
}
