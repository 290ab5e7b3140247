// @ts-check
// The home page's open challenges: listed live from the lobby's socket (a snapshot, then
// each challenge added or removed), accepted with one click, made with a small form, and
// cancelled by their creator. The owner secrets of this browser's challenges stay in its
// local storage; the lobby is told them in a hello, so it marks them and, once one is
// accepted, sends this page its seat: the page then goes to the game at once.

import { ago } from "/static/ago.js";
import { request } from "/static/js/request.js";
import { backoff } from "/static/js/socket.js";
import { buildClock, buildParams, readClock, readParams, showWhen } from "/static/home/fields.js";
import { clockText, newestOwners, rangeText, settingsText, sideText } from "/static/home/words.js";

/**
 * @typedef {{name: string, title: string, params: any[], look?: {sides: {name: string}[]}}} Entry
 * @typedef {{id: string, game: string, title: string, params: Record<string, any>,
 *   clock: any, colour: number | "random", created: number, expires: number}} Challenge
 * @typedef {Record<string, {owner: string, at: number}>} Owned
 */

const OWNED_KEY = "lifearena-challenges";
const MAX_OWNED = 16;
const AGES_EVERY_MS = 30_000;

/** @param {string} id */
function $(id) { return /** @type {HTMLElement} */ (document.getElementById(id)); }

/**
 * A rating bound of the challenge form, as the request's field (left out when empty).
 * @param {string} key
 * @param {HTMLElement} field
 * @returns {Record<string, number>}
 */
function ratingBound(key, field) {
  const text = /** @type {HTMLInputElement} */ (field).value.trim();
  return text === "" ? {} : { [key]: Number(text) };
}

/** @returns {Owned} */
function loadOwned() {
  try {
    const stored = JSON.parse(localStorage.getItem(OWNED_KEY) || "{}");
    return stored && typeof stored === "object" ? stored : {};
  } catch {
    return {};
  }
}

/** @param {Owned} owned */
function saveOwned(owned) {
  try { localStorage.setItem(OWNED_KEY, JSON.stringify(owned)); } catch { /* private mode */ }
}

/**
 * A POST carrying a challenge's owner secret; its answer as request.js gives answers.
 * @param {string} path
 * @param {string} owner
 */
async function ownerPost(path, owner) {
  try {
    const response = await fetch(path, { method: "POST", body: "{}",
      headers: { "Content-Type": "application/json", "X-Challenge-Owner": owner } });
    const data = await response.json().catch(() => null);
    return { ok: response.ok, error: response.ok ? null
      : (data && data.error) || `the server answered ${response.status}` };
  } catch {
    return { ok: false, error: "the server could not be reached" };
  }
}

/**
 * Start the lobby's part of the page over the games of `catalog`.
 * @param {Entry[]} catalog
 * @returns {void}
 */
export function startLobby(catalog) {
  const entries = new Map(catalog.map((e) => [e.name, e]));
  /** @type {Map<string, Challenge>} */
  const challenges = new Map();
  /** @type {Set<string>} the open challenges the lobby says are this browser's */
  const mine = new Set();
  let owned = loadOwned();
  let skew = 0; // the server's clock minus this one's, in seconds
  /** @type {WebSocket | null} */
  let socket = null;
  let attempt = 0;
  /** @type {string[][]} the owners of each hello not yet answered, oldest first */
  const asked = [];

  const list = /** @type {HTMLUListElement} */ ($("challenges"));

  /** @param {string} game */
  const names = (game) => {
    const look = entries.get(game)?.look;
    return look ? look.sides.map((s) => s.name) : ["Player 1", "Player 2"];
  };
  const now = () => Date.now() / 1000 + skew;
  /** @param {string} id */
  const isMine = (id) => mine.has(id) || id in owned;

  /** @param {Challenge} c */
  function item(c) {
    const li = document.createElement("li");
    li.dataset.id = c.id;
    const own = isMine(c.id);
    li.classList.toggle("own", own);
    const head = document.createElement("div");
    head.className = "head";
    const title = document.createElement("strong");
    title.textContent = c.title;
    const age = document.createElement("span");
    age.className = "age";
    age.dataset.created = String(c.created);
    age.textContent = ago(now() - c.created);
    head.append(title, age);
    const about = document.createElement("div");
    about.className = "about";
    about.textContent = [...(own ? ["yours, waiting"] : []),
      ...(c.maker && !own ? [`${c.maker.name}${c.maker.rating ? ` (${c.maker.rating})` : ""}`]
        : []),
      ...(c.rated ? ["rated"] : []), ...rangeText(c.rating_range),
      settingsText(c.params, entries.get(c.game)?.params || []), clockText(c.clock),
      sideText(c.colour, names(c.game), own)].join(" · ");
    const text = document.createElement("div");
    text.className = "text";
    text.append(head, about);
    const button = document.createElement("button");
    button.type = "button";
    if (own) {
      button.className = "quiet cancel";
      button.textContent = "Cancel";
      button.setAttribute("aria-label", `Cancel your ${c.title} challenge`);
      button.addEventListener("click", () => cancel(c.id, button));
    } else {
      button.className = "accept";
      button.textContent = "Accept";
      button.setAttribute("aria-label", `Accept the ${c.title} challenge`);
      button.addEventListener("click", () => accept(c.id, button));
    }
    li.append(text, button);
    return li;
  }

  function showEmpty() {
    $("no-challenges").hidden = challenges.size > 0;
  }

  /** @param {Challenge} c */
  function add(c) {
    challenges.set(c.id, c);
    const old = list.querySelector(`li[data-id="${CSS.escape(c.id)}"]`);
    if (old) old.replaceWith(item(c));
    else list.prepend(item(c)); // the newest on top
    showEmpty();
  }

  /** @param {string} id */
  function remove(id) {
    challenges.delete(id);
    mine.delete(id);
    list.querySelector(`li[data-id="${CSS.escape(id)}"]`)?.remove();
    showEmpty();
  }

  /** @param {string} id */
  function redraw(id) {
    const c = challenges.get(id);
    if (c) add(c);
  }

  function hello() {
    if (socket && socket.readyState === WebSocket.OPEN) {
      const owners = newestOwners(owned, MAX_OWNED);
      asked.push(owners);
      socket.send(JSON.stringify({ type: "hello", owners }));
    }
  }

  /** @param {string} id */
  function forget(id) {
    if (id in owned) {
      delete owned[id];
      saveOwned(owned);
    }
  }

  /** @param {any} message */
  function onMessage(message) {
    switch (message.type) {
      case "snapshot": {
        skew = message.now - Date.now() / 1000;
        challenges.clear();
        list.replaceChildren();
        for (const c of message.challenges) add(c);
        showEmpty();
        document.body.dataset.lobby = "1";
        break;
      }
      case "changes": // the lobby's changes of the last moment, in order
        for (const change of message.changes) onMessage(change);
        break;
      case "challenge-added":
        skew = message.now - Date.now() / 1000;
        add(message.challenge);
        break;
      case "challenge-removed":
        if (message.reason !== "accepted") forget(message.id);
        remove(message.id);
        break;
      case "mine": {
        // what this browser named that is neither open nor seated is over: let it go
        const said = new Set(message.ids);
        const named = new Set(asked.shift() || []);
        for (const [id, { owner }] of Object.entries(owned)) {
          if (named.has(owner) && !said.has(id)) forget(id);
        }
        for (const id of said) { mine.add(id); redraw(id); }
        break;
      }
      case "seated": {
        forget(message.challenge);
        sessionStorage.setItem("links-" + message.game,
          JSON.stringify({ you: message.link, spectator: `/play/${message.game}` }));
        location.href = message.link;
        break;
      }
      case "error":
        $("lobby-error").textContent = message.error;
        break;
      default:
        break;
    }
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${scheme}//${location.host}/ws/lobby`);
    socket = ws;
    asked.length = 0;
    $("lobby-status").textContent = "connecting…";
    ws.onopen = () => {
      attempt = 0;
      $("lobby-status").textContent = "live";
      $("lobby-error").textContent = "";
      hello();
    };
    ws.onmessage = (event) => {
      let message;
      try { message = JSON.parse(String(event.data)); } catch { return; }
      onMessage(message);
    };
    ws.onclose = (event) => {
      if (socket !== ws) return;
      socket = null;
      if (event.code >= 4400 && event.code < 4500) {
        $("lobby-status").textContent = "";
        $("lobby-error").textContent = event.reason || "the lobby refused this page";
        return;
      }
      const wait = backoff(attempt++, 1000, 30_000);
      $("lobby-status").textContent = "reconnecting…";
      setTimeout(connect, wait);
    };
  }

  /**
   * @param {string} id
   * @param {HTMLButtonElement} button
   */
  async function accept(id, button) {
    button.disabled = true;
    $("lobby-error").textContent = "";
    const answer = await request(`/api/challenges/${encodeURIComponent(id)}/accept`, { body: {} });
    if (!answer.ok) {
      button.disabled = false;
      $("lobby-error").textContent = answer.error || "";
      return;
    }
    const joined = answer.data;
    sessionStorage.setItem("links-" + joined.id, JSON.stringify(joined.links));
    location.href = joined.links.you;
  }

  /**
   * @param {string} id
   * @param {HTMLButtonElement} button
   */
  async function cancel(id, button) {
    const mineHere = owned[id];
    if (!mineHere) { $("lobby-error").textContent = "this browser does not hold that challenge's secret"; return; }
    button.disabled = true;
    const answer = await ownerPost(`/api/challenges/${encodeURIComponent(id)}/cancel`, mineHere.owner);
    if (!answer.ok) {
      button.disabled = false;
      $("lobby-error").textContent = answer.error || "";
      return;
    }
    forget(id);
    remove(id);
  }

  // -- the challenge form ------------------------------------------------------------------

  const form = /** @type {HTMLFormElement} */ ($("challenge-form"));
  const gameField = /** @type {HTMLSelectElement} */ ($("challenge-game"));
  const colour = /** @type {HTMLSelectElement} */ ($("challenge-colour"));
  const opener = /** @type {HTMLButtonElement} */ ($("new-challenge"));
  for (const entry of catalog) {
    const option = document.createElement("option");
    option.value = entry.name;
    option.textContent = entry.title;
    gameField.appendChild(option);
  }

  function chooseGame() {
    const entry = entries.get(gameField.value);
    if (!entry) return;
    buildParams($("challenge-params"), entry.params, "challenge-param-");
    const sides = names(entry.name);
    colour.replaceChildren();
    for (const [value, text] of [["random", "either side, drawn at random"],
      ["0", `${sides[0]} (first)`], ["1", sides[1]]]) {
      const option = document.createElement("option");
      option.value = value;
      option.textContent = text;
      colour.appendChild(option);
    }
  }
  gameField.addEventListener("change", chooseGame);
  $("challenge-params").addEventListener("change", () => showWhen($("challenge-params")));
  buildClock($("challenge-clock"), "challenge-clock-");
  chooseGame();

  /** @param {boolean} open */
  function showForm(open) {
    form.hidden = !open;
    opener.setAttribute("aria-expanded", String(open));
    if (open) gameField.focus();
  }
  opener.addEventListener("click", () => showForm(form.hidden));
  $("close-challenge").addEventListener("click", () => showForm(false));

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    $("challenge-form-error").textContent = "";
    const body = {
      game: gameField.value,
      params: readParams($("challenge-params")),
      clock: readClock($("challenge-clock"), "challenge-clock-"),
      colour: colour.value === "random" ? "random" : Number(colour.value),
      rated: /** @type {HTMLInputElement} */ ($("challenge-rated")).checked,
      ...ratingBound("min_rating", $("challenge-min-rating")),
      ...ratingBound("max_rating", $("challenge-max-rating")),
    };
    const answer = await request("/api/challenges", { body });
    if (!answer.ok) {
      $("challenge-form-error").textContent = answer.error || "";
      return;
    }
    owned[answer.data.id] = { owner: answer.data.owner, at: Date.now() };
    saveOwned(owned);
    mine.add(answer.data.id);
    redraw(answer.data.id); // its added message may have come first
    hello();
    showForm(false);
  });

  setInterval(() => {
    for (const age of /** @type {HTMLElement[]} */ ([...list.querySelectorAll(".age")])) {
      age.textContent = ago(now() - Number(age.dataset.created));
    }
  }, AGES_EVERY_MS);

  connect();
}
