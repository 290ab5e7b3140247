// The p2life study page: mean-field curves and a results file's asymptotic densities, drawn
// as SVG from the server's JSON, with the paper's figures as reference lines.
import * as labChart from "./chart.js";
import { requestJson as getJson, showError } from "./common.js";

const $ = (id) => document.getElementById(id);
const S = { rule: "p2life", colours: 2 };

async function drawMeanField() {
  const data = await getJson(`/api/lab/p2life/meanfield?rule=${encodeURIComponent(S.rule)}&colours=${S.colours}`);
  const c = data.curve, life = data.life;
  // head room above the curves for the legend in the top right corner
  const top = Math.max(0.42, ...c.points.map((p) => p[1])) * 1.25;
  labChart.draw($("meanfield"), {
    title: "Density after one generation (mean field)", x: [0, 1], y: [0, top],
    xLabel: "initial density p", yLabel: "density",
    series: [
      { label: `${c.rule}: mean field (${c.colours === 2 ? "two colours" : "one colour"})`, points: c.points },
      { label: "Life: mean field (one colour)", points: life.points, dash: "6 4", colour: "#a66a00" },
    ],
  });
  $("poly").textContent = `${c.rule}: ρ(p) = ${c.polynomial}; maximum ${c.maximum[1]} at p = ${c.maximum[0]}; ` +
    `ρ(1) = ${c.at_one}; fixed points in [0, 1]: ${c.fixed_points.join(", ")}`;
  $("meanfield").dataset.rule = c.rule;
  const paper = data.paper;
  $("claims").innerHTML = "";
  for (const claim of paper.claims) {
    const li = document.createElement("li"); li.textContent = claim; $("claims").appendChild(li);
  }
  $("source").textContent = paper.source;
}

async function drawDensity(fileId) {
  const wrap = $("table-wrap");
  wrap.innerHTML = "";
  if (!fileId) { $("density").style.display = "none"; $("beside").hidden = true; return; }
  const data = await getJson(`/api/lab/p2life/results/${encodeURIComponent(fileId)}`);
  $("density").style.display = "";
  const groups = new Map();
  for (const point of data.points) {
    const key = `${point.rule} ${point.boundary} ${point.size}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(point);
  }
  const series = [...groups.entries()].map(([key, points]) => ({
    label: key, dots: true, dash: key.includes("bounded") ? "5 3" : "",
    points: points.sort((a, b) => a.p - b.p).map((q) => [q.p, q.density, 2 * (q.se || 0)]) }));
  const top = Math.max(0.045, ...data.points.map((q) => q.density + 2 * (q.se || 0))) * 1.1;
  labChart.draw($("density"), {
    title: `Asymptotic density, results file ${fileId} (${data.runs} runs, ±2 SE)`,
    x: [0, 1], y: [0, top], xLabel: "initial density p", yLabel: "density when stable or periodic",
    series, refs: [{ y: data.paper.asymptotic, label: `paper: p2life ${data.paper.asymptotic}`, colour: "#26282b" },
      { y: data.paper.life, label: `paper: Life ${data.paper.life}`, colour: "#a66a00" }],
  });
  drawClaims(data.claims);
  const table = document.createElement("table");
  table.className = "data";
  table.innerHTML = "<tr><th class=name>rule</th><th class=name>boundary</th><th>lattice</th><th>p</th><th>runs</th><th>density</th><th>SE</th><th>capped</th><th>mean generations</th></tr>";
  for (const q of data.points) {
    const row = table.insertRow();
    for (const [value, cls] of [[q.rule, "name"], [q.boundary, "name"], [q.size], [q.p], [q.runs],
      [q.density.toFixed(4)], [q.se === null ? "–" : q.se.toFixed(4)], [q.capped], [Math.round(q.generations)]]) {
      const cell = row.insertCell(); cell.textContent = value; if (cls) cell.className = cls;
    }
  }
  wrap.appendChild(table);
}

function drawClaims(report) {
  // the report's table: the paper's figure and ours per claim, the verdict first
  $("beside").hidden = false;
  const found = report.runs;
  $("beside-note").textContent = report.note || `From ${found.main} runs of the sweep, ${found.ratio} loser/winner runs and ` +
    `${found.life} Life calibration runs${report.life_file ? ` (file ${report.life_file})` : ""}; lattices ${report.sizes.join(", ")}.`;
  const table = document.createElement("table");
  table.className = "data claims"; table.id = "claims-table";
  table.innerHTML = "<tr><th class=name>claim</th><th class=name>paper</th><th class=name>ours</th><th class=name>verdict</th></tr>";
  for (const row of report.rows) {
    const tr = table.insertRow();
    // the report's comment starts with its verdict: agrees, differs (...) or not measured
    const split = row.comment.match(/^(agrees|not measured|differs(?: \([^)]*\))?)(?=[\s:.]|$)[:.]?\s*(.*)$/s);
    const verdict = split ? split[1] : "";
    for (const [label, text] of [["claim", row.claim], ["paper", row.paper], ["ours", row.ours]]) {
      const cell = tr.insertCell(); cell.className = "name"; cell.textContent = text;
      cell.dataset.label = label;   // a phone shows the rows as blocks, each cell labelled
    }
    const cell = tr.insertCell(); cell.className = "name comment";
    const b = document.createElement("b");
    b.textContent = verdict;
    b.className = verdict === "agrees" ? "agrees" : verdict === "not measured" ? "unmeasured"
      : verdict ? "differs" : "muted";
    const rest = document.createElement("span");
    rest.className = "small"; rest.textContent = ` ${split ? split[2] : row.comment}`;
    cell.append(b, rest);
  }
  $("claims-wrap").replaceChildren(table);
}

function guarded(run) {
  return async () => { showError(null); try { await run(); } catch (error) { showError(error); } };
}

async function start() {
  const rules = await getJson("/api/lab/rules");
  for (const rule of rules.rules) {
    const option = document.createElement("option");
    option.value = option.textContent = rule.name;
    $("rule").appendChild(option);
  }
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  S.rule = params.get("rule") || "p2life";
  S.colours = Number(params.get("colours") || 2);
  $("rule").value = S.rule; $("colours").value = String(S.colours);
  const files = (await getJson("/api/lab/p2life/results")).files;
  for (const file of files) {
    const option = document.createElement("option");
    option.value = file.id; option.textContent = `${file.id}: ${file.name}`;
    $("file").appendChild(option);
  }
  if (!files.length) { const none = document.createElement("option"); none.textContent = "(none given)"; none.value = ""; $("file").appendChild(none); }
  else $("file-note").textContent = "Mean final density per point, ±2 standard errors; the paper's values as dotted lines.";
  if (params.get("file")) $("file").value = params.get("file");
  await drawMeanField();
  await drawDensity($("file").value);
  document.body.dataset.ready = "1";
}

function remember() {
  history.replaceState(null, "", `#rule=${encodeURIComponent(S.rule)}&colours=${S.colours}&file=${$("file").value}`);
}

$("rule").addEventListener("change", guarded(async () => { S.rule = $("rule").value; remember(); await drawMeanField(); }));
$("rule-use").addEventListener("click", guarded(async () => { S.rule = $("rule-text").value; await drawMeanField(); remember(); }));
$("colours").addEventListener("change", guarded(async () => { S.colours = Number($("colours").value); remember(); await drawMeanField(); }));
$("file").addEventListener("change", guarded(async () => { remember(); await drawDensity($("file").value); }));
start().catch(showError);

