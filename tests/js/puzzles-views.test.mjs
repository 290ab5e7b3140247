// The puzzles' pages' words and links (static/puzzles/views.js).
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { STATIC } from "./helpers.mjs";

const views = await import(new URL(`file://${join(STATIC, "puzzles", "views.js")}`).href);
const round = await import(new URL(`file://${join(STATIC, "puzzles", "round.js")}`).href);

const PUZZLE = {
  id: "p1", game: "g", title: "A game", solver: 0, depth: 1, rating: 1432, prompt: "Blue to move — find the win",
  side: "Blue", display: {}, look: { sides: [] }, legal: { interaction: { kind: "cells" } }, simultaneous: false,
  source: { game_id: null, link: "/api/puzzles/id/p1/record", record: "/api/puzzles/id/p1/record", ply: 7 },
  tried: { attempts: 0, solved: false },
};

test("the banner says what to find, then how it went", () => {
  const state = round.begin(PUZZLE);
  assert.deepEqual(views.headline(state), { text: "Blue to move — find the win", tone: "turn" });
  assert.equal(views.headline({ ...state, retry: true }).text, "Retry: Blue to move — find the win");
  assert.equal(views.headline({ ...state, verdict: "right" }).tone, "good");
  assert.deepEqual(views.headline({ ...state, phase: "solved" }), { text: "Solved! That wins.", tone: "good" });
  assert.equal(views.headline({ ...state, phase: "failed" }).tone, "bad");
});

test("the rating change is signed, and a retry says it is not rated", () => {
  assert.equal(views.signed(12.4), "+12");
  assert.equal(views.signed(-7), "\u22127");
  assert.equal(views.signed(0.2), "\u00b10");
  const rated = { rated: true, player: { before: 1500, after: 1512, change: 12, shown: "1512?" },
    puzzle: { before: 1432, after: 1420, change: -12 } };
  assert.equal(views.ratingText(rated), "Your puzzle rating: 1512? (+12)");
  assert.equal(views.puzzleRatingText(rated), "The puzzle's rating: 1420 (\u221212)");
  assert.equal(views.ratingText({ rated: false, player: null, puzzle: null }),
    "Not rated: only your first try of a puzzle is rated.");
  assert.equal(views.ratingText(null), "");
});

test("the theme and the winning moves are told only once the attempt is over", () => {
  const state = { ...round.begin(PUZZLE), theme: "wipe-out-in-1", winning: ["3,4"] };
  assert.equal(views.themeText(state), "");
  assert.equal(views.winningText(state), "");
  const failed = { ...state, phase: "failed" };
  assert.equal(views.themeText(failed), "Theme: wipe out in 1");
  assert.equal(views.winningText(failed), "The winning move was 3,4.");
  assert.equal(views.winningText({ ...failed, winning: ["a", "b"] }), "The winning moves were a, b.");
  assert.equal(views.stepText({ ...failed, step: 1, solution: [{ move: "a" }, { move: "b" }] }), "Solution 2/2: b");
});

test("the source links to the game played here, else to its game on the analysis board", () => {
  assert.deepEqual(views.sourceLink(PUZZLE), { href: "/analysis?puzzle=p1",
    text: "From this game: analyse it (position after move 7)", download: false });
  const here = { ...PUZZLE, source: { ...PUZZLE.source, game_id: "abc123", link: "/game/abc123" } };
  assert.deepEqual(views.sourceLink(here), { href: "/game/abc123", text: "From this game (position after move 7)", download: false });
});

test("a page's address says which puzzle it shows", () => {
  assert.deepEqual(views.route("/puzzles/daily", ""), { kind: "daily" });
  assert.deepEqual(views.route("/puzzles/g/", "?id=p%201"), { kind: "id", id: "p 1", game: "g" });
  assert.deepEqual(views.route("/puzzles/g", ""), { kind: "next", game: "g" });
  assert.equal(views.route("/puzzles", ""), null);
  assert.equal(views.puzzleUrl({ kind: "next", game: "g" }, "p 1"), "/api/puzzles/g/next?exclude=p%201");
  assert.equal(views.puzzleUrl({ kind: "id", id: "p1", game: "g" }), "/api/puzzles/id/p1");
  assert.equal(views.puzzleUrl({ kind: "daily" }), "/api/puzzles/daily");
});

test("a game's card and the player's rating on the list", () => {
  assert.deepEqual(views.card({ game: "g", title: "A game", count: 1, solved: 0 }),
    { href: "/puzzles/g", title: "A game", count: "1 puzzle" });
  assert.equal(views.card({ game: "g", title: "A", count: 12, solved: 3 }).count, "12 puzzles · 3 solved");
  assert.match(views.myRatingText(null), /^Your puzzle rating: 1500\?/);
  assert.equal(views.myRatingText({ shown: "1620", plays: 2 }), "Your puzzle rating: 1620 after 2 puzzles");
  assert.equal(views.aboutText(PUZZLE), "A game · puzzle rating 1432 · a win in 1 move");
});
