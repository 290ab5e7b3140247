// What the lab's pages share: a JSON request to the server and the page's error line.
"use strict";

(() => {

// GET `path`, or POST `body` as JSON when one is given, with the extra `headers`; the
// answer's JSON, or an Error with the server's message (every error of the server is
// {"error": ...}) and the answer's status in its `status`.
async function requestJson(path, body, headers = {}) {
  const init = body === undefined ? { headers } : {
    method: "POST", headers: { ...headers, "Content-Type": "application/json" },
    body: JSON.stringify(body) };
  const response = await fetch(path, init);
  const data = await response.json();
  if (!response.ok) {
    const error = new Error(data.error || response.statusText);
    error.status = response.status;
    throw error;
  }
  return data;
}

// Show `error` (an Error or a text) in the page's #error line; a falsy one clears it.
function showError(error) {
  document.getElementById("error").textContent = error ? String(error.message || error) : "";
}

window.labCommon = { requestJson, showError };
})();
