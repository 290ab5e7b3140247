// @ts-check
// A player's page (/@/name): the name and kind, the rating in each game (with "?" while
// provisional, the deviation in its tooltip) and its history as a chart (js/chart.js), the
// wins, draws and losses, the games in progress, and the finished games, filtered by game
// and result and paged with the server's `next`.

import { ago } from "/static/ago.js";
import { drawChart } from "/static/js/chart.js";
import "/static/js/me.js";
import { changeText, changeTone, countsText, ratingText, ratingTitle } from "/static/js/rating.js";
import { request } from "/static/js/request.js";

/** @param {string} id */
function $(id) { return /** @type {any} */ (document.getElementById(id)); }

const name = decodeURIComponent(location.pathname.replace(/^\/@\//, "").split("/")[0]);
const base = `/api/players/${encodeURIComponent(name)}`;
/** @type {Record<string, string>} the games' titles */
let titles = {};
/** @type {number | null} where the next page of finished games starts */
let next = null;

/** @param {string} tag @param {string} text @param {string} [css] */
function element(tag, text, css) {
  const node = document.createElement(tag);
  node.textContent = text;
  if (css) node.className = css;
  return node;
}

/** @param {string} href @param {string} text */
function link(href, text) {
  const a = document.createElement("a");
  a.href = href;
  a.textContent = text;
  return a;
}

// -- ratings and their history ---------------------------------------------------------------

/** @param {string} game */
async function showChart(game) {
  for (const button of document.querySelectorAll("#ratings button")) {
    button.setAttribute("aria-pressed", String(/** @type {HTMLElement} */ (button).dataset.game === game));
  }
  $("chart-title").textContent = `Rating history: ${titles[game] || game}`;
  const answer = await request(`${base}/history?game=${encodeURIComponent(game)}`);
  if (!answer.ok) {
    $("player-error").textContent = answer.error;
    return;
  }
  const points = answer.data.points;
  $("no-chart").hidden = points.length > 0;
  $("chart").replaceChildren(...(points.length
    ? [drawChart(points, `${name}'s ${titles[game] || game} rating after each rated game, `
      + `from ${Math.round(points[0].rating)} to ${Math.round(points[points.length - 1].rating)}`)]
    : []));
  $("chart").dataset.game = game;
  $("chart").dataset.points = String(points.length);
}

/** @param {Record<string, any>} ratings */
function showRatings(ratings) {
  const games = Object.keys(ratings).sort((a, b) => ratings[b].games - ratings[a].games);
  $("ratings").replaceChildren(...games.map((game) => {
    const row = ratings[game];
    const item = document.createElement("li");
    item.dataset.game = game;
    const button = element("button", titles[game] || game);
    button.type = "button";
    button.dataset.game = game;
    button.setAttribute("aria-pressed", "false");
    button.setAttribute("aria-label", `${titles[game] || game}: show the rating history`);
    button.addEventListener("click", () => showChart(game));
    const value = element("span", ratingText(row), "value");
    value.title = ratingTitle(row);
    const counts = element("span", `${row.games} rated ${row.games === 1 ? "game" : "games"} · `
      + countsText(row), "counts");
    item.append(button, value, counts);
    return item;
  }));
  $("no-ratings").hidden = games.length > 0;
  if (games.length) showChart(games[0]);
  else $("no-chart").hidden = false;
}

// -- games -----------------------------------------------------------------------------------

/** @param {any[]} playing */
function showPlaying(playing) {
  $("playing").replaceChildren(...playing.map((g) => {
    const item = document.createElement("li");
    item.dataset.id = g.id;
    const head = document.createElement("div");
    head.className = "head";
    head.append(link(g.link, g.title), element("span", ago(Date.now() / 1000 - g.updated), "age"));
    const words = [g.opponent ? `against ${g.opponent}` : "waiting for an opponent",
      g.rated ? "rated" : "casual", `${g.moves} ${g.moves === 1 ? "move" : "moves"}`];
    if (g.correspondence) words.push("days a move");
    item.append(head, element("div", words.join(" · "), "about"));
    return item;
  }));
  $("no-playing").hidden = playing.length > 0;
}

const RESULTS = { win: "won", draw: "draw", loss: "lost" };

/** @param {any} g */
function finishedRow(g) {
  const row = document.createElement("tr");
  row.dataset.id = g.id;
  const game = document.createElement("td");
  game.appendChild(link(g.link, g.title));
  const result = element("td", /** @type {Record<string, string>} */ (RESULTS)[g.result] || g.result || "–",
    `result ${g.result || ""}`);
  const opponent = document.createElement("td");
  if (g.opponent_page) opponent.appendChild(link(g.opponent_page, g.opponent));
  else opponent.textContent = g.opponent || "–";
  const rating = document.createElement("td");
  if (g.rated && g.rating_change !== null) {
    rating.appendChild(element("span", changeText(g.rating_change), `change ${changeTone(g.rating_change)}`));
  } else {
    rating.textContent = g.rated ? "rated" : "casual";
    rating.className = "muted";
  }
  const when = element("td", ago(Date.now() / 1000 - (g.finished || g.created)), "when");
  const links = document.createElement("td");
  links.className = "links";
  links.append(link(g.link, "record"), " · ", link(g.replay, "replay"));
  row.append(game, result, opponent, rating, when, links);
  return row;
}

/** The finished games from the first page again (a filter changed). */
async function loadFinished(more = false) {
  const query = new URLSearchParams({ limit: "20" });
  if ($("filter-game").value) query.set("game", $("filter-game").value);
  if ($("filter-result").value) query.set("result", $("filter-result").value);
  if (more && next !== null) query.set("before", String(next));
  $("more").disabled = true;
  const answer = await request(`${base}/games?${query}`);
  $("more").disabled = false;
  if (!answer.ok) {
    $("player-error").textContent = answer.error;
    return;
  }
  const rows = answer.data.games.map(finishedRow);
  if (more) $("finished-rows").append(...rows);
  else $("finished-rows").replaceChildren(...rows);
  next = answer.data.next;
  $("more").hidden = next === null;
  const any = $("finished-rows").children.length > 0;
  $("finished").hidden = !any;
  $("no-finished").hidden = any;
  document.body.dataset.finished = String($("finished-rows").children.length);
}

// -- the page --------------------------------------------------------------------------------

async function main() {
  const answer = await request(base);
  if (!answer.ok) {
    $("player-name").textContent = name;
    $("player-error").textContent = answer.error;
    return;
  }
  const data = answer.data;
  titles = data.games;
  const player = data.player;
  document.title = `${player.name} — lifearena`;
  $("player-name").textContent = player.name;
  const kind = { bot: "bot", computer: "computer" }[/** @type {string} */ (player.kind)];
  $("player-kind").hidden = !kind;
  $("player-kind").textContent = kind || "";
  const counts = data.counts;
  $("player-counts").textContent = `${counts.games} ${counts.games === 1 ? "game" : "games"} · `
    + countsText(counts);
  for (const [game, title] of Object.entries(titles)) {
    const option = element("option", title);
    /** @type {HTMLOptionElement} */ (option).value = game;
    $("filter-game").appendChild(option);
  }
  showRatings(data.ratings);
  showPlaying(data.playing);
  await loadFinished();
  document.body.dataset.ready = "1";
}

$("filter-game").addEventListener("change", () => loadFinished());
$("filter-result").addEventListener("change", () => loadFinished());
$("more").addEventListener("click", () => loadFinished(true));
main();
