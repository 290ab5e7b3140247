import assert from "node:assert/strict";
import { test } from "node:test";
import { load } from "./helpers.mjs";

const { turnRows, describeMove } = await load("movelist.js");

test("sequential moves make one row per turn, a column per side", () => {
  const rows = turnRows(["a", "b", "c"], [0, 1, 0]);
  assert.deepEqual(rows.map((r) => r.number), [1, 2]);
  assert.deepEqual(rows[0].sides, [[{ ply: 1, text: "a" }], [{ ply: 2, text: "b" }]]);
  assert.deepEqual(rows[1].sides, [[{ ply: 3, text: "c" }], []]);
});

test("a side's consecutive moves share its cell; a game red starts leaves blue's empty", () => {
  const queen = turnRows(["6,6", "#0,6", "2,6"], [0, 0, 1]);
  assert.equal(queen.length, 1);
  assert.deepEqual(queen[0].sides[0].map((e) => e.text), ["6,6", "#0,6"]);
  const red = turnRows(["x", "y"], [1, 0]);
  assert.equal(red.length, 2);
  assert.deepEqual(red[0].sides[0], []);
});

test("a simultaneous turn fills both columns of its row", () => {
  const rows = turnRows(["1,1 | 2,2", "+3,3 | pass"], [null, null]);
  assert.equal(rows.length, 2);
  assert.deepEqual(rows[1].sides, [[{ ply: 2, text: "+3,3" }], [{ ply: 2, text: "pass" }]]);
});

test("more than a thousand moves are numbered on", () => {
  const moves = Array.from({ length: 2001 }, (_, i) => String(i));
  const rows = turnRows(moves, moves.map((_, i) => i % 2));
  assert.equal(rows.length, 1001);
  assert.equal(rows[1000].number, 1001);
});

test("a move is described in words with what the generation did", () => {
  assert.equal(describeMove(["Blue", "Red"], ["[1,2,1,3]"], [1], { before: [[0]], births: [[0, 0], [1, 1]], deaths: [[2, 2]] }),
    "Red played [1,2,1,3]; 2 born, 1 died");
  assert.equal(describeMove(["W", "B"], ["+1,1 | pass"], [null], { before: null }), "W chose +1,1, B chose pass");
  assert.equal(describeMove(["W", "B"], [], [], null), "");
});
