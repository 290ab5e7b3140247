// Unit tests of the game page controls' pure helpers (node --test tests/js/).
import { test } from "node:test";
import assert from "node:assert/strict";

import { controlsFor, declinedText, formatClock, isLow, remainingNow, sideLabel }
  from "../../src/lifearena/web/static/js/controls.js";

test("formatClock words a clock as people read one", () => {
  assert.equal(formatClock(0), "0.0");
  assert.equal(formatClock(-50), "0.0");
  assert.equal(formatClock(9_420), "9.4");
  assert.equal(formatClock(19_999), "19.9");
  assert.equal(formatClock(20_000), "0:20");
  assert.equal(formatClock(65_000), "1:05");
  assert.equal(formatClock(3_600_000 + 62_000), "1:01:02");
  assert.equal(formatClock(3 * 86_400_000 + 5 * 3_600_000), "3d 5h");
});

test("remainingNow counts down only the running seats, never below zero", () => {
  const clock = { control: { kind: "live", minutes: 1 }, remaining_ms: [30_000, 10_000],
                  running: [1], server_now: 0 };
  assert.equal(remainingNow(clock, 0, 1000, 5000), 30_000);
  assert.equal(remainingNow(clock, 1, 1000, 5000), 6_000);
  assert.equal(remainingNow(clock, 1, 1000, 60_000), 0);
  assert.equal(remainingNow(clock, 1, 1000, 500), 10_000); // a clock set back: no gain
});

test("isLow: under 20 s or a tenth of a live start; an hour for correspondence", () => {
  assert.equal(isLow({ kind: "live", minutes: 1 }, 19_000), true);
  assert.equal(isLow({ kind: "live", minutes: 1 }, 21_000), false);
  assert.equal(isLow({ kind: "live", minutes: 10 }, 59_000), true);
  assert.equal(isLow({ kind: "correspondence", days: 1 }, 3_000_000), true);
  assert.equal(isLow({ kind: "correspondence", days: 1 }, 4_000_000), false);
});

const playing = { seats: [0], simultaneous: false, outcome: null, cancelled: false,
                  waiting_for_opponent: false, opponent: { kind: "online" },
                  connected: [true, false], offers: { draw: null, rematch: null },
                  rematch: null, can_take_back: false };

test("a seat in a game being played may resign and offer a draw; it sees its opponent", () => {
  const shown = controlsFor(playing);
  assert.equal(shown.resign, true);
  assert.equal(shown.draw, "offer");
  assert.equal(shown.rematch, null);
  assert.deepEqual(shown.presence, [{ seat: 1, connected: false, joined: true }]);
});

test("a draw offer is answered by the other seat and awaited by its maker", () => {
  assert.equal(controlsFor({ ...playing, offers: { draw: 1 } }).draw, "answer");
  assert.equal(controlsFor({ ...playing, offers: { draw: 0 } }).draw, "offered");
  // at one screen the other side answers
  assert.equal(controlsFor({ ...playing, seats: [0, 1], offers: { draw: 0 } }).draw, "answer");
  // simultaneous games have no draw offers
  assert.equal(controlsFor({ ...playing, simultaneous: true }).draw, null);
});

test("after the end: rematch offer, answer, then the link; no resign", () => {
  const over = { ...playing, outcome: { winner: 1, termination: "resign" } };
  assert.equal(controlsFor(over).resign, false);
  assert.equal(controlsFor(over).draw, null);
  assert.equal(controlsFor(over).rematch, "offer");
  assert.equal(controlsFor({ ...over, offers: { rematch: 1 } }).rematch, "answer");
  assert.equal(controlsFor({ ...over, offers: { rematch: 0 } }).rematch, "offered");
  assert.equal(controlsFor({ ...over, rematch: { id: "x", link: "/play/x#t=a" } }).rematch,
               "go");
});

test("a spectator gets no buttons but both presences and the rematch's link", () => {
  const watcher = { ...playing, seats: [], outcome: { winner: null, termination: "agreed" },
                    rematch: { id: "x", link: "/play/x" } };
  const shown = controlsFor(watcher);
  assert.equal(shown.resign, false);
  assert.equal(shown.rematch, "go");
  assert.equal(shown.presence.length, 2);
  assert.equal(controlsFor({ ...watcher, rematch: null }).rematch, null);
});

test("take back shows when the server allows it; nothing before the opponent joins", () => {
  assert.equal(controlsFor({ ...playing, opponent: { kind: "agent" }, can_take_back: true })
    .takeback, true);
  const waiting = controlsFor({ ...playing, waiting_for_opponent: true });
  assert.equal(waiting.resign, false);
  assert.equal(waiting.draw, null);
});

test("sideLabel names a clock by its side, the page's own with (you)", () => {
  const look = { sides: [{ name: "Blue" }, { name: "Red" }] };
  assert.equal(sideLabel({ seats: [1], look }, 1), "Red (you)");
  assert.equal(sideLabel({ seats: [1], look }, 0), "Blue");
  assert.equal(sideLabel({ seats: [0, 1], look }, 0), "Blue"); // one screen: no "you"
  assert.equal(sideLabel({ seats: [], players: ["ann", "bob"] }, 1), "bob");
  assert.equal(sideLabel({ seats: [] }, 0), "Player 1");
});

test("before the invitation is claimed the opponent has not joined (it has not left)", () => {
  const waiting = { ...playing, waiting_for_opponent: true, invitation: { seat: 1 } };
  assert.deepEqual(controlsFor(waiting).presence, [{ seat: 1, connected: false, joined: false }]);
  // a spectator: the creator's seat is there, the invited one not yet
  const watched = controlsFor({ ...waiting, seats: [], connected: [true, false] }).presence;
  assert.deepEqual(watched.map((p) => p.joined), [true, false]);
});

test("the maker of a declined offer is told so; the decliner is not", () => {
  assert.equal(declinedText({ ...playing, offers: { draw_declined: 1 } }),
               "Your opponent declined the draw.");
  assert.equal(declinedText({ ...playing, offers: { draw_declined: 0 } }), null);
  assert.equal(declinedText(playing), null);
  assert.equal(declinedText({ ...playing, seats: [], offers: { draw_declined: 1 } }), null);
  assert.equal(declinedText({ ...playing, opponent: { kind: "agent" },
                              offers: { draw_declined: 1 } }), "The computer declines draws.");
  const look = { sides: [{ name: "Blue" }, { name: "Red" }] };
  assert.equal(declinedText({ ...playing, seats: [0, 1], look, offers: { draw_declined: 0 } }),
               "Blue declined the draw.");
  const over = { ...playing, outcome: { winner: 1 }, offers: { rematch_declined: 1,
                                                               draw_declined: 1 } };
  assert.equal(declinedText(over), "Your opponent declined the rematch.");
  assert.equal(controlsFor(over).declined, "Your opponent declined the rematch.");
  assert.equal(declinedText({ ...over, rematch: { id: "x", link: "/play/x" } }), null);
});
