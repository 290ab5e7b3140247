import assert from "node:assert/strict";
import { test } from "node:test";
import { VIEWS, load, nodes } from "./helpers.mjs";

const { picture, boardSize, cellName, PLAIN_LOOK } = await load("draw.js");

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

test("the point of the last move is ringed, whatever now stands there", () => {
  const view = VIEWS.losat_capture;
  const ring = (display) => nodes(picture(display, view.look, {})).filter((n) => n.attrs.class === "last-ring");
  assert.equal(ring({ ...view.display, last_point: null }).length, 0);
  const [r, c] = [6, 3];
  for (const value of [0, 1, 2]) {  // a point emptied by a removal, or holding a stone
    const cells = view.display.grid.cells.map((row) => [...row]);
    cells[r][c] = value;
    const [drawn] = ring({ ...view.display, grid: { ...view.display.grid, cells }, last_point: [r, c] });
    assert.ok(drawn, `no ring with ${value} on the point`);
    assert.equal(drawn.attrs.fill, "none");
    const cell = nodes(picture(view.display, view.look, {})).find((n) => n.attrs["data-cell"] === `${r},${c}`);
    assert.equal(drawn.attrs.cx, cell.attrs.x + cell.attrs.width / 2);
    assert.equal(drawn.attrs.cy, cell.attrs.y + cell.attrs.height / 2);
  }
});

test("a cell is named in the order of the game's notation, from the board's labels", () => {
  assert.equal(cellName(VIEWS.war_of_life.display, [0, 1]), "1,2");  // row first: [r1,c1,...]
  assert.equal(cellName(VIEWS.life_for_two_second.display, [0, 2]), "3,1");  // x,y
  assert.equal(cellName(VIEWS.p2life.display, [0, 1]), "2,1");
  assert.equal(cellName(VIEWS.losat_capture.display, [6, 3]), "D7");
  // every listed move of a one-cell game names its cell as the page does
  for (const name of ["life_for_two_second", "p2life"]) {
    for (const m of VIEWS[name].legal["0"].moves.filter((m) => m.cells.length)) {
      assert.ok(m.move.endsWith(cellName(VIEWS[name].display, m.cells[0])), m.move);
    }
  }
  for (const m of VIEWS.losat_capture.legal["0"].moves) {
    assert.ok(m.move.endsWith(cellName(VIEWS.losat_capture.display, m.cells[0])), m.move);
  }
  for (const m of VIEWS.war_of_life.legal["0"].moves) {
    const [from, to] = m.cells.map((cell) => cellName(VIEWS.war_of_life.display, cell));
    assert.equal(m.move, `[${from},${to}]`);
  }
});
