// @ts-check
// The puzzle page's controller (/puzzles/{game}, /puzzles/daily): it owns the page's store,
// asks the server for the puzzle and judges moves through it, and renders the state with the
// pure views (views.js) and the board drawing every page shares (js/draw.js). Moves are
// composed from clicks by the input module of the interaction the server names
// (js/inputs/), as on the game page; nothing here names a game.

import { cellName, mount, picture } from "../js/draw.js";
import { inputFor } from "../js/inputs/index.js";
import { request } from "../js/request.js";
import { createStore } from "../js/store.js";
import "../js/me.js"; // the header about you
import * as round from "./round.js";
import * as views from "./views.js";

/** @typedef {import("./round.js").PuzzleState} PuzzleState */
/** @typedef {{round: PuzzleState | null, failure: string, hint: string}} PageState
 * hint: what the input said of the last click (a tap to confirm, say) */

const REPLY_MS = 600;
/** How long the position after your move shows before the reply is played on it. */

/** @param {string} id @returns {any} */
function $(id) { return document.getElementById(id); }

/** @type {import("../js/store.js").Store<PageState>} */
const store = createStore(/** @type {PageState} */ ({ round: null, failure: "", hint: "" }));
const where = views.route(location.pathname, location.search);

/** @param {(state: PuzzleState) => PuzzleState} change */
function update(change) {
  const current = store.get().round;
  if (current) store.set({ round: change(current) });
}

/** Ask for a puzzle (the next one skips `exclude`) and begin it. @param {string} [exclude] */
async function load(exclude) {
  if (!where) { store.set({ failure: "No such puzzle page." }); return; }
  const answer = await request(views.puzzleUrl(where, exclude));
  if (!answer.ok) { store.set({ round: null, failure: answer.error || "" }); return; }
  store.set({ round: round.begin(answer.data), failure: "", hint: "" });
}

/** Send the composed move to be judged. @param {string} move */
async function send(move) {
  const state = store.get().round;
  if (!state || !round.canMove(state)) return;
  update((s) => ({ ...s, busy: true, error: "" }));
  const answer = await request(`/api/puzzles/id/${encodeURIComponent(state.puzzle.id)}/moves`,
    { body: { moves: state.moves, move } });
  if (!answer.ok) { update((s) => round.refused(s, answer.error || "")); return; }
  const judged = /** @type {import("./round.js").Answer} */ (answer.data);
  const after = round.answered(store.get().round || state, judged);
  if (judged.verdict === "wrong") { store.set({ round: after }); return; }
  // your move first, then the reply played on it
  store.set({ round: { ...after, display: judged.shown, busy: true } });
  setTimeout(() => update((s) => (s.moves === after.moves ? { ...s, display: judged.display, busy: false } : s)),
    REPLY_MS);
}

/** Feed a board or button event to the input of the puzzle's interaction. @param {any} event */
function dispatch(event) {
  const state = store.get().round;
  if (!state || !round.canMove(state)) return;
  const legal = state.legal;
  const result = inputFor(legal.interaction.kind).reduce(state.selection, event, legal);
  const error = result.tone === "error" ? result.message || "" : "";
  store.set({ hint: error ? "" : result.message || "" });
  update((s) => ({ ...s, selection: result.selection, error }));
  if (result.send !== undefined) send(result.send);
}

// -- rendering ----------------------------------------------------------------------------------

/** @param {string} label @param {() => void} onClick @param {string} id @param {boolean} [quiet] */
function button(label, onClick, id, quiet) {
  const made = document.createElement("button");
  made.type = "button";
  made.textContent = label;
  made.id = id;
  if (quiet) made.className = "quiet";
  made.addEventListener("click", onClick);
  return made;
}

/** @param {PageState} page */
function render(page) {
  const state = page.round;
  $("failure").textContent = page.failure;
  $("puzzle").hidden = !state;
  if (!state) return;
  const puzzle = state.puzzle;
  const line = views.headline(state);
  const banner = $("banner");
  banner.textContent = line.text;
  banner.className = "banner " + (line.tone === "turn" ? "turn" : line.tone === "good" ? "result" : "result lost");
  const size = Math.max(220, Math.min(520, document.documentElement.clientWidth - 40));
  const marks = round.canMove(state) ? inputFor(state.legal.interaction.kind).marks(state.selection, state.legal) : {};
  const display = state.display;
  $("board").dataset.ready = round.canMove(state) ? "yes" : "no"; // whether a click is taken now
  mount($("board"), picture(display, puzzle.look, { size, marks, own: puzzle.look.sides[puzzle.solver].colour,
    births: display.births || [], deaths: display.deaths || [], animate: true }));
  const bar = $("choices");
  bar.replaceChildren();
  if (round.canMove(state)) {
    const name = (/** @type {[number, number]} */ cell) => cellName(display, cell);
    for (const shown of inputFor(state.legal.interaction.kind).buttons(state.selection, state.legal, name)) {
      const made = button(shown.label, () => dispatch(shown.event), "input-" + (shown.id || "move"), Boolean(shown.quiet));
      made.disabled = Boolean(shown.disabled);
      bar.appendChild(made);
    }
  }
  $("typed").hidden = !round.canMove(state);
  $("message").textContent = state.error || page.hint || views.lastMoveText(state);
  $("message").className = "message " + (state.error ? "error" : "info");
  $("about").textContent = views.aboutText(puzzle);
  $("daily-date").textContent = puzzle.date ? `The daily puzzle of ${puzzle.date} (UTC)` : "";
  const source = views.sourceLink(puzzle);
  const link = $("source");
  link.href = source.href;
  link.textContent = source.text;
  if (source.download) link.setAttribute("download", ""); else link.removeAttribute("download");
  // the game goes on past the puzzle's position: shown once the attempt is over, never as a hint
  link.hidden = state.phase === "solving";
  renderEnd(state);
}

/** The card shown once the attempt is over. @param {PuzzleState} state */
function renderEnd(state) {
  const over = state.phase !== "solving";
  $("end").hidden = !over;
  if (!over) return;
  $("rating-change").textContent = views.ratingText(state.rating);
  $("puzzle-change").textContent = views.puzzleRatingText(state.rating);
  $("theme").textContent = views.themeText(state);
  $("winning").textContent = views.winningText(state);
  $("step").textContent = views.stepText(state);
  const steps = $("steps");
  steps.replaceChildren(
    button("◀", () => update((s) => round.showStep(s, s.step - 1)), "step-back", true),
    button(state.step < 0 ? "Show the solution" : "Next move ▶", () => update((s) => round.showStep(s, s.step + 1)), "step-on", true));
  /** @type {HTMLButtonElement} */ (steps.firstChild).disabled = state.step < 0;
  /** @type {HTMLButtonElement} */ (steps.lastChild).disabled = state.step >= state.solution.length - 1;
  $("after").replaceChildren(
    button("Retry", () => update(round.retry), "retry", state.phase === "solved"),
    button("Next puzzle", nextPuzzle, "next", state.phase !== "solved"));
}

function nextPuzzle() {
  const state = store.get().round;
  if (!where || !state) return;
  if (where.kind !== "next") { location.href = `/puzzles/${encodeURIComponent(state.puzzle.game)}`; return; }
  load(state.puzzle.id);
}

function main() {
  store.subscribe(render);
  const svg = $("board");
  let pointer = "mouse";
  svg.addEventListener("pointerdown", (/** @type {PointerEvent} */ event) => { pointer = event.pointerType; });
  svg.addEventListener("click", (/** @type {MouseEvent} */ event) => {
    const cell = /** @type {Element} */ (event.target).closest("[data-cell]");
    const state = store.get().round;
    if (!(cell instanceof SVGElement) || !state) return;
    const at = /** @type {[number, number]} */ ([Number(cell.dataset.r), Number(cell.dataset.c)]);
    const grid = state.display.grid;
    dispatch({ type: "cell", cell: at, value: grid ? grid.cells[at[0]][at[1]] : 0, seat: state.puzzle.solver,
      name: cellName(state.display, at), names: state.puzzle.look.sides.map((/** @type {any} */ s) => s.name),
      ...(pointer === "touch" ? { touch: true } : {}) });
  });
  $("typed").addEventListener("submit", (/** @type {SubmitEvent} */ event) => {
    event.preventDefault(); // a move typed in the game's notation, for the keyboard
    const text = $("typed-move").value.trim();
    if (text) { $("typed-move").value = ""; send(text); }
  });
  window.addEventListener("resize", () => render(store.get()));
  load();
}

main();
