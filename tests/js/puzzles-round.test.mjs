// The puzzle page's state changes (static/puzzles/round.js): begin, a right move, solved,
// wrong, a refused move, retry, and stepping through the solution.
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { STATIC } from "./helpers.mjs";

const round = await import(new URL(`file://${join(STATIC, "puzzles", "round.js")}`).href);

const PUZZLE = {
  id: "p1", game: "g", title: "A game", solver: 0, depth: 2, rating: 1500, prompt: "Blue to move — find the win",
  side: "Blue", display: { at: "start" }, look: { sides: [] }, legal: { count: 2, interaction: { kind: "cells" }, moves: [] },
  simultaneous: false, source: { game_id: null, link: "/r", record: "/r", ply: 3 },
  tried: { attempts: 0, solved: false },
};
const SOLUTION = [{ move: "a", display: { at: "a" } }, { move: "b", display: { at: "b" } }, { move: "c", display: { at: "c" } }];

test("a puzzle begins at its position, taking moves; a tried one begins as a retry", () => {
  const state = round.begin(PUZZLE);
  assert.equal(state.phase, "solving");
  assert.deepEqual(state.moves, []);
  assert.equal(state.display, PUZZLE.display);
  assert.equal(round.canMove(state), true);
  assert.equal(state.retry, false);
  assert.equal(round.begin({ ...PUZZLE, tried: { attempts: 1, solved: false } }).retry, true);
});

test("a right move keeps the attempt going from the position after the reply", () => {
  const state = round.answered({ ...round.begin(PUZZLE), busy: true }, {
    verdict: "right", move: "a", reply: "b", moves: ["a", "b"], over: false, shown: { at: "a" },
    display: { at: "b" }, legal: { count: 1 }, winning: [] });
  assert.equal(state.phase, "solving");
  assert.deepEqual(state.moves, ["a", "b"]);
  assert.deepEqual(state.display, { at: "b" });
  assert.deepEqual(state.last, { move: "a", reply: "b" });
  assert.equal(round.canMove(state), true);
});

test("solved ends the attempt with its rating change, theme and solution", () => {
  const rating = { rated: true, player: { before: 1500, after: 1600, change: 100, shown: "1600?" }, puzzle: null };
  const state = round.answered(round.begin(PUZZLE), {
    verdict: "solved", move: "c", reply: null, moves: ["a", "b", "c"], over: true, shown: { at: "c" },
    display: { at: "c" }, legal: null, winning: [], theme: "t-in-2", solution: SOLUTION, rating });
  assert.equal(state.phase, "solved");
  assert.equal(round.canMove(state), false);
  assert.equal(state.rating, rating);
  assert.equal(state.theme, "t-in-2");
  assert.equal(state.solution.length, 3);
});

test("wrong shows the wrong move and the moves that won; retry starts again unrated", () => {
  const wrong = round.answered(round.begin(PUZZLE), {
    verdict: "wrong", move: "x", reply: null, moves: [], over: true, shown: { at: "x" },
    display: { at: "x" }, legal: null, winning: ["a"], theme: "t", solution: SOLUTION,
    rating: { rated: true, player: null, puzzle: null } });
  assert.equal(wrong.phase, "failed");
  assert.deepEqual(wrong.display, { at: "x" });
  assert.deepEqual(wrong.winning, ["a"]);
  const again = round.retry(wrong);
  assert.equal(again.phase, "solving");
  assert.equal(again.retry, true);
  assert.deepEqual(again.display, PUZZLE.display);
  assert.equal(again.rating, null);
});

test("a refused move is said and plays nothing", () => {
  const state = round.refused({ ...round.begin(PUZZLE), busy: true, selection: { cells: [[1, 1]] } }, "illegal");
  assert.equal(state.error, "illegal");
  assert.equal(state.busy, false);
  assert.deepEqual(state.selection.cells, []);
  assert.deepEqual(state.moves, []);
});

test("the solution is stepped through once the attempt is over, and clamped", () => {
  const solving = round.begin(PUZZLE);
  assert.equal(round.showStep(solving, 0), solving); // not while solving
  const over = { ...solving, phase: "failed", solution: SOLUTION };
  assert.deepEqual(round.showStep(over, 0).display, { at: "a" });
  assert.equal(round.showStep(over, 9).step, 2);
  assert.deepEqual(round.showStep(round.showStep(over, 1), -5).display, PUZZLE.display);
});
