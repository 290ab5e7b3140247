// @ts-nocheck
// The replay page: every position of a record, stepped with buttons, arrow keys and a slider,
// drawn by js/draw.js as the game page draws it, in the game's look from the catalog; a link
// opens a given move.
import { mount, picture } from "/static/js/draw.js";
import { outcomeText, sideNames } from "/static/js/outcome.js";
import { requestJson as send, showError } from "./common.js";

const $ = (id) => document.getElementById(id);
// each game's look (board colours, sides' names), from the catalog, by the record's game
const looks = fetch("/api/catalog").then((r) => r.json()).then((data) =>
  Object.fromEntries(data.games.map((g) => [g.name, g.look]))).catch(() => ({}));
// data: the replay shown (null: none); source: its link's part after "#" ("" when it has
// none); file: the name of the file it was opened from; ticket: the latest load's number, so
// that an answer that comes after a later load started is dropped.
const R = { data: null, at: 0, source: "", file: "", ticket: 0, look: null };


function show(at) {
  if (!R.data) return;
  R.at = Math.max(0, Math.min(at, R.data.moves.length));
  const d = R.data.positions[R.at];
  mount($("board"), picture(d, R.look, { size: 520, labels: true }));
  $("slider").value = R.at;
  const n = R.data.moves.length;
  $("banner").textContent = R.at === n && R.data.result ? `Move ${R.at} of ${n}: ${outcomeText(R.data.result, sideNames(R.look))}` :
    (R.at === 0 ? `Start — ${n} move${n === 1 ? "" : "s"}` : `After move ${R.at} of ${n}: ${R.data.moves[R.at - 1]}`);
  $("banner").dataset.at = R.at;
  [...$("moves").children].forEach((li, i) => li.classList.toggle("viewing", i === R.at - 1));
  const current = $("moves").children[R.at - 1];
  if (current) current.scrollIntoView({ block: "nearest" });
  $("counts").textContent = d.counts ? d.counts.map((c, i) => `${R.data.players[i] || "player " + (i + 1)}: ${c} ${d.count_label || ""}`).join(" · ") : "";
  const link = `${location.origin}/lab/replay#${R.source}${R.source ? "&" : ""}move=${R.at}`;
  $("share").value = R.source ? link : R.file
    ? `(opened from your file ${R.file}: it has no link; share the file)`
    : "(a pasted record has no link: save it as a file)";
  if (R.source) history.replaceState(null, "", link);
}

// No replay on screen: the board, the moves and the link emptied, the banner saying why.
function clear(banner) {
  R.data = null; R.at = 0; R.source = ""; R.file = "";
  $("board").replaceChildren();
  $("board").dataset.empty = "1";
  $("tag").textContent = "replays";
  $("slider").max = 0; $("slider").value = 0;
  $("moves").replaceChildren();
  $("counts").textContent = "";
  $("share").value = "";
  $("banner").textContent = banner;
  delete $("banner").dataset.at;
}

// Open a replay from `fetchData()` (its answer: the server's positions), remembering its
// link or file; a failure clears the page and says why. Only the latest load is shown.
async function loadFrom(fetchData, { source = "", file = "", at } = {}) {
  const ticket = ++R.ticket;
  // a pasted record or a file has no link: the address no longer names the last replay
  if (!source && location.hash) history.replaceState(null, "", location.pathname);
  try {
    const data = await fetchData();
    const look = (await looks)[data.game] || null;
    if (ticket !== R.ticket) return;
    R.look = look;
    R.source = source; R.file = file;
    load(data, at);
    showError(null);
  } catch (error) {
    if (ticket !== R.ticket) return;
    clear(`Could not open ${file || (source ? "this link's record" : "the record")}.`);
    showError(error);
  } finally {
    if (ticket === R.ticket) document.body.dataset.ready = "1";
  }
}

function load(data, at) {
  R.data = data;
  $("tag").textContent = `replay: ${data.title}` + (data.players.some(Boolean) ? ` — ${data.players.join(" vs ")}` : "");
  $("slider").max = data.moves.length;
  $("moves").replaceChildren(...data.moves.map((m, i) => {
    const li = document.createElement("li");
    li.textContent = m;
    li.addEventListener("click", () => show(i + 1));
    return li;
  }));
  delete $("board").dataset.empty;
  show(at === undefined ? data.moves.length : at);
}

function openText(text, file = "") {
  return loadFrom(() => send("/api/lab/replay", { record: text }), { file, at: 0 });
}

// What a file given as a record is: its text, or an Error of one line when it is binary (a
// picture, an archive, a database) or too long, with the server's words for the same check
// (lifearena.core.Record.refuse_binary, lifearena.errors.SIGNATURES) and the file's name.
const SIGNATURES = [
  [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], "PNG image"],
  [[0xff, 0xd8, 0xff], "JPEG image"],
  [[0x47, 0x49, 0x46, 0x38], "GIF image"],
  [[0x25, 0x50, 0x44, 0x46, 0x2d], "PDF document"],
  [[0x50, 0x4b, 0x03, 0x04], "ZIP archive"],
  [[0x1f, 0x8b], "gzip archive"],
  [[0x53, 0x51, 0x4c, 0x69, 0x74, 0x65, 0x20, 0x66, 0x6f, 0x72, 0x6d, 0x61, 0x74, 0x20, 0x33, 0x00], "SQLite database"],
];
const MAX_BYTES = 262144;   // the server's bound of a lab request's body (common.MAX_LAB_BODY)

async function fileText(file) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const known = SIGNATURES.find(([magic]) => magic.every((b, i) => bytes[i] === b));
  let text = null;
  try { text = new TextDecoder("utf-8", { fatal: true }).decode(bytes); } catch (error) { /* not UTF-8 */ }
  if (known || text === null || /[\x00-\x08\x0b\x0e-\x1f\x7f]/.test(text)) {
    throw new Error(`${file.name} is not a record: it is binary (${known ? known[1] : "not text"}); expected a JSON or text record`);
  }
  if (bytes.length > MAX_BYTES) {
    throw new Error(`${file.name} is ${bytes.length} bytes; a record opened here is at most ${MAX_BYTES} bytes`);
  }
  return text;
}

function openFile(file) {
  $("text").value = "";   // the box shows this file's text, or nothing when it has none
  return loadFrom(async () => {
    const text = await fileText(file);
    $("text").value = text;
    return send("/api/lab/replay", { record: text });
  }, { file: file.name, at: 0 });
}

function openHash() {
  const p = new URLSearchParams(location.hash.replace(/^#/, ""));
  const at = p.has("move") ? Number(p.get("move")) : undefined;
  if (p.get("game")) {
    return loadFrom(async () => {
      const response = await fetch(`/api/games/${encodeURIComponent(p.get("game"))}/record?format=json`);
      if (!response.ok) throw new Error((await response.json()).error);
      return send("/api/lab/replay", { record: await response.text() });
    }, { source: `game=${encodeURIComponent(p.get("game"))}`, at });
  }
  if (p.get("file") && p.get("run")) {
    const keys = ["pairing", "index", "seat"];
    const q = new URLSearchParams(keys.map((k) => [k, p.get(k) || ""]));
    return loadFrom(async () => {
      const data = await send(`/api/lab/tournaments/${encodeURIComponent(p.get("file"))}/${encodeURIComponent(p.get("run"))}/record?${q}`);
      return send("/api/lab/replay", { record: { ...data.record, players: data.record.players || data.players || ["", ""] } });
    }, { source: new URLSearchParams([["file", p.get("file")], ["run", p.get("run")], ...keys.map((k) => [k, p.get(k)])]).toString(), at });
  }
  document.body.dataset.ready = "1";
  return Promise.resolve();
}

$("first").addEventListener("click", () => show(0));
$("prev").addEventListener("click", () => show(R.at - 1));
$("next").addEventListener("click", () => show(R.at + 1));
$("last").addEventListener("click", () => show(Infinity));
$("slider").addEventListener("input", () => show(Number($("slider").value)));
document.addEventListener("keydown", (event) => {
  if (event.target.tagName === "TEXTAREA" || event.target.tagName === "INPUT" && event.target.type !== "range") return;
  const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -1, ArrowDown: 1 };
  if (event.key in moves) { event.preventDefault(); show(R.at + moves[event.key]); }
  else if (event.key === "Home") { event.preventDefault(); show(0); }
  else if (event.key === "End") { event.preventDefault(); show(Infinity); }
});
$("open").addEventListener("click", () => openText($("text").value));
$("file").addEventListener("change", () => {
  const file = $("file").files[0];
  if (file) openFile(file);
});
window.addEventListener("hashchange", () => openHash());
// for tests and the curious (import it): the replay shown and the step to a move
export const replayPage = { state: R, show };
openHash();
