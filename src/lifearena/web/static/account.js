// @ts-check
// The account page (/account): sign up, log in, a display name for an anonymous player,
// log out, API tokens (a new secret shown once), the your-turn sound and notifications,
// becoming a bot, and deleting the account. Every error is the server's one line.

import { ago } from "/static/ago.js";
import { hasAccount, me, refreshMe } from "/static/js/me.js";
import { request } from "/static/js/request.js";
import { turnControls } from "/static/js/turn.js";

/** @param {string} id */
function $(id) { return /** @type {any} */ (document.getElementById(id)); }

/** @param {import("/static/js/me.js").Me} data */
function show(data) {
  const player = data.player;
  const account = hasAccount(player);
  $("name-box").hidden = account || Boolean(player && player.named);
  $("signup-box").hidden = account;
  $("login-box").hidden = account;
  for (const id of ["tokens-box", "delete-box", "logout-box"]) $(id).hidden = !account;
  $("bot-box").hidden = !account || player?.kind === "bot";
  if (!player) {
    $("who-line").textContent = "You have not played here yet: you are anonymous.";
  } else if (account) {
    $("who-line").textContent = `You are logged in as ${player.name}`
      + (player.kind === "bot" ? " (a bot account)." : ".");
  } else {
    $("who-line").textContent = player.named
      ? `You play as ${player.name}, without an account (this browser's cookie keeps the name).`
      : "You play anonymously, without an account.";
  }
  if (account) listTokens();
  document.body.dataset.ready = "1";
}

// -- forms -----------------------------------------------------------------------------------

/**
 * Send a form's request; show the error in its line, or run `done` with the answer.
 * @param {string} form @param {string} error @param {string} path
 * @param {() => object} body @param {(data: any) => any} done
 */
function wire(form, error, path, body, done) {
  $(form).addEventListener("submit", async (/** @type {SubmitEvent} */ event) => {
    event.preventDefault();
    $(error).textContent = "";
    const button = $(form).querySelector("button[type=submit]");
    button.disabled = true;
    const answer = await request(path, { body: body() });
    button.disabled = false;
    if (!answer.ok) {
      $(error).textContent = answer.error;
      return;
    }
    await done(answer.data);
  });
}

const credentials = (/** @type {string} */ prefix) => () => ({
  name: $(`${prefix}-name`).value.trim(), password: $(`${prefix}-password`).value });

wire("signup-form", "signup-error", "/api/account/signup", credentials("signup"), async () => {
  $("signup-password").value = "";
  show(await refreshMe());
});
wire("login-form", "login-error", "/api/account/login", credentials("login"), async () => {
  $("login-password").value = "";
  show(await refreshMe());
});
wire("name-form", "name-error", "/api/me/name", () => ({ name: $("name-input").value.trim() }),
  async () => show(await refreshMe()));
wire("delete-form", "delete-error", "/api/account/delete",
  () => ({ password: $("delete-password").value }), async () => {
    $("delete-password").value = "";
    show(await refreshMe());
    $("who-line").textContent = "Your account is deleted. Its games stay, under \"deleted player\".";
  });

$("logout-button").addEventListener("click", async () => {
  await request("/api/account/logout", { body: {} });
  show(await refreshMe());
});

$("bot-sure").addEventListener("change", () => { $("bot-button").disabled = !$("bot-sure").checked; });
$("bot-button").addEventListener("click", async () => {
  $("bot-error").textContent = "";
  const answer = await request("/api/account/bot", { body: {} });
  if (!answer.ok) {
    $("bot-error").textContent = answer.error;
    return;
  }
  show(await refreshMe());
});

// -- tokens ----------------------------------------------------------------------------------

/** @param {number | null} seconds since the epoch */
function when(seconds) {
  return seconds ? ago(Date.now() / 1000 - seconds) : "never";
}

/** @param {any[]} tokens */
function drawTokens(tokens) {
  const rows = tokens.map((token) => {
    const row = document.createElement("tr");
    row.dataset.id = token.id;
    const cells = [token.label, token.scopes.join(", "), `${token.hint}…`, when(token.created),
      when(token.used)].map((text) => {
      const cell = document.createElement("td");
      cell.textContent = text;
      return cell;
    });
    cells[2].className = "mono";
    // a phone shows each fact with its name (players.css)
    ["", "scopes", "starts", "created", "last used"].forEach((name, k) => {
      if (name) cells[k].dataset.label = name;
    });
    const revoke = document.createElement("button");
    revoke.type = "button";
    revoke.className = "quiet small";
    revoke.textContent = "Revoke";
    revoke.setAttribute("aria-label", `revoke the token ${token.label}`);
    revoke.addEventListener("click", async () => {
      revoke.disabled = true;
      const answer = await request(`/api/account/tokens/${encodeURIComponent(token.id)}/revoke`, { body: {} });
      if (!answer.ok) {
        $("token-error").textContent = answer.error;
        revoke.disabled = false;
        return;
      }
      drawTokens(answer.data.tokens);
    });
    const last = document.createElement("td");
    last.appendChild(revoke);
    row.append(...cells, last);
    return row;
  });
  $("token-rows").replaceChildren(...rows);
  $("tokens").hidden = tokens.length === 0;
  $("no-tokens").hidden = tokens.length > 0;
}

async function listTokens() {
  const answer = await request("/api/account/tokens");
  if (answer.ok) drawTokens(answer.data.tokens);
  else $("token-error").textContent = answer.error;
}

wire("token-form", "token-error", "/api/account/tokens", () => ({
  label: $("token-label").value.trim(),
  scopes: [...document.querySelectorAll("#token-scopes input:checked")]
    .map((box) => /** @type {HTMLInputElement} */ (box).value),
}), async (data) => {
  $("token-value").value = data.token;
  $("token-secret").hidden = false;
  $("token-label").value = "";
  $("token-copy").textContent = "Copy";
  await listTokens();
  $("token-value").select();
});

$("token-copy").addEventListener("click", async () => {
  const value = $("token-value").value;
  try {
    await navigator.clipboard.writeText(value);
    $("token-copy").textContent = "Copied";
  } catch {
    $("token-value").select(); // no clipboard here: selected, for Ctrl+C
    $("token-copy").textContent = "Press Ctrl+C";
  }
});

// -- the page --------------------------------------------------------------------------------

$("turn-controls").appendChild(turnControls());
me().then(show);
document.addEventListener("lifearena:me", (event) => show(/** @type {CustomEvent} */ (event).detail));
// the header's "choose a name", "Log in" and "Sign up" lead to their forms
const wanted = { "#name": "name-input", "#login": "login-name", "#signup": "signup-name" }[location.hash];
if (wanted) me().then(() => { const field = $(wanted); if (field && field.offsetParent) field.focus(); });
