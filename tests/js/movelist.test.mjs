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

const { withView, withEarlier, earlierPage, listedOf } = await load("movelist.js");

test("a stretch of the list is numbered from its first move's turn and ply", () => {
  const rows = turnRows(["c", "d", "e"], [0, 1, 0], 2, 2);
  assert.deepEqual(rows.map((r) => r.number), [2, 3]);
  assert.deepEqual(rows[0].sides, [[{ ply: 3, text: "c" }], [{ ply: 4, text: "d" }]]);
  // a stretch starting with the second side's half of a turn: that row has only its cell
  const half = turnRows(["b", "c"], [1, 0], 1, 1);
  assert.deepEqual(half.map((r) => [r.number, r.sides[0].length, r.sides[1].length]), [[1, 0, 1], [2, 1, 0]]);
});

/** A view of a game of `count` moves listing its last `shown` (sides alternate). */
function viewOf(count, shown) {
  const all = Array.from({ length: count }, (_, i) => `m${i}`);
  const from = Math.max(0, count - shown);
  return { moves: all.slice(from), move_sides: all.slice(from).map((_, i) => (from + i) % 2),
    moves_from: from, first_turn: Math.floor(from / 2) + 1, ply: count };
}

/** The server's answer to GET /moves?from=&limit= for such a game. */
function pageOf(count, from, limit) {
  const moves = Array.from({ length: Math.min(count, from + limit) - from }, (_, i) => `m${from + i}`);
  return { from, count, moves, move_sides: moves.map((_, i) => (from + i) % 2), first_turn: Math.floor(from / 2) + 1 };
}

test("earlier pages join the view's moves into one list of the whole game", () => {
  let known = withView(null, viewOf(1234, 200));
  assert.deepEqual([known.from, known.moves.length], [1034, 200]);
  for (let page = earlierPage(known, 500); page; page = earlierPage(known, 500)) {
    known = withEarlier(known, pageOf(1234, page.from, page.limit));
  }
  const whole = viewOf(1234, 5000);
  assert.deepEqual(known, listedOf(whole));
  // rows of the joined list are the rows of the whole list
  assert.deepEqual(turnRows(known.moves, known.sides, known.from, known.firstTurn), turnRows(whole.moves, whole.move_sides));
});

test("a new view keeps the earlier moves fetched; a takeback or a gap is the view's word", () => {
  let known = withEarlier(withView(null, viewOf(300, 200)), pageOf(300, 0, 100));
  assert.equal(known.from, 0);
  known = withView(known, viewOf(301, 200)); // one more move: the view's list moved on by one
  assert.deepEqual([known.from, known.moves.length, known.moves[300]], [0, 301, "m300"]);
  const back = withView(known, viewOf(299, 200)); // a takeback: the list ends where the view's does
  assert.deepEqual([back.from, back.moves.length], [0, 299]);
  const far = withView({ from: 500, moves: ["x"], sides: [0], firstTurn: 251 }, viewOf(300, 200));
  assert.deepEqual(far, listedOf(viewOf(300, 200)));
  assert.equal(earlierPage({ from: 0, moves: [], sides: [], firstTurn: 1 }, 500), null);
  assert.deepEqual(earlierPage({ from: 700, moves: [], sides: [], firstTurn: 1 }, 500), { from: 200, limit: 500 });
});
