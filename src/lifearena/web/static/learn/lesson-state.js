// @ts-check
// The state of a lesson page and its pure transitions: which step is shown, the position on
// the board (the step's start, or the server's answer to a move), the plies of a turn still
// going on (the queen game's move before its blocks), what is said, which steps are done.
// No DOM, no requests: the page (lesson-page.js) owns a store of this and calls these.
import { NOTHING } from "../js/inputs/common.js";

/**
 * @typedef {import("../js/inputs/common.js").Selection} Selection
 * @typedef {import("../js/inputs/common.js").LegalView} LegalView
 * @typedef {{number: number, title: string, text: string, task: string, hint: string,
 *   learner: number, simultaneous: boolean, display: any, legal: LegalView}} StepData
 * @typedef {{game: string, title: string, summary: string, look: any, play: string,
 *   steps: StepData[]}} LessonData  the server's GET /api/lessons/{game}
 * @typedef {{step: number, met: boolean, more: boolean, message: string, moves: string[],
 *   reply: string | null, display: any, legal: LegalView | null,
 *   outcome: {text: string, winner: number | null} | null, last_step: boolean}} Answer
 *   the server's answer to a move
 * @typedef {"play" | "more" | "done" | "missed"} Phase
 *   play: the learner's move is awaited; more: the turn goes on (its next ply awaited);
 *   done: the goal is met; missed: a legal move that did not meet it
 * @typedef {{
 *   lesson: LessonData | null, index: number, phase: Phase, display: any,
 *   legal: LegalView | null, played: string[], selection: Selection,
 *   message: {text: string, tone: "info" | "error" | "good"}, hint: boolean,
 *   done: number[], animateUntil: number, busy: boolean, cursor: [number, number]
 * }} LessonState
 *   cursor: the keyboard's cell on the board
 */

/** How long a generation's births and deaths animate, in milliseconds. */
export const ANIMATION_MS = 900;

/** @type {LessonState} */
export const EMPTY = Object.freeze({
  lesson: null, index: 0, phase: /** @type {Phase} */ ("play"), display: null, legal: null,
  played: [], selection: NOTHING, message: { text: "", tone: /** @type {const} */ ("info") },
  hint: false, done: [], animateUntil: 0, busy: false, cursor: /** @type {[number, number]} */ ([0, 0]),
});

/** The arrow keys' steps on the board, [rows, columns]. */
const STEPS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

/**
 * The keyboard's cursor after an arrow `key`, kept on a board of `size` [rows, columns]
 * (null when `key` is no arrow).
 * @param {[number, number]} cursor
 * @param {string} key
 * @param {[number, number] | null} size
 * @returns {[number, number] | null}
 */
export function moved(cursor, key, size) {
  const step = /** @type {Record<string, number[]>} */ (STEPS)[key];
  if (!step || !size) return null;
  return [Math.min(size[0] - 1, Math.max(0, cursor[0] + step[0])),
    Math.min(size[1] - 1, Math.max(0, cursor[1] + step[1]))];
}

/**
 * The lesson loaded, at step `index` (0 when out of range).
 * @param {LessonData} lesson
 * @param {number} [index]
 * @returns {Partial<LessonState>}
 */
export function loaded(lesson, index = 0) {
  return { lesson, ...atStep(lesson, index >= 0 && index < lesson.steps.length ? index : 0) };
}

/**
 * The patch that shows step `index` from its start.
 * @param {LessonData} lesson
 * @param {number} index
 * @returns {Partial<LessonState>}
 */
export function atStep(lesson, index) {
  const step = lesson.steps[index];
  return { index, phase: "play", display: step.display, legal: step.legal, played: [],
    selection: NOTHING, message: { text: "", tone: "info" }, hint: false, animateUntil: 0,
    busy: false, cursor: [0, 0] };
}

/**
 * The step shown now.
 * @param {LessonState} state
 * @returns {StepData | null}
 */
export function currentStep(state) {
  return state.lesson ? state.lesson.steps[state.index] || null : null;
}

/**
 * Whether the board takes the learner's clicks now.
 * @param {LessonState} state
 * @returns {boolean}
 */
export function canMove(state) {
  return Boolean(state.lesson && state.legal && !state.busy
    && (state.phase === "play" || state.phase === "more"));
}

/**
 * The plies the next request sends: the turn's earlier plies, then `move`.
 * @param {LessonState} state
 * @param {string} move
 * @returns {{move: string, before: string[]}}
 */
export function moveBody(state, move) {
  return { move, before: state.played };
}

/**
 * The server's answer to the learner's move, at `now` (milliseconds).
 * @param {LessonState} state
 * @param {Answer} answer
 * @param {string[]} names the sides' names
 * @param {number} now
 * @returns {Partial<LessonState>}
 */
export function answered(state, answer, names, now) {
  const step = currentStep(state);
  const learner = step ? step.learner : 0;
  const other = names[1 - learner] || "The other side";
  const reply = answer.reply ? `${other} chose ${answer.reply}. ` : "";
  /** @type {Partial<LessonState>} */
  const patch = { display: answer.display, selection: NOTHING, busy: false,
    animateUntil: answer.display && answer.display.before ? now + ANIMATION_MS : 0 };
  if (answer.more) {
    return { ...patch, phase: "more", played: answer.moves, legal: answer.legal,
      message: { text: answer.legal ? capitalFirst(answer.legal.interaction.prompt) + "." : "", tone: "info" } };
  }
  if (answer.met) {
    const done = state.done.includes(state.index) ? state.done : [...state.done, state.index].sort((a, b) => a - b);
    return { ...patch, phase: "done", played: answer.moves, legal: null, done,
      message: { text: reply + answer.message, tone: "good" } };
  }
  return { ...patch, phase: "missed", played: answer.moves, legal: null,
    message: { text: reply + answer.message, tone: "error" } };
}

/**
 * A move the server refused (an illegal move: its one line), the board unchanged.
 * @param {string} error
 * @returns {Partial<LessonState>}
 */
export function refused(error) {
  return { busy: false, selection: NOTHING, message: { text: capitalFirst(error), tone: "error" } };
}

/**
 * After a missed try: the step again from its start.
 * @param {LessonState} state
 * @returns {Partial<LessonState>}
 */
export function retry(state) {
  return state.lesson ? atStep(state.lesson, state.index) : {};
}

/**
 * The next step, or nothing after the last one.
 * @param {LessonState} state
 * @returns {Partial<LessonState>}
 */
export function next(state) {
  if (!state.lesson || state.index + 1 >= state.lesson.steps.length) return {};
  return atStep(state.lesson, state.index + 1);
}

/**
 * Whether every step is done.
 * @param {LessonState} state
 * @returns {boolean}
 */
export function finished(state) {
  return Boolean(state.lesson && state.done.length === state.lesson.steps.length);
}

/**
 * A sentence's first letter in capitals (the server's lines start in lower case).
 * @param {string} text
 * @returns {string}
 */
export function capitalFirst(text) { return text ? text[0].toUpperCase() + text.slice(1) : ""; }
