// The analysis board's pure parts: the tree of variations, the graph, the move list, the
// board's overlays and the composing of a clicked move.
import assert from "node:assert/strict";
import { test } from "node:test";
import { join } from "node:path";
import { STATIC, nodes } from "./helpers.mjs";

const at = (path) => import(new URL(`file://${join(STATIC, "analysis", path)}`).href);
const { newTree, path, play, step, toMain } = await at("tree.js");
const { evalGraph } = await at("view/graph.js");
const { moveRows, worst } = await at("view/moves.js");
const { bestMarks, strategyShares, withShares, composed } = await at("view/board.js");
const { evalText, summaryText } = await at("view/words.js");

test("a variation branches off the main line, which never changes", () => {
  let tree = toMain(newTree(["a", "b", "c"]), 1);
  tree = play(tree, "x");
  tree = play(tree, "y");
  assert.deepEqual(tree.main, ["a", "b", "c"]);
  assert.deepEqual(path(tree), ["a", "x", "y"]);
  assert.deepEqual(tree.variations, [{ from: 1, moves: ["x", "y"] }]);
  tree = step(step(tree, -1), -1);  // back past the branch's first move: onto the main line
  assert.deepEqual(tree.cursor, { line: -1, at: 1 });
});

test("the main line's own next move walks the main line; a played branch is reused", () => {
  let tree = newTree(["a", "b"]);
  tree = play(tree, "a");
  assert.deepEqual(tree.cursor, { line: -1, at: 1 });
  assert.equal(tree.variations.length, 0);
  tree = play(play(tree, "x"), "y");
  tree = play(toMain(tree, 1), "x");
  assert.equal(tree.variations.length, 1);
  assert.deepEqual(tree.cursor, { line: 0, at: 1 });
  tree = play(tree, "z");  // a new move inside a branch starts a sub-branch
  assert.deepEqual(tree.variations[1], { from: 1, moves: ["x", "z"] });
  assert.deepEqual(tree.variations[0], { from: 1, moves: ["x", "y"] });
});

test("the graph has a point per position, marks coloured, the cursor drawn", () => {
  const graph = evalGraph([0, 0.5, -1, 1], 2, { width: 300, height: 100, marks: [null, "blunder", "mistake"] });
  const points = nodes(graph).filter((n) => n.attrs.class && String(n.attrs.class).startsWith("graph-point"));
  assert.deepEqual(points.map((p) => p.attrs["data-ply"]), [0, 1, 2, 3]);
  assert.equal(points[2].attrs.class, "graph-point blunder");
  assert.ok(points[3].attrs.cy < points[2].attrs.cy, "+1 is above -1");
  const cursor = nodes(graph).find((n) => n.attrs.class === "graph-cursor");
  assert.equal(cursor.attrs.x1, points[2].attrs.cx);
});

test("the move list carries each move's worst mark and shows branches after their move", () => {
  const analysis = { plies: [{ sides: [{ mark: null }] }, { sides: [{ mark: "inaccuracy" }, { mark: "blunder" }] }] };
  const tree = play(toMain(newTree(["a", "b"]), 1), "x");
  const rows = moveRows(tree, analysis);
  assert.deepEqual(rows.map((r) => r.entries[0].mark), [null, "blunder"]);
  assert.equal(rows[1].entries[0].symbol, "??");
  assert.deepEqual(rows[0].variations[0].entries.map((e) => [e.text, e.current]), [["x", true]]);
  assert.equal(worst(["inaccuracy", "mistake"]), "mistake");
});

test("the best move's cells and a mixed strategy's shares", () => {
  const choices = { 0: [{ move: "m1", cells: [[0, 0], [0, 1]] }, { move: "m2", cells: [[1, 1]] }] };
  assert.deepEqual(bestMarks(choices, [{ player: 0, best: ["m1"] }]), { "0,0": "selected", "0,1": "target" });
  const shares = strategyShares(choices[0], [{ move: "m1", p: 0.25 }, { move: "m2", p: 0.75 }]);
  assert.deepEqual(shares, { "0,0": 0.25, "0,1": 0.25, "1,1": 0.75 });
  const grid = { tag: "svg", attrs: {}, children: [{ tag: "g", attrs: {}, children: [
    { tag: "rect", attrs: { "data-cell": "1,1", x: 10, y: 10, width: 10, height: 10 } }] }] };
  const shaded = withShares(grid, shares, "#7b3fb5");
  const texts = nodes(shaded).filter((n) => n.attrs.class === "share-text").map((n) => n.text);
  assert.deepEqual(texts, ["75%"]);
  assert.equal(nodes(grid).length, 3, "the original tree is left alone");
});

test("clicked cells compose a move from parts or from the listed choices", () => {
  const choices = [{ move: "[1,1,1,2]", cells: [[0, 0], [0, 1]] }, { move: "[1,1,2,2]", cells: [[0, 0], [1, 1]] }];
  assert.deepEqual(composed(null, choices, [[0, 0]]).targets, [[0, 1], [1, 1]]);
  assert.equal(composed(null, choices, [[0, 0], [1, 1]]).move, "[1,1,2,2]");
  assert.equal(composed(null, choices, [[5, 5]]).targets.length, 0);
  const parts = { count: 2, joiner: " ", parts: [{ cell: [0, 0], text: "1,1" }, { cell: [2, 1], text: "3,2" }] };
  assert.equal(composed(parts, [], [[2, 1]]).move, null);
  assert.equal(composed(parts, [], [[2, 1], [0, 0]]).move, "3,2 1,1");
});

test("evaluations and summaries in words", () => {
  assert.equal(evalText(0.351), "+0.35");
  assert.equal(evalText(-1, true), "-1.00!");
  assert.equal(summaryText("Blue", { inaccuracies: 1, mistakes: 0, blunders: 2, average_loss: 0.1234 }),
    "Blue: 1 inaccuracy, 0 mistakes, 2 blunders; average loss 0.123");
});
