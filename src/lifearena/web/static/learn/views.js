// @ts-check
// Pure views of the Learn pages: from the lesson's state (lesson-state.js) to what the page
// shows (the words, the progress dots, the buttons, the board's drawing options), and from
// the list of lessons to the cards of /learn. Plain data out, no DOM: the pages build the
// elements, and node's test runner checks these.
import { cellName } from "../js/draw.js";
import { inputFor } from "../js/inputs/index.js";
import { canMove, currentStep, finished } from "./lesson-state.js";

/**
 * @typedef {import("./lesson-state.js").LessonState} LessonState
 * @typedef {{number: number, title: string, status: "done" | "current" | "todo", done: boolean}} Dot
 *   status: where the step stands; done: whether its goal was met (the current one's too)
 * @typedef {{id: string, label: string, href?: string, event?: any, quiet?: boolean,
 *   disabled?: boolean}} Action
 *   an action under the board: a button (its `event` for the page's controller or the
 *   input module) or a link (`href`)
 */

/**
 * One dot per step: done, the current one, or still to do (and whether its goal was met).
 * @param {LessonState} state
 * @returns {Dot[]}
 */
export function progress(state) {
  if (!state.lesson) return [];
  return state.lesson.steps.map((step, index) => ({ number: step.number, title: step.title,
    status: index === state.index ? "current" : state.done.includes(index) ? "done" : "todo",
    done: state.done.includes(index) }));
}

/**
 * The step's words: its heading, what it teaches, the task, the hint once asked for, and
 * what is said now.
 * @param {LessonState} state
 * @returns {{heading: string, text: string, task: string, hint: string, message: string,
 *   tone: string} | null}
 */
export function words(state) {
  const step = currentStep(state);
  if (!step || !state.lesson) return null;
  return { heading: `Step ${state.index + 1} of ${state.lesson.steps.length}: ${step.title}`,
    text: step.text, task: step.task, hint: state.hint ? step.hint : "",
    message: state.message.text, tone: state.message.tone };
}

/**
 * The sides' names, from the lesson's look.
 * @param {LessonState} state
 * @returns {string[]}
 */
export function sideNames(state) {
  const sides = state.lesson && state.lesson.look && state.lesson.look.sides;
  return sides ? sides.map((/** @type {{name: string}} */ side) => side.name) : ["Player 1", "Player 2"];
}

/**
 * Who the learner plays, in words ("You play Blue.").
 * @param {LessonState} state
 * @returns {string}
 */
export function youPlay(state) {
  const step = currentStep(state);
  return step ? `You play ${sideNames(state)[step.learner]}.` : "";
}

/**
 * The buttons and links under the board: the input's own (confirm, pass, clear) while a
 * move is awaited; a hint; Try again after a miss; Next after a success, or at the end
 * "Play this game".
 * @param {LessonState} state
 * @returns {Action[]}
 */
export function actions(state) {
  const step = currentStep(state);
  if (!step || !state.lesson) return [];
  /** @type {Action[]} */
  const shown = [];
  if (canMove(state) && state.legal) {
    const legal = state.legal;
    const name = (/** @type {[number, number]} */ cell) => cellName(state.display, cell);
    for (const button of inputFor(legal.interaction.kind).buttons(state.selection, legal, name)) {
      shown.push({ id: `input-${button.id || button.label}`, label: button.label, event: button.event,
        quiet: button.quiet, disabled: button.disabled });
    }
  }
  if (state.phase === "missed") shown.push({ id: "retry", label: "Try again", event: { type: "retry" } });
  if (state.phase === "done") {
    const last = state.index + 1 >= state.lesson.steps.length;
    if (!last) shown.push({ id: "next", label: "Next", event: { type: "next" } });
    else shown.push({ id: "play", label: "Play this game", href: state.lesson.play });
  }
  if (state.phase !== "done" && !state.hint) {
    shown.push({ id: "hint", label: "Hint", event: { type: "hint" }, quiet: true });
  }
  return shown;
}

/**
 * The closing words once every step is done.
 * @param {LessonState} state
 * @returns {string}
 */
export function closing(state) {
  if (!finished(state) || !state.lesson) return "";
  return `You have learnt ${state.lesson.title}. Play it against the computer or a friend.`;
}

/**
 * The options of js/draw.js's picture for the board now: the input's marks while a move is
 * awaited, the last generation's births and deaths (animated for a moment), picks drawn in
 * the learner's colour, the keyboard's cursor (shown once a key is used on the board).
 * @param {LessonState} state
 * @param {number} now milliseconds
 * @param {number} size pixels
 * @returns {import("../js/draw.js").Options}
 */
export function boardOptions(state, now, size) {
  const step = currentStep(state);
  const display = state.display || {};
  /** @type {Record<string, string>} */
  let marks = {};
  if (canMove(state) && state.legal) {
    marks = inputFor(state.legal.interaction.kind).marks(state.selection, state.legal);
  }
  if (now < state.animateUntil) {
    for (const [r, c] of display.collisions || []) marks[r + "," + c] = "collision";
  }
  const sides = state.lesson && state.lesson.look ? state.lesson.look.sides : null;
  return { size, marks, cursor: state.cursor, births: display.births || [], deaths: display.deaths || [],
    animate: now < state.animateUntil, own: sides && step ? sides[step.learner].colour : undefined };
}

/**
 * The input event of a click (or a tap) on `cell` of the board.
 * @param {LessonState} state
 * @param {[number, number]} cell
 * @param {boolean} touch
 * @returns {import("../js/inputs/common.js").InputEvent}
 */
export function cellEvent(state, cell, touch) {
  const step = currentStep(state);
  const grid = state.display && state.display.grid;
  return { type: "cell", cell, value: grid ? grid.cells[cell[0]][cell[1]] : 0,
    seat: step ? step.learner : 0, name: cellName(state.display, cell), names: sideNames(state),
    ...(touch ? { touch: true } : {}) };
}

/**
 * The cards of /learn, one per lesson.
 * @param {{lessons: {game: string, title: string, summary: string, steps: number,
 *   link: string, look: any, picture: any}[]}} data the server's GET /api/lessons
 * @returns {{game: string, title: string, summary: string, steps: string, link: string,
 *   look: any, picture: any}[]}
 */
export function cards(data) {
  return data.lessons.map((entry) => ({ game: entry.game, title: entry.title,
    summary: entry.summary, steps: `${entry.steps} short steps`, link: entry.link,
    look: entry.look, picture: entry.picture }));
}
