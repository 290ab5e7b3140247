// @ts-check
// The live games list: the games being played on this server and the last finished ones
// (the store's lists, as the home page reads them), polled every few seconds; each game
// links to its spectator page, each finished one to its replay. Ages read as people say
// them (ago.js), results in the game's own side names (outcome.js).

import { ago } from "/static/ago.js";
import { outcomeText, sideNames } from "/static/js/outcome.js";
import { request } from "/static/js/request.js";

const KINDS = /** @type {Record<string, string>} */ (
  { hotseat: "at one screen", online: "online", agent: "against an agent" });
const EVERY_MS = 3000;
/** @type {Map<string, any>} the games' looks, by name */
const looks = new Map();

/** @param {string} id */
function $(id) { return /** @type {HTMLElement} */ (document.getElementById(id)); }

/**
 * A table of `games` with a header of `heads` ([text, css class]) and a row per game.
 * @param {[string, string][]} heads
 * @param {any[]} games
 * @param {(g: any) => [string | Node, string][]} cells
 * @returns {HTMLTableElement}
 */
function table(heads, games, cells) {
  const shown = document.createElement("table");
  shown.className = "data";
  const headRow = shown.createTHead().insertRow();
  for (const [text, css] of heads) {
    const th = document.createElement("th");
    th.textContent = text;
    if (css) th.className = css;
    headRow.appendChild(th);
  }
  const body = shown.createTBody();
  for (const g of games) {
    const row = body.insertRow();
    row.dataset.id = g.id;
    for (const [content, css] of cells(g)) {
      const td = row.insertCell();
      td.append(content);
      if (css) td.className = css;
    }
  }
  return shown;
}

/**
 * @param {string} href
 * @param {string} text
 */
function link(href, text) {
  const a = document.createElement("a");
  a.href = href;
  a.textContent = text;
  return a;
}

async function refresh() {
  if (!looks.size) {
    const catalog = await request("/api/catalog");
    if (catalog.ok) for (const g of catalog.data.games) looks.set(g.name, g.look);
  }
  const answer = await request("/api/lab/live");
  if (!answer.ok) throw new Error(answer.error || "");
  const { now, games, finished } = answer.data;
  if (!games.length) {
    $("list").textContent = "No game is being played on this server now.";
  } else {
    $("list").replaceChildren(table(
      [["game", "name"], ["played", "name"], ["moves", ""], ["watching", ""],
        ["last move", "name"], ["", "name"]],
      games, (g) => [[g.title, "name"], [KINDS[g.kind] || g.kind, "name"], [String(g.moves), ""],
        [String(g.watchers), ""], [ago(now - g.updated), "name"], [link(g.watch, "watch"), "name"]]));
  }
  if (finished.length) {
    $("finished").replaceChildren(table(
      [["game", "name"], ["played", "name"], ["moves", ""], ["result", "name"],
        ["ended", "name"], ["", "name"]],
      finished, (g) => [[g.title, "name"], [KINDS[g.kind] || g.kind, "name"], [String(g.moves), ""],
        [g.result ? outcomeText(g.result, sideNames(looks.get(g.game))) : "", "name"],
        [ago(now - g.updated), "name"], [link(g.replay, "replay"), "name"]]));
  } else {
    $("finished").textContent = "None yet.";
  }
  $("error").textContent = "";
  document.body.dataset.ready = "1";
}

function loop() {
  refresh().catch((error) => { $("error").textContent = error.message; })
    .finally(() => setTimeout(loop, EVERY_MS));
}
loop();
