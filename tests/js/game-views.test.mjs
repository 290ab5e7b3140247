// The game page's pure views (js/game/view/*.js): what each draws from a given state, read
// from the trees they return (js/game/h.js), with the captured server views.
import assert from "node:assert/strict";
import { test } from "node:test";
import { load, nodes } from "./helpers.mjs";
import { liveView } from "./game-fakes.mjs";

const { bannerFor, titleOf } = await load("game/view/banner.js");
const { boardView, previewLine } = await load("game/view/board.js");
const { playersView } = await load("game/view/players.js");
const { moveItems, listSignature } = await load("game/view/moves.js");
const { choicesView } = await load("game/view/choices.js");
const { linksView } = await load("game/view/links.js");
const { elements, textOf } = await load("game/h.js");
const { NOTHING } = await load("inputs/common.js");

/** A page state around `view`. */
function stateOf(view, extra = {}) {
  return { view, moveList: null, browsing: null, selection: NOTHING, selectionSeat: null, cursor: [0, 0],
    message: { text: "", tone: "info" }, hint: {}, notice: "", connection: "open", animateUntil: 0,
    sound: false, announcement: "", early: null, links: null, rules: null, rulesOpen: false, preview: null, ...extra };
}

test("the banner asks the seat to move, says who won, and what the page waits for", () => {
  const view = liveView("war_of_life", { seats: [0] });
  assert.deepEqual(bannerFor(stateOf(view)), [`You play Blue: ${view.legal["0"].interaction.prompt}`, "turn"]);
  const won = liveView("war_of_life", { seats: [0], outcome: { winner: 1, termination: "win" } });
  assert.deepEqual(bannerFor(stateOf(won)), ["You lose. Red wins — Blue has no pieces left", "result lost"]);
  assert.deepEqual(bannerFor(stateOf(view, { browsing: { upto: 3, display: view.display } })),
    ["Viewing the position after move 3 — press End or click here to return", "wait"]);
  assert.deepEqual(bannerFor(stateOf(null)), ["Connecting…", "turn"]);
  assert.deepEqual(bannerFor(stateOf(null, { early: { text: "No such game", kind: "wait" } })), ["No such game", "wait"]);
  const spectator = liveView("war_of_life", { seats: [] });
  assert.deepEqual(bannerFor(stateOf(spectator)), ["Spectating — waiting for Blue", "wait"]);
  assert.deepEqual(bannerFor(stateOf(view, { connection: "lost" })), ["Connection lost; reconnecting…", "wait"]);
});

test("the title names the opponent", () => {
  const view = liveView("war_of_life", { opponent: { kind: "agent", agent: "minimax", level: "2-ply" } });
  assert.deepEqual(titleOf(view), { title: "lifearena — A game", heading: "A game · against minimax (2-ply)" });
});

test("the board draws the position with the input's marks, and a preview's births and deaths", () => {
  const view = liveView("war_of_life");
  const move = view.legal["0"].moves[0];
  const state = stateOf(view, { selection: { cells: [move.cells[0]] } });
  const board = boardView(state, { width: 0, now: 0 });
  assert.equal(board.printed, false);
  const cells = nodes(board.tree).filter((n) => n.attrs["data-cell"]);
  const at = (cell) => cells.find((n) => n.attrs["data-cell"] === cell.join(","));
  assert.match(at(move.cells[0]).attrs.class, /selected/);
  assert.match(at(move.cells[1]).attrs.class, /target/);
  assert.equal(board.preview, "");
  assert.match(board.label, /^board, 8 by 8: arrow keys move the cursor \(now 1,1\)/);
  const preview = { move: move.move, ply: view.ply, display: { ...view.display, births: [[5, 5], [5, 6]], deaths: [[0, 3]] } };
  const previewed = boardView({ ...state, preview }, { width: 0, now: 0 });
  assert.equal(previewed.preview, "preview: +2 born, \u22121 die");
  assert.equal(previewed.legend, true);
  assert.equal(nodes(previewed.tree).filter((n) => n.attrs.class === "born").length, 2);
  assert.equal(nodes(previewed.tree).filter((n) => n.attrs.class === "died").length, 1);
  // a preview of another ply, or while browsing, is not drawn
  assert.equal(boardView({ ...state, preview: { ...preview, ply: 7 } }, { width: 0, now: 0 }).preview, "");
  assert.equal(previewLine({}), "preview: +0 born, \u22120 die");
});

test("the board of a printout is its text", () => {
  const view = liveView("war_of_life");
  view.display = { terminal: true, text: "RUN\n" };
  assert.deepEqual(boardView(stateOf(view), { width: 300, now: 0 }), { printed: true, text: "RUN\n" });
});

test("the players card names the sides, marks who is to move and counts the position shown", () => {
  const view = liveView("war_of_life", { seats: [0] });
  const rows = playersView(view, view.display);
  assert.equal(rows[0].attrs.class, "player to-move");
  assert.equal(rows[1].attrs.class, "player");
  assert.match(textOf(rows[0]), /^Blue \(you\)3 pieces$/);
  assert.deepEqual(rows[0].children[0].attrs.style, { background: "#2f6db3" });
  const status = rows.find((r) => r.attrs["data-status"] === "");
  assert.ok(status, "the game's facts line");
  const people = liveView("war_of_life", { seats: [0], rated: true, outcome: { winner: 0, termination: "win" },
    people: [{ name: "ann", page: "/@/ann", kind: "account", rating: null, rating_change: 12, rating_before: 1500 }, null] });
  const [ann] = playersView(people, people.display);
  const link = elements(ann).find((n) => n.tag === "a");
  assert.equal(link.attrs.href, "/@/ann");
  assert.ok(elements(ann).some((n) => n.attrs.class && n.attrs.class.startsWith("change")));
});

test("the move list has a row per turn and a button per move that names its side", () => {
  const view = liveView("war_of_life", { ply: 3, moves: ["a", "b", "c"], move_sides: [0, 1, 0] });
  const items = moveItems(stateOf(view), () => {});
  assert.equal(items.length, 2);
  const moves = items.flatMap(elements).filter((n) => n.attrs.class === "move");
  assert.deepEqual(moves.map((m) => m.attrs["aria-label"]), ["Blue: a, move 1", "Red: b, move 2", "Blue: c, move 3"]);
  const long = stateOf(view, { moveList: { from: 600, moves: ["x"], sides: [0], firstTurn: 301 } });
  const [earlier] = moveItems(long, () => {});
  assert.equal(textOf(earlier), "600 earlier moves…");
  assert.notEqual(listSignature(long), listSignature(stateOf(view)));
});

test("the choice bar shows the input's buttons; a waiting game's creator may cancel", () => {
  const view = liveView("losat_capture");
  const legal = view.legal[String(view.awaiting[0])];
  const d7 = legal.moves.find((m) => m.move === "xD7");
  const seen = [];
  const actions = { cancel: () => seen.push("cancel"), dispatch: (e) => seen.push(e), hoverMove: (m) => seen.push(["hover", m]) };
  const bar = choicesView(stateOf(view, { selection: { cells: [d7.cells[0]] } }), actions);
  const capture = bar.find((b) => textOf(b).startsWith("Capture at D7"));
  assert.ok(capture, bar.map(textOf).join());
  capture.on.click();
  capture.on.pointerenter();
  capture.on.blur();
  assert.deepEqual(seen, [{ type: "play", move: "xD7" }, ["hover", "xD7"], ["hover", null]]);
  const waiting = choicesView(stateOf(liveView("war_of_life", { waiting_for_opponent: true })), actions);
  assert.deepEqual(waiting.map(textOf), ["Cancel the game"]);
  assert.deepEqual(choicesView(stateOf(view, { browsing: { upto: 0, display: view.display } }), actions), []);
});

test("the links: the invitation while it waits, the private link with its warning, the spectators'", () => {
  const actions = { copy() {}, select() {} };
  const shown = linksView({ invite: "/play/g#i=x", you: "/play/g#t=y", spectator: "/play/g" }, "http://h", actions);
  assert.equal(shown.invite.length, 1);
  const inputs = [...shown.invite, ...shown.rows].flatMap(elements).filter((n) => n.tag === "input");
  assert.deepEqual(inputs.map((i) => [i.attrs["data-link"], i.attrs.value]),
    [["invite", "http://h/play/g#i=x"], ["you", "http://h/play/g#t=y"], ["spectator", "http://h/play/g"]]);
  assert.match(shown.note, /^The invitation \(above\)/);
  const plain = linksView({ invite: "", you: "", spectator: "/play/g" }, "http://h", actions);
  assert.deepEqual([plain.invite.length, plain.rows.length, plain.note], [0, 1, "The spectators' link only watches."]);
});

const { rulesView, fromPicture } = await load("game/view/rules.js");
const { generationsView, ownMovePly, analysisHref } = await load("game/view/after.js");

const RULES = { game: "g", name: "War of Life", lesson: "/learn/g", caption: "one piece is born",
  sections: [{ title: "Your move", text: "Move a piece." }, { title: "The rule of Life", text: "Three make one." },
    { title: "How to win", text: "Be the last." }],
  picture: { grid: { rows: 3, cols: 3, cells: [[1, 1, 0], [1, 0, 0], [0, 0, 0]], row_labels: ["1", "2", "3"],
    col_labels: ["1", "2", "3"] }, before: [[1, 1, 0], [1, 0, 0], [0, 0, 1]], births: [[1, 1]], deaths: [[2, 2]] } };

test("the rules card: its sections, the example with its births and deaths, the lesson's link", () => {
  const closed = [];
  const card = rulesView(RULES, null, { close: () => closed.push(1) });
  const all = card.flatMap(elements);
  assert.equal(textOf(card[0]), "How to play War of LifeHide");
  assert.deepEqual(all.filter((n) => n.tag === "h3").map(textOf), ["Your move", "The rule of Life", "How to win"]);
  const svg = all.find((n) => n.tag === "svg");
  assert.ok(Number(svg.attrs.width) <= 200, "a small picture");
  assert.equal(all.filter((n) => n.attrs.class === "example-born").length, 1, "the birth's ring");
  assert.equal(all.filter((n) => n.attrs.class === "example-died").length, 1);
  assert.equal(all.filter((n) => n.attrs.class === "born" || n.attrs.class === "died").length, 2, "the legend");
  // inert: nothing a page's query or a click takes for the board's cells
  assert.ok(all.every((n) => !("data-cell" in n.attrs) && !/(^| )cell( |$)/.test(n.attrs.class || "")));
  assert.equal(all.filter((n) => n.attrs.class === "example-cell").length, 9);
  assert.equal(textOf(all.find((n) => n.tag === "figcaption")), "one piece is born");
  const lesson = all.find((n) => n.tag === "a");
  assert.deepEqual([lesson.attrs.href, textOf(lesson)], ["/learn/g", "Try the lesson"]);
  all.find((n) => n.attrs.id === "rules-close").on.click();
  assert.deepEqual(closed, [1]);
  assert.equal(fromPicture({ tag: "text", attrs: {}, text: "A" }).children[0], "A");
});

test("the last turn's two generations: shown after a reply to this seat's move, pressed where the board is", () => {
  const view = liveView("war_of_life", { seats: [0], ply: 4, moves: ["a", "b", "c", "d"], move_sides: [0, 1, 0, 1] });
  view.display = { ...view.display, before: view.display.grid.cells };
  assert.equal(ownMovePly(view), 3);
  const browsed = [];
  const buttons = generationsView(stateOf(view), { browse: (n) => browsed.push(n) });
  assert.deepEqual(buttons.slice(1).map((b) => [textOf(b), b.attrs["aria-pressed"]]), [["Your move", "false"], ["Their reply", "true"]]);
  buttons[1].on.click();
  buttons[2].on.click();
  assert.deepEqual(browsed, [3, 4]);
  const back = generationsView(stateOf(view, { browsing: { upto: 3, display: view.display } }), { browse() {} });
  assert.equal(back[1].attrs["aria-pressed"], "true");
  // none before the reply, for two seats at one screen, or in a game without generations
  assert.equal(ownMovePly({ ...view, move_sides: [0, 1, 1, 0] }), null);
  assert.equal(ownMovePly({ ...view, seats: [0, 1] }), null);
  assert.equal(ownMovePly({ ...view, display: { ...view.display, before: null } }), null);
});

test("the analysis board's link once the game is over", () => {
  assert.equal(analysisHref(liveView("war_of_life"), "g 1"), null);
  assert.equal(analysisHref(liveView("war_of_life", { outcome: { winner: 0, termination: "win" } }), "g 1"), "/analysis/g%201");
});

test("a refused preview's line says why", () => {
  const view = liveView("war_of_life");
  const board = boardView(stateOf(view, { preview: { move: "m", ply: 0, display: null, error: "No such move" } }), { width: 0, now: 0 });
  assert.equal(board.preview, "preview: No such move");
});
