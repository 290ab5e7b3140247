// @ts-check
// The leaderboards (/leaderboard#game=NAME): a button per game, then that game's table of
// established ratings (rank, name linking to the player's page, rating, games), the
// computer's levels among them, and every level's rating in a line below.

import "/static/js/me.js";
import { ratingText, ratingTitle } from "/static/js/rating.js";
import { request } from "/static/js/request.js";

/** @param {string} id */
function $(id) { return /** @type {any} */ (document.getElementById(id)); }

/** @type {{name: string, title: string}[]} */
let games = [];
/** @type {Record<string, Record<string, any>>} the computer's levels' ratings per game */
let computer = {};

/** @param {string} text @param {string} [css] */
function cell(text, css) {
  const td = document.createElement("td");
  td.textContent = text;
  if (css) td.className = css;
  return td;
}

/** @param {string} game */
async function show(game) {
  for (const button of document.querySelectorAll("#picker button")) {
    button.setAttribute("aria-pressed", String(/** @type {HTMLElement} */ (button).dataset.game === game));
  }
  const title = games.find((g) => g.name === game)?.title || game;
  $("board-title").textContent = title;
  const answer = await request(`/api/leaderboard?game=${encodeURIComponent(game)}`);
  if (!answer.ok) {
    $("board-error").textContent = answer.error;
    return;
  }
  $("board-error").textContent = "";
  const rows = answer.data.players.map((/** @type {any} */ p) => {
    const row = document.createElement("tr");
    row.dataset.player = p.name;
    const who = document.createElement("td");
    const link = document.createElement("a");
    link.href = `/@/${encodeURIComponent(p.name)}`;
    link.textContent = p.name;
    who.appendChild(link);
    if (p.kind === "bot" || p.kind === "computer") {
      const badge = document.createElement("span");
      badge.className = "badge";
      badge.textContent = p.kind;
      who.append(" ", badge);
    }
    const rating = cell(ratingText(p), "number");
    rating.title = ratingTitle(p);
    row.append(cell(String(p.rank), "number"), who, rating, cell(String(p.games), "number"));
    return row;
  });
  $("board-rows").replaceChildren(...rows);
  $("board").hidden = rows.length === 0;
  $("board-empty").hidden = rows.length > 0;
  // every level of the computer, each linking to its page
  const levels = Object.entries(computer[game] || {});
  const line = $("computer-line");
  line.replaceChildren();
  levels.forEach(([level, row], k) => {
    line.append(k ? " · " : "The computer: ");
    const link = document.createElement("a");
    link.href = `/@/${encodeURIComponent(row.player)}`;
    link.textContent = level;
    line.append(link, ` ${ratingText(row)}`);
  });
  document.body.dataset.shown = game;
}

async function main() {
  const [catalog, levels] = await Promise.all([request("/api/catalog"), request("/api/computer")]);
  if (!catalog.ok) {
    $("board-error").textContent = catalog.error;
    return;
  }
  games = catalog.data.games;
  computer = levels.ok ? levels.data.games : {};
  for (const game of games) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "quiet";
    button.dataset.game = game.name;
    button.textContent = game.title;
    button.addEventListener("click", () => {
      history.replaceState(null, "", `#game=${game.name}`);
      show(game.name);
    });
    $("picker").appendChild(button);
  }
  const wanted = new URLSearchParams(location.hash.slice(1)).get("game");
  await show(games.some((g) => g.name === wanted) ? /** @type {string} */ (wanted) : games[0].name);
  document.body.dataset.ready = "1";
}

main();
