// The automaton sandbox: draw, run and share two-colour Life runs. The page steps the grid
// itself with LifeStep (lifestep.js, the engine's rule-table step and coin); the server gives
// it the rule tables, the engine's random soups and Golly RLE in and out.
import { requestJson as api, showError } from "./common.js";
import * as LifeStep from "./lifestep.js";

const COLOURS = [[251, 250, 247], [47, 109, 179], [196, 69, 60]];
const VIEW = 720;            // the canvas's longer side, in pixels (its column is about 760)
const $ = (id) => document.getElementById(id);

const S = {
  rules: [], maxSide: 256,
  rule: null, ruleSpec: "life",
  width: 128, height: 128, torus: true, seed: 1n,
  start: { kind: "soup", density: 0.3 },   // or {kind: "rle", rle} or {kind: "cells", cells}
  g0: 0, gen: 0,
  cells: new Uint8Array(0), spare: new Uint8Array(0),
  running: false, speed: 30, owed: 0, last: 0, rateCount: 0, rateSince: 0,
  runGen0: 0, runSince: 0,   // the generation and the time the current run started at
  startCells: new Uint8Array(0),
};

// -- the server ------------------------------------------------------------------------------


function toDigits(cells) {
  let text = "";
  for (let i = 0; i < cells.length; i += 4096) {
    text += String.fromCharCode(...cells.subarray(i, i + 4096).map((v) => v + 48));
  }
  return text;
}

function fromDigits(text) {
  const cells = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) cells[i] = text.charCodeAt(i) - 48;
  return cells;
}

// -- the grid --------------------------------------------------------------------------------

function checkSize(width, height) {
  for (const [label, value] of [["width", width], ["height", height]]) {
    if (!Number.isInteger(value) || value < 1 || value > S.maxSide) {
      // the same words as the server's check_side
      const problem = value > S.maxSide ? "is over the sandbox's limit"
        : Number.isInteger(value) ? "is too small" : "is not a whole number";
      throw new Error(`${label} ${value} ${problem}; expected 1 to ${S.maxSide} cells`);
    }
  }
}

function setGrid(width, height, cells) {
  S.width = width; S.height = height;
  S.cells = cells; S.spare = new Uint8Array(cells.length);
  $("width").value = width; $("height").value = height;
  layout();
}

// The current grid becomes the start of a run at the current generation.
function markStart(start) {
  S.start = start; S.g0 = S.gen; S.startCells = Uint8Array.from(S.cells);
}

// A seed is a whole number from 0 to 2^63 - 1, kept as a BigInt: a JS Number would round
// seeds above 2^53 and the coin would no longer be the engine's.
function readSeed(text) {
  const digits = String(text).trim();
  if (!/^[0-9]+$/.test(digits) || BigInt(digits) > 2n ** 63n - 1n) {
    throw new Error(`seed '${digits}' is not a whole number from 0 to 2^63 - 1`);
  }
  return BigInt(digits);
}

async function soup() {
  const width = Number($("width").value), height = Number($("height").value);
  checkSize(width, height);
  const density = Number($("density").value), seed = readSeed($("seed").value);
  const data = await api(`/api/lab/soup?height=${height}&width=${width}&density=${density}&seed=${seed}`);
  S.seed = seed; S.gen = 0;
  setGrid(width, height, fromDigits(data.cells));
  markStart({ kind: "soup", density });
}

function emptyGrid() {
  const width = Number($("width").value), height = Number($("height").value);
  checkSize(width, height);
  S.gen = 0;
  setGrid(width, height, new Uint8Array(width * height));
  markStart({ kind: "cells" });
}

// Place a pattern in the middle of the current grid (growing the grid to hold it).
function place(pattern) {
  const width = Math.max(S.width, pattern.width), height = Math.max(S.height, pattern.height);
  const cells = new Uint8Array(width * height);
  const top = Math.floor((height - pattern.height) / 2), left = Math.floor((width - pattern.width) / 2);
  for (let y = 0; y < pattern.height; y++) {
    for (let x = 0; x < pattern.width; x++) {
      cells[(top + y) * width + left + x] = pattern.cells.charCodeAt(y * pattern.width + x) - 48;
    }
  }
  S.gen = 0;
  setGrid(width, height, cells);
}

async function loadRle(text) {
  const pattern = await api("/api/lab/rle/read", { text });
  if (pattern.rule) await chooseRule(pattern.rule);
  place(pattern);
  markStart({ kind: "rle", rle: text });
}

async function saveRle() {
  const data = await api("/api/lab/rle/write", {
    height: S.height, width: S.width, cells: toDigits(S.cells), rule: S.ruleSpec });
  $("rle").value = data.text;
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([data.text], { type: "text/plain" }));
  link.download = `sandbox-gen${S.gen}.rle`;
  link.click();
  URL.revokeObjectURL(link.href);
}

// -- rules -----------------------------------------------------------------------------------

async function chooseRule(spec) {
  const known = S.rules.find((r) => r.name === spec);
  const rule = known || await api(`/api/lab/rule?spec=${encodeURIComponent(spec)}`);
  S.rule = rule; S.rule.tableBytes = Uint8Array.from(rule.table); S.ruleSpec = spec;
  $("rule").value = known ? known.name : "";
  if (!known) $("rule-text").value = spec;
  $("rule-about").textContent = `${rule.name}: ${rule.description || "a typed rule"}` +
    (rule.coin ? " (3-vs-3 births by a fair coin from the seed)" : "");
}

// -- running ---------------------------------------------------------------------------------

function stepOnce() {
  LifeStep.step(S.cells, S.spare, S.height, S.width, S.rule.tableBytes, S.torus, S.seed, S.gen);
  [S.cells, S.spare] = [S.spare, S.cells];
  S.gen += 1;
  S.rateCount += 1;
}

// The generations-per-second readout: measured every RATE_EVERY ms while the grid runs, and
// over the whole run when it pauses, so that the last measured figure stays on screen ("–"
// only before any run was measured).
const RATE_EVERY = 500;
function showRate(perSecond) {
  $("rate").textContent = perSecond >= 10 ? String(Math.round(perSecond)) : perSecond.toFixed(1);
}

function frame(now) {
  if (!S.running) return;
  const elapsed = Math.min(250, now - (S.last || now));
  S.last = now;
  if (S.speed > 120) {
    const until = performance.now() + 14;
    do stepOnce(); while (performance.now() < until);
  } else {
    S.owed += elapsed * S.speed / 1000;
    while (S.owed >= 1) { stepOnce(); S.owed -= 1; }
  }
  draw();
  if (now - S.rateSince >= RATE_EVERY) {
    showRate(S.rateCount * 1000 / (now - S.rateSince));
    S.rateCount = 0; S.rateSince = now;
  }
  requestAnimationFrame(frame);
}

function setRunning(on) {
  if (!on && S.running) {
    const ms = performance.now() - S.runSince;
    if (ms >= 100 && S.gen > S.runGen0) showRate((S.gen - S.runGen0) * 1000 / ms);
  }
  S.running = on;
  $("run").textContent = on ? "Pause" : "Run";
  if (on) {
    S.last = 0; S.owed = 0; S.rateCount = 0; S.rateSince = S.runSince = performance.now();
    S.runGen0 = S.gen;
    requestAnimationFrame(frame);
  }
}

// -- drawing ---------------------------------------------------------------------------------

const canvas = $("field");
const ctx = canvas.getContext("2d");
const off = document.createElement("canvas");
let unit = 4;

function layout() {
  unit = Math.max(1, Math.floor(VIEW / Math.max(S.width, S.height)));
  canvas.width = S.width * unit; canvas.height = S.height * unit;
  off.width = S.width; off.height = S.height;
  draw();
}

function draw() {
  const octx = off.getContext("2d");
  const image = octx.createImageData(S.width, S.height);
  const data = image.data;
  for (let i = 0; i < S.cells.length; i++) {
    const colour = COLOURS[S.cells[i]];
    data[4 * i] = colour[0]; data[4 * i + 1] = colour[1]; data[4 * i + 2] = colour[2];
    data[4 * i + 3] = 255;
  }
  octx.putImageData(image, 0, 0);
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(off, 0, 0, canvas.width, canvas.height);
  if (unit >= 6) {
    ctx.strokeStyle = "rgba(0,0,0,0.07)";
    ctx.beginPath();
    for (let x = 0; x <= S.width; x++) { ctx.moveTo(x * unit + 0.5, 0); ctx.lineTo(x * unit + 0.5, canvas.height); }
    for (let y = 0; y <= S.height; y++) { ctx.moveTo(0, y * unit + 0.5); ctx.lineTo(canvas.width, y * unit + 0.5); }
    ctx.stroke();
  }
  const [p1, p2] = LifeStep.population(S.cells);
  $("gen").textContent = S.gen; $("pop1").textContent = p1; $("pop2").textContent = p2;
}

function cellAt(event) {
  const box = canvas.getBoundingClientRect();
  const x = Math.floor((event.clientX - box.left) * S.width / box.width);
  const y = Math.floor((event.clientY - box.top) * S.height / box.height);
  return x >= 0 && y >= 0 && x < S.width && y < S.height ? [x, y] : null;
}

let painting = null;
canvas.addEventListener("contextmenu", (event) => event.preventDefault());
canvas.addEventListener("pointerdown", (event) => {
  const value = event.button === 2 ? 0 : Number(document.querySelector("input[name=paint]:checked").value);
  painting = value;
  canvas.setPointerCapture(event.pointerId);
  paint(event);
});
canvas.addEventListener("pointermove", (event) => {
  const at = cellAt(event);
  $("hover").textContent = at ? `x ${at[0]}, y ${at[1]}` : "";
  if (painting !== null) paint(event);
});
canvas.addEventListener("pointerup", () => {
  if (painting !== null) markStart({ kind: "cells" });
  painting = null;
});

function paint(event) {
  const at = cellAt(event);
  if (!at) return;
  S.cells[at[1] * S.width + at[0]] = painting;
  draw();
}

// -- the share link --------------------------------------------------------------------------

async function shareLink() {
  const params = new URLSearchParams({ rule: S.ruleSpec, w: S.width, h: S.height,
    torus: S.torus ? 1 : 0, seed: S.seed });
  if (S.start.kind === "soup") {
    params.set("soup", S.start.density);
  } else {
    const data = await api("/api/lab/rle/write", {
      height: S.height, width: S.width, cells: toDigits(S.startCells), rule: null });
    params.set("rle", data.text);
  }
  if (S.g0) params.set("g0", S.g0);
  params.set("gen", S.gen);
  return `${location.origin}/lab/sandbox#${params.toString()}`;
}

async function openLink(hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  if (![...params.keys()].length) return false;
  const width = Number(params.get("w") || 128), height = Number(params.get("h") || 128);
  checkSize(width, height);
  S.torus = params.get("torus") !== "0"; $("torus").value = S.torus ? "1" : "0";
  S.seed = readSeed(params.get("seed") || "0"); $("seed").value = String(S.seed);
  await chooseRule(params.get("rule") || "life");
  $("width").value = width; $("height").value = height;
  if (params.has("soup")) {
    $("density").value = params.get("soup");
    await soup();
  } else {
    setGrid(width, height, new Uint8Array(width * height));
    if (params.has("rle")) {
      const pattern = await api("/api/lab/rle/read", { text: params.get("rle") });
      place(pattern);
    }
    markStart({ kind: params.has("rle") ? "rle" : "cells" });
  }
  S.gen = Number(params.get("g0") || 0); S.g0 = S.gen;
  const target = Number(params.get("gen") || S.gen);
  while (S.gen < target) stepOnce();
  draw();
  return true;
}

// -- wiring ----------------------------------------------------------------------------------

function guarded(handler) {
  return async (event) => {
    if (event) event.preventDefault();
    showError(null);
    try { await handler(event); } catch (error) { showError(error); }
  };
}

$("run").addEventListener("click", guarded(() => setRunning(!S.running)));
$("step").addEventListener("click", guarded(() => { setRunning(false); stepOnce(); draw(); }));
$("reset").addEventListener("click", guarded(() => {
  setRunning(false); S.gen = S.g0; S.cells = Uint8Array.from(S.startCells); draw();
}));
$("clear").addEventListener("click", guarded(() => {
  setRunning(false); S.cells.fill(0); markStart({ kind: "cells" }); draw();
}));
$("speed").addEventListener("input", () => {
  S.speed = Number($("speed").value);
  $("speed-text").textContent = S.speed > 120 ? "max" : `${S.speed}/s`;
});
$("rule").addEventListener("change", guarded(async () => {
  await chooseRule($("rule").value);
  if (S.gen > S.g0) markStart({ kind: "cells" });
}));
$("rule-use").addEventListener("click", guarded(async () => {
  await chooseRule($("rule-text").value);
  if (S.gen > S.g0) markStart({ kind: "cells" });
}));
// A change of rule, edges or seed after some generations starts a new run from the grid as
// it is, so that a share link still replays exactly what is on screen.
function restartHere() {
  if (S.gen > S.g0 || S.start.kind === "soup") markStart({ kind: "cells" });
}
$("torus").addEventListener("change", () => { restartHere(); S.torus = $("torus").value === "1"; });
$("seed").addEventListener("change", guarded(() => {
  const seed = readSeed($("seed").value);
  restartHere(); S.seed = seed;
}));
$("resize").addEventListener("click", guarded(() => { setRunning(false); emptyGrid(); }));
$("soup").addEventListener("click", guarded(() => { setRunning(false); return soup(); }));
$("rle-load").addEventListener("click", guarded(() => { setRunning(false); return loadRle($("rle").value); }));
$("rle-save").addEventListener("click", guarded(saveRle));
$("rle-file").addEventListener("change", guarded(async () => {
  const file = $("rle-file").files[0];
  if (file) { $("rle").value = await file.text(); setRunning(false); await loadRle($("rle").value); }
}));
$("share-make").addEventListener("click", guarded(async () => {
  const link = await shareLink();
  $("share").value = link;
  history.replaceState(null, "", link);
}));

async function start() {
  const data = await api("/api/lab/rules");
  S.rules = data.rules; S.maxSide = data.max_side;
  for (const rule of S.rules) {
    const option = document.createElement("option");
    option.value = rule.name; option.textContent = rule.name;
    $("rule").appendChild(option);
  }
  const typed = document.createElement("option");
  typed.value = ""; typed.textContent = "(typed below)";
  $("rule").appendChild(typed);
  $("width").max = S.maxSide; $("height").max = S.maxSide;
  if (!await openLink(location.hash)) {
    await chooseRule("life");
    await soup();
  }
  document.body.dataset.ready = "1";
}

// For tests and the curious (import it): the state, and a timing of n generations without drawing.
export const sandbox = {
  state: S,
  cellsText: () => toDigits(S.cells),
  population: () => LifeStep.population(S.cells),
  bench(n) {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) stepOnce();
    const t1 = performance.now();
    draw();
    return (t1 - t0) / n;
  },
};

start().catch(showError);

