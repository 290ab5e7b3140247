// The home page: the five games with a picture each, the new-game form, the record upload,
// and the games being played and lately finished on this server. An ES module.
import { ago } from "/static/ago.js";

const { LOOKS, drawPosition, outcomeText } = window.lifearenaBoard;
const KINDS = { hotseat: "at one screen", online: "online", agent: "against an agent" };
const REFRESH_MS = 30_000;
let catalog = [];

function $(id) { return document.getElementById(id); }

async function postJSON(url, body) {
  const response = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body) });
  const data = await response.json().catch(() => ({ error: "the server's answer was not JSON" }));
  if (!response.ok) throw new Error(data.error || `error ${response.status}`);
  return data;
}

function gameEntry(name) { return catalog.find((g) => g.name === name); }

function chooseGame(name) {
  $("game").value = name;
  for (const card of document.querySelectorAll(".game-card")) {
    card.classList.toggle("chosen", card.dataset.game === name);
  }
  const entry = gameEntry(name);
  $("chosen-title").textContent = entry.title;
  const box = $("params");
  box.innerHTML = "";
  for (const p of entry.params) {
    const id = "param-" + p.name;
    const label = document.createElement("label");
    label.htmlFor = id;
    label.textContent = p.label;
    let input;
    if (p.kind === "choice") {
      input = document.createElement("select");
      for (const choice of p.choices) {
        const option = document.createElement("option");
        option.value = choice;
        option.textContent = choice;
        input.appendChild(option);
      }
      input.value = p.default;
    } else if (p.kind === "bool") {
      input = document.createElement("input");
      input.type = "checkbox";
      input.checked = p.default;
    } else if (p.kind === "text") {
      input = document.createElement("input");
      input.type = "text";
      input.maxLength = p.max_length;
      input.value = p.default;
    } else {
      input = document.createElement("input");
      input.type = "number";
      input.min = p.low;
      input.max = p.high;
      input.step = p.kind === "int" ? 1 : 0.01;
      input.value = p.default;
    }
    input.id = id;
    input.dataset.param = p.name;
    input.dataset.kind = p.kind;
    // a choice among numbers (Losat's neighbourhood: 8 or 4) is sent as a number
    if (p.kind === "choice" && typeof p.choices[0] === "number") input.dataset.kind = "int";
    const row = [label, input];
    if (p.help) {
      const help = document.createElement("div");
      help.className = "help";
      help.textContent = p.help;
      row.push(help);
    }
    for (const node of row) {
      if (p.shown_when) node.dataset.shownWhen = p.shown_when.join("=");
      box.appendChild(node);
    }
  }
  box.addEventListener("change", refreshVisibility);
  refreshVisibility();
  const level = $("level");
  level.innerHTML = "";
  for (const name of entry.levels) {
    const option = document.createElement("option");
    option.value = name;
    option.textContent = name;
    level.appendChild(option);
  }
  level.value = entry.levels.includes("easy") ? "easy" : entry.levels[0];
  const side = $("side");
  side.innerHTML = "";
  LOOKS[name].names.forEach((who, seat) => {
    const option = document.createElement("option");
    option.value = seat;
    option.textContent = who + (seat === 0 && !entry.simultaneous ? " (moves first)" : "");
    side.appendChild(option);
  });
}

function refreshVisibility() {
  for (const node of $("params").children) {
    const rule = node.dataset.shownWhen;
    if (!rule) continue;
    const [other, value] = rule.split("=");
    const control = $("param-" + other);
    node.style.display = control && control.value === value ? "" : "none";
  }
  // some settings are played at one screen only (Life for Two's classic rules): offer only that
  const entry = gameEntry($("game").value);
  const only = entry && entry.hotseat_only_when;
  const control = only && $("param-" + only[0]);
  const atOneScreen = Boolean(control && control.value === only[1]);
  for (const radio of document.querySelectorAll("input[name=opponent]")) {
    radio.disabled = atOneScreen && radio.value !== "hotseat";
    if (atOneScreen && radio.value === "hotseat") radio.checked = true;
  }
  $("opponent-note").hidden = !atOneScreen;
  $("opponent-note").textContent = atOneScreen
    ? `${entry.title} with ${only[0]} "${only[1]}" is played at this screen only` : "";
  const opponent = document.querySelector("input[name=opponent]:checked").value;
  for (const node of document.querySelectorAll(".agent-only")) {
    node.style.display = opponent === "agent" ? "" : "none";
  }
  for (const node of document.querySelectorAll(".side-only")) {
    node.style.display = opponent === "hotseat" ? "none" : "";
  }
}

function formValues() {
  const params = {};
  for (const input of $("params").querySelectorAll("[data-param]")) {
    if (input.style.display === "none") continue;
    const kind = input.dataset.kind;
    if (kind === "bool") params[input.dataset.param] = input.checked;
    else if (kind === "int" || kind === "float") params[input.dataset.param] = Number(input.value);
    else params[input.dataset.param] = input.value;
  }
  return {
    game: $("game").value,
    params,
    opponent: document.querySelector("input[name=opponent]:checked").value,
    level: $("level").value,
    side: Number($("side").value || 0),
  };
}

async function startGame(event) {
  event.preventDefault();
  $("form-error").textContent = "";
  try {
    const created = await postJSON("/api/games", formValues());
    sessionStorage.setItem("links-" + created.id, JSON.stringify(created.links));
    const own = created.links.you || created.links["seat" + created.seat];
    location.href = own;
  } catch (error) {
    $("form-error").textContent = error.message;
  }
}

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
  try {
    const opened = await postJSON("/api/records", { record: text });
    location.href = opened.links.you;
  } catch (error) {
    $("record-error").textContent = error.message;
  }
}

// One listed game: its title linking to its page and its age, then what it is, in words.
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
  const words = [KINDS[g.kind] || g.kind, moves];
  if (finished && g.result) words.unshift(outcomeText(g.game, g.result));
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
  const response = await fetch("/api/games");
  const data = await response.json().catch(() => ({ error: "the server's answer was not JSON" }));
  if (!response.ok) throw new Error(data.error || `error ${response.status}`);
  for (const [list, empty, games, finished] of [["live-games", "no-live", data.games, false],
                                                  ["finished-games", "no-finished", data.finished, true]]) {
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
setInterval(() => { if (!document.hidden) refreshRecent(); }, REFRESH_MS);
document.addEventListener("visibilitychange", () => { if (!document.hidden) refreshRecent(); });

async function main() {
  const response = await fetch("/api/catalog");
  catalog = (await response.json()).games;
  const list = $("games");
  for (const entry of catalog) {
    const card = document.createElement("article");
    card.className = "card game-card";
    card.dataset.game = entry.name;
    const title = document.createElement("h3");
    title.textContent = entry.title;
    const picture = document.createElement("div");
    picture.className = "picture";
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", entry.title + " start position");
    picture.appendChild(svg);
    drawPosition(svg, entry.name, entry.picture, { size: 150, labels: false });
    const summary = document.createElement("p");
    summary.textContent = entry.summary;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "quiet";
    button.textContent = "Set up " + entry.title;
    button.addEventListener("click", (e) => { e.stopPropagation(); chooseGame(entry.name); $("game").focus(); });
    card.addEventListener("click", () => chooseGame(entry.name));
    card.append(title, picture, summary, button);
    list.appendChild(card);
    const option = document.createElement("option");
    option.value = entry.name;
    option.textContent = entry.title;
    $("game").appendChild(option);
  }
  $("game").addEventListener("change", () => chooseGame($("game").value));
  $("opponent").addEventListener("change", refreshVisibility);
  $("new-game").addEventListener("submit", startGame);
  $("open-record").addEventListener("submit", openRecord);
  chooseGame(catalog[0].name);
}

refreshRecent();
main();
