// @ts-check
// The home page's card of the daily puzzle: its position's picture and what to find, one
// link to /puzzles/daily, from the puzzles' list (one request, which always answers: a server
// without puzzles leaves the card hidden and logs no failed request).

import { mount, picture } from "/static/js/draw.js";
import { request } from "/static/js/request.js";

async function main() {
  const listed = await request("/api/puzzles");
  if (!listed.ok || !listed.data.daily) return;
  const puzzle = listed.data.daily;
  const board = /** @type {SVGSVGElement} */ (/** @type {unknown} */ (document.getElementById("daily-puzzle-board")));
  mount(board, picture(puzzle.display, puzzle.look, { size: 96, labels: false, showLast: false }));
  const text = /** @type {HTMLElement} */ (document.getElementById("daily-puzzle-text"));
  text.textContent = `${puzzle.title}: ${puzzle.prompt}`;
  /** @type {HTMLElement} */ (document.getElementById("daily-puzzle")).hidden = false;
}

main();
