import assert from "node:assert/strict";
import { test } from "node:test";
import { VIEWS, load, nodes } from "./helpers.mjs";

const { picture, boardSize, PLAIN_LOOK } = await load("draw.js");

test("a grid game is drawn from its display and look: a cell per square, a piece per stone", () => {
  const view = VIEWS.war_of_life;
  const tree = picture(view.display, view.look, { size: 400 });
  assert.equal(tree.tag, "svg");
  const all = nodes(tree);
  const cells = all.filter((n) => String(n.attrs.class || "").startsWith("cell"));
  assert.equal(cells.length, 64);
  const pieces = all.filter((n) => String(n.attrs.class || "").startsWith("piece"));
  const stones = view.display.grid.cells.flat().filter(Boolean).length;
  assert.equal(pieces.length, stones);
  const colours = new Set(pieces.map((p) => p.attrs.fill));
  assert.deepEqual([...colours].sort(), view.look.sides.map((s) => s.colour).sort());
  assert.ok(Number(tree.attrs.width) <= 400);
});

test("marks, the cursor and the last move are drawn where asked", () => {
  const view = VIEWS.blocking_queen_block;
  const tree = picture(view.display, view.look, { cursor: [2, 3] });
  const all = nodes(tree);
  assert.deepEqual(view.display.last, [[6, 6]]);
  const last = all.find((n) => n.attrs["data-cell"] === "6,6");
  assert.match(String(last.attrs.class), /\blast\b/);
  assert.equal(all.filter((n) => n.attrs.class === "cursor").length, 1);
  assert.equal(all.filter((n) => n.attrs.class === "queen").length, 1);
  const grid = picture(VIEWS.war_of_life.display, VIEWS.war_of_life.look, { marks: { "0,3": "target" } });
  assert.match(String(nodes(grid).find((n) => n.attrs["data-cell"] === "0,3").attrs.class), /target/);
});

test("the queen's squares are drawn by the display's shape, not the game's name", () => {
  const { display, look } = VIEWS.blocking_queen_move;
  assert.deepEqual(boardSize(display), [10, 10]);
  const all = nodes(picture({ ...display, name: "anything" }, look, {}));
  assert.equal(all.filter((n) => /reachable/.test(String(n.attrs.class))).length, display.reachable.length);
});

test("an animated generation fades its dying pieces and grows its newborns", () => {
  const display = {
    grid: { rows: 1, cols: 3, cells: [[0, 2, 0]], row_labels: ["1"], col_labels: ["1", "2", "3"] },
    before: [[1, 0, 0]], births: [[0, 1]], deaths: [[0, 0]],
  };
  const look = VIEWS.war_of_life.look;
  const all = nodes(picture(display, look, { animate: true, births: display.births, deaths: display.deaths }));
  const dying = all.filter((n) => /dying/.test(String(n.attrs.class)));
  const newborn = all.filter((n) => /newborn/.test(String(n.attrs.class)));
  assert.equal(dying.length, 1);
  assert.equal(dying[0].attrs.fill, look.sides[0].colour);  // it dies in the colour it had
  assert.equal(newborn.length, 1);
  assert.equal(newborn[0].attrs.fill, look.sides[1].colour);  // born in its own side's colour
  const still = nodes(picture(display, look, {}));
  assert.equal(still.filter((n) => /dying|newborn/.test(String(n.attrs.class))).length, 0);
});

test("a display without a board is its text, and a missing look is the plain one", () => {
  const tree = picture({ text: "LIFE2", terminal: true }, null, {});
  assert.equal(nodes(tree).find((n) => n.tag === "text").text, "LIFE2");
  const plain = nodes(picture(VIEWS.war_of_life.display, undefined, {}));
  assert.ok(plain.some((n) => n.attrs.fill === PLAIN_LOOK.sides[0].colour));
});
