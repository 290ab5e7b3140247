import assert from "node:assert/strict";
import { test } from "node:test";
import { VIEWS, load } from "./helpers.mjs";

const { outcomeText, endingText, sideNames } = await load("outcome.js");

test("a result names the winner and why, from the sides' names", () => {
  const names = sideNames(VIEWS.war_of_life.look);
  assert.deepEqual(names, ["Blue", "Red"]);
  assert.equal(outcomeText({ winner: 0, termination: "win" }, names), "Blue wins — Red has no pieces left");
  assert.equal(outcomeText({ winner: null, termination: "exhaust" }, names), "Draw — the move limit was reached");
  assert.equal(outcomeText({ winner: 1, termination: "no_moves", detail: "it is on the origin" }, ["P1", "P2"]),
    "P2 wins — it is on the origin");
});

test("an unknown ending is named by its code, and missing names are the players'", () => {
  assert.equal(endingText("something_new", "A", "B"), "something_new");
  assert.equal(outcomeText({ winner: 1, termination: "goal" }, []), "Player 2 wins — Player 2 reached the goal line");
  assert.deepEqual(sideNames(null), ["Player 1", "Player 2"]);
});

test("an aborted game is neither won nor drawn", () => {
  assert.equal(outcomeText({ winner: null, termination: "aborted", detail: "no move in 10 minutes" },
    ["Black", "White"]), "Aborted — no move in 10 minutes");
  assert.equal(outcomeText({ winner: null, termination: "aborted" }, ["Black", "White"]),
    "Aborted — left unplayed");
});
