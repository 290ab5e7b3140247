// The lab's shared request (static/lab/common.js): the site's one request helper underneath,
// a failure thrown as one line with its status.
import assert from "node:assert/strict";
import { test } from "node:test";
import { join } from "node:path";
import { STATIC } from "./helpers.mjs";

const { requestJson } = await import(new URL(`file://${join(STATIC, "lab", "common.js")}`).href);

test("the lab's requestJson sends JSON with its headers and throws the server's one line", async (t) => {
  const seen = [];
  t.mock.method(globalThis, "fetch", async (path, init) => {
    seen.push([path, init.method, init.headers, init.body]);
    return path === "/ok" ? new Response('{"n": 1}', { status: 200 })
      : new Response('{"error": "no such file\\nmore"}', { status: 404 });
  });
  assert.deepEqual(await requestJson("/ok"), { n: 1 });
  await assert.rejects(requestJson("/bad", { a: 1 }, { "X-Admin-Token": "t" }),
    (error) => error.message === "no such file" && error.status === 404);
  assert.equal(seen[0][1], "GET");
  assert.deepEqual(seen[1].slice(1), ["POST", { Accept: "application/json", "X-Admin-Token": "t",
    "Content-Type": "application/json" }, '{"a":1}']);
});
