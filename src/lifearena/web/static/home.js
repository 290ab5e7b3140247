// @ts-check
// The home page: one click to play each game against the computer or a friend, the open
// challenges (home/lobby.js), then the custom-game form, the record upload, the games being
// played and lately finished on this server, and the rules. "Your games" and the computer's
// ratings come first (home/mine.js).

import { ago } from "/static/ago.js";
import { mount, picture } from "/static/js/draw.js";
import { outcomeText, sideNames } from "/static/js/outcome.js";
import { request } from "/static/js/request.js";
import { buildClock, buildParams, readClock, readParams, showWhen } from "/static/home/fields.js";
import { startLobby } from "/static/home/lobby.js";
import { startPools } from "/static/home/pools.js";
import { labelLevels, startMine } from "/static/home/mine.js";
import { hasAccount, me } from "/static/js/me.js";
import "/static/home/daily.js"; // the daily puzzle's card

/**
 * @typedef {{name: string, title: string, summary: string, simultaneous: boolean,
 *   hotseat_only_when: [string, any] | null, levels: string[], params: any[],
 *   look: {sides: {name: string}[]}, picture: any}} Entry
 */

const KINDS = { hotseat: "at one screen", online: "online", agent: "against an agent" };
const REFRESH_MS = 30_000;
const DEFAULT_LEVEL = "easy";
/** @type {Entry[]} */
let catalog = [];

/** @param {string} id */
function $(id) { return /** @type {any} */ (document.getElementById(id)); }

/** @param {string} name */
function gameEntry(name) { return catalog.find((g) => g.name === name); }

/**
 * Make a game and go to its page (the links kept for the game page: the invitation shows
 * there with a copy button).
 * @param {object} body a new-game request
 * @param {HTMLElement} errorBox
 */
async function startGame(body, errorBox) {
  errorBox.textContent = "";
  const answer = await request("/api/games", { body });
  if (!answer.ok) {
    errorBox.textContent = answer.error;
    return;
  }
  const created = answer.data;
  sessionStorage.setItem("links-" + created.id, JSON.stringify(created.links));
  location.href = created.links.you;
}

// -- one click to play -----------------------------------------------------------------------

/**
 * The time control of the quick games' clock choice: "" none, "live:MINUTES:INCREMENT" or
 * "correspondence:DAYS".
 * @param {string} value
 * @returns {import("/static/home/fields.js").TimeControl | null}
 */
function quickClock(value) {
  const [kind, first, second] = value.split(":");
  if (kind === "live") return { kind, minutes: Number(first), increment: Number(second) };
  if (kind === "correspondence") return { kind, days: Number(first) };
  return null;
}

/** @param {Entry} entry */
function quickGame(entry) {
  const item = document.createElement("li");
  item.className = "quick-game";
  item.dataset.game = entry.name;
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", entry.title + " position");
  mount(svg, picture(entry.picture, entry.look, { size: 96, labels: false, showLast: false }));
  svg.classList.add("thumb");
  const title = document.createElement("span");
  title.className = "title";
  title.textContent = entry.title;
  const learn = document.createElement("a"); // the game's lesson, for whom it is new
  learn.className = "learn-line";
  learn.href = `/learn/${entry.name}`;
  learn.textContent = "new to it? learn it";
  title.appendChild(learn);
  const buttons = document.createElement("span");
  buttons.className = "buttons";
  /** @type {[string, string, string][]} */
  const kinds = [["agent", "Play the computer", "quick-agent"],
    ["online", "Play a friend", "quick-online quiet"]];
  for (const [opponent, text, css] of kinds) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = css;
    button.textContent = text;
    button.setAttribute("aria-label", `${text}: ${entry.title}`);
    button.addEventListener("click", async () => {
      button.disabled = true;
      const side = Number($("quick-side").value);
      const clock = quickClock($("quick-clock").value);
      await startGame({ game: entry.name, opponent, side,
        ...(opponent === "agent" ? { level: $("quick-level").value } : {}),
        ...(clock ? { clock } : {}) }, $("quick-error"));
      button.disabled = false;
    });
    buttons.appendChild(button);
  }
  item.append(svg, title, buttons);
  return item;
}

// -- the custom game -------------------------------------------------------------------------

/** @param {string} name */
function chooseGame(name) {
  $("game").value = name;
  for (const chip of document.querySelectorAll(".game-card")) {
    const chosen = /** @type {HTMLElement} */ (chip).dataset.game === name;
    chip.classList.toggle("chosen", chosen);
    chip.querySelector("button")?.setAttribute("aria-pressed", String(chosen));
  }
  const entry = /** @type {Entry} */ (gameEntry(name));
  $("chosen-title").textContent = entry.title;
  buildParams($("params"), entry.params, "param-");
  refreshVisibility();
  const level = $("level");
  level.replaceChildren();
  for (const name of entry.levels) {
    const option = document.createElement("option");
    option.value = name;
    option.textContent = name;
    level.appendChild(option);
  }
  level.value = entry.levels.includes(DEFAULT_LEVEL) ? DEFAULT_LEVEL : entry.levels[0];
  labelLevels(level, name);
  const side = $("side");
  side.replaceChildren();
  sideNames(entry.look).forEach((who, seat) => {
    const option = document.createElement("option");
    option.value = String(seat);
    option.textContent = who + (seat === 0 && !entry.simultaneous ? " (moves first)" : "");
    side.appendChild(option);
  });
}

function refreshVisibility() {
  showWhen($("params"));
  // some settings are played at one screen only (Life for Two's classic rules): offer only that
  const entry = gameEntry($("game").value);
  const only = entry && entry.hotseat_only_when;
  const control = only && document.querySelector(`#params [data-param="${only[0]}"]`);
  const atOneScreen = Boolean(only && control && /** @type {HTMLInputElement} */ (control).value === only[1]);
  for (const radio of /** @type {HTMLInputElement[]} */ ([...document.querySelectorAll("input[name=opponent]")])) {
    radio.disabled = atOneScreen && radio.value !== "hotseat";
    if (atOneScreen && radio.value === "hotseat") radio.checked = true;
  }
  $("opponent-note").hidden = !atOneScreen;
  $("opponent-note").textContent = atOneScreen && entry && only
    ? `${entry.title} with ${only[0]} "${only[1]}" is played at this screen only` : "";
  const opponent = /** @type {HTMLInputElement} */ (document.querySelector("input[name=opponent]:checked")).value;
  for (const node of /** @type {HTMLElement[]} */ ([...document.querySelectorAll(".agent-only")])) {
    node.style.display = opponent === "agent" ? "" : "none";
  }
  for (const node of /** @type {HTMLElement[]} */ ([...document.querySelectorAll(".side-only")])) {
    node.style.display = opponent === "hotseat" ? "none" : "";
  }
  refreshRated(opponent);
}

/** @type {boolean} whether this browser holds an account (rated games need one) */
let account = false;

/** The rated box: offered to an account, for a game that is not played at this screen.
 * @param {string} opponent */
function refreshRated(opponent) {
  const box = $("rated");
  const why = !account ? "log in to play rated games"
    : opponent === "hotseat" ? "a game at this screen is never rated" : "";
  box.disabled = Boolean(why);
  if (why) box.checked = false;
  const hint = $("rated-hint");
  hint.replaceChildren();
  if (!account) {
    const link = document.createElement("a");
    link.href = "/account#login";
    link.textContent = "log in";
    hint.append(link, " to play rated games");
  } else {
    hint.textContent = why;
  }
}

function formValues() {
  const opponent = /** @type {HTMLInputElement} */ (document.querySelector("input[name=opponent]:checked")).value;
  return {
    game: $("game").value,
    params: readParams($("params")),
    opponent,
    level: $("level").value,
    side: Number($("side").value || 0),
    clock: readClock($("clock"), "clock-"),
    ...($("rated").checked && !$("rated").disabled ? { rated: true } : {}),
  };
}

/** @param {SubmitEvent} event */
async function openRecord(event) {
  event.preventDefault();
  $("record-error").textContent = "";
  let text = $("record-text").value;
  const file = $("record-file").files[0];
  if (file) text = await file.text();
  if (!text.trim()) {
    $("record-error").textContent = "choose a record file or paste a record first";
    return;
  }
  const answer = await request("/api/records", { body: { record: text } });
  if (!answer.ok) {
    $("record-error").textContent = answer.error;
    return;
  }
  location.href = answer.data.links.you;
}

// -- the games on this server ----------------------------------------------------------------

/**
 * One listed game: its title linking to its page and its age, then what it is, in words.
 * @param {any} g
 * @param {number} now
 * @param {boolean} finished
 */
function listedGame(g, now, finished) {
  const item = document.createElement("li");
  item.dataset.id = g.id;
  const head = document.createElement("div");
  head.className = "head";
  const link = document.createElement("a");
  link.href = g.watch;
  link.textContent = g.title;
  const age = document.createElement("span");
  age.className = "age";
  age.textContent = ago(now - g.updated);
  head.append(link, age);
  const moves = g.moves === 1 ? "1 move" : `${g.moves} moves`;
  const words = [/** @type {Record<string, string>} */ (KINDS)[g.kind] || g.kind, moves];
  if (finished && g.result) words.unshift(outcomeText(g.result, sideNames(gameEntry(g.game)?.look)));
  if (!finished && g.watchers) words.push(`${g.watchers} watching`);
  const about = document.createElement("div");
  about.className = "about";
  about.textContent = words.join(" · ");
  if (finished && g.replay) {
    const replay = document.createElement("a");
    replay.href = g.replay;
    replay.textContent = "replay";
    about.append(" · ", replay);
  }
  item.append(head, about);
  return item;
}

async function showRecent() {
  const answer = await request("/api/games");
  if (!answer.ok) throw new Error(answer.error || "");
  const data = answer.data;
  for (const [list, empty, games, finished] of /** @type {[string, string, any[], boolean][]} */ (
    [["live-games", "no-live", data.games, false], ["finished-games", "no-finished", data.finished, true]])) {
    $(list).replaceChildren(...games.map((g) => listedGame(g, data.now, finished)));
    $(empty).hidden = games.length > 0;
  }
  $("recent-error").textContent = "";
  document.body.dataset.listed = "1";
}

// the lists again every REFRESH_MS while the page is in view, and at once when it comes back
function refreshRecent() {
  showRecent().catch((error) => { $("recent-error").textContent = error.message; });
}

// -- the page --------------------------------------------------------------------------------

async function main() {
  const answer = await request("/api/catalog");
  if (!answer.ok) {
    $("quick-error").textContent = answer.error;
    refreshRecent();
    return;
  }
  catalog = answer.data.games;
  refreshRecent(); // its results are worded in the games' own side names
  $("quick-games").replaceChildren(...catalog.map(quickGame));
  const levels = catalog[0].levels;
  for (const name of levels) {
    const option = document.createElement("option");
    option.value = name;
    option.textContent = name;
    $("quick-level").appendChild(option);
  }
  $("quick-level").value = levels.includes(DEFAULT_LEVEL) ? DEFAULT_LEVEL : levels[0];

  for (const entry of catalog) {
    // the custom form's game chooser
    const chip = document.createElement("span");
    chip.className = "game-card";
    chip.dataset.game = entry.name;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "quiet";
    button.textContent = entry.title;
    button.addEventListener("click", () => chooseGame(entry.name));
    chip.appendChild(button);
    $("games").appendChild(chip);
    // the rules, folded
    const rules = document.createElement("details");
    rules.className = "card";
    rules.dataset.game = entry.name;
    const summary = document.createElement("summary");
    summary.textContent = entry.title;
    const text = document.createElement("p");
    text.textContent = entry.summary;
    rules.append(summary, text);
    $("rules").appendChild(rules);
  }
  $("params").addEventListener("change", refreshVisibility);
  $("opponent").addEventListener("change", refreshVisibility);
  buildClock($("clock"), "clock-");
  $("new-game").addEventListener("submit", (/** @type {SubmitEvent} */ event) => {
    event.preventDefault();
    startGame(formValues(), $("form-error"));
  });
  $("open-record").addEventListener("submit", openRecord);
  // "?game=NAME" (a lesson's "Play this game") chooses that game in the custom form
  const asked = new URLSearchParams(location.search).get("game") || "";
  chooseGame(gameEntry(asked) ? asked : catalog[0].name);
  startLobby(catalog);
  startPools(catalog);
  startMine();
  document.body.dataset.ready = "1";
}

/** @param {import("/static/js/me.js").Me} data */
function heard(data) {
  account = hasAccount(data.player);
  const checked = document.querySelector("input[name=opponent]:checked");
  if (checked) refreshRated(/** @type {HTMLInputElement} */ (checked).value);
}
me().then(heard);
document.addEventListener("lifearena:me", (event) => heard(/** @type {CustomEvent} */ (event).detail));
setInterval(() => { if (!document.hidden) refreshRecent(); }, REFRESH_MS);
document.addEventListener("visibilitychange", () => { if (!document.hidden) refreshRecent(); });
main();
