// A game page: one WebSocket to the server, the board drawn from the server's display data,
// clicks and keys turned into moves in the game's notation. The server decides legality and
// explains every refusal; this page only presents.
"use strict";

const { LOOKS, drawPosition, cellKey, outcomeText: resultText } = window.lifearenaBoard;
const gameId = decodeURIComponent(location.pathname.split("/").pop());
const fragment = new URLSearchParams(location.hash.slice(1));
const SEAT_KEY = "lifearena-seat-" + gameId;
// a seat's token lives in the link's fragment (never sent to a server) and in this
// browser's storage, so the page finds it again; it travels only in a header or a message
let token = fragment.get("t") || localStorage.getItem(SEAT_KEY) || "";
if (fragment.get("t")) localStorage.setItem(SEAT_KEY, token);
let notice = "";        // a standing note (a spent invitation)
const BOARD_PX = 560;

let socket = null;
let retry = 500;
let current = null;     // the latest state from the server
let browsing = null;    // {upto, display} while looking at an earlier position
let selection = [];     // picked cells [r, c]
let cursor = [0, 0];
let animation = null;   // {phase, timer} while a generation is animated
let afterGeneration = null; // {births, deaths} marks of the last generation

function $(id) { return document.getElementById(id); }
function same(a, b) { return a[0] === b[0] && a[1] === b[1]; }
function say(text, kind) {
  const box = $("message");
  box.textContent = text || "";
  box.className = "message " + (kind || "info");
}
// a position the server shows as a program's printed output (Life for Two's 1978 program):
// a terminal and a typed answer instead of a board, the players' names without pieces
function terminal() { return Boolean(current.display.terminal); }
function lookName() { return terminal() ? "terminal" : current.game; }
function look() { return LOOKS[lookName()]; }
function names() { return look().names; }

// -- connection -------------------------------------------------------------------------------

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(`${scheme}//${location.host}/ws/${encodeURIComponent(gameId)}`);
  socket.onopen = () => {
    retry = 500;
    socket.send(JSON.stringify({ type: "hello", token: token || null }));
  };
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "state") receive(message);
    else if (message.type === "error") {
      say(message.error, "error");
      if (!current) setBanner(message.error, "wait");
    }
  };
  socket.onclose = (event) => {
    if (event.code >= 4400 && event.code < 4500) return; // refused: a bad link, no retry
    setBanner("Connection lost; reconnecting…", "wait");
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  };
}

async function post(path, body) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers["X-Seat-Token"] = token;
  const response = await fetch(`/api/games/${encodeURIComponent(gameId)}/${path}`, {
    method: "POST", headers, body: JSON.stringify(body) });
  const data = await response.json().catch(() => ({ error: `error ${response.status}` }));
  return { ok: response.ok, status: response.status, data };
}

async function send(move, seat) {
  say("");
  // the move names the move number it was chosen at: a late duplicate is refused, not replayed
  const message = { type: "move", move, seat, ply: current.ply };
  if (socket && socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify(message));
    return;
  }
  const { ok, data } = await post("moves", { move, seat, ply: current.ply });
  if (!ok) say(data.error, "error");
  else receive(data);
}

// an invitation link (#i=...): the first to open it takes the seat it offers
async function claimInvitation(invitation) {
  const { ok, data } = await post("claim", { invitation });
  if (ok) {
    token = data.token;
    localStorage.setItem(SEAT_KEY, token);
    history.replaceState(null, "", `${location.pathname}#t=${encodeURIComponent(token)}`);
    sessionStorage.setItem("links-" + gameId, JSON.stringify(data.links));
  } else {
    history.replaceState(null, "", token ? `${location.pathname}#t=${encodeURIComponent(token)}` : location.pathname);
    notice = data.error.charAt(0).toUpperCase() + data.error.slice(1);
  }
}

async function cancelGame() {
  const { ok, data } = await post("cancel", {});
  if (!ok) say(data.error, "error");
  else receive(data);
}

// -- state ------------------------------------------------------------------------------------

function receive(next) {
  const previous = current;
  current = next;
  // a reopened creator's page learns its invitation from the server, to send it again
  const invite = next.invitation && next.invitation.link;
  const known = JSON.parse(sessionStorage.getItem("links-" + gameId) || "{}");
  if (invite && known.invite !== invite) {
    sessionStorage.setItem("links-" + gameId, JSON.stringify({ ...known, invite }));
    showLinks();
  }
  const advanced = previous && next.move_number > previous.move_number;
  if (!previous || advanced || next.awaiting.join() !== previous.awaiting.join()) selection = [];
  if (advanced) browsing = null;
  if (advanced && next.display.collisions && next.display.collisions.length) {
    const both = next.display.collisions.map(([r, c]) => `${c + 1},${r + 1}`).join(" ");
    say(`Both players chose ${both}: left empty.`);
  }
  if (advanced && next.display.before) {
    clearTimeout(animation && animation.timer);
    afterGeneration = null;
    animation = { phase: "before", timer: setTimeout(() => {
      animation = null;
      afterGeneration = { births: next.display.births, deaths: next.display.deaths };
      render();
    }, 700) };
  } else if (advanced || !previous) {
    afterGeneration = next.display.before ? { births: next.display.births, deaths: next.display.deaths } : null;
  }
  render();
}

function actingSeat() {
  if (!current || current.outcome || current.waiting_for_opponent || current.cancelled) return null;
  const mine = current.seats.filter((s) => current.awaiting.includes(s));
  return mine.length ? mine[0] : null;
}

// what the board asks of a seat now (its interaction: a kind and a prompt in words)
function askedOf(seat) {
  const entry = current.legal[String(seat)];
  return entry && entry.interaction;
}

function legalOf(seat) {
  const entry = current.legal[String(seat)];
  return entry && entry.moves ? entry.moves : [];
}

function movesAt(seat, r, c) {
  return legalOf(seat).filter((m) => m.cells.length && same(m.cells[0], [r, c]));
}

// -- drawing ----------------------------------------------------------------------------------

function setBanner(text, kind) {
  const banner = $("banner");
  banner.textContent = text;
  banner.className = "banner " + kind;
}

function outcomeText(outcome) { return resultText(lookName(), outcome); }

function bannerFor() {
  const s = current;
  if (browsing) return [`Viewing the position after move ${browsing.upto} — click the banner to return`, "wait"];
  if (s.cancelled) return ["This game was cancelled by its creator before anyone joined.", "result draw"];
  if (s.waiting_for_opponent) {
    return s.seats.length ? ["Waiting for your opponent to join: send them the invitation link below.", "wait"]
      : ["Waiting for the second player to join.", "wait"];
  }
  if (s.outcome) {
    const single = s.seats.length === 1 ? s.seats[0] : null;
    let kind = "result";
    if (s.outcome.winner === null) kind += " draw";
    else if (single !== null && s.outcome.winner !== single) kind += " lost";
    const you = single === null || s.outcome.winner === null ? ""
      : s.outcome.winner === single ? "You win! " : "You lose. ";
    return [you + outcomeText(s.outcome), kind];
  }
  const seat = actingSeat();
  const n = names();
  if (animation) return ["The generation runs…", "turn"];
  if (s.thinking) return [`The agent (${s.opponent.agent}) is thinking…`, "wait"];
  if (s.agent_error) return [`${s.agent_error} — reload the page to try again`, "wait"];
  if (seat !== null) {
    const asked = askedOf(seat);
    const what = terminal() && asked && asked.kind === "answer" ? asked.prompt
      : s.simultaneous ? choosePrompt() : "your move";
    if (s.seats.length > 1) {
      const peek = s.simultaneous && s.chosen.length ? ` (${n[1 - seat]} has chosen — no peeking)` : "";
      return [`${n[seat]}: ${what}${peek}`, "turn"];
    }
    return [`You play ${n[seat]}: ${what}`, "turn"];
  }
  if (!s.seats.length) {
    if (notice) return [notice, "wait"];
    const who = s.awaiting.map((p) => n[p]).join(" and ");
    return [`Spectating — waiting for ${who}`, "wait"];
  }
  if (s.simultaneous) return ["Waiting for your opponent…", "wait"];
  return [`${n[s.awaiting[0]]} to move`, "wait"];
}

function choosePrompt() {
  const d = current.display;
  if (current.game === "life_for_two") return `choose ${d.choose} empty cell${d.choose > 1 ? "s" : ""}`;
  if (current.game === "p2life") return "place a token, remove one of yours, or pass";
  return "choose your move";
}

function pendingCells(text) {
  const cells = [];
  for (const match of (text || "").matchAll(/(\d+),(\d+)/g)) cells.push([Number(match[2]) - 1, Number(match[1]) - 1]);
  return cells;
}

function marks() {
  const result = {};
  const d = current.display;
  if (current.game === "war_of_life" && d.last_move) for (const [r, c] of d.last_move) result[cellKey(r, c)] = "last";
  if (current.game === "losat" && d.last_point) result[cellKey(...d.last_point)] = "last";
  if (current.game === "blocking_queen" && current.moves.length) {
    const [x, y] = d.queen;
    result[cellKey(y, x)] = "last";
  }
  if (current.seats.length === 1) {
    for (const text of Object.values(current.mine)) for (const [r, c] of pendingCells(text)) result[cellKey(r, c)] = "chosen";
  }
  if (animation && d.collisions) for (const [r, c] of d.collisions) result[cellKey(r, c)] = "collision";
  const seat = actingSeat();
  for (const cell of selection) result[cellKey(...cell)] = "selected";
  if (current.game === "war_of_life" && selection.length && seat !== null) {
    for (const m of movesAt(seat, ...selection[0])) result[cellKey(...m.cells[1])] = "target";
  }
  return result;
}

function render() {
  if (!current) return;
  document.title = `lifearena — ${current.title}`;
  const opponent = current.opponent;
  let against = " · at this screen";
  if (opponent.kind === "online") against = " · online";
  if (opponent.kind === "agent") {
    against = opponent.agent === opponent.level ? ` · against the ${opponent.agent} agent`
      : ` · against ${opponent.agent} (${opponent.level})`;
  }
  $("game-title").textContent = current.title + against;
  const [text, kind] = bannerFor();
  setBanner(text, kind);
  const svg = $("board");
  const d = browsing ? browsing.display : current.display;
  const opts = { size: BOARD_PX, cursor, marks: browsing ? {} : marks() };
  if (!browsing && animation && d.before) {
    opts.cells = d.before;
    opts.deaths = d.deaths;
    opts.births = d.births;
  } else if (!browsing && afterGeneration) {
    opts.births = afterGeneration.births;
    opts.deaths = afterGeneration.deaths;
  }
  const printed = Boolean(d.terminal);
  svg.toggleAttribute("hidden", printed); // an <svg> has no hidden property: the attribute
  $("terminal").hidden = !printed;
  if (printed) {
    $("terminal").textContent = d.text;
    $("terminal").scrollTop = $("terminal").scrollHeight;
  } else drawPosition(svg, current.game, d, opts);
  renderPlayers();
  renderMoves();
  renderChoices();
  $("move-help").textContent = current.move_help;
  $("legend").hidden = !(current.display.before || (afterGeneration && afterGeneration.births));
  $("typed").hidden = actingSeat() === null;
}

function renderPlayers() {
  const box = $("players");
  box.innerHTML = "";
  const d = current.display;
  names().forEach((name, seat) => {
    const row = document.createElement("div");
    row.className = "player" + (current.awaiting.includes(seat) && !current.outcome ? " to-move" : "");
    row.dataset.seat = seat;
    const swatch = document.createElement("span");
    swatch.className = "swatch";
    swatch.style.background = look().colours[seat];
    const label = document.createElement("span");
    let who = name;
    if (current.seats.length === 1 && current.seats[0] === seat) who += " (you)";
    else if (current.opponent.kind === "agent" && current.opponent.agent_seat === seat) who += `: ${current.players[seat]}`;
    else if (current.opponent.from_record && current.players[seat]) who += `: ${current.players[seat]}`;
    if (current.simultaneous && current.chosen.includes(seat)) who += " ✓ chosen";
    label.textContent = who;
    const count = document.createElement("span");
    count.className = "count";
    if (d.counts) {
      const plural = (n, word) => `${n} ${n === 1 ? word.replace(/s$/, "") : word}`;
      count.textContent = plural(d.counts[seat], d.count_label);
      if (d.stones) count.textContent += ` · ${plural(d.stones[seat], "stones")}`;
    }
    row.append(swatch, label, count);
    box.appendChild(row);
  });
  // whose turn it is means nothing once the game is over: the banner says how it ended
  const turn = current.outcome ? [] : [d.status];
  if (d.status) {
    const status = document.createElement("div");
    status.className = "help-line";
    status.textContent = [...turn, ...(d.k ? [`k = ${d.k}`] : []),
      ...(d.captures_to_win ? [`${d.captures_to_win} captures win`, "shaded rows: goal lines"] : []),
      ...(d.torus ? ["the board wraps around"] : [])].join(" · ");
    box.appendChild(status);
  }
}

function renderMoves() {
  const list = $("moves");
  list.innerHTML = "";
  current.moves.forEach((move, index) => {
    const item = document.createElement("li");
    item.textContent = move;
    item.tabIndex = 0;
    if (browsing && browsing.upto === index + 1) item.className = "viewing";
    const open = () => browse(index + 1);
    item.addEventListener("click", open);
    item.addEventListener("keydown", (e) => { if (e.key === "Enter") open(); });
    list.appendChild(item);
  });
  if (!browsing) list.scrollTop = list.scrollHeight;
  const base = `/api/games/${encodeURIComponent(gameId)}/record`;
  $("record-json").href = base + "?format=json";
  $("record-text").href = base + "?format=text";
}

function button(label, onClick, quiet) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = label;
  if (quiet) b.className = "quiet";
  b.addEventListener("click", onClick);
  return b;
}

function cellName(r, c) {
  const g = current.display.grid;
  return g ? g.col_labels[c] + g.row_labels[r] : `${c},${r}`;
}

function renderChoices() {
  const bar = $("choices");
  bar.innerHTML = "";
  if (current.waiting_for_opponent && current.seats.length) {
    const cancel = button("Cancel the game", cancelGame, true);
    cancel.id = "cancel";
    bar.appendChild(cancel);
    return;
  }
  const seat = actingSeat();
  if (seat === null || browsing || terminal()) return; // a program is answered in the typed box
  const legal = legalOf(seat);
  const game = current.game;
  if (game === "life_for_two") {
    const need = current.display.choose;
    const text = selection.map(([r, c]) => `${c + 1},${r + 1}`).join(" ");
    const go = button(selection.length === need ? `Place on ${text}` : `Pick ${need - selection.length} more cell${need - selection.length > 1 ? "s" : ""}`,
      () => send(text, seat));
    go.disabled = selection.length !== need;
    go.id = "confirm";
    bar.appendChild(go);
    if (selection.length) bar.appendChild(button("Clear", () => { selection = []; render(); }, true));
  }
  if (game === "p2life") {
    if (selection.length) {
      const [r, c] = selection[0];
      const value = current.display.grid.cells[r][c];
      const move = (value ? "-" : "+") + `${c + 1},${r + 1}`;
      const go = button(value ? `Remove ${c + 1},${r + 1}` : `Place on ${c + 1},${r + 1}`, () => send(move, seat));
      go.id = "confirm";
      bar.appendChild(go);
    }
    bar.appendChild(button("Pass", () => send("pass", seat), true));
  }
  if (game === "losat") {
    if (selection.length) {
      const words = { "+b": "Add black", "+w": "Add white", "-": "Remove", x: "Capture" };
      for (const m of movesAt(seat, ...selection[0])) {
        const prefix = m.move.startsWith("+") ? m.move.slice(0, 2) : m.move[0];
        bar.appendChild(button(`${words[prefix]} at ${cellName(...selection[0])}`, () => send(m.move, seat)));
      }
    }
    if (legal.some((m) => m.move === "pass")) bar.appendChild(button("Pass (no other move)", () => send("pass", seat)));
  }
  if (game === "blocking_queen" && legal.some((m) => m.move === "-")) {
    bar.appendChild(button(`Stop blocking (${current.display.blocks_left} left)`, () => send("-", seat), true));
  }
}

async function browse(upto) {
  if (upto === current.moves.length) { browsing = null; render(); return; }
  const response = await fetch(`/api/games/${encodeURIComponent(gameId)}/position?upto=${upto}`);
  const data = await response.json();
  if (!response.ok) { say(data.error, "error"); return; }
  browsing = { upto, display: data };
  render();
}

// -- input ------------------------------------------------------------------------------------

function whyNot() {
  if (browsing) return "You are looking at an earlier position; click the banner to return to the game.";
  if (current.cancelled) return "This game was cancelled.";
  if (current.waiting_for_opponent) return "Nobody can move until your opponent joins.";
  if (current.outcome) return "The game is over.";
  if (!current.seats.length) return "Spectators watch; only a seat's private link can move.";
  if (current.thinking) return "The agent is thinking; wait for its move.";
  if (current.simultaneous) return "You have chosen; waiting for your opponent.";
  return `It is ${names()[current.awaiting[0]]}'s turn, not yours.`;
}

function clickCell(r, c) {
  if (!current || animation) return;
  cursor = [r, c];
  const seat = actingSeat();
  if (seat === null || browsing) { say(whyNot(), "error"); render(); return; }
  const handler = { war_of_life: clickWar, life_for_two: clickLifeForTwo, losat: clickLosat,
    p2life: clickP2life, blocking_queen: clickQueen }[current.game];
  handler(seat, r, c);
  render();
}

function clickWar(seat, r, c) {
  const value = current.display.grid.cells[r][c];
  if (selection.length) {
    const target = movesAt(seat, ...selection[0]).find((m) => same(m.cells[1], [r, c]));
    if (target) { send(target.move, seat); selection = []; return; }
  }
  if (value === seat + 1) {
    const moves = movesAt(seat, r, c);
    if (!moves.length) { selection = []; say("This piece cannot move: every neighbouring cell is taken.", "error"); return; }
    selection = [[r, c]];
    say(`${moves.length} cell${moves.length > 1 ? "s" : ""} to go to: click a highlighted one.`);
    return;
  }
  if (value) { say(`That is a ${names()[value - 1].toLowerCase()} piece; you play ${names()[seat].toLowerCase()}.`, "error"); return; }
  if (selection.length) {
    const [r1, c1] = selection[0];
    send(`[${r1 + 1},${c1 + 1},${r + 1},${c + 1}]`, seat); // the server says why not
    return;
  }
  say("Click one of your pieces first, then where it goes.", "error");
}

function clickLifeForTwo(seat, r, c) {
  const need = current.display.choose;
  const index = selection.findIndex((cell) => same(cell, [r, c]));
  if (index >= 0) { selection.splice(index, 1); return; }
  if (current.display.grid.cells[r][c]) {
    if (need === 1) { send(`${c + 1},${r + 1}`, seat); return; } // the server says why not
    say(`Cell ${c + 1},${r + 1} is taken; choose empty cells.`, "error");
    return;
  }
  if (selection.length === need) {
    if (need === 1) selection = [];
    else { say(`You have picked ${need} cells; click one to unpick it.`, "error"); return; }
  }
  selection.push([r, c]);
  say(selection.length === need ? "Press Place (or Enter) to confirm." : "");
}

function clickLosat(seat, r, c) {
  const moves = movesAt(seat, r, c);
  const name = cellName(r, c);
  if (moves.length === 1) { selection = []; send(moves[0].move, seat); return; }
  if (moves.length > 1) { selection = [[r, c]]; say(`Choose what to do at ${name}.`); return; }
  selection = [];
  const value = current.display.grid.cells[r][c];
  const probe = value === 0 ? `+${current.symbols[seat]}${name}` : value === seat + 1 ? `-${name}` : `x${name}`;
  send(probe, seat); // not legal: the server says why
}

function clickP2life(seat, r, c) {
  const value = current.display.grid.cells[r][c];
  if (value && value !== seat + 1) { send(`-${c + 1},${r + 1}`, seat); return; } // the server says why not
  if (selection.length && same(selection[0], [r, c])) {
    send((value ? "-" : "+") + `${c + 1},${r + 1}`, seat);
    selection = [];
    return;
  }
  selection = [[r, c]];
  say(value ? "Remove this token? Click it again or press the button." : "Place here? Click again or press the button.");
}

function clickQueen(seat, y, x) {
  const moves = movesAt(seat, y, x);
  if (moves.length) { send(moves[0].move, seat); return; }
  send((current.display.blocking ? "#" : "") + `${x},${y}`, seat); // the server says why not
}

function onKey(event) {
  if (!current) return;
  const d = current.display;
  const rows = d.grid ? d.grid.rows : Math.max(...d.start) + 1;
  const cols = d.grid ? d.grid.cols : rows;
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  if (moves[event.key]) {
    const [dr, dc] = moves[event.key];
    cursor = [Math.min(rows - 1, Math.max(0, cursor[0] + dr)), Math.min(cols - 1, Math.max(0, cursor[1] + dc))];
    render();
  } else if (event.key === "Enter" || event.key === " ") {
    const confirm = $("confirm");
    if (event.key === "Enter" && confirm && !confirm.disabled && selection.length === (d.choose || 1)
        && (current.game !== "p2life" || same(selection[0], cursor))) confirm.click();
    else clickCell(...cursor);
  } else if (event.key === "Escape") {
    selection = [];
    say("");
    render();
  } else return;
  event.preventDefault();
}

function copyLink(input, button) {
  // the clipboard API needs a secure context (https or localhost); elsewhere, the selection
  input.select();
  const copied = navigator.clipboard && window.isSecureContext
    ? navigator.clipboard.writeText(input.value).then(() => true, () => false)
    : Promise.resolve(document.execCommand("copy"));
  copied.then((ok) => {
    button.textContent = ok ? "Copied" : "Select and copy";
    setTimeout(() => { button.textContent = "Copy"; }, 1500);
  });
}

function showLinks() {
  const stored = sessionStorage.getItem("links-" + gameId);
  const links = stored ? JSON.parse(stored) : {};
  if (!links.spectator) links.spectator = `/play/${gameId}`;
  if (token && !links.you) links.you = `${location.pathname}#t=${encodeURIComponent(token)}`;
  const labels = { invite: "Invitation", you: "Your link", spectator: "Spectators" };
  const rows = $("link-rows");
  rows.innerHTML = "";
  for (const [key, path] of Object.entries(links)) {
    const row = document.createElement("div");
    row.className = "row";
    const label = document.createElement("label");
    label.textContent = labels[key] || key;
    const input = document.createElement("input");
    input.type = "text";
    input.readOnly = true;
    input.value = location.origin + path;
    input.dataset.link = key;
    input.addEventListener("focus", () => input.select());
    label.htmlFor = input.id = "link-" + key;
    const copy = document.createElement("button");
    copy.type = "button";
    copy.className = "quiet";
    copy.textContent = "Copy";
    copy.setAttribute("aria-label", "Copy " + label.textContent.toLowerCase());
    copy.addEventListener("click", () => copyLink(input, copy));
    row.append(label, input, copy);
    rows.appendChild(row);
  }
  $("links-note").textContent = links.invite
    ? "Send the invitation to your opponent: the first person to open it takes the other seat, and it then only watches. Your link is your own key: keep it to come back."
    : "Your link is your only key to play this game: keep it to come back. The spectators' link only watches.";
  if (notice) $("links-note").textContent = notice;
  $("links").hidden = false;
}

function main() {
  const svg = $("board");
  svg.addEventListener("click", (event) => {
    const cell = event.target.closest("[data-cell]");
    if (cell) clickCell(Number(cell.dataset.r), Number(cell.dataset.c));
  });
  svg.addEventListener("keydown", onKey);
  $("banner").addEventListener("click", () => { if (browsing) { browsing = null; render(); } });
  $("typed").addEventListener("submit", (event) => {
    event.preventDefault();
    const seat = actingSeat();
    const text = $("typed-move").value.trim();
    if (seat === null) { say(whyNot(), "error"); return; }
    if (text) send(text, seat);
    $("typed-move").value = "";
  });
  const invitation = fragment.get("i");
  (invitation ? claimInvitation(invitation) : Promise.resolve()).then(() => {
    showLinks();
    connect();
  });
}

main();
