// @ts-check
// The puzzles page (/puzzles): your puzzle rating, the daily puzzle, and one card per game
// with its puzzles' count, each leading to that game's next puzzle for you.

import { request } from "../js/request.js";
import "../js/me.js"; // the header about you
import { card, myRatingText } from "./views.js";

/** @param {string} id @returns {any} */
function $(id) { return document.getElementById(id); }

async function main() {
  const answer = await request("/api/puzzles");
  if (!answer.ok) { $("failure").textContent = answer.error; return; }
  const data = answer.data;
  $("my-rating").textContent = myRatingText(data.rating);
  $("daily-link").hidden = !data.daily;
  const list = $("puzzle-games");
  list.replaceChildren(...data.games.map((/** @type {any} */ entry) => {
    const shown = card(entry);
    const item = document.createElement("li");
    item.className = "card puzzle-game";
    item.dataset.game = entry.game;
    const link = document.createElement("a");
    link.href = shown.href;
    link.textContent = shown.title;
    const count = document.createElement("span");
    count.className = "muted";
    count.textContent = shown.count;
    item.append(link, count);
    return item;
  }));
  $("no-puzzles").hidden = data.games.length > 0;
}

main();
