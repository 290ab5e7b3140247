// Tournament pages: crosstable, ranking, first-player advantage, ratings and the games of a
// pairing, from a results file on the server; polls the file while the run is going on.
// A tournament can be started here (the server runs `lifearena tournament` into a file of its
// own), stopped and resumed by the server's operator: the admin link the server printed
// (`lifearena serve --lab-admin`, /lab/tournaments#admin=TOKEN) gives this tab the token,
// sent as the X-Admin-Token header. Without it the page is read only and says why.
import { endingText } from "/static/js/outcome.js";
import * as labChart from "./chart.js";
import { requestJson as getJson, showError } from "./common.js";

const $ = (id) => document.getElementById(id);
const V = { file: null, run: null, timer: null, seen: [], games: null, state: null, admin: "",
  canLaunch: false, asked: 0 };


const ADMIN_KEY = "lifearena-lab-admin";

// The operator's token: read once from the fragment (#admin=...), kept for this tab in its
// session storage, and taken out of the address bar (and so out of history and bookmarks).
function readAdmin() {
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  const given = params.get("admin");
  if (given !== null) {
    try { sessionStorage.setItem(ADMIN_KEY, given); } catch { /* storage off: this load only */ }
    params.delete("admin");
    const rest = params.toString();
    history.replaceState(null, "", `${location.pathname}${location.search}${rest ? `#${rest}` : ""}`);
  }
  try { return sessionStorage.getItem(ADMIN_KEY) || given || ""; } catch { return given || ""; }
}

function adminHeaders() { return V.admin ? { "X-Admin-Token": V.admin } : {}; }

// a size as the server's messages say it (launcher.megabytes)
function megabytes(bytes) {
  const mb = bytes / 1e6;
  if (mb >= 100) return `${Math.round(mb).toLocaleString("en")} MB`;
  return `${mb.toFixed(mb >= 1 ? 1 : 2)} MB`;
}

function table(columns, rows, opts) {
  const t = document.createElement("table");
  t.className = "data";
  const head = t.createTHead().insertRow();
  for (const [label, numeric] of columns) {
    const th = document.createElement("th"); th.textContent = label;
    if (!numeric) th.className = "name";
    head.appendChild(th);
  }
  const body = t.createTBody();
  for (const row of rows) {
    const tr = body.insertRow();
    row.forEach((value, i) => {
      const td = tr.insertCell();
      if (value instanceof Node) td.appendChild(value); else td.textContent = value;
      if (!columns[i][1]) td.className = "name";
    });
  }
  if (opts && opts.id) t.id = opts.id;
  return t;
}

function link(text, href, onclick) {
  const a = document.createElement("a");
  a.textContent = text; a.href = href;
  if (onclick) a.addEventListener("click", (event) => { event.preventDefault(); onclick(); });
  return a;
}

function base() { return `/api/lab/tournaments/${encodeURIComponent(V.file)}/${encodeURIComponent(V.run)}`; }

const GAMES_PAGE = 100;


// One page of a pairing's games (GAMES_PAGE at a time), with previous / next.
async function showGames(pairing, offset = 0) {
  const q = new URLSearchParams({ pairing, offset, limit: GAMES_PAGE });
  const data = await getJson(`${base()}/games?${q}`);
  V.games = { pairing, offset: data.offset, total: data.total };
  $("games-card").hidden = false;
  $("games-title").textContent = `Games of ${pairing.replace("|", " – ")} (${data.total})`;
  const last = data.offset + data.games.length;
  $("games-range").textContent = data.total > data.games.length
    ? `${data.offset + 1}–${last} of ${data.total}` : "";
  $("games-prev").hidden = $("games-next").hidden = data.total <= data.limit;
  $("games-prev").disabled = data.offset === 0;
  $("games-next").disabled = last >= data.total;
  const rows = data.games.map((g) => {
    const q = new URLSearchParams({ file: V.file, run: V.run, pairing, index: g.game_index, seat: g.seat });
    const winner = g.winner === null ? null : g[`player${g.winner}`];
    const result = winner === null ? "draw" : `${winner} won`;
    const ending = endingText(g.termination, winner,
      winner === null ? null : g[`player${1 - g.winner}`]);
    return [g.game_index, g.player0, g.player1, result, ending, g.length,
      link("replay", `/lab/replay#${q.toString()}`)];
  });
  $("games").replaceChildren(table([["start", true], ["first", false], ["second", false],
    ["result", false], ["ending", false], ["moves", true], ["", false]], rows, { id: "games-table" }));
  $("games-card").scrollIntoView({ block: "nearest" });
}

function pageGames(step) {
  if (!V.games) return;
  showGames(V.games.pairing, Math.max(0, V.games.offset + step * GAMES_PAGE)).catch(showError);
}

function drawLadder(d) {
  $("title").textContent = d.title;
  const agents = d.crosstable ? d.crosstable.agents : [];
  const rows = agents.map((a, i) => [a, ...d.crosstable.cells[i].map((cell) => {
    if (!cell) return "";
    const text = `${(100 * cell.score).toFixed(1)}% (${cell.games})`;
    return cell.pairing ? link(text, "#", () => showGames(cell.pairing).catch(showError)) : text;
  })]);
  $("crosstable").replaceChildren(table([["", false], ...agents.map((a) => [a, true])], rows, { id: "crosstable-table" }));
  $("ranking").replaceChildren(table(
    [["rank", true], ["agent", false], ["Elo", true], ["95% interval", true], ["games", true], ["score", true], ["forfeits", true]],
    d.rows.map((r, i) => [i + 1, r.agent, r.elo_text, r.interval_text, r.games, r.score_text, r.forfeits]), { id: "ranking-table" }));
  $("first").replaceChildren();
  $("first-note").textContent = "(first player's score and the fitted first-move advantage)";
  $("decisive").textContent = d.first_text;
  $("table").replaceChildren();
  $("pairings-block").hidden = true;
  drawRatings(d);
}

function drawReport(d) {
  $("report").hidden = false;
  if (d.kind === "ladder") { drawLadder(d); return; }
  $("pairings-block").hidden = false;
  $("first-note").textContent = "(win rate moving first vs moving second)";
  $("title").textContent = d.title;
  const agents = d.crosstable.agents;
  const rows = agents.map((a, i) => [a, ...d.crosstable.cells[i].map((cell) => {
    if (!cell) return "";
    const text = cell.score === null ? `${cell.games} self` :
      `${(100 * cell.score).toFixed(1)}% (${cell.wins}-${cell.draws}-${cell.losses})`;
    return link(text, "#", () => showGames(cell.pairing).catch(showError));
  })]);
  $("crosstable").replaceChildren(table([["", false], ...agents.map((a) => [a, true])], rows, { id: "crosstable-table" }));
  $("ranking").replaceChildren(table(
    [["#", true], ["agent", false], ["games", true], ["wins", true], ["draws", true], ["losses", true], ["score", true], ["win rate [95% CI]", true]],
    d.ranking.map((r, i) => [i + 1, r.agent, r.games, r.wins, r.draws, r.losses, r.score_text, r.win_text]), { id: "ranking-table" }));
  $("first").replaceChildren(table(
    [["agent", false], ["moving first [95% CI]", true], ["moving second [95% CI]", true], ["advantage [95% CI]", true]],
    d.first_player.map((r) => [r.agent, r.first_text, r.second_text, r.advantage_text]), { id: "first-table" }));
  $("decisive").textContent = d.decisive.text;
  $("table").replaceChildren(table(
    [["P1", false], ["P2", false], ["games", true], ["P1 wins", true], ["P2 wins", true], ["draws", true], ["avg length", true], ["avg time (ms)", true]],
    d.table.map((r) => [r.p1, r.p2, r.games, r.p1_wins, r.p2_wins, r.draws, r.avg_length_text, r.avg_time_text])));
  drawRatings(d);
}

function drawRatings(d) {
  const svg = $("ratings");
  $("ratings-block").hidden = !d.ratings.length;
  if (!d.ratings.length) { svg.replaceChildren(); return; }
  const lo = Math.min(...d.ratings.map((r) => r.low), -100), hi = Math.max(...d.ratings.map((r) => r.high), 100);
  const points = d.ratings.map((r, i) => [r.elo, d.ratings.length - i]);
  const chart = labChart.draw(svg, {
    width: 520, height: 70 + 34 * d.ratings.length, x: [lo - 20, hi + 20], y: [0, d.ratings.length + 1],
    xLabel: `Elo (${d.ratings_anchor || "mean"} = 0)`, yLabel: "", yTicks: false, series: [] });
  const NS = "http://www.w3.org/2000/svg";
  d.ratings.forEach((r, i) => {
    const y = chart.sy(d.ratings.length - i);
    const add = (name, attrs, text) => {
      const node = document.createElementNS(NS, name);
      for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
      if (text) node.textContent = text;
      svg.appendChild(node);
    };
    add("line", { x1: chart.sx(r.low), x2: chart.sx(r.high), y1: y, y2: y, stroke: "#2f6db3", "stroke-width": 2 });
    add("circle", { cx: chart.sx(r.elo), cy: y, r: 5, fill: "#2f6db3", class: "rating", "data-agent": r.agent });
    add("text", { x: chart.sx(r.elo), y: y - 9, "text-anchor": "middle", "font-size": 11, fill: "#26282b" }, `${r.agent} ${r.elo.toFixed(0)}`);
  });
}

function showLaunch(launch) {
  // Stop for a running launch, Resume for a stopped or failed one; nothing for a file given,
  // nor without the operator's token
  $("stop").hidden = !V.canLaunch || !launch || launch.state !== "running";
  $("resume").hidden = !V.canLaunch || !launch || !["stopped", "failed"].includes(launch.state);
  $("stop").disabled = $("resume").disabled = false;
}

async function refresh() {
  // only the last report asked for is drawn: one still on its way for the run shown before,
  // or asked before a Stop, must not draw over the newer view (a slow server answers late)
  const asked = ++V.asked;
  const d = await getJson(base());
  if (asked !== V.asked) return;
  showLaunch(d.launch);
  drawReport(d);
  const now = Date.now();
  V.seen.push([now, d.done]);
  V.seen = V.seen.filter(([t]) => now - t < 60000);
  // the time left of a run going on now (a stopped one has none, however far from done)
  const state = d.launch ? d.launch.state : d.status;
  let left = "";
  if (state === "running" && d.done < d.total && V.seen.length > 1) {
    const [t0, g0] = V.seen[0];
    const rate = (d.done - g0) / ((now - t0) / 1000);
    if (rate > 0) left = `, about ${Math.ceil((d.total - d.done) / rate)} s left`;
  }
  const pct = d.total ? Math.round(100 * d.done / d.total) : 100;
  $("progress").innerHTML = "";
  const bar = document.createElement("span"); bar.className = "bar";
  const fill = document.createElement("i"); fill.style.width = `${pct}%`; bar.appendChild(fill);
  $("progress").append(d.total ? `${d.done} / ${d.total} games` : `${d.done} games`, bar, `${state}${left}`);
  $("progress").dataset.done = d.done;
  const option = $("run").selectedOptions[0];
  if (option) option.textContent = `${option.dataset.name} (${d.done}${d.total ? " / " + d.total : ""} games, ${d.status})`;
  $("progress").dataset.state = state;
  // a launch that stopped or ended changed the disk used: the bounds are read again
  if (d.launch && V.state && V.state !== state) {
    getJson("/api/lab/tournaments").then((data) => showBounds(data.launcher)).catch(showError);
  }
  V.state = state;
  if (d.launch && d.launch.message) showError(d.launch.message);
  clearTimeout(V.timer);
  // a launch is followed while its process runs; a tournament of a given file until it has
  // its total; a ladder while it says it is running
  if (d.launch ? d.launch.state === "running" : d.total ? d.done < d.total : d.status === "running") {
    V.timer = setTimeout(() => refresh().catch(showError), d.total ? 2000 : 10000);
  }
  document.body.dataset.ready = "1";
}

async function choose(value) {
  clearTimeout(V.timer);
  V.asked++;  // a report of the run shown before that is still on its way is not drawn
  [V.file, V.run] = value.split("/");
  V.run = decodeURIComponent(V.run); V.seen = []; V.games = null; V.state = null;
  $("games-card").hidden = true;
  // a large results file takes seconds to report: say so rather than show empty headings
  $("report").hidden = true;
  $("title").textContent = `Loading ${V.run}…`;
  $("progress").replaceChildren("loading…");
  history.replaceState(null, "", `#file=${V.file}&run=${encodeURIComponent(V.run)}`);
  await refresh();
}

// the launcher's bounds beside the form: how many run at once, and the disk used
function showBounds(bounds) {
  if (!bounds) return;
  $("launch-note").textContent = `(played on this server: at most ${bounds.limit} at once; ` +
    `${megabytes(bounds.disk_used)} of its ${megabytes(bounds.disk_budget)} for tournaments used)`;
}

async function listRuns() {
  const data = await getJson("/api/lab/tournaments");
  showBounds(data.launcher);
  $("run").replaceChildren();
  for (const file of data.files) {
    for (const run of file.runs.filter((r) => r.kind === "tournament" || r.kind === "ladder")) {
      const option = document.createElement("option");
      option.value = `${file.id}/${encodeURIComponent(run.name)}`;
      option.dataset.name = `${file.id}: ${file.name} — ${run.name}`;
      option.textContent = `${option.dataset.name} (${run.games}${run.total ? " / " + run.total : ""} games, ${run.status})`;
      $("run").appendChild(option);
    }
  }
  // with no run to choose, the chooser would be an empty box that opens on nothing (its
  // card then shows only when there is an error to say: lab.css)
  $("run").closest(".pair").hidden = !$("run").options.length;
}

// -- starting, stopping and resuming ------------------------------------------------------------

const DEFAULT_ENTRANTS = ["random", "greedy", "bloodlust"];

async function loadForm(game) {
  const form = await getJson(`/api/lab/tournaments/form${game ? `?game=${encodeURIComponent(game)}` : ""}`,
    undefined, adminHeaders());
  // the server says whether this tab's token is its operator's, and why not in one line
  V.canLaunch = form.enabled && form.admin;
  $("launch-card").hidden = !V.canLaunch;
  $("admin-note").hidden = V.canLaunch;
  $("admin-note").textContent = V.canLaunch ? "" : form.reason;
  document.body.dataset.admin = V.canLaunch ? "1" : "0";
  if (!V.canLaunch) { $("stop").hidden = $("resume").hidden = true; return; }
  if (!$("launch-game").options.length) {
    for (const name of form.games) $("launch-game").add(new Option(name.replaceAll("_", " "), name));
  }
  $("launch-game").value = form.game;
  $("launch-games").max = form.games_per_pairing[1];
  $("launch-seed").max = form.seed[1];
  $("launch-agents").replaceChildren(...form.agents.map((agent) => {
    const label = document.createElement("label");
    const box = document.createElement("input");
    box.type = "checkbox"; box.name = "agents"; box.value = agent;
    box.checked = DEFAULT_ENTRANTS.includes(agent);
    box.addEventListener("change", showTotal);
    label.append(box, agent);
    return label;
  }));
  showTotal();
}

function chosenAgents() {
  return [...$("launch-agents").querySelectorAll("input:checked")].map((box) => box.value);
}

function showTotal() {
  // every entrant meets every other in both seats and itself once: k * k series of games
  const k = chosenAgents().length, n = Number($("launch-games").value) || 0;
  $("launch-total").textContent = k ? `${k} entrants: ${k * k * n} games` : "choose the entrants";
}

async function launch(event) {
  event.preventDefault();
  showError("");
  $("launch-start").disabled = true;
  try {
    const started = await getJson("/api/lab/tournaments/start", {
      game: $("launch-game").value, agents: chosenAgents(),
      games: Number($("launch-games").value), seed: Number($("launch-seed").value) },
      adminHeaders());
    await listRuns();
    $("run").value = `${started.file}/${encodeURIComponent(started.run)}`;
    await choose($("run").value);
  } catch (error) {
    if (error.status === 403) await loadForm($("launch-game").value);  // say why, hide controls
    throw error;
  } finally {
    $("launch-start").disabled = false;
  }
}

async function control(action) {
  showError("");
  $("stop").disabled = $("resume").disabled = true;
  try {
    await getJson(`/api/lab/tournaments/${encodeURIComponent(V.file)}/${action}`, {}, adminHeaders());
    V.seen = [];
  } catch (error) {
    if (error.status === 403) await loadForm($("launch-game").value);
    throw error;
  } finally {
    const chosen = $("run").value;
    await listRuns();
    $("run").value = chosen;
    await refresh();
  }
}

async function start() {
  V.admin = readAdmin();
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  await loadForm("");
  await listRuns();
  if (!$("run").options.length) {
    $("title").textContent = V.canLaunch
      ? "No tournament here yet: start one above, or start the server with --results FILE (a lifearena tournament --db file)."
      : "No tournament here yet: start the server with --results FILE (a lifearena tournament --db file).";
    document.body.dataset.ready = "1";
    return;
  }
  if (params.get("file") && params.get("run")) $("run").value = `${params.get("file")}/${encodeURIComponent(params.get("run"))}`;
  await choose($("run").value);
}

// an admin link opened in a tab already on this page changes only the fragment
window.addEventListener("hashchange", () => {
  if (!new URLSearchParams(location.hash.replace(/^#/, "")).has("admin")) return;
  V.admin = readAdmin();
  loadForm($("launch-game").value).then(() => V.file && refresh()).catch(showError);
});
$("run").addEventListener("change", () => choose($("run").value).catch(showError));
$("launch-game").addEventListener("change", () => loadForm($("launch-game").value).catch(showError));
$("launch-games").addEventListener("input", showTotal);
$("launch").addEventListener("submit", (event) => launch(event).catch(showError));
$("stop").addEventListener("click", () => control("stop").catch(showError));
$("resume").addEventListener("click", () => control("resume").catch(showError));
$("games-prev").addEventListener("click", () => pageGames(-1));
$("games-next").addEventListener("click", () => pageGames(1));
$("games-close").addEventListener("click", () => { $("games-card").hidden = true; V.games = null; });
start().catch(showError);

