// Small SVG charts for the lab pages: lines, points with error bars, reference lines, legend.
const NS = "http://www.w3.org/2000/svg";
export const PALETTE = ["#2f6db3", "#c4453c", "#2e8b57", "#a66a00", "#7a4fa3", "#23897e", "#6b6f76", "#d9822b"];

function el(name, attrs, parent, text) {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

function ticks(lo, hi, count) {
  const raw = (hi - lo) / count, mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) || raw;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(+v.toFixed(10));
  return out;
}

// spec: {width, height, x: [lo, hi], y: [lo, hi], xLabel, yLabel, title,
//        series: [{label, points: [[x, y, err?, href?]], line, dots, dash, colour}],
//        refs: [{y, label, colour}]}
export function draw(svg, spec) {
  const W = spec.width || 640, H = spec.height || 380;
  const m = { l: 58, r: 16, t: spec.title ? 30 : 12, b: 44 };
  svg.innerHTML = "";
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("width", W); svg.setAttribute("height", H);
  const [x0, x1] = spec.x, [y0, y1] = spec.y;
  const sx = (x) => m.l + (x - x0) / (x1 - x0) * (W - m.l - m.r);
  const sy = (y) => H - m.b - (y - y0) / (y1 - y0) * (H - m.t - m.b);
  el("rect", { x: 0, y: 0, width: W, height: H, fill: "#fff", rx: 8 }, svg);
  if (spec.title) el("text", { x: m.l, y: 19, "font-size": 13, "font-weight": 600, fill: "#26282b" }, svg, spec.title);
  const axes = el("g", { "font-size": 11, fill: "#6b6f76" }, svg);
  for (const t of ticks(x0, x1, 8)) {
    el("line", { x1: sx(t), x2: sx(t), y1: m.t, y2: H - m.b, stroke: "#eeebe5" }, axes);
    el("text", { x: sx(t), y: H - m.b + 15, "text-anchor": "middle" }, axes, String(t));
  }
  // yTicks: false for a chart whose rows are not a scale (the rating chart's agents)
  for (const t of spec.yTicks === false ? [] : ticks(y0, y1, 6)) {
    el("line", { x1: m.l, x2: W - m.r, y1: sy(t), y2: sy(t), stroke: "#eeebe5" }, axes);
    el("text", { x: m.l - 6, y: sy(t) + 4, "text-anchor": "end" }, axes, String(t));
  }
  el("rect", { x: m.l, y: m.t, width: W - m.l - m.r, height: H - m.t - m.b, fill: "none", stroke: "#dedad2" }, axes);
  el("text", { x: (m.l + W - m.r) / 2, y: H - 8, "text-anchor": "middle" }, axes, spec.xLabel || "");
  el("text", { x: 14, y: (m.t + H - m.b) / 2, "text-anchor": "middle", transform: `rotate(-90 14 ${(m.t + H - m.b) / 2})` }, axes, spec.yLabel || "");
  const legend = [];
  for (const ref of spec.refs || []) {
    el("line", { x1: m.l, x2: W - m.r, y1: sy(ref.y), y2: sy(ref.y), stroke: ref.colour || "#6b6f76", "stroke-dasharray": "2 4", "stroke-width": 1.4, class: "ref" }, svg);
    legend.push({ label: ref.label, colour: ref.colour || "#6b6f76", dash: "2 4" });
  }
  (spec.series || []).forEach((s, i) => {
    const colour = s.colour || PALETTE[i % PALETTE.length];
    const g = el("g", { class: "series", "data-label": s.label }, svg);
    if (s.line !== false && s.points.length > 1) {
      const d = s.points.map((p, j) => `${j ? "L" : "M"}${sx(p[0]).toFixed(1)},${sy(p[1]).toFixed(1)}`).join("");
      el("path", { d, fill: "none", stroke: colour, "stroke-width": 1.8, "stroke-dasharray": s.dash || "" }, g);
    }
    if (s.dots) {
      for (const p of s.points) {
        if (p[2]) {
          el("line", { x1: sx(p[0]), x2: sx(p[0]), y1: sy(p[1] - p[2]), y2: sy(p[1] + p[2]), stroke: colour, class: "err" }, g);
          for (const e of [-1, 1]) el("line", { x1: sx(p[0]) - 3, x2: sx(p[0]) + 3, y1: sy(p[1] + e * p[2]), y2: sy(p[1] + e * p[2]), stroke: colour }, g);
        }
        const dot = el("circle", { cx: sx(p[0]), cy: sy(p[1]), r: 3.2, fill: "#fff", stroke: colour, "stroke-width": 1.6, "data-x": p[0], "data-y": p[1] }, g);
        el("title", {}, dot, `${s.label}: (${p[0]}, ${(+p[1]).toFixed(4)}${p[2] ? " ± " + (+p[2]).toFixed(4) : ""})`);
      }
    }
    legend.push({ label: s.label, colour, dash: s.dash || "" });
  });
  const lg = el("g", { "font-size": 11, fill: "#26282b" }, svg);
  legend.forEach((item, i) => {
    const y = m.t + 14 + i * 15, x = W - m.r - 230;
    el("line", { x1: x, x2: x + 22, y1: y - 4, y2: y - 4, stroke: item.colour, "stroke-width": 2, "stroke-dasharray": item.dash }, lg);
    el("text", { x: x + 28, y }, lg, item.label);
  });
  return { sx, sy };
}


