// The live games list: polled every 3 s; each game links to its spectator page.
"use strict";

(() => {

const $ = (id) => document.getElementById(id);
const KINDS = { hotseat: "at one screen", online: "online", agent: "against an agent" };

async function refresh() {
  const response = await fetch("/api/lab/live");
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  if (!data.games.length) {
    $("list").textContent = "No game is being played on this server now.";
  } else {
    const table = document.createElement("table");
    table.className = "data";
    table.innerHTML = "<thead><tr><th class=name>game</th><th class=name>played</th><th>moves</th><th>watching</th><th class=name>last move</th><th class=name></th></tr></thead>";
    const body = table.createTBody();
    for (const g of data.games) {
      const row = body.insertRow();
      row.dataset.id = g.id;
      const ago = Math.max(0, Math.round(Date.now() / 1000 - g.updated));
      const cells = [[g.title, "name"], [KINDS[g.kind] || g.kind, "name"], [g.moves], [g.watchers], [`${ago} s ago`, "name"]];
      for (const [text, cls] of cells) { const td = row.insertCell(); td.textContent = text; if (cls) td.className = cls; }
      const link = document.createElement("a");
      link.href = g.watch; link.textContent = "watch";
      const td = row.insertCell(); td.className = "name"; td.appendChild(link);
    }
    $("list").replaceChildren(table);
  }
  if (data.finished.length) {
    const table = document.createElement("table");
    table.className = "data";
    table.innerHTML = "<thead><tr><th class=name>game</th><th class=name>played</th><th>moves</th><th class=name>result</th><th class=name></th></tr></thead>";
    const body = table.createTBody();
    for (const g of data.finished) {
      const row = body.insertRow();
      row.dataset.id = g.id;
      for (const [text, cls] of [[g.title, "name"], [KINDS[g.kind] || g.kind, "name"], [g.moves], [g.result ? window.lifearenaBoard.outcomeText(g.game, g.result) : "", "name"]]) {
        const td = row.insertCell(); td.textContent = text; if (cls) td.className = cls;
      }
      const link = document.createElement("a");
      link.href = g.replay; link.textContent = "replay";
      const td = row.insertCell(); td.className = "name"; td.appendChild(link);
    }
    $("finished").replaceChildren(table);
  } else {
    $("finished").textContent = "None yet.";
  }
  $("error").textContent = "";
  document.body.dataset.ready = "1";
}

function loop() { refresh().catch((e) => { $("error").textContent = e.message; }).finally(() => setTimeout(loop, 3000)); }
loop();

})();
