// The palace explorer: a pannable, zoomable map of palace numbers n(x, y) drawn from tiles
// the server computes on demand. Level L: a screen pixel is 2^L squares (L < 0: a square is
// 2^-L pixels, drawn from exact level-0 tiles).
import { request } from "/static/js/request.js";

const $ = (id) => document.getElementById(id);
const MIN_LEVEL = -5;
const PALE = [241, 237, 228], BLUE = [47, 109, 179], RED = [196, 69, 60];
const V = { k: 2, level: -2, ox: 0, oy: 0, tile: 256, maxLevel: 8, maxK: 64, scale: 16, sat: 4, playMax: 127 };
const tiles = new Map();   // key -> {state: "loading"|"ready"|"error", image, data, meta, error}
const canvas = $("map");
const ctx = canvas.getContext("2d");
const HELP = $("hover").textContent;
let pointer = null;   // the mouse's last {clientX, clientY} over the map; null when off it

function blend(a, b, t) { return a.map((v, i) => Math.round(v + (b[i] - v) * t)); }

function colourExact(n, k) {
  if (n < k) return BLUE;
  return blend(PALE, RED, Math.min(n - k, 4) / 4);
}

function colourMean(v, sat) {
  return v < 0 ? blend(PALE, BLUE, Math.min(-v / sat, 1)) : blend(PALE, RED, Math.min(v / sat, 1));
}

function tileLevel() { return Math.max(V.level, 0); }
function unit() { return Math.pow(2, V.level); }            // squares per screen pixel
function span() { return V.tile * Math.pow(2, tileLevel()); }  // squares per tile side
function key(k, level, tx, ty) { return `${k}/${level}/${tx}/${ty}`; }

function showError(text) { $("error").textContent = text || ""; }

async function fetchTile(k, level, tx, ty) {
  const id = key(k, level, tx, ty);
  const entry = { state: "loading" };
  tiles.set(id, entry);
  try {
    const answer = await request(`/api/lab/palace/tile?k=${k}&level=${level}&tx=${tx}&ty=${ty}`);
    if (!answer.ok) throw new Error(answer.error || "");
    const data = answer.data;
    const bytes = Uint8Array.from(atob(data.values), (c) => c.charCodeAt(0));
    entry.data = data.exact ? bytes : new Int8Array(bytes.buffer);
    entry.meta = data;
    const image = new ImageData(data.size, data.size);
    for (let i = 0; i < entry.data.length; i++) {
      const c = data.exact ? colourExact(entry.data[i], k) : colourMean(entry.data[i] / data.scale, data.saturation);
      image.data[4 * i] = c[0]; image.data[4 * i + 1] = c[1]; image.data[4 * i + 2] = c[2];
      image.data[4 * i + 3] = 255;
    }
    entry.image = document.createElement("canvas");
    entry.image.width = entry.image.height = data.size;
    entry.image.getContext("2d").putImageData(image, 0, 0);
    entry.state = "ready";
  } catch (error) {
    entry.state = "error"; entry.error = error.message;
    showError(error.message);
  }
  if (tiles.size > 400) tiles.delete(tiles.keys().next().value);
  draw();
}

function visibleTiles() {
  const s = span(), u = unit();
  const x1 = V.ox + canvas.width * u, y1 = V.oy + canvas.height * u;
  const out = [];
  for (let ty = Math.max(0, Math.floor(V.oy / s)); ty * s < y1; ty++) {
    for (let tx = Math.max(0, Math.floor(V.ox / s)); tx * s < x1; tx++) out.push([tx, ty]);
  }
  return out;
}

function draw() {
  ctx.imageSmoothingEnabled = false;
  ctx.fillStyle = "#e4dfd5";
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  const s = span(), u = unit(), level = tileLevel();
  let loading = 0;
  for (const [tx, ty] of visibleTiles()) {
    const entry = tiles.get(key(V.k, level, tx, ty));
    const left = (tx * s - V.ox) / u, top = (ty * s - V.oy) / u, size = s / u;
    if (!entry) { fetchTile(V.k, level, tx, ty); loading++; continue; }
    if (entry.state === "loading") { loading++; continue; }
    if (entry.state === "error") {
      ctx.fillStyle = "#d6d0c4"; ctx.fillRect(left, top, size, size);
      continue;
    }
    ctx.drawImage(entry.image, left, top, size, size);
  }
  if (u <= 1 / 8) {   // grid lines between squares when they are 8 pixels or more
    const px = 1 / u;
    ctx.strokeStyle = "rgba(0,0,0,0.08)";
    ctx.beginPath();
    for (let x = (Math.ceil(V.ox) - V.ox) * px; x < canvas.width; x += px) { ctx.moveTo(Math.round(x) + 0.5, 0); ctx.lineTo(Math.round(x) + 0.5, canvas.height); }
    for (let y = (Math.ceil(V.oy) - V.oy) * px; y < canvas.height; y += px) { ctx.moveTo(0, Math.round(y) + 0.5); ctx.lineTo(canvas.width, Math.round(y) + 0.5); }
    ctx.stroke();
  }
  const pixel = V.level <= 0 ? `a square is ${Math.pow(2, -V.level)} px` : `a pixel is ${Math.pow(2, V.level)}² squares`;
  $("zoom").textContent = pixel;
  $("status").textContent = loading ? `computing ${loading} tile${loading > 1 ? "s" : ""}…` : "";
  document.body.dataset.loading = String(loading);
  $("x").value = Math.floor(V.ox); $("y").value = Math.floor(V.oy);
  history.replaceState(null, "", `#k=${V.k}&x=${Math.floor(V.ox)}&y=${Math.floor(V.oy)}&level=${V.level}`);
  hover();
}

// The line under the map: what is under the mouse now. Every draw says it again, so that
// after a zoom, a pan from the keyboard, a new k or a tile that arrives it describes the
// square now under the mouse, not the one it was over before.
function hover() {
  if (!pointer) return;
  const [x, y] = squareAt(pointer);
  $("hover").textContent = describe(x, y);
}

// The value under a square: exact n at level 0, a block mean of n - k above.
function valueAt(x, y) {
  const level = tileLevel(), s = span(), block = Math.pow(2, level);
  const entry = tiles.get(key(V.k, level, Math.floor(x / s), Math.floor(y / s)));
  if (!entry || entry.state !== "ready") return null;
  const i = Math.floor((y % s) / block) * V.tile + Math.floor((x % s) / block);
  return entry.meta.exact ? { n: entry.data[i] } : { mean: entry.data[i] / entry.meta.scale, block };
}

function squareAt(event) {
  const box = canvas.getBoundingClientRect();
  const px = (event.clientX - box.left) * canvas.width / box.width;
  const py = (event.clientY - box.top) * canvas.height / box.height;
  return [Math.floor(V.ox + px * unit()), Math.floor(V.oy + py * unit()), px, py];
}

// The web game starts the queen on squares up to playMax (its board is playMax + 1 squares a side).
function playable(x, y) { return x <= V.playMax && y <= V.playMax && !(x === 0 && y === 0); }

function playNote(x, y) {
  if (playable(x, y)) return " · click to play from here";
  if (x === 0 && y === 0) return " · the queen game starts off the origin";
  return ` · the web game starts the queen at x, y ≤ ${V.playMax} (its board is ${V.playMax + 1} × ${V.playMax + 1})`;
}

function describe(x, y) {
  if (x < 0 || y < 0) return "outside the quarter-plane";
  const value = valueAt(x, y);
  if (!value) return `(${x}, ${y})`;
  if (value.n !== undefined) {
    return `(${x}, ${y}): n = ${value.n}` + (value.n < V.k ? " — a palace" : "") + playNote(x, y);
  }
  const bx = x - (x % value.block), by = y - (y % value.block);
  return `(${x}, ${y}) in block ${bx}..${bx + value.block - 1} × ${by}..${by + value.block - 1}: mean n − k = ${value.mean.toFixed(2)}`;
}

function zoomAt(px, py, levels) {
  const next = Math.min(V.maxLevel, Math.max(MIN_LEVEL, V.level + levels));
  if (next === V.level) return;
  const x = V.ox + px * unit(), y = V.oy + py * unit();
  V.level = next;
  V.ox = Math.max(0, x - px * unit()); V.oy = Math.max(0, y - py * unit());
  showError("");
  draw();
}

async function play(x, y) {
  showError("");
  if (!playable(x, y)) { showError(`(${x}, ${y}):${playNote(x, y).slice(2)}`); return; }
  const answer = await request("/api/games", { body: { game: "blocking_queen", opponent: "agent",
    level: "hard", side: 0, params: { k: V.k, start: "square", x, y } } });
  if (!answer.ok) { showError(`cannot open the game from (${x}, ${y}): ${answer.error}`); return; }
  location.href = answer.data.links.you;
}

let drag = null;
canvas.addEventListener("pointerdown", (event) => {
  drag = { x: event.clientX, y: event.clientY, ox: V.ox, oy: V.oy, moved: false };
  canvas.setPointerCapture(event.pointerId);
});
canvas.addEventListener("pointermove", (event) => {
  pointer = { clientX: event.clientX, clientY: event.clientY };
  hover();
  if (!drag) return;
  const dx = event.clientX - drag.x, dy = event.clientY - drag.y;
  if (Math.abs(dx) + Math.abs(dy) > 4) drag.moved = true;
  if (drag.moved) {
    const box = canvas.getBoundingClientRect(), scale = canvas.width / box.width;
    V.ox = Math.max(0, drag.ox - dx * scale * unit()); V.oy = Math.max(0, drag.oy - dy * scale * unit());
    draw();
  }
});
canvas.addEventListener("pointerleave", () => {
  if (drag) return;   // a drag goes on outside the map (the pointer is captured)
  pointer = null;
  $("hover").textContent = HELP;
});
canvas.addEventListener("pointerup", (event) => {
  const wasClick = drag && !drag.moved;
  drag = null;
  if (!wasClick) return;
  const [x, y] = squareAt(event);
  if (V.level > 0) { const [, , px, py] = squareAt(event); zoomAt(px, py, -V.level); return; }
  play(x, y).catch((error) => showError(error.message));
});
canvas.addEventListener("wheel", (event) => {
  event.preventDefault();
  pointer = { clientX: event.clientX, clientY: event.clientY };
  const [, , px, py] = squareAt(event);
  zoomAt(px, py, event.deltaY > 0 ? 1 : -1);
}, { passive: false });
canvas.addEventListener("keydown", (event) => {
  const step = 32 * unit();
  const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
  if (moves[event.key]) {
    event.preventDefault();
    V.ox = Math.max(0, V.ox + moves[event.key][0]); V.oy = Math.max(0, V.oy + moves[event.key][1]);
    draw();
  } else if (event.key === "+" || event.key === "-") {
    zoomAt(canvas.width / 2, canvas.height / 2, event.key === "+" ? -1 : 1);
  }
});
$("zoom-in").addEventListener("click", () => zoomAt(canvas.width / 2, canvas.height / 2, -1));
$("zoom-out").addEventListener("click", () => zoomAt(canvas.width / 2, canvas.height / 2, 1));

function goTo(k, x, y, level) {
  if (!Number.isInteger(k) || k < 1 || k > V.maxK) {
    showError(`k=${k}; the explorer draws k from 1 to ${V.maxK}`);
    return;
  }
  if (!(x >= 0 && y >= 0)) { showError(`(${x}, ${y}); expected x, y >= 0`); return; }
  showError("");
  V.k = k; V.ox = x; V.oy = y;
  if (level !== undefined) V.level = Math.min(V.maxLevel, Math.max(MIN_LEVEL, level));
  $("k").value = k;
  draw();
}

$("go").addEventListener("click", () => goTo(Number($("k").value), Number($("x").value), Number($("y").value)));
$("origin").addEventListener("click", () => goTo(Number($("k").value), 0, 0));

async function start() {
  const answer = await request("/api/lab/palace/limits");
  if (!answer.ok) throw new Error(answer.error || "");
  const limits = answer.data;
  V.tile = limits.tile; V.maxLevel = limits.max_level; V.maxK = limits.max_k;
  V.playMax = limits.play_max_square;
  $("k").max = V.maxK;
  goToHash();
  document.body.dataset.ready = "1";
}

// The view named by the link's #k=..&x=..&y=..&level=..; also when it is edited in an open tab.
function goToHash() {
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  goTo(Number(params.get("k") || 2), Number(params.get("x") || 0), Number(params.get("y") || 0),
    params.has("level") ? Number(params.get("level")) : -2);
}

window.addEventListener("hashchange", goToHash);
window.addEventListener("scroll", hover, { passive: true });   // the map moved under the mouse

// for tests and the curious (import it): the view, the value at a square, the tiles held
export { V as view, valueAt, tiles };
start().catch((error) => showError(error.message));

