// Drawing the five games' positions as SVG, from the server's display data (State.display).
// Presentation only: which moves are legal always comes from the server.
"use strict";

(() => {

const SVG_NS = "http://www.w3.org/2000/svg";

const LOOKS = {
  war_of_life: { names: ["Blue", "Red"], colours: ["#2f6db3", "#c4453c"], board: "#fbfaf7", line: "#d9d4ca" },
  life_for_two: { names: ["Player 1 (*)", "Player 2 (#)"], colours: ["#23897e", "#d9822b"], board: "#fbfaf7", line: "#d9d4ca" },
  // a program's printed output instead of a board (Life for Two's 1978 program)
  terminal: { names: ["Player 1", "Player 2"], colours: ["#23897e", "#d9822b"], board: "#fbfaf7", line: "#d9d4ca" },
  losat: { names: ["Black", "White"], colours: ["#23252a", "#fbfbf8"], board: "#e4c78f", line: "#9c7d45", stones: true },
  p2life: { names: ["White", "Black"], colours: ["#fbfbf8", "#23252a"], board: "#a9b5ad", line: "#95a199" },
  blocking_queen: { names: ["Player 1", "Player 2"], colours: ["#2f6db3", "#c4453c"], board: "#fbfaf7", line: "#e4dfd5" },
};

function el(name, attrs, parent) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

function cellKey(r, c) { return r + "," + c; }

// Draw a grid game. opts: {size (px of the longer side), labels (bool), marks: {key: class},
// cells (the cells to draw, default display.grid.cells), interactive}
function drawGrid(svg, game, display, opts) {
  const look = LOOKS[game];
  const grid = display.grid;
  const rows = grid.rows, cols = grid.cols;
  const labels = opts.labels !== false;
  const pad = labels ? 22 : 3;
  const unit = Math.max(6, Math.floor((opts.size - 2 * pad) / Math.max(rows, cols)));
  const width = cols * unit + 2 * pad, height = rows * unit + 2 * pad;
  svg.innerHTML = "";
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("width", width);
  svg.setAttribute("height", height);
  el("rect", { x: 0, y: 0, width, height, fill: look.board, rx: 8 }, svg);
  const cells = opts.cells || grid.cells;
  const marks = opts.marks || {};
  const layer = el("g", { transform: `translate(${pad},${pad})` }, svg);
  if (display.goal_rows) {
    display.goal_rows.forEach((row, player) => {
      el("rect", { x: 0, y: row * unit, width: cols * unit, height: unit,
        fill: player === 0 ? "rgba(35,37,42,0.13)" : "rgba(255,255,255,0.42)" }, layer);
    });
  }
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const rect = el("rect", { x: c * unit, y: r * unit, width: unit, height: unit,
        fill: "transparent", stroke: look.line, "stroke-width": 1, class: "cell",
        "data-cell": cellKey(r, c), "data-r": r, "data-c": c }, layer);
      const mark = marks[cellKey(r, c)];
      rect.setAttribute("data-v", cells[r][c]);
      if (mark) rect.classList.add(mark);
      if (mark === "target") rect.setAttribute("fill", "rgba(46,139,87,0.22)");
      if (mark === "chosen") rect.setAttribute("fill", "rgba(47,109,179,0.22)");
      if (mark === "selected") rect.setAttribute("fill", "rgba(47,109,179,0.30)");
      if (mark === "last") rect.setAttribute("fill", "rgba(166,106,0,0.16)");
      if (mark === "collision") rect.setAttribute("fill", "rgba(184,58,50,0.18)");
      const value = cells[r][c];
      if (value) {
        const piece = el("circle", { cx: c * unit + unit / 2, cy: r * unit + unit / 2,
          r: unit * (look.stones ? 0.44 : 0.36), fill: look.colours[value - 1],
          stroke: value === 1 && game === "p2life" || value === 2 && game === "losat" ? "#555" : "rgba(0,0,0,0.25)",
          "stroke-width": 1, "pointer-events": "none", class: "piece p" + value }, layer);
        if (mark === "dying") piece.setAttribute("opacity", "0.45");
      }
      if (mark === "target") {
        el("circle", { cx: c * unit + unit / 2, cy: r * unit + unit / 2, r: unit * 0.14,
          fill: "#2e8b57", "pointer-events": "none" }, layer);
      }
    }
  }
  for (const [r, c] of opts.births || []) {
    el("circle", { cx: c * unit + unit / 2, cy: r * unit + unit / 2, r: unit * 0.44, fill: "none",
      stroke: "#2e8b57", "stroke-width": Math.max(1.5, unit * 0.07), "pointer-events": "none",
      class: "born" }, layer);
  }
  for (const [r, c] of opts.deaths || []) {
    el("circle", { cx: c * unit + unit / 2, cy: r * unit + unit / 2, r: unit * 0.40, fill: "none",
      stroke: "#b83a32", "stroke-width": Math.max(1.2, unit * 0.05),
      "stroke-dasharray": `${unit * 0.12} ${unit * 0.09}`, "pointer-events": "none", class: "died" }, layer);
  }
  if (opts.cursor) {
    const [r, c] = opts.cursor;
    el("rect", { x: c * unit + 1.5, y: r * unit + 1.5, width: unit - 3, height: unit - 3, fill: "none",
      stroke: "#2f6db3", "stroke-width": 3, rx: 3, class: "cursor", "pointer-events": "none" }, layer);
  }
  if (labels) {
    const font = Math.min(12, unit * 0.5);
    grid.col_labels.forEach((text, c) => {
      el("text", { x: pad + c * unit + unit / 2, y: pad - 7, "text-anchor": "middle", "font-size": font,
        fill: "#7b7f86" }, svg).textContent = text;
    });
    grid.row_labels.forEach((text, r) => {
      el("text", { x: pad - 5, y: pad + r * unit + unit / 2 + font / 3, "text-anchor": "end",
        "font-size": font, fill: "#7b7f86" }, svg).textContent = text;
    });
  }
  return { unit, pad };
}

// The blocking queen game: the squares up to the start, y growing downward, origin top left.
function drawQueen(svg, display, opts) {
  const look = LOOKS.blocking_queen;
  const n = Math.max(display.start[0], display.start[1]) + 1;
  const labels = opts.labels !== false;
  const pad = labels ? 22 : 3;
  const unit = Math.max(5, Math.floor((opts.size - 2 * pad) / n));
  const side = n * unit + 2 * pad;
  svg.innerHTML = "";
  svg.setAttribute("viewBox", `0 0 ${side} ${side}`);
  svg.setAttribute("width", side);
  svg.setAttribute("height", side);
  el("rect", { x: 0, y: 0, width: side, height: side, fill: look.board, rx: 8 }, svg);
  const layer = el("g", { transform: `translate(${pad},${pad})` }, svg);
  const reach = new Set(display.reachable.map(([x, y]) => cellKey(y, x)));
  const blocked = new Set(display.blocked.map(([x, y]) => cellKey(y, x)));
  const marks = opts.marks || {};
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const key = cellKey(y, x);
      let fill = (x + y) % 2 ? "#f1ede5" : "#faf8f3";
      if (reach.has(key)) fill = display.blocking ? "#f4dcc0" : "#cfe6d6";
      if (marks[key] === "last") fill = "#f1e3c2";
      const kind = reach.has(key) ? " reachable" : blocked.has(key) ? " blocked-square" : "";
      el("rect", { x: x * unit, y: y * unit, width: unit, height: unit, fill, stroke: look.line,
        "stroke-width": 0.5, class: "cell" + kind, "data-cell": key, "data-r": y, "data-c": x }, layer);
      if (blocked.has(key)) {
        const m = unit * 0.25;
        el("path", { d: `M${x * unit + m},${y * unit + m}L${(x + 1) * unit - m},${(y + 1) * unit - m}` +
          `M${(x + 1) * unit - m},${y * unit + m}L${x * unit + m},${(y + 1) * unit - m}`,
          stroke: "#b83a32", "stroke-width": Math.max(1.5, unit * 0.1), "pointer-events": "none",
          class: "blocked" }, layer);
      }
    }
  }
  el("rect", { x: 0, y: 0, width: unit, height: unit, fill: "none", stroke: "#2e8b57",
    "stroke-width": 2, "pointer-events": "none" }, layer);
  const [qx, qy] = display.queen;
  el("text", { x: qx * unit + unit / 2, y: qy * unit + unit * 0.8, "text-anchor": "middle",
    "font-size": unit * 0.85, fill: "#26282b", "pointer-events": "none", class: "queen" }, layer)
    .textContent = "\u265B";
  if (opts.cursor) {
    const [r, c] = opts.cursor;
    el("rect", { x: c * unit + 1, y: r * unit + 1, width: unit - 2, height: unit - 2, fill: "none",
      stroke: "#2f6db3", "stroke-width": 2.5, class: "cursor", "pointer-events": "none" }, layer);
  }
  if (labels) {
    const step = n > 20 ? 5 : 1;
    for (let i = 0; i < n; i += step) {
      el("text", { x: pad + i * unit + unit / 2, y: pad - 7, "text-anchor": "middle", "font-size": 10,
        fill: "#7b7f86" }, svg).textContent = i;
      el("text", { x: pad - 5, y: pad + i * unit + unit / 2 + 3, "text-anchor": "end", "font-size": 10,
        fill: "#7b7f86" }, svg).textContent = i;
    }
  }
  return { unit, pad, n };
}

function drawPosition(svg, game, display, opts) {
  if (game === "blocking_queen") return drawQueen(svg, display, opts);
  if (display.grid) return drawGrid(svg, game, display, opts);
  svg.innerHTML = "";
  el("text", { x: 10, y: 20 }, svg).textContent = display.text || "";
  return {};
}

// Why a game ended, in words, when the game gave no detail of its own; `loser` and `winner`
// are the players' names on the page.
const REASONS = {
  win: ({ loser }) => `${loser} has no pieces left`,
  draw: () => "a draw",
  exhaust: () => "the move limit was reached",
  stalemate: () => "the side to move has no legal move",
  goal: ({ winner }) => `${winner} reached the goal line`,
  captures: ({ winner }) => `${winner} made enough captures`,
  passes: () => "two passes in a row",
  no_moves: ({ loser }) => `${loser} cannot move the queen`,
  limit: () => "decided at the limit",
  forfeit: ({ loser }) => `${loser} forfeited`,
};

// A finished game's result for people: "Blue wins — Red has no pieces left". `outcome` is
// {winner: seat or null, termination, detail} as the server sends it; the game's own detail,
// when it has one, is the reason.
function outcomeText(game, outcome) {
  const names = (LOOKS[game] || LOOKS.blocking_queen).names;
  const who = outcome.winner === null || outcome.winner === undefined ? null : names[outcome.winner];
  const loser = who === null ? null : names[1 - outcome.winner];
  const reason = outcome.detail || endingText(outcome.termination, who, loser);
  return `${who === null ? "Draw" : `${who} wins`} — ${reason}`;
}

// Why a game ended, in words, from its termination code and the two sides' names.
function endingText(termination, winner, loser) {
  return REASONS[termination] ? REASONS[termination]({ winner, loser }) : termination;
}

window.lifearenaBoard = { LOOKS, drawPosition, cellKey, outcomeText, endingText };
})();
