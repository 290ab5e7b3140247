// @ts-check
// The home page's part about you: "Your games" first (from the your-turn watcher's polls of
// /api/me/games, js/turn.js), each marked when it is your turn, correspondence games saying
// what waits for you; and the computer's rating at each level ("easy 1210") for each game.

import { ago } from "/static/ago.js";
import { ratingText } from "/static/js/rating.js";
import { request } from "/static/js/request.js";
import { turnControls } from "/static/js/turn.js";

/** @param {string} id */
function $(id) { return /** @type {any} */ (document.getElementById(id)); }

/** @param {string} tag @param {string} text @param {string} [css] */
function element(tag, text, css) {
  const node = document.createElement(tag);
  node.textContent = text;
  if (css) node.className = css;
  return node;
}

/**
 * A time control in words: "3 days a move", "5+3", "" for none.
 * @param {any} clock
 * @returns {string}
 */
export function clockWords(clock) {
  if (!clock || typeof clock !== "object") return "";
  if (clock.kind === "correspondence") return clock.days === 1 ? "1 day a move" : `${clock.days} days a move`;
  if (clock.kind === "live") return `${clock.minutes} min + ${clock.increment || 0} s`;
  return "";
}

/** @param {any} g @param {number} now */
function gameItem(g, now) {
  const item = document.createElement("li");
  item.dataset.id = g.id;
  item.className = g.your_turn ? "your-turn" : "";
  const head = document.createElement("div");
  head.className = "head";
  const link = document.createElement("a");
  link.href = g.link;
  link.textContent = g.title;
  head.appendChild(link);
  if (g.your_turn) head.appendChild(element("span", "your turn", "turn-mark"));
  else head.appendChild(element("span", g.opponent ? "their turn" : "waiting", "waits"));
  const words = [g.opponent ? `against ${g.opponent}` : "no opponent yet",
    g.rated ? "rated" : "casual", `${g.moves} ${g.moves === 1 ? "move" : "moves"}`];
  const clock = clockWords(g.clock);
  if (clock) words.push(clock);
  if (g.correspondence) {
    words.push(g.your_turn ? `your move waits since ${ago(now - g.updated)}`
      : `last move ${ago(now - g.updated)}`);
  }
  item.append(head, element("div", words.join(" · "), "about"));
  return item;
}

/** @param {{playing: any[], your_turn: number}} data */
function showMine(data) {
  const now = Date.now() / 1000;
  $("mine-games").replaceChildren(...data.playing.map((g) => gameItem(g, now)));
  $("mine").hidden = data.playing.length === 0;
  $("mine").classList.toggle("calm", data.your_turn === 0); // a phone lists it after Play
  $("mine-count").textContent = data.your_turn
    ? `${data.your_turn} waiting for you` : "none waiting for you";
  document.body.dataset.mine = String(data.playing.length);
}

// -- the computer's ratings ------------------------------------------------------------------

/** @type {Record<string, Record<string, any>>} */
let levels = {};

/** The rating of the computer at `level` in `game`, as text ("" when unknown).
 * @param {string} game @param {string} level */
export function levelRating(game, level) {
  const row = levels[game] && levels[game][level];
  return row ? ratingText(row) : "";
}

/** Word a level chooser's options with their ratings in `game`: "easy · 1210".
 * @param {HTMLSelectElement} select @param {string} game */
export function labelLevels(select, game) {
  for (const option of select.options) {
    const rating = levelRating(game, option.value);
    option.textContent = rating ? `${option.value} · ${rating}` : option.value;
  }
}

/** Under each one-click game's name, the computer's rating at the chosen level. */
function showQuickRatings() {
  const level = $("quick-level").value;
  for (const row of /** @type {HTMLElement[]} */ ([...document.querySelectorAll(".quick-game")])) {
    const game = row.dataset.game || "";
    let line = /** @type {HTMLElement | null} */ (row.querySelector(".level-rating"));
    if (!line) {
      line = element("span", "", "level-rating");
      row.querySelector(".title")?.appendChild(line);
    }
    const rating = levelRating(game, level);
    line.textContent = rating ? `computer ${level} ${rating}` : "";
  }
}

/** Ask the computer's ratings, then show them (after the catalog's rows are drawn). */
export async function startMine() {
  $("mine-controls").appendChild(turnControls());
  const answer = await request("/api/computer");
  if (!answer.ok) return;
  levels = answer.data.games;
  showQuickRatings();
  $("quick-level").addEventListener("change", showQuickRatings);
  if ($("game").value) labelLevels($("level"), $("game").value);
}

document.addEventListener("lifearena:games", (event) => showMine(/** @type {CustomEvent} */ (event).detail));
