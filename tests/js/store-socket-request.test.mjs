import assert from "node:assert/strict";
import { test } from "node:test";
import { load } from "./helpers.mjs";

const { createStore } = await load("store.js");
const { openSocket, backoff, socketUrl } = await load("socket.js");
const { errorText } = await load("request.js");

test("the store merges patches and tells its subscribers until they leave", () => {
  const store = createStore({ a: 1, b: 2 });
  const seen = [];
  const leave = store.subscribe((state, previous) => seen.push([previous.a, state.a]));
  store.set({ a: 3 });
  store.set((s) => ({ a: s.a + 1 }));
  leave();
  store.set({ a: 9 });
  assert.deepEqual(seen, [[1, 3], [3, 4]]);
  assert.deepEqual(store.get(), { a: 9, b: 2 });
});

class FakeSocket {
  static OPEN = 1;
  static made = [];
  constructor(url) { this.url = url; this.sent = []; this.readyState = 0; FakeSocket.made.push(this); }
  send(text) { this.sent.push(JSON.parse(text)); }
  close() { this.readyState = 3; }
  open() { this.readyState = 1; this.onopen(); }
  drop(code) { this.readyState = 3; this.onclose({ code }); }
}

test("the socket says hello, reconnects with a growing delay and stops when refused", () => {
  FakeSocket.made = [];
  const statuses = [];
  const waits = [];
  const messages = [];
  let later = null;
  const socket = openSocket({ url: "ws://x/ws/g", token: () => "tok", WebSocketImpl: FakeSocket,
    onMessage: (m) => messages.push(m), onStatus: (s, d) => statuses.push(s),
    schedule: (run, ms) => { waits.push(ms); later = run; } });
  assert.equal(socket.send({ type: "move" }), false);  // not open yet
  FakeSocket.made[0].open();
  assert.deepEqual(FakeSocket.made[0].sent, [{ type: "hello", token: "tok" }]);
  FakeSocket.made[0].onmessage({ data: '{"type":"state","ply":1}' });
  assert.deepEqual(messages, [{ type: "state", ply: 1 }]);
  assert.equal(socket.send({ type: "move" }), true);
  FakeSocket.made[0].drop(1006);
  later();
  FakeSocket.made[1].drop(1006);
  later();
  assert.deepEqual(waits, [500, 1000]);
  FakeSocket.made[2].open();
  FakeSocket.made[2].drop(4403);
  assert.deepEqual(statuses, ["connecting", "open", "lost", "connecting", "lost", "connecting", "open", "refused"]);
  assert.equal(FakeSocket.made.length, 3);
  assert.equal(backoff(10), 8000);
  assert.equal(socketUrl("a b", { protocol: "https:", host: "h" }), "wss://h/ws/a%20b");
});

test("a failed request is one line: the server's error, else its status", () => {
  assert.equal(errorText(409, { error: "taken\nmore" }), "taken");
  assert.equal(errorText(502, null), "the server answered 502");
  assert.equal(errorText(0, null), "the server could not be reached");
});
