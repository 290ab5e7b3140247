// @ts-check
// One request helper for every page (the game page and the lab): JSON in and out, the
// seat's token in the X-Seat-Token header when there is one, and every failure as one line
// of text (the server's {"error": ...}, or the status when the answer is not JSON).

/**
 * @typedef {{ok: boolean, status: number, data: any, error: string | null}} Answer
 * data: the parsed JSON answer (null when there was none); error: one line, null when ok.
 * @typedef {{method?: string, body?: unknown, token?: string | null, signal?: AbortSignal,
 *   headers?: Record<string, string>}} Options
 * headers: more headers (the lab's X-Admin-Token, say)
 */

/**
 * The one-line error text of a failed answer: the server's `error`, else its status.
 *
 * errorText(409, {error: "this invitation has already been claimed"}) === "this invitation has already been claimed"
 * errorText(502, null) === "the server answered 502"
 * @param {number} status
 * @param {any} data
 * @returns {string}
 */
export function errorText(status, data) {
  const said = data && typeof data.error === "string" ? data.error : "";
  const line = said.split("\n")[0].trim();
  return line || (status ? `the server answered ${status}` : "the server could not be reached");
}

/**
 * Send a request and read its JSON answer; never throws (a network failure is an answer
 * with status 0 and its error).
 * @param {string} path
 * @param {Options} [options]
 * @returns {Promise<Answer>}
 */
export async function request(path, options = {}) {
  /** @type {Record<string, string>} */
  const headers = { Accept: "application/json", ...(options.headers || {}) };
  const method = options.method || (options.body === undefined ? "GET" : "POST");
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  if (options.token) headers["X-Seat-Token"] = options.token;
  let response;
  try {
    response = await fetch(path, { method, headers, signal: options.signal,
      body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  } catch (error) {
    return { ok: false, status: 0, data: null, error: errorText(0, null) };
  }
  const data = await response.json().catch(() => null);
  return { ok: response.ok, status: response.status, data,
    error: response.ok ? null : errorText(response.status, data) };
}
