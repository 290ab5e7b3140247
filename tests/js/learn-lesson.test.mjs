// The Learn page's pure parts: the lesson's state transitions (lesson-state.js) and the views
// drawn from them (views.js), on what the lessons' API sends (fixtures/lessons.json).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { STATIC } from "./helpers.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const DATA = JSON.parse(readFileSync(join(here, "fixtures", "lessons.json"), "utf8"));
const learn = (path) => import(new URL(`file://${join(STATIC, "learn", path)}`).href);
const state = await learn("lesson-state.js");
const views = await learn("views.js");
const { inputFor } = await import(new URL(`file://${join(STATIC, "js", "inputs", "index.js")}`).href);

const NAMES = ["Blue", "Red"];
/** The state after `patches`, applied in turn to the empty state. */
const build = (...patches) => patches.reduce((s, p) => ({ ...s, ...(typeof p === "function" ? p(s) : p) }), { ...state.EMPTY });
const wol = () => build(state.loaded(DATA.war_of_life));

test("a loaded lesson shows its first step from its start, awaiting a move", () => {
  const s = wol();
  assert.equal(s.index, 0);
  assert.equal(s.phase, "play");
  assert.deepEqual(s.display, DATA.war_of_life.steps[0].display);
  assert.ok(state.canMove(s));
  assert.equal(views.words(s).heading, "Step 1 of 5: The rule of Life: births");
  assert.deepEqual(views.progress(s).map((d) => d.status), ["current", "todo", "todo", "todo", "todo"]);
  assert.equal(views.youPlay(s), "You play Blue.");
  assert.deepEqual(views.actions(s).map((a) => a.id), ["hint"]);
  assert.equal(state.loaded(DATA.war_of_life, 9).index, 0);
});

test("clicks compose the move with the step's input, and the body names it", () => {
  const s = wol();
  const legal = s.legal;
  const input = inputFor(legal.interaction.kind);
  let result = input.reduce(s.selection, views.cellEvent(s, [4, 5], false), legal);
  assert.deepEqual(result.selection.cells, [[4, 5]]);
  const marked = build(s, { selection: result.selection });
  assert.equal(views.boardOptions(marked, 0, 400).marks["3,4"], "target");
  result = input.reduce(result.selection, views.cellEvent(marked, [3, 4], false), legal);
  assert.equal(result.send, "[5,6,4,5]");
  assert.deepEqual(state.moveBody(s, result.send), { move: "[5,6,4,5]", before: [] });
});

test("a met goal shows the success, animates the generation, then offers Next", () => {
  const s = build(wol(), (x) => state.answered(x, DATA.answers.born, NAMES, 1000));
  assert.equal(s.phase, "done");
  assert.equal(s.message.tone, "good");
  assert.match(s.message.text, /^Born!/);
  assert.deepEqual(s.done, [0]);
  assert.deepEqual(views.progress(s).map((d) => d.done), [true, false, false, false, false]);
  assert.equal(s.animateUntil, 1000 + state.ANIMATION_MS);
  const options = views.boardOptions(s, 1100, 400);
  assert.ok(options.animate && options.births.some(([r, c]) => r === 3 && c === 3));
  assert.equal(views.boardOptions(s, 1000 + state.ANIMATION_MS, 400).animate, false);
  assert.ok(!state.canMove(s));
  assert.deepEqual(views.actions(s).map((a) => a.id), ["next"]);
  const after = build(s, (x) => state.next(x));
  assert.equal(after.index, 1);
  assert.deepEqual(views.progress(after).map((d) => d.status).slice(0, 2), ["done", "current"]);
});

test("a missed goal is told, and Try again restores the start", () => {
  const s = build(wol(), (x) => state.answered(x, DATA.answers.missed, NAMES, 0));
  assert.equal(s.phase, "missed");
  assert.equal(s.message.tone, "error");
  assert.match(s.message.text, /^Not yet/);
  assert.deepEqual(s.done, []);
  assert.deepEqual(views.actions(s).map((a) => a.id), ["retry", "hint"]);
  const again = build(s, (x) => state.retry(x));
  assert.equal(again.phase, "play");
  assert.deepEqual(again.display, DATA.war_of_life.steps[0].display);
});

test("a refused move keeps the board and says the server's reason", () => {
  const s = build(wol(), { busy: true }, state.refused("[3,3,3,4]: the target 3,4 is occupied"));
  assert.equal(s.busy, false);
  assert.equal(s.message.text, "[3,3,3,4]: the target 3,4 is occupied");
  assert.equal(s.message.tone, "error");
  assert.deepEqual(s.display, DATA.war_of_life.steps[0].display);
});

test("the hint shows once asked for", () => {
  const s = build(wol(), { hint: true });
  assert.equal(views.words(s).hint, DATA.war_of_life.steps[0].hint);
  assert.ok(!views.actions(s).some((a) => a.id === "hint"));
});

test("the last step done offers Play this game, linking to the home page's form", () => {
  const s = build(state.loaded(DATA.war_of_life, 4), { done: [0, 1, 2, 3] },
    (x) => state.answered(x, DATA.answers.last, NAMES, 0));
  assert.ok(state.finished(s));
  const play = views.actions(s).find((a) => a.id === "play");
  assert.equal(play.href, "/?game=war_of_life#new-game");
  assert.match(views.closing(s), /learnt War of Life/);
});

test("a turn of several plies: the queen's move, then its block", () => {
  const s = build(state.loaded(DATA.blocking_queen, 1),
    (x) => state.answered(x, DATA.answers.queen_moved, ["Player 1", "Player 2"], 0));
  assert.equal(s.phase, "more");
  assert.ok(state.canMove(s));
  assert.deepEqual(state.moveBody(s, "#0,0"), { move: "#0,0", before: ["1,0"] });
  assert.match(s.message.text, /^Block a shaded square/);
  assert.ok(views.actions(s).some((a) => a.label === "Stop blocking" || a.event?.move === "-"));
});

test("a simultaneous step names the other side's revealed choice", () => {
  const s = build(wol(), (x) => state.answered(x, DATA.answers.collision, ["Teal", "Orange"], 0));
  assert.match(s.message.text, /^Orange chose 1,4\. /);
  assert.equal(views.boardOptions(s, -1, 300).marks["3,0"], "collision");
});

test("the cards of /learn, one per lesson", () => {
  const shown = views.cards({ lessons: [{ game: "g", title: "G", summary: "S.", steps: 4,
    link: "/learn/g", look: null, picture: null }] });
  assert.deepEqual(shown.map((c) => [c.title, c.steps, c.link]), [["G", "4 short steps", "/learn/g"]]);
});

test("the keyboard's cursor moves with the arrows and stays on the board", () => {
  assert.deepEqual(state.moved([0, 0], "ArrowDown", [8, 8]), [1, 0]);
  assert.deepEqual(state.moved([0, 0], "ArrowLeft", [8, 8]), [0, 0]);
  assert.deepEqual(state.moved([7, 7], "ArrowRight", [8, 8]), [7, 7]);
  assert.equal(state.moved([0, 0], "Enter", [8, 8]), null);
  const s = build(wol(), { cursor: [3, 4] });
  assert.deepEqual(views.boardOptions(s, 0, 300).cursor, [3, 4]);
  assert.deepEqual(build(s, (x) => state.next(x)).cursor, [0, 0]);
});
