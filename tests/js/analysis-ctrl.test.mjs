// The analysis board's controller against a fake server: it loads an analysis, walks the
// main line, plays a variation through POST /api/analysis/position, and never changes the
// game's own moves.
import assert from "node:assert/strict";
import { test } from "node:test";
import { join } from "node:path";
import { STATIC } from "./helpers.mjs";

const { createController, shown } = await import(new URL(`file://${join(STATIC, "analysis", "ctrl.js")}`).href);

function fakeServer() {
  const asked = [];
  const position = (moves) => ({ display: { text: moves.join(" ") }, to_move: [0], over: false,
    interaction: { 0: { kind: "answer", parts: [] } },
    choices: { 0: [{ move: "a", cells: [[0, 0]] }, { move: "z", cells: [[1, 1]] }] },
    verdict: { eval_first: 0.25, exact: false, sides: [{ player: 0, best: ["z"], strategy: null }] } });
  const ask = async (path, options = {}) => {
    asked.push(path);
    if (path === "/api/catalog") return { ok: true, data: { games: [] } };
    if (path === "/api/analysis/position") {
      const record = JSON.parse(options.body.record);
      if (record.moves.includes("bad")) return { ok: false, status: 400, data: null, error: "illegal move bad" };
      return { ok: true, status: 200, data: position(record.moves) };
    }
    if (path === "/api/puzzles/id/p1") return { ok: true, status: 200, data: { source: { ply: 1 } } };
    if (path === "/api/puzzles/id/p1/record") {
      return { ok: true, status: 200, data: { game: "demo", params: {}, setup: "s", players: ["A", "B"], moves: ["a", "b"] } };
    }
    if (path === "/api/analysis") {
      const record = JSON.parse(options.body.record);
      return { ok: true, status: 200, data: { game: "demo", players: ["A", "B"], method: "m", final: 1, record,
        plies: [{ eval_first: 0, sides: [{ mark: null }] }, { eval_first: 0, sides: [{ mark: null }] }],
        summary: [] } };
    }
    if (path === "/api/games/g1/analysis") {
      return { ok: true, status: 200, data: { game: "demo", players: ["A", "B"], method: "m", final: 1,
        record: { game: "demo", params: {}, setup: "s", players: ["A", "B"], moves: ["a", "b"] },
        plies: [{ eval_first: 0, sides: [{ mark: "blunder" }] }, { eval_first: -0.5, sides: [{ mark: null }] }],
        summary: [{ inaccuracies: 0, mistakes: 0, blunders: 1, average_loss: 0.4 },
          { inaccuracies: 0, mistakes: 0, blunders: 0, average_loss: 0 }] } };
    }
    return { ok: false, status: 404, data: null, error: "no" };
  };
  return { ask, asked };
}

test("a game's analysis loads, its graph and marks are shown, the best move is marked", async () => {
  const { ask } = fakeServer();
  const controller = createController({ ask });
  await controller.openGame("g1");
  const view = shown(controller.store.get());
  assert.deepEqual(view.values, [0, -0.5, 1]);
  assert.deepEqual(view.marks, ["blunder", null]);
  assert.equal(view.rows[0].entries[0].symbol, "??");
  assert.deepEqual(view.boardMarks, { "1,1": "target" });
  assert.equal(view.evalLine, "+0.25");
});

test("a variation is played on the local tree; the game's moves stay as they were", async () => {
  const { ask, asked } = fakeServer();
  const controller = createController({ ask });
  await controller.openGame("g1");
  await controller.step(1);
  await controller.pick([1, 1]);  // z, not the game's b
  const state = controller.store.get();
  assert.deepEqual(state.tree.main, ["a", "b"]);
  assert.deepEqual(state.tree.variations, [{ from: 1, moves: ["z"] }]);
  assert.equal(shown(state).onMain, false);
  await controller.playMove("bad");
  assert.equal(controller.store.get().message, "illegal move bad");
  assert.deepEqual(controller.store.get().tree.variations, [{ from: 1, moves: ["z"] }]);
  await controller.goMain(2);
  assert.deepEqual(controller.store.get().tree.cursor, { line: -1, at: 2 });
  assert.ok(asked.every((p) => !p.includes("/moves")), "nothing is played on the game");
});

test("a simultaneous turn shades the choosing side's mixed strategy only", async () => {
  const strategy = (p) => [{ move: "a", p }, { move: "z", p: 1 - p }];
  const position = { display: { text: "" }, to_move: [0, 1], over: false,
    interaction: { 0: { parts: [] }, 1: { parts: [] } },
    choices: { 0: [{ move: "a", cells: [[0, 0]] }, { move: "z", cells: [[1, 1]] }],
      1: [{ move: "a", cells: [[0, 0]] }, { move: "z", cells: [[1, 1]] }] },
    verdict: { eval_first: 0, exact: false, sides: [
      { player: 0, best: ["a"], strategy: strategy(0.6) },
      { player: 1, best: ["z"], strategy: strategy(0.3) }] } };
  const ask = async (path) => (path === "/api/catalog" ? { ok: true, data: { games: [] } }
    : { ok: true, status: 200, data: position });
  const controller = createController({ ask });
  await controller.load({ game: "demo", players: ["A", "B"], plies: [], final: 0, summary: [],
    record: { game: "demo", moves: [] } });
  let view = shown(controller.store.get());
  assert.deepEqual(view.shaded.map((s) => s.player), [0]);
  assert.deepEqual(view.boardMarks, { "0,0": "target" });
  await controller.playMove("a");  // the first side has chosen; the second chooses now
  view = shown(controller.store.get());
  assert.deepEqual(view.shaded.map((s) => s.player), [1]);
  assert.deepEqual(view.boardMarks, { "1,1": "target" });
  assert.equal(view.best.length, 2, "both sides' strategies are still listed");
});

test("a puzzle's source game opens on the board at the puzzle's position", async () => {
  const { ask, asked } = fakeServer();
  const controller = createController({ ask });
  await controller.openPuzzleSource("p1");
  assert.deepEqual(controller.store.get().tree.main, ["a", "b"]);
  assert.deepEqual(controller.store.get().tree.cursor, { line: -1, at: 1 });
  assert.ok(asked.includes("/api/analysis"), "the record is analysed as any record");
  await controller.openPuzzleSource("nope");
  assert.equal(controller.store.get().message, "no");
});
