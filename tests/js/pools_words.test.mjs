// Unit tests of the words of the quick pairing and of challenges' rating ranges
// (node --test tests/js/).
import { test } from "node:test";
import assert from "node:assert/strict";

import { rangeText, waitedText, waitingIn }
  from "../../src/lifearena/web/static/home/words.js";

test("rangeText words a challenge's rating range, or nothing without one", () => {
  assert.deepEqual(rangeText([1400, 1700]), ["rating 1400 to 1700"]);
  assert.deepEqual(rangeText([null, 1600]), ["rating up to 1600"]);
  assert.deepEqual(rangeText([1200, null]), ["rating 1200 or more"]);
  assert.deepEqual(rangeText([null, null]), []);
  assert.deepEqual(rangeText(undefined), []);
});

test("waitedText words a wait in seconds, then minutes", () => {
  assert.equal(waitedText(4.7), "4 s");
  assert.equal(waitedText(-3), "0 s");
  assert.equal(waitedText(75), "1 min 15 s");
});

test("waitingIn counts the people's pool of one game and preset only", () => {
  const waiting = [{ game: "losat", preset: "3+2", kind: "people", waiting: 3 },
                   { game: "losat", preset: "3+2", kind: "bots", waiting: 9 },
                   { game: "war_of_life", preset: "3+2", kind: "people", waiting: 1 }];
  assert.equal(waitingIn(waiting, "losat", "3+2"), 3);
  assert.equal(waitingIn(waiting, "losat", "1+0"), 0);
});
