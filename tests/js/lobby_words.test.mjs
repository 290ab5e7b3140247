// Unit tests of the lobby's words for a challenge (node --test tests/js/).
import { test } from "node:test";
import assert from "node:assert/strict";

import { clockText, newestOwners, settingsText, sideText }
  from "../../src/lifearena/web/static/home/words.js";

const SPECS = [
  { name: "k", label: "k", kind: "int", default: 2 },
  { name: "start", label: "Start", kind: "choice", default: "random" },
  { name: "torus", label: "Wrap around", kind: "bool", default: true },
  { name: "position", label: "Position", kind: "text", default: "" },
];

test("settingsText names only the settings that differ from the defaults", () => {
  assert.equal(settingsText({}, SPECS), "standard settings");
  assert.equal(settingsText({ k: 2, start: "random" }, SPECS), "standard settings");
  assert.equal(settingsText({ k: 3, torus: false }, SPECS), "k 3, no wrap around");
  // a typed start is shown whole: the acceptor sees what it agrees to play from
  const position = "[[[1,1],[1,2],[2,1]],[[8,8],[8,7],[7,8]]]";
  assert.equal(settingsText({ position }, SPECS), `Position ${position}`);
  assert.equal(settingsText({ unknown: 1 }, SPECS), "standard settings");
});

test("clockText says a time control as people do", () => {
  assert.equal(clockText(null), "untimed");
  assert.equal(clockText({ kind: "live", minutes: 5, increment: 3 }), "5 min + 3 s");
  assert.equal(clockText({ kind: "live", minutes: 0.5, increment: 0 }), "0.5 min");
  assert.equal(clockText({ kind: "correspondence", days: 1 }), "1 day a move");
  assert.equal(clockText({ kind: "correspondence", days: 3 }), "3 days a move");
});

test("sideText gives the reader the seat the creator left, or its own", () => {
  const names = ["Blue", "Red"];
  assert.equal(sideText(0, names, false), "you play Red");
  assert.equal(sideText(1, names, false), "you play Blue (first)");
  assert.equal(sideText(0, names, true), "you play Blue (first)");
  assert.equal(sideText("random", names, true), "sides drawn at random");
});

test("newestOwners keeps the newest secrets, at most as many as asked", () => {
  const owned = { a: { owner: "1", at: 5 }, b: { owner: "2", at: 9 }, c: { owner: "3", at: 7 } };
  assert.deepEqual(newestOwners(owned, 2), ["2", "3"]);
  assert.deepEqual(newestOwners({}, 16), []);
});
