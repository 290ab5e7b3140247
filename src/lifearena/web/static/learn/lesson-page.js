// @ts-check
// The lesson page (/learn/{game}): the controller. It owns one store of the lesson's state
// (lesson-state.js), draws it through the pure views (views.js) and js/draw.js, composes the
// learner's moves from clicks with the input module of the step's interaction (js/inputs/),
// and asks the server to judge each move by the game's rules. No globals: everything lives
// in the store made by main().
import { boardSize, mount, picture } from "../js/draw.js";
import { inputFor } from "../js/inputs/index.js";
import { request } from "../js/request.js";
import { createStore } from "../js/store.js";
import "../js/me.js"; // the header about you
import {
  ANIMATION_MS, EMPTY, answered, atStep, canMove, loaded, moveBody, moved, next, refused, retry,
} from "./lesson-state.js";
import {
  actions, boardOptions, cellEvent, closing, progress, sideNames, words, youPlay,
} from "./views.js";

/** @typedef {import("./lesson-state.js").LessonState} LessonState */

const BOARD_PX = 520;

/** @param {string} id @returns {HTMLElement} */
function $(id) { return /** @type {HTMLElement} */ (document.getElementById(id)); }

/**
 * Draw everything the state shows.
 * @param {LessonState} state
 * @param {(event: any) => void} dispatch
 */
function render(state, dispatch) {
  const shown = words(state);
  if (!shown || !state.lesson) return;
  document.title = `lifearena — learn ${state.lesson.title}`;
  $("lesson-title").textContent = `Learn: ${state.lesson.title}`;
  $("step-title").textContent = shown.heading;
  $("step-text").textContent = shown.text;
  $("step-task").textContent = shown.task;
  $("you-play").textContent = youPlay(state);
  $("hint").hidden = !shown.hint;
  $("hint").textContent = shown.hint ? `Hint: ${shown.hint}` : "";
  const done = closing(state);
  $("closing").hidden = !done;
  $("closing").textContent = done;
  const message = $("message");
  message.textContent = shown.message;
  message.className = `message ${shown.tone}`;
  $("dots").replaceChildren(...progress(state).map((dot, index) => {
    const item = document.createElement("li");
    item.className = dot.status + (dot.done && dot.status === "current" ? " done" : "");
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = String(dot.number);
    button.title = dot.title;
    button.setAttribute("aria-label", `step ${dot.number}: ${dot.title} (${dot.done ? "done" : dot.status === "todo" ? "to do" : "now"})`);
    if (dot.status === "current") button.setAttribute("aria-current", "step");
    button.addEventListener("click", () => dispatch({ type: "go", index }));
    item.appendChild(button);
    return item;
  }));
  $("actions").replaceChildren(...actions(state).map((action) => {
    if (action.href) {
      const link = document.createElement("a");
      link.className = "button";
      link.id = `lesson-${action.id}`;
      link.href = action.href;
      link.textContent = action.label;
      return link;
    }
    const button = document.createElement("button");
    button.type = "button";
    button.id = `lesson-${action.id}`;
    button.textContent = action.label;
    if (action.quiet) button.className = "quiet";
    button.disabled = Boolean(action.disabled);
    button.addEventListener("click", () => dispatch(action.event));
    return button;
  }));
  const now = Date.now();
  const width = Math.floor($("board-wrap").clientWidth) || BOARD_PX;
  const svg = $("board");
  mount(svg, picture(state.display, state.lesson.look, boardOptions(state, now, Math.min(BOARD_PX, width))));
  svg.setAttribute("aria-label", `the lesson's board, ${(boardSize(state.display) || []).join(" by ")}: `
    + "arrow keys move the cursor, Enter or Space picks, Escape clears");
  $("legend").hidden = !(state.display && state.display.before);
  document.body.dataset.phase = state.phase;
  document.body.dataset.step = String(state.index + 1);
}

async function main() {
  const game = decodeURIComponent(location.pathname.split("/").pop() || "");
  /** @type {import("../js/store.js").Store<LessonState>} */
  const store = createStore(/** @type {LessonState} */ ({ ...EMPTY }));
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let settle;

  /** Send the learner's move to be judged. @param {string} move */
  async function send(move) {
    const state = store.get();
    store.set({ busy: true });
    const answer = await request(`/api/lessons/${encodeURIComponent(game)}/${state.index + 1}`,
      { body: moveBody(state, move) });
    if (store.get().index !== state.index) return; // the learner went to another step meanwhile
    if (!answer.ok) { store.set(refused(answer.error || "")); return; }
    store.set(answered(store.get(), answer.data, sideNames(store.get()), Date.now()));
    // what is said, and Next, may lie below a phone's screen: brought into view
    $("actions").scrollIntoView({ block: "nearest" });
    clearTimeout(settle); // the animation's end: drawn once more without it
    settle = setTimeout(() => store.set({}), ANIMATION_MS + 50);
  }

  /** A click, a button, or a word to the controller. @param {any} event */
  function dispatch(event) {
    const state = store.get();
    if (!state.lesson) return;
    if (event.type === "hint") { store.set({ hint: true }); return; }
    if (event.type === "retry") { store.set(retry(state)); return; }
    if (event.type === "next") { store.set(next(state)); return; }
    if (event.type === "go") { store.set(atStep(state.lesson, event.index)); return; }
    if (!canMove(state) || !state.legal) return;
    const result = inputFor(state.legal.interaction.kind).reduce(state.selection, event, state.legal);
    store.set({ selection: result.selection,
      message: { text: result.message || "", tone: result.tone === "error" ? "error" : "info" } });
    if (result.send !== undefined) send(result.send);
  }

  store.subscribe((state) => render(state, dispatch));
  const svg = $("board");
  let pointer = "mouse";
  svg.addEventListener("pointerdown", (event) => { pointer = event.pointerType; });
  svg.addEventListener("click", (event) => {
    const cell = /** @type {Element} */ (event.target).closest("[data-cell]");
    if (cell instanceof SVGElement) {
      dispatch(cellEvent(store.get(), [Number(cell.dataset.r), Number(cell.dataset.c)], pointer === "touch"));
    }
  });
  svg.addEventListener("keydown", (event) => {
    const state = store.get();
    const cursor = moved(state.cursor, event.key, boardSize(state.display));
    if (cursor) store.set({ cursor });
    else if (event.key === "Enter" || event.key === " ") dispatch(cellEvent(state, state.cursor, false));
    else if (event.key === "Escape") dispatch({ type: "clear" });
    else return;
    event.preventDefault();
  });
  // the keyboard's cursor shows once a key is used on the board, not after a click
  svg.addEventListener("pointerdown", () => svg.classList.remove("keyed"));
  svg.addEventListener("keydown", () => svg.classList.add("keyed"));
  window.addEventListener("resize", () => store.set({}));
  const answer = await request(`/api/lessons/${encodeURIComponent(game)}`);
  if (!answer.ok) {
    $("step-title").textContent = "No such lesson";
    $("message").textContent = answer.error || "";
    return;
  }
  store.set(loaded(answer.data));
  document.body.dataset.ready = "1";
}

main();
