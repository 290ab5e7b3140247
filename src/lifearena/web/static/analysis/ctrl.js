// @ts-check
// The analysis board's controller: it owns the page's store (the analysis, the tree of
// variations, the positions fetched, what the person has picked), asks the server and
// renders through the pure views. A variation's moves are asked of POST /api/analysis/position
// one by one and live only in this page's tree: the game itself is never touched.

import { mount, picture } from "../js/draw.js";
import { request } from "../js/request.js";
import { createStore } from "../js/store.js";
import { bestMarks, composed, strategyShares, withShares } from "./view/board.js";
import { evalGraph } from "./view/graph.js";
import { moveRows } from "./view/moves.js";
import { evalText, summaryText } from "./view/words.js";
import { newTree, path, play, plyOf, step, toMain } from "./tree.js";

/**
 * @typedef {{
 *   analysis: any, record: any, look: any, tree: import("./tree.js").Tree,
 *   positions: Record<string, any>, picked: number[][], pending: string[],
 *   message: string, busy: boolean
 * }} State
 */

/** @returns {State} */
export function initialState() {
  return { analysis: null, record: null, look: null, tree: newTree([]), positions: {},
    picked: [], pending: [], message: "", busy: false };
}

/**
 * The controller of one page: `ask` is the request function (the server's, or a test's).
 * @param {{ask?: typeof request}} [options]
 */
export function createController(options = {}) {
  const ask = options.ask || request;
  const store = createStore(initialState());

  /** The key of the position at the tree's cursor. */
  const key = (/** @type {State} */ s) => JSON.stringify(path(s.tree));

  async function fetchPosition() {
    const state = store.get();
    if (!state.record || key(state) in state.positions) return;
    const moves = path(state.tree);
    const record = { ...state.record, moves };
    const answer = await ask("/api/analysis/position", { body: { record: JSON.stringify(record) } });
    if (!answer.ok) { store.set({ message: answer.error || "" }); return; }
    store.set((s) => ({ positions: { ...s.positions, [JSON.stringify(moves)]: answer.data } }));
  }

  /** Show `analysis` (the server's answer, with its record). */
  async function load(/** @type {any} */ analysis) {
    const catalog = await ask("/api/catalog");
    const entry = catalog.ok ? catalog.data.games.find((/** @type {any} */ g) => g.name === analysis.game) : null;
    store.set({ analysis, record: analysis.record, look: entry ? entry.look : null,
      tree: newTree(analysis.record.moves), positions: {}, picked: [], pending: [], message: "" });
    await fetchPosition();
  }

  return {
    store,
    load,
    /** The analysis of the server's game `id`. */
    async openGame(/** @type {string} */ id) {
      store.set({ busy: true, message: "analysing…" });
      const answer = await ask(`/api/games/${encodeURIComponent(id)}/analysis`);
      store.set({ busy: false, message: answer.ok ? "" : answer.error || "" });
      if (answer.ok) await load(answer.data);
    },
    /** The analysis of a record's text (JSON or PGN-like). */
    async openRecord(/** @type {string} */ text) {
      store.set({ busy: true, message: "analysing…" });
      const answer = await ask("/api/analysis", { body: { record: text } });
      store.set({ busy: false, message: answer.ok ? "" : answer.error || "" });
      if (answer.ok) await load(answer.data);
    },
    /** The analysis of the game puzzle `id` came from, at the puzzle's position. */
    async openPuzzleSource(/** @type {string} */ id) {
      const path = `/api/puzzles/id/${encodeURIComponent(id)}`;
      const [puzzle, record] = [await ask(path), await ask(`${path}/record`)];
      if (!puzzle.ok || !record.ok) {
        store.set({ message: (puzzle.ok ? record.error : puzzle.error) || "" });
        return;
      }
      await this.openRecord(JSON.stringify(record.data));
      if (store.get().analysis) await this.goMain(Number(puzzle.data.source.ply) || 0);
    },
    /** Go to the main line after `ply` moves. */
    async goMain(/** @type {number} */ ply) {
      store.set((s) => ({ tree: toMain(s.tree, ply), picked: [], pending: [] }));
      await fetchPosition();
    },
    /** Go to a branch's `at`-th move (line -1: the main line). */
    async goTo(/** @type {number} */ line, /** @type {number} */ at) {
      store.set((s) => ({ tree: { ...s.tree, cursor: { line, at } }, picked: [], pending: [] }));
      await fetchPosition();
    },
    /** One move back or forward along the line shown. */
    async step(/** @type {number} */ by) {
      store.set((s) => ({ tree: step(s.tree, by), picked: [], pending: [] }));
      await fetchPosition();
    },
    /** Play `move` for the acting side whose turn it is to choose (both sides, one after the
     * other, on a simultaneous turn): once every acting side has chosen, the move is asked of
     * the server and, if legal, added to the tree. */
    async playMove(/** @type {string} */ move) {
      const state = store.get();
      const position = state.positions[key(state)];
      if (!position || position.over) return;
      const pending = [...state.pending, move];
      if (pending.length < position.to_move.length) { store.set({ pending, picked: [] }); return; }
      const text = pending.join(" | ");
      const moves = [...path(state.tree), text];
      const answer = await ask("/api/analysis/position",
        { body: { record: JSON.stringify({ ...state.record, moves }) } });
      if (!answer.ok) { store.set({ message: answer.error || "", pending: [], picked: [] }); return; }
      store.set((s) => ({ tree: play(s.tree, text), pending: [], picked: [], message: "",
        positions: { ...s.positions, [JSON.stringify(moves)]: answer.data } }));
    },
    /** A click on the board's cell [r, c]: picked towards a move; a complete one is played. */
    async pick(/** @type {number[]} */ cell) {
      const state = store.get();
      const position = state.positions[key(state)];
      if (!position || position.over) return;
      const side = String(position.to_move[state.pending.length]);
      const picked = [...state.picked, cell];
      const { move, targets } = composed(position.interaction[side], position.choices[side], picked);
      if (move && !targets.length) { await this.playMove(move); return; }
      const valid = move || targets.length;
      store.set({ picked: valid ? picked : [] });
    },
    /** The position shown now (null while it is fetched). */
    position() { const s = store.get(); return s.positions[key(s)] || null; },
  };
}

/**
 * Everything the page shows, derived from the state: pure, so tests read it.
 * @param {State} state
 */
export function shown(state) {
  const position = state.positions[JSON.stringify(path(state.tree))] || null;
  const analysis = state.analysis;
  const ply = plyOf(state.tree);
  const onMain = state.tree.cursor.line < 0;
  const values = analysis ? [...analysis.plies.map((/** @type {any} */ p) => p.eval_first), analysis.final] : [];
  const marks = analysis ? analysis.plies.map((/** @type {any} */ p) => {
    const found = p.sides.map((/** @type {any} */ s) => s.mark).filter(Boolean);
    return found.includes("blunder") ? "blunder" : found.includes("mistake") ? "mistake" : found[0] || null;
  }) : [];
  const verdict = position ? position.verdict : null;
  const sides = verdict ? verdict.sides : [];
  // on a simultaneous turn the board shows one side at a time, the side choosing now: both
  // sides' shadings on the same cells would hide each other
  const chooser = position && !position.over ? position.to_move[state.pending.length] : null;
  const drawn = sides.filter((/** @type {any} */ s) => s.player === chooser);
  const boardMarks = position && !position.over ? bestMarks(position.choices, drawn) : {};
  for (const cell of state.picked) boardMarks[cell.join(",")] = "selected";
  return {
    ply, onMain, position, verdict, values, marks,
    rows: moveRows(state.tree, analysis),
    best: sides.map((/** @type {any} */ s) => ({ player: s.player, best: s.best, strategy: s.strategy })),
    shaded: drawn.filter((/** @type {any} */ s) => s.strategy)
      .map((/** @type {any} */ s) => ({ player: s.player, strategy: s.strategy })),
    evalLine: verdict ? evalText(verdict.eval_first, verdict.exact) : position && position.over ? "game over" : "…",
    boardMarks,
    summaries: analysis ? analysis.summary.map((/** @type {any} */ s, /** @type {number} */ i) =>
      summaryText(analysis.players[i] || `player ${i + 1}`, s)) : [],
  };
}

// -- the page ---------------------------------------------------------------------------------

/**
 * @param {string} tag
 * @param {Record<string, string>} [attrs]
 * @param {(Node | string)[]} [children]
 */
function h(tag, attrs = {}, children = []) {
  const element = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) element.setAttribute(k, v);
  element.append(...children);
  return element;
}

/** Start the page in `document`. */
export function start() {
  const controller = createController();
  const byId = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
  const board = byId("board"), graph = byId("graph"), list = byId("moves");

  function render() {
    const state = controller.store.get();
    const view = shown(state);
    byId("message").textContent = state.message;
    byId("loader").hidden = Boolean(state.analysis);
    byId("analysis").hidden = !state.analysis;
    if (!state.analysis) return;
    byId("method").textContent = state.analysis.method;
    if (view.position) {
      let tree = picture(view.position.display, state.look, { marks: view.boardMarks, size: 480 });
      const colours = ["#7b3fb5", "#1f8a70"];
      for (const side of view.shaded) {
        if (view.position.choices) {
          tree = withShares(tree, strategyShares(view.position.choices[String(side.player)], side.strategy),
            colours[side.player]);
        }
      }
      mount(board, tree);
    }
    byId("eval").textContent = view.evalLine;
    byId("best").replaceChildren(...view.best.map((s) => h("li", {}, [
      `${state.analysis.players[s.player] || "side " + (s.player + 1)}: `,
      s.strategy ? s.strategy.slice(0, 6).map((/** @type {any} */ m) => `${m.move} ${Math.round(m.p * 100)}%`).join(", ")
        : s.best.slice(0, 6).join(", ")])));
    mount(graph, evalGraph(view.values, view.onMain ? view.ply : -1, { width: 600, height: 110, marks: view.marks }));
    list.replaceChildren(...view.rows.map((row) => h("li", { class: "row" }, [
      ...row.entries.map((e) => h("button", { class: `move ${e.mark || ""}${e.current ? " current" : ""}`,
        "data-line": String(e.line), "data-at": String(e.at), type: "button" }, [`${e.ply}. ${e.text}${e.symbol ? " " + e.symbol : ""}`])),
      ...row.variations.map((v) => h("div", { class: "variation" }, v.entries.map((e) =>
        h("button", { class: `move${e.current ? " current" : ""}`, "data-line": String(e.line),
          "data-at": String(e.at), type: "button" }, [`${e.ply}. ${e.text}`])))),
    ])));
    byId("back-main").hidden = view.onMain;
    byId("summary").replaceChildren(...view.summaries.map((t) => h("li", {}, [t])));
    const position = view.position;
    const side = position && !position.over ? String(position.to_move[state.pending.length]) : null;
    const choices = side && position ? position.choices[side] || [] : [];
    byId("pass-moves").replaceChildren(...choices.filter((/** @type {any} */ c) => !c.cells.length)
      .map((/** @type {any} */ c) => h("button", { type: "button", class: "quiet", "data-move": c.move }, [c.label || c.move])));
    byId("to-play").textContent = side === null ? "" : `${state.analysis.players[Number(side)] || "side"} to choose`;
  }

  controller.store.subscribe(render);
  board.addEventListener("click", (event) => {
    const target = /** @type {Element} */ (event.target).closest("[data-r]");
    if (target) controller.pick([Number(target.getAttribute("data-r")), Number(target.getAttribute("data-c"))]);
  });
  graph.addEventListener("click", (event) => {
    const svg = /** @type {SVGSVGElement} */ (graph);
    const box = svg.getBoundingClientRect();
    const values = shown(controller.store.get()).values;
    const at = Math.round(((/** @type {MouseEvent} */ (event).clientX - box.left) / box.width) * (values.length - 1));
    controller.goMain(Math.max(0, Math.min(values.length - 1, at)));
  });
  list.addEventListener("click", (event) => {
    const button = /** @type {Element} */ (event.target).closest("button[data-line]");
    if (button) controller.goTo(Number(button.getAttribute("data-line")), Number(button.getAttribute("data-at")));
  });
  byId("pass-moves").addEventListener("click", (event) => {
    const button = /** @type {Element} */ (event.target).closest("button[data-move]");
    if (button) controller.playMove(String(button.getAttribute("data-move")));
  });
  byId("back-main").addEventListener("click", () => {
    const cursor = controller.store.get().tree.cursor;
    const branch = controller.store.get().tree.variations[cursor.line];
    controller.goMain(branch ? branch.from : 0);
  });
  byId("typed").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = /** @type {HTMLInputElement} */ (byId("typed-move"));
    if (input.value.trim()) controller.playMove(input.value.trim());
    input.value = "";
  });
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement) return;
    if (event.key === "ArrowLeft") { event.preventDefault(); controller.step(-1); }
    if (event.key === "ArrowRight") { event.preventDefault(); controller.step(1); }
  });
  byId("loader").addEventListener("submit", (event) => {
    event.preventDefault();
    controller.openRecord(/** @type {HTMLTextAreaElement} */ (byId("record-text")).value);
  });
  byId("record-file").addEventListener("change", async () => {
    const file = /** @type {HTMLInputElement} */ (byId("record-file")).files?.[0];
    if (file) /** @type {HTMLTextAreaElement} */ (byId("record-text")).value = await file.text();
  });
  render();
  const match = location.pathname.match(/^\/analysis\/([^/]+)$/);
  const puzzle = new URLSearchParams(location.search).get("puzzle");
  if (match) controller.openGame(decodeURIComponent(match[1]));
  else if (puzzle) controller.openPuzzleSource(puzzle);
}
