// @ts-check
// What the lab's pages share: a JSON request that throws on failure (over the site's one
// request helper, js/request.js) and the page's error line.
import { request } from "../js/request.js";

/**
 * GET `path`, or POST `body` as JSON when one is given, with the extra `headers`: the
 * answer's JSON, or an Error with the server's one-line message (every error of the server
 * is {"error": ...}) and the answer's status in its `status` (0: the server was not reached).
 * @param {string} path
 * @param {unknown} [body]
 * @param {Record<string, string>} [headers]
 * @returns {Promise<any>}
 */
export async function requestJson(path, body, headers = {}) {
  const answer = await request(path, { body, headers });
  if (!answer.ok) throw Object.assign(new Error(answer.error || ""), { status: answer.status });
  return answer.data;
}

/**
 * Show `error` (an Error or a text) in the page's #error line; a falsy one clears it.
 * @param {unknown} error
 */
export function showError(error) {
  const line = /** @type {HTMLElement} */ (document.getElementById("error"));
  line.textContent = error ? String(/** @type {any} */ (error).message || error) : "";
}
