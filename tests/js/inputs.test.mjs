import assert from "node:assert/strict";
import { test } from "node:test";
import { VIEWS, load } from "./helpers.mjs";

const { inputFor } = await load("inputs/index.js");
const { NOTHING, stillLegal, compose } = await load("inputs/common.js");

const legalOf = (name, seat = 0) => VIEWS[name].legal[String(seat)];
const names = (name) => VIEWS[name].look.sides.map((s) => s.name);
const valueAt = (name, [r, c]) => VIEWS[name].display.grid.cells[r][c];
const click = (name, cell, seat = 0) => ({ type: "cell", cell, value: valueAt(name, cell), seat,
  name: `${cell[1] + 1},${cell[0] + 1}`, names: names(name) });

test("piece then target: a piece shows its targets, a target plays the listed move", () => {
  const legal = legalOf("war_of_life");
  const input = inputFor(legal.interaction.kind);
  const move = legal.moves[0];
  let result = input.reduce(NOTHING, click("war_of_life", move.cells[0]), legal);
  assert.deepEqual(result.selection.cells, [move.cells[0]]);
  assert.equal(result.send, undefined);
  const marks = input.marks(result.selection, legal);
  assert.equal(marks[move.cells[1].join(",")], "target");
  result = input.reduce(result.selection, click("war_of_life", move.cells[1]), legal);
  assert.equal(result.send, move.move);
  assert.deepEqual(result.selection.cells, []);
});

test("piece then target: another side's piece is explained in the sides' names", () => {
  const legal = legalOf("war_of_life");
  const grid = VIEWS.war_of_life.display.grid.cells;
  const r = grid.findIndex((row) => row.includes(2));
  const result = inputFor("piece-then-target").reduce(NOTHING, click("war_of_life", [r, grid[r].indexOf(2)]), legal);
  assert.equal(result.tone, "error");
  assert.equal(result.message, "That is a red piece; you play blue.");
  assert.equal(result.send, undefined);
});

test("cells: the first turn's move is composed from parts though its 2300 moves are not listed", () => {
  const legal = legalOf("life_for_two_first", 1);
  assert.equal(legal.moves, null);
  assert.equal(legal.count, 2300);
  const input = inputFor(legal.interaction.kind);
  let selection = NOTHING;
  for (const cell of [[2, 2], [3, 2], [3, 3]]) {
    const result = input.reduce(selection, click("life_for_two_first", cell, 1), legal);
    assert.equal(result.send, undefined);
    selection = result.selection;
  }
  const [ready] = input.buttons(selection, legal, (c) => `${c[1] + 1},${c[0] + 1}`);
  assert.equal(ready.disabled, false);
  assert.equal(ready.label, "Place on 3,3 3,4 4,4");
  const extra = input.reduce(selection, click("life_for_two_first", [0, 0], 1), legal);
  assert.match(extra.message, /picked 3 cells/);  // a fourth is refused, the three stay
  assert.equal(extra.selection.cells.length, 3);
  const unpicked = input.reduce(selection, click("life_for_two_first", [3, 2], 1), legal);
  assert.equal(unpicked.selection.cells.length, 2);
  assert.equal(input.reduce(selection, { type: "confirm" }, legal).send, "3,3 3,4 4,4");
});

test("cells: with the moves listed, a taken cell is refused and one cell replaces the last", () => {
  const legal = legalOf("life_for_two_second");
  const input = inputFor("cells");
  const taken = input.reduce(NOTHING, click("life_for_two_second", [0, 0]), legal);
  assert.equal(taken.tone, "error");
  assert.match(taken.message, /taken/);
  const first = input.reduce(NOTHING, click("life_for_two_second", [2, 2]), legal);
  const second = input.reduce(first.selection, click("life_for_two_second", [2, 3]), legal);
  assert.deepEqual(second.selection.cells, [[2, 3]]);
  const sent = input.reduce(second.selection, { type: "confirm" }, legal).send;
  assert.ok(legal.moves.some((m) => m.move === sent), sent);
  for (const m of legal.moves) assert.equal(compose(legal.interaction, m.cells), m.move);
});

test("cell or pass: a second click on the chosen cell plays it; pass is a button", () => {
  const legal = legalOf("p2life", 1);
  const input = inputFor(legal.interaction.kind);
  const grid = VIEWS.p2life.display.grid.cells;
  const empty = [0, grid[0].indexOf(0)];
  const first = input.reduce(NOTHING, click("p2life", empty, 1), legal);
  assert.match(first.message, /Place on/);
  const buttons = input.buttons(first.selection, legal, (c) => c.join(","));
  assert.deepEqual(buttons.map((b) => b.id), ["confirm", "pass"]);
  assert.equal(buttons[1].event.move, "pass");
  const second = input.reduce(first.selection, click("p2life", empty, 1), legal);
  const listed = legal.moves.find((m) => m.cells.length && m.cells[0][0] === empty[0] && m.cells[0][1] === empty[1]);
  assert.equal(second.send, listed.move);
  const r = grid.findIndex((row) => row.includes(1));
  const theirs = input.reduce(NOTHING, click("p2life", [r, grid[r].indexOf(1)], 1), legal);
  assert.equal(theirs.tone, "error");
  assert.match(theirs.message, /remove only your own/);
});

test("point then action: a point with two moves asks which; a point with none explains", () => {
  const legal = legalOf("losat_capture");
  const input = inputFor(legal.interaction.kind);
  const d7 = legal.moves.find((m) => m.move === "xD7");
  assert.ok(d7);
  const atD7 = input.reduce(NOTHING, { type: "cell", cell: d7.cells[0], name: "D7" }, legal);
  assert.equal(atD7.send, undefined);
  assert.deepEqual(atD7.selection.cells, [d7.cells[0]]);
  const labels = input.buttons(atD7.selection, legal, () => "D7").map((b) => b.label);
  // the capture says who scores by it: here the clicking side, Black
  assert.ok(labels.includes("Capture at D7 — Black scores, 1st capture"), labels.join());
  const none = input.reduce(NOTHING, { type: "cell", cell: [12, 0], name: "A1" }, legal);
  assert.equal(none.tone, "error");
  assert.match(none.message, /Nothing can be played at A1/);
});

test("point then action: the points with a move are lit before any click", () => {
  const legal = legalOf("losat_capture");
  const lit = inputFor(legal.interaction.kind).marks(NOTHING, legal);
  const points = new Set(legal.moves.filter((m) => m.cells.length).map((m) => m.cells[0].join(",")));
  assert.ok(points.size > 1);
  assert.deepEqual(new Set(Object.keys(lit)), points);
  assert.ok(Object.values(lit).every((mark) => mark === "target"));
});

test("point then action: a point's only move waits for a second click or its button", () => {
  const legal = legalOf("losat_capture");
  const input = inputFor(legal.interaction.kind);
  const counts = new Map();
  for (const m of legal.moves) if (m.cells[0]) counts.set(m.cells[0].join(","), (counts.get(m.cells[0].join(",")) || 0) + 1);
  const only = legal.moves.find((m) => m.cells[0] && counts.get(m.cells[0].join(",")) === 1);
  assert.ok(only, "the fixture has a point with one move");
  const cell = only.cells[0];
  const first = input.reduce(NOTHING, { type: "cell", cell, name: "P" }, legal);
  assert.equal(first.send, undefined, "one click played a move");
  assert.deepEqual(first.selection.cells, [cell]);
  const detail = only.detail ? ` — ${only.detail}` : "";
  assert.equal(first.message, `${only.label[0].toUpperCase()}${only.label.slice(1)} at P${detail}? Click the point again or press the button.`);
  assert.equal(input.marks(first.selection, legal)[cell.join(",")], "selected");
  const [play, clear] = input.buttons(first.selection, legal, () => "P");
  assert.deepEqual(play.event, { type: "play", move: only.move });
  assert.equal(clear.event.type, "clear");
  assert.equal(input.reduce(first.selection, { type: "cell", cell, name: "P" }, legal).send, only.move);
  // another point's click moves the selection, never plays the first point's move
  const other = legal.moves.find((m) => m.cells[0] && m.cells[0].join(",") !== cell.join(","));
  const moved = input.reduce(first.selection, { type: "cell", cell: other.cells[0] }, legal);
  assert.equal(moved.send, undefined);
  assert.deepEqual(moved.selection.cells, [other.cells[0]]);
});

test("square then blocks: a square plays its part; the stop is a button", () => {
  const moving = legalOf("blocking_queen_move");
  const input = inputFor(moving.interaction.kind);
  const part = moving.interaction.parts[0];
  assert.equal(input.reduce(NOTHING, { type: "cell", cell: part.cell }, moving).send, part.text);
  const refused = input.reduce(NOTHING, { type: "cell", cell: [3, 3], name: "3,3" }, moving);
  assert.match(refused.message, /west, north or north-west/);
  assert.deepEqual(input.buttons(NOTHING, moving), []);
  const blocking = legalOf("blocking_queen_block");
  const [stop] = input.buttons(NOTHING, blocking);
  assert.equal(stop.label, "Stop blocking");
  assert.equal(stop.event.move, "-");
});

test("square then blocks: a finger's tap selects the square; a second tap or its button plays", () => {
  const moving = legalOf("blocking_queen_move");
  const input = inputFor(moving.interaction.kind);
  const [part, other] = moving.interaction.parts;
  const tap = (cell) => ({ type: "cell", cell, name: cell.join("/"), touch: true });
  const first = input.reduce(NOTHING, tap(part.cell), moving);
  assert.equal(first.send, undefined, "one tap moved the queen");
  assert.deepEqual(first.selection.cells, [part.cell]);
  assert.match(first.message, /Tap it again/);
  assert.equal(input.marks(first.selection, moving)[part.cell.join(",")], "selected");
  const [play, clear] = input.buttons(first.selection, moving, (c) => c.join("/"));
  assert.deepEqual(play.event, { type: "play", move: part.text });
  assert.equal(play.label, `Play ${part.cell.join("/")}`);
  assert.equal(clear.event.type, "clear");
  // a tap elsewhere moves the selection; a second tap on the square plays it
  const moved = input.reduce(first.selection, tap(other.cell), moving);
  assert.equal(moved.send, undefined);
  assert.deepEqual(moved.selection.cells, [other.cell]);
  assert.equal(input.reduce(moved.selection, tap(other.cell), moving).send, other.text);
});

test("answer: the board asks for the typed answer; a typed move is sent as it is", () => {
  const legal = legalOf("classic");
  const input = inputFor(legal.interaction.kind);
  assert.match(input.reduce(NOTHING, { type: "cell", cell: [0, 0] }, legal).message, /Type your answer/);
  assert.equal(input.reduce(NOTHING, { type: "play", move: "1,1" }, legal).send, "1,1");
});

test("a selection survives a new view only while each cell can still be picked", () => {
  const legal = legalOf("life_for_two_second");
  assert.equal(stillLegal({ cells: [[2, 2]] }, legal), true);
  assert.equal(stillLegal({ cells: [[0, 0]] }, legal), false);  // a piece stands there now
  const war = legalOf("war_of_life");
  assert.equal(stillLegal({ cells: [war.moves[0].cells[0]] }, war), true);
  assert.equal(stillLegal(NOTHING, null), true);
  assert.equal(stillLegal({ cells: [[0, 0]] }, null), false);
});
