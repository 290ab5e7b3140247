// The replay page: every position of a record, stepped with buttons, arrow keys and a slider,
// drawn by board.js as the game page draws it; a link opens a given move.
"use strict";

(() => {

const $ = (id) => document.getElementById(id);
const { drawPosition, outcomeText } = window.lifearenaBoard;
const R = { data: null, at: 0, source: "" };

const { requestJson: send, showError } = window.labCommon;

function show(at) {
  if (!R.data) return;
  R.at = Math.max(0, Math.min(at, R.data.moves.length));
  const d = R.data.positions[R.at];
  drawPosition($("board"), R.data.game, d, { size: 520, labels: true });
  $("slider").value = R.at;
  const n = R.data.moves.length;
  $("banner").textContent = R.at === n && R.data.result ? `Move ${R.at} of ${n}: ${outcomeText(R.data.game, R.data.result)}` :
    (R.at === 0 ? `Start — ${n} move${n === 1 ? "" : "s"}` : `After move ${R.at} of ${n}: ${R.data.moves[R.at - 1]}`);
  $("banner").dataset.at = R.at;
  [...$("moves").children].forEach((li, i) => li.classList.toggle("viewing", i === R.at - 1));
  const current = $("moves").children[R.at - 1];
  if (current) current.scrollIntoView({ block: "nearest" });
  $("counts").textContent = d.counts ? d.counts.map((c, i) => `${R.data.players[i] || "player " + (i + 1)}: ${c} ${d.count_label || ""}`).join(" · ") : "";
  const link = `${location.origin}/lab/replay#${R.source}${R.source ? "&" : ""}move=${R.at}`;
  $("share").value = R.source ? link : "(a pasted record has no link: save it as a file)";
  if (R.source) history.replaceState(null, "", link);
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
  show(at === undefined ? data.moves.length : at);
  document.body.dataset.ready = "1";
}

async function openText(text) {
  R.source = "";
  load(await send("/api/lab/replay", { record: text }), 0);
}

async function openHash() {
  const p = new URLSearchParams(location.hash.replace(/^#/, ""));
  const at = p.has("move") ? Number(p.get("move")) : undefined;
  if (p.get("game")) {
    const response = await fetch(`/api/games/${encodeURIComponent(p.get("game"))}/record?format=json`);
    if (!response.ok) throw new Error((await response.json()).error);
    R.source = `game=${encodeURIComponent(p.get("game"))}`;
    load(await send("/api/lab/replay", { record: await response.text() }), at);
  } else if (p.get("file") && p.get("run")) {
    const keys = ["pairing", "index", "seat"];
    const q = new URLSearchParams(keys.map((k) => [k, p.get(k) || ""]));
    const data = await send(`/api/lab/tournaments/${encodeURIComponent(p.get("file"))}/${encodeURIComponent(p.get("run"))}/record?${q}`);
    R.source = new URLSearchParams([["file", p.get("file")], ["run", p.get("run")], ...keys.map((k) => [k, p.get(k)])]).toString();
    load(await send("/api/lab/replay", { record: { ...data.record, players: data.record.players || data.players || ["", ""] } }), at);
  } else {
    document.body.dataset.ready = "1";
  }
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
$("open").addEventListener("click", () => openText($("text").value).then(() => showError(null), showError));
$("file").addEventListener("change", async () => {
  const file = $("file").files[0];
  if (file) { $("text").value = await file.text(); openText($("text").value).then(() => showError(null), showError); }
});
window.addEventListener("hashchange", () => openHash().catch(showError));
window.replayPage = { state: R, show };
openHash().catch(showError);

})();
