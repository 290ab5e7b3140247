// Unit tests of the players' pages' pure helpers: ratings in words, the your-turn title, and
// the rating chart's scales (node --test tests/js/).
import { test } from "node:test";
import assert from "node:assert/strict";

import { changeText, changeTone, countsText, newTurns, ratingText, ratingTitle, turnTitle }
  from "../../src/lifearena/web/static/js/rating.js";
import { chartModel, dateLabel, niceTicks } from "../../src/lifearena/web/static/js/chart.js";

test("ratingText marks a provisional rating with ?, and prefers the server's own words", () => {
  assert.equal(ratingText({ rating: 1523.4, deviation: 180, provisional: true }), "1523?");
  assert.equal(ratingText({ rating: 1611, deviation: 60, provisional: false }), "1611");
  assert.equal(ratingText({ rating: 1500, deviation: 350, provisional: true, shown: "1500?" }), "1500?");
  assert.equal(ratingText(null), "");
  assert.equal(ratingText(undefined), "");
});

test("ratingTitle gives the deviation, and why a ? shows", () => {
  assert.equal(ratingTitle({ rating: 1523, deviation: 180.4, provisional: true }),
    "rating 1523 ± 180 (provisional: too few rated games yet)");
  assert.equal(ratingTitle({ rating: 1611, deviation: 60, provisional: false }), "rating 1611 ± 60");
  assert.equal(ratingTitle(null), "");
});

test("changeText and changeTone word a rating's change with its sign", () => {
  assert.equal(changeText(12), "+12");
  assert.equal(changeText(-12.4), "-12");
  assert.equal(changeText(0.3), "±0");
  assert.equal(changeText(null), "");
  assert.equal(changeText(NaN), "");
  assert.deepEqual([changeTone(5), changeTone(-1), changeTone(0.2), changeTone(null)],
    ["up", "down", "same", "same"]);
});

test("countsText counts wins, draws and losses in the singular and plural", () => {
  assert.equal(countsText({ wins: 1, draws: 0, losses: 2 }), "1 win · 0 draws · 2 losses");
  assert.equal(countsText({}), "0 wins · 0 draws · 0 losses");
});

test("turnTitle marks a title once, counts the games and takes the mark off", () => {
  assert.equal(turnTitle("lifearena", 1), "(1) Your turn — lifearena");
  assert.equal(turnTitle("(1) Your turn — lifearena", 3), "(3) Your turn — lifearena");
  assert.equal(turnTitle("(2) Your turn — lifearena — War of Life", 0), "lifearena — War of Life");
  assert.equal(turnTitle("lifearena", 0), "lifearena");
});

test("newTurns tells of games newly waiting, never the one on screen", () => {
  const playing = [{ id: "a", your_turn: true }, { id: "b", your_turn: true }, { id: "c", your_turn: false }];
  assert.deepEqual(newTurns(playing, new Set(), null), ["a", "b"]);
  assert.deepEqual(newTurns(playing, new Set(["a"]), null), ["b"]);
  assert.deepEqual(newTurns(playing, new Set(), "b"), ["a"]);
});

test("niceTicks covers the range in round steps", () => {
  assert.deepEqual(niceTicks(1412, 1588, 4), [1400, 1450, 1500, 1550, 1600]);
  assert.deepEqual(niceTicks(1500, 1500, 4), [1450, 1500, 1550]);
  const wide = niceTicks(900, 2100, 4);
  assert.ok(wide[0] <= 900 && wide[wide.length - 1] >= 2100, String(wide));
  assert.ok(wide.length <= 6, String(wide));
});

test("dateLabel reads a day and month, the year when another, the time within two days", () => {
  const noon = new Date(2024, 2, 14, 12, 5).getTime() / 1000;
  assert.equal(dateLabel(noon, false, 2024), "14 Mar");
  assert.equal(dateLabel(noon, false, 2025), "14 Mar 2024");
  assert.equal(dateLabel(noon, true, 2024), "12:05");
});

test("chartModel puts the oldest point left, the highest rating on top, ticks inside the box", () => {
  const start = new Date(2024, 0, 1, 12).getTime() / 1000;
  const points = [{ at: start, rating: 1500 }, { at: start + 5 * 86400, rating: 1560 },
    { at: start + 10 * 86400, rating: 1450 }];
  const model = chartModel(points, { width: 400, height: 200, thisYear: 2024 });
  const [a, b, c] = model.dots;
  assert.ok(a.x < b.x && b.x < c.x);
  assert.equal(a.x, model.box.left);
  assert.equal(c.x, model.box.right);
  assert.ok(b.y < a.y && a.y < c.y, "higher ratings are drawn higher");
  for (const dot of model.dots) assert.ok(dot.y >= model.box.top && dot.y <= model.box.bottom);
  assert.equal(model.xTicks[0].label, "1 Jan");
  assert.equal(model.xTicks[model.xTicks.length - 1].label, "11 Jan");
  assert.ok(model.line.startsWith("M") && model.line.split("L").length === 3);
  assert.ok(model.yTicks.every((t) => /^\d+$/.test(t.label)));
});

test("chartModel labels games within minutes of each other once, with their date", () => {
  const at = new Date(2024, 4, 2, 9, 57).getTime() / 1000;
  const model = chartModel([{ at, rating: 1500 }, { at: at + 20, rating: 1520 },
    { at: at + 40, rating: 1490 }], { width: 400, height: 200, thisYear: 2024 });
  assert.deepEqual(model.xTicks.map((t) => t.label), ["2 May, 09:57"]);
});

test("chartModel draws a single point in the middle with one date", () => {
  const model = chartModel([{ at: 1_700_000_000, rating: 1532 }], { width: 400, height: 200 });
  assert.equal(model.dots[0].x, (model.box.left + model.box.right) / 2);
  assert.equal(model.xTicks.length, 1);
  assert.ok(model.dots[0].y > model.box.top && model.dots[0].y < model.box.bottom);
});
