// The game page's controller (js/game/ctrl.js) and its socket handlers, driven with fakes:
// moves sent, views received, browsing, and every error said.
import assert from "node:assert/strict";
import { test } from "node:test";
import { load } from "./helpers.mjs";
import { fakeEnv, liveView, ok, refused, settle } from "./game-fakes.mjs";

const { GameCtrl } = await load("game/ctrl.js");
const { handlers } = await load("game/socket-handlers.js");

/** A controller with a view of `name` received. */
function started(name = "war_of_life", options = {}, extra = {}) {
  const env = fakeEnv(options);
  const ctrl = new GameCtrl(env);
  ctrl.connect(handlers);
  handlers.message(ctrl, { type: "state", ...liveView(name, extra) });
  return { env, ctrl };
}

test("a piece then its target sends the listed move on the socket, naming the ply", () => {
  const { env, ctrl } = started();
  const move = ctrl.state.view.legal["0"].moves[0];
  ctrl.pickCell(move.cells[0]);
  assert.deepEqual(ctrl.state.selection.cells, [move.cells[0]]);
  assert.deepEqual(env.sent, []);
  ctrl.pickCell(move.cells[1]);
  assert.deepEqual(env.sent, [{ type: "move", move: move.move, seat: 0, ply: 0 }]);
  assert.deepEqual(ctrl.state.selection.cells, []);
});

test("without an open socket the move goes as a request, and its refusal is said", async () => {
  const { env, ctrl } = started("war_of_life", {
    socketOpen: false, answers: { "POST /api/games/g1/moves": refused(409, "that move is stale\nmore") } });
  ctrl.dispatch({ type: "play", move: "[1,4,1,3]" });
  await settle();
  const sent = env.requests.find((r) => r.path === "/api/games/g1/moves");
  assert.deepEqual(sent.body, { move: "[1,4,1,3]", seat: 0, ply: 0 });
  assert.deepEqual(ctrl.state.message, { text: "That move is stale\nmore", tone: "error" });
});

test("a view received through the socket fills the store; a new ply announces the move and clears browsing", () => {
  const { env, ctrl } = started("war_of_life", { local: { "lifearena-sound": "on" } });
  assert.equal(ctrl.state.view.ply, 0);
  assert.equal(ctrl.state.moveList.moves.length, 0);
  ctrl.store.set({ browsing: { upto: 0, display: {} } });
  const next = liveView("war_of_life", { ply: 1, moves: ["[1,4,1,3]"], move_sides: [0], awaiting: [1] });
  next.display = { ...next.display, before: next.display.grid.cells, births: [[0, 0]], deaths: [[1, 1], [2, 2]] };
  handlers.message(ctrl, { type: "state", ...next });
  assert.equal(ctrl.state.view.ply, 1);
  assert.equal(ctrl.state.browsing, null);
  assert.deepEqual(ctrl.state.moveList.moves, ["[1,4,1,3]"]);
  assert.match(ctrl.state.announcement, /^Blue played \[1,4,1,3\]; 1 born, 2 died$/);
  assert.equal(env.tones, 1, "the sound is on: one beep");
  assert.equal(ctrl.state.animateUntil, env.clock + 900);
});

test("a message of an unknown type changes nothing", () => {
  const { ctrl } = started();
  const before = ctrl.state;
  handlers.message(ctrl, { type: "nonsense" });
  handlers.message(ctrl, null);
  assert.equal(ctrl.state, before);
});

test("browsing fetches the position once and shows it; End goes back to the game", async () => {
  const shown = { grid: { rows: 1, cols: 1, cells: [[0]], row_labels: ["1"], col_labels: ["1"] }, births: [[0, 0]] };
  const { env, ctrl } = started("war_of_life", { answers: { "/api/games/g1/position?upto=0": ok(shown) } },
    { ply: 2, moves: ["a", "b"], move_sides: [0, 1] });
  assert.equal(ctrl.pageKey("Home"), true);
  await settle();
  assert.deepEqual(ctrl.state.browsing, { upto: 0, display: shown });
  ctrl.pageKey("ArrowRight");
  ctrl.pageKey("ArrowLeft");
  await settle();
  const asked = env.requests.filter((r) => r.path.includes("position?upto=0"));
  assert.equal(asked.length, 1, "a position is fetched once");
  ctrl.pageKey("End");
  assert.equal(ctrl.state.browsing, null);
  assert.equal(ctrl.pageKey("x"), false);
});

test("a failed browse is said in one line", async () => {
  const { ctrl } = started("war_of_life", { answers: {} }, { ply: 1, moves: ["a"], move_sides: [0] });
  await ctrl.browse(0);
  assert.deepEqual(ctrl.state.message, { text: "Not found", tone: "error" });
});

test("a move asked while it is not this page's turn, or while browsing, is refused in words", () => {
  const { env, ctrl } = started("war_of_life", {}, { awaiting: [1], legal: {} });
  ctrl.pickCell([0, 0]);
  assert.deepEqual(ctrl.state.message, { text: "It is Red's turn, not yours.", tone: "error" });
  ctrl.store.set({ browsing: { upto: 0, display: ctrl.state.view.display } });
  ctrl.dispatch({ type: "confirm" });
  assert.match(ctrl.state.message.text, /^You are looking at an earlier position/);
  assert.deepEqual(env.sent, []);
});

test("the socket's error is said; before the first view a 4403 close drops the link's token", () => {
  const env = fakeEnv({ fragment: "t=bad", local: { "lifearena-seat-g1": "good" } });
  const ctrl = new GameCtrl(env);
  ctrl.connect(handlers);
  handlers.message(ctrl, { type: "error", error: "this seat token is not valid" });
  assert.equal(ctrl.refusal, "this seat token is not valid");
  handlers.status(ctrl, "refused", { code: 4403 });
  assert.equal(ctrl.token, "good");
  assert.deepEqual(env.urls, ["/play/g1#t=good"]);
  assert.equal(env.sockets.length, 2, "connected again with the stored token");
  assert.match(ctrl.state.message.text, /seat key is not valid/);
  handlers.message(ctrl, { type: "state", ...liveView("war_of_life") });
  handlers.message(ctrl, { type: "error", error: "too many moves" });
  assert.deepEqual(ctrl.state.message, { text: "Too many moves", tone: "error" });
});

test("a lost connection before the first view shows in the banner's early words", () => {
  const env = fakeEnv();
  const ctrl = new GameCtrl(env);
  ctrl.connect(handlers);
  handlers.status(ctrl, "lost", { retryIn: 500 });
  assert.deepEqual(ctrl.state.early, { text: "Connection lost; reconnecting…", kind: "wait" });
  assert.equal(ctrl.state.connection, "lost");
});

test("an invitation is claimed before connecting: its token kept, the address bar cleaned", async () => {
  const env = fakeEnv({ fragment: "i=inv", answers: { "POST /api/games/g1/claim": ok({ token: "tok",
    links: { you: "/play/g1#t=tok", spectator: "/play/g1" } }) } });
  const ctrl = new GameCtrl(env);
  await ctrl.start(handlers);
  assert.equal(ctrl.token, "tok");
  assert.equal(env.local.getItem("lifearena-seat-g1"), "tok");
  assert.deepEqual(env.urls, ["/play/g1#t=tok"]);
  assert.deepEqual(ctrl.state.links, { invite: "", you: "/play/g1#t=tok", spectator: "/play/g1" });
  assert.equal(env.sockets.length, 1);
  assert.equal(env.sockets[0].options.token(), "tok");
});

test("the keyboard moves the cursor within the board and says what stands there", () => {
  const { ctrl } = started();
  ctrl.boardKey("ArrowUp");
  assert.deepEqual(ctrl.state.cursor, [0, 0]);
  ctrl.boardKey("ArrowRight");
  assert.deepEqual(ctrl.state.cursor, [0, 1]);
  assert.match(ctrl.state.announcement, /, (empty|Blue|Red)$/);
  ctrl.store.set({ selection: { cells: [[0, 3]] } });
  assert.equal(ctrl.boardKey("Escape"), true);
  assert.deepEqual(ctrl.state.selection.cells, []);
});

test("a target pointed at a moment is previewed: one request at a time, at most five a second, each move fetched once", async () => {
  const asked = [];
  const pending = [];
  const answers = { "POST /api/games/g1/preview": (options) => {
    asked.push(options.body.move);
    return new Promise((done) => pending.push(() => done(ok({ display: { births: [[0, 0]], deaths: [], move: options.body.move } }))));
  } };
  const { env, ctrl } = started("war_of_life", { answers, fragment: "t=tok" });
  const [first, second] = ctrl.state.view.legal["0"].moves;
  const later = async (ms) => { env.clock += ms; env.scheduled.shift().run(); await settle(); };
  ctrl.pickCell(first.cells[0]);
  assert.equal(ctrl.previewWanted, null, "a piece alone is no move yet");
  ctrl.hoverCell(first.cells[1]);
  assert.deepEqual(asked, [], "a pointer passing over a target asks nothing");
  assert.equal(env.scheduled[0].ms, 150);
  env.clock += 100;
  ctrl.hoverCell(second.cells[1]);
  await later(50);
  assert.deepEqual(asked, [], "the second target has not stayed long enough");
  await later(env.scheduled[0].ms);
  assert.deepEqual(asked, [second.move]);
  ctrl.hoverCell(first.cells[1]);
  env.clock += 1000;
  assert.equal(env.scheduled.length, 0, "nothing is asked while one request is on its way");
  pending.shift()();
  await settle();
  assert.equal(ctrl.state.preview, null, "the answer came for a move no longer pointed at");
  assert.deepEqual(asked, [second.move, first.move], "then the one pointed at now");
  pending.shift()();
  await settle();
  assert.deepEqual(ctrl.state.preview, { move: first.move, ply: 0, display: { births: [[0, 0]], deaths: [], move: first.move } });
  ctrl.hoverCell(second.cells[1]); // fetched before: shown at once, no request
  assert.equal(ctrl.state.preview.move, second.move);
  assert.equal(asked.length, 2);
  ctrl.wantPreview("[9,9,9,9]"); // a move not fetched yet: the shown preview goes at once
  assert.equal(ctrl.state.preview, null);
  assert.equal(env.scheduled[0].ms, 200, "at most five requests a second");
  ctrl.hoverCell(null);
  await later(200);
  assert.equal(asked.length, 2, "pointed away before its time: never asked");
  assert.equal(ctrl.state.preview, null);
  const sent = env.requests.find((r) => r.path === "/api/games/g1/preview");
  assert.equal(sent.token, "tok", "the seat's token goes as the move routes take it");
});

test("a target clicked at once plays without a preview asked", async () => {
  const { env, ctrl } = started("war_of_life", { answers: { "POST /api/games/g1/preview": ok({ display: {} }) } });
  const move = ctrl.state.view.legal["0"].moves[0];
  ctrl.pickCell(move.cells[0]);
  ctrl.hoverCell(move.cells[1]);
  ctrl.pickCell(move.cells[1]);
  env.clock += 500;
  env.scheduled.shift().run();
  await settle();
  assert.deepEqual(env.sent.map((m) => m.move), [move.move]);
  assert.deepEqual(env.requests, []);
});

test("no preview while browsing, off one's turn or in a simultaneous game; a refused preview says why", async () => {
  const { env, ctrl } = started("war_of_life", { answers: { "POST /api/games/g1/preview": refused(400, "no such move") } });
  const move = ctrl.state.view.legal["0"].moves[0];
  ctrl.pickCell(move.cells[0]);
  ctrl.hoverCell(move.cells[1]);
  env.clock += 150;
  env.scheduled.shift().run();
  await settle();
  assert.deepEqual(ctrl.state.preview, { move: move.move, ply: 0, display: null, error: "No such move" });
  ctrl.store.set({ browsing: { upto: 0, display: ctrl.state.view.display }, preview: null });
  ctrl.hoverCell(move.cells[1]);
  assert.equal(ctrl.state.preview, null);
  const simultaneous = started("life_for_two_second", {}, { simultaneous: true }).ctrl;
  simultaneous.hoverCell([2, 2]);
  assert.equal(simultaneous.previewWanted, null);
});

test("a chosen point previews the move it confirms to (Losat's point with one move)", async () => {
  const asked = [];
  const { env, ctrl } = started("losat_capture", { answers: { "POST /api/games/g1/preview": (o) => {
    asked.push(o.body.move); return ok({ display: { births: [], deaths: [] } }); } } });
  const legal = ctrl.state.view.legal[String(ctrl.state.view.awaiting[0])];
  const counts = new Map();
  for (const m of legal.moves) if (m.cells[0]) counts.set(m.cells[0].join(), (counts.get(m.cells[0].join()) || 0) + 1);
  const only = legal.moves.find((m) => m.cells[0] && counts.get(m.cells[0].join()) === 1);
  ctrl.pickCell(only.cells[0]);
  env.clock += 150;
  env.scheduled.shift().run();
  await settle();
  assert.deepEqual(asked, [only.move]);
  assert.equal(ctrl.state.preview.move, only.move);
  handlers.message(ctrl, { type: "state", ...liveView("losat_capture", { ply: 1 }) });
  assert.equal(ctrl.state.preview, null, "a new position drops the preview");
});

test("the rules card opens on a first visit and stays closed once closed", async () => {
  const rules = { game: "g", name: "A game", sections: [{ title: "Your move", text: "t" }], picture: null,
    caption: "", lesson: "/learn/g" };
  const answers = { "/api/games/g1/rules": ok(rules) };
  const env = fakeEnv({ answers });
  const ctrl = new GameCtrl(env);
  await ctrl.loadRules();
  assert.equal(ctrl.state.rules, rules);
  assert.equal(ctrl.state.rulesOpen, true);
  ctrl.toggleRules();
  assert.equal(ctrl.state.rulesOpen, false);
  const again = new GameCtrl({ ...fakeEnv({ answers }), local: env.local });
  await again.loadRules();
  assert.equal(again.state.rulesOpen, false, "remembered closed");
  again.toggleRules(true);
  assert.equal(again.state.rulesOpen, true);
  const none = new GameCtrl(fakeEnv());
  await none.loadRules();
  assert.equal(none.state.rules, null, "no rules (a 404): no card");
  const unserved = new GameCtrl(fakeEnv({ answers, learning: { rules: false, preview: false } }));
  await unserved.loadRules();
  assert.equal(unserved.state.rules, null);
  assert.equal(unserved.env.requests.length, 0, "a route the server does not serve is never asked");
});

test("no preview is asked where the server serves no preview route", () => {
  const { env, ctrl } = started("war_of_life", { learning: { rules: false, preview: false } });
  const move = ctrl.state.view.legal["0"].moves[0];
  ctrl.pickCell(move.cells[0]);
  ctrl.hoverCell(move.cells[1]);
  assert.equal(ctrl.previewWanted, null);
  assert.deepEqual(env.requests, []);
});
