// What the lab's pages share: a JSON request to the server and the page's error line.
"use strict";

(() => {

// GET `path`, or POST `body` as JSON when one is given; the answer's JSON, or an Error with
// the server's message (every error of the server is {"error": ...}).
async function requestJson(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const response = await fetch(path, init);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

// Show `error` (an Error or a text) in the page's #error line; a falsy one clears it.
function showError(error) {
  document.getElementById("error").textContent = error ? String(error.message || error) : "";
}

window.labCommon = { requestJson, showError };
})();
