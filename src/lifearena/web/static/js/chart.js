// @ts-check
// A player's rating history as a small SVG line chart: the scales and ticks are pure
// functions (tests/js/players.test.mjs), drawChart builds the SVG (no library).

const SVG = "http://www.w3.org/2000/svg";
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const DAY = 86_400;

/**
 * Round numbers from `low` to `high` about `count` apart in steps of 1, 2 or 5 times a
 * power of ten, covering both ends.
 *
 * niceTicks(1412, 1588, 4) → [1400, 1450, 1500, 1550, 1600]
 * @param {number} low
 * @param {number} high
 * @param {number} count
 * @returns {number[]}
 */
export function niceTicks(low, high, count = 4) {
  if (!(high > low)) {
    const step = 50;
    const middle = Math.round(low / step) * step;
    return [middle - step, middle, middle + step];
  }
  const rough = (high - low) / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((k) => k * power).find((s) => s >= rough) || 10 * power;
  const ticks = [];
  for (let value = Math.floor(low / step) * step; value <= high + step * 1e-9; value += step) {
    ticks.push(Math.round(value * 1e6) / 1e6);
  }
  if (ticks[ticks.length - 1] < high) ticks.push(ticks[ticks.length - 1] + step);
  return ticks;
}

/**
 * A date as an axis reads it: "14 Mar" (with the year when it is not this one's: "14 Mar
 * 2023"), or the time of day "09:05" when the chart spans less than two days.
 * @param {number} seconds since the epoch
 * @param {boolean} short whether the span is under two days
 * @param {number} [thisYear]
 * @returns {string}
 */
export function dateLabel(seconds, short, thisYear = new Date().getFullYear()) {
  const date = new Date(seconds * 1000);
  if (short) {
    const pad = (/** @type {number} */ n) => String(n).padStart(2, "0");
    return `${pad(date.getHours())}:${pad(date.getMinutes())}`;
  }
  const day = `${date.getDate()} ${MONTHS[date.getMonth()]}`;
  return date.getFullYear() === thisYear ? day : `${day} ${date.getFullYear()}`;
}

/**
 * Where everything of a chart goes: the line's points, the ticks of both axes, in a box
 * `width` by `height` with room for the labels.
 * @param {{at: number, rating: number}[]} points oldest first
 * @param {{width?: number, height?: number, thisYear?: number}} [size]
 */
export function chartModel(points, size = {}) {
  const width = size.width || 560;
  const height = size.height || 220;
  const box = { left: 48, right: width - 14, top: 12, bottom: height - 28 };
  const ratings = points.map((p) => p.rating);
  const yTicks = niceTicks(Math.min(...ratings), Math.max(...ratings), 4);
  const low = yTicks[0];
  const high = yTicks[yTicks.length - 1];
  const first = points[0].at;
  const last = points[points.length - 1].at;
  const span = last - first;
  /** @param {number} at */
  const x = (at) => span > 0 ? box.left + (box.right - box.left) * (at - first) / span
    : (box.left + box.right) / 2;
  /** @param {number} rating */
  const y = (rating) => box.bottom - (box.bottom - box.top) * (rating - low) / (high - low);
  const short = span < 2 * DAY;
  const xCount = span > 0 ? Math.min(4, points.length) : 1;
  /** @type {{x: number, label: string}[]} */
  const xTicks = [];
  let before = "";
  for (let k = 0; k < xCount; k++) {
    const at = xCount === 1 ? first : first + span * k / (xCount - 1);
    const plain = dateLabel(at, short, size.thisYear);
    if (plain === before) continue; // a label like the one before it says nothing new
    before = plain;
    // within two days the times of day, the first with its date
    const label = short && k === 0 ? `${dateLabel(at, false, size.thisYear)}, ${plain}` : plain;
    xTicks.push({ x: x(at), label });
  }
  const dots = points.map((p) => ({ x: x(p.at), y: y(p.rating), rating: p.rating, at: p.at }));
  const line = dots.map((d, k) => `${k ? "L" : "M"}${d.x.toFixed(1)} ${d.y.toFixed(1)}`).join(" ");
  return { width, height, box, line, dots,
    yTicks: yTicks.map((value) => ({ y: y(value), label: String(value) })), xTicks };
}

/**
 * @param {string} tag
 * @param {Record<string, string | number>} attributes
 * @param {string} [text]
 */
function node(tag, attributes, text) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  if (text !== undefined) element.textContent = text;
  return element;
}

/**
 * The chart of `points` as an <svg> (scaled to its box's width by CSS).
 * @param {{at: number, rating: number}[]} points oldest first, at least one
 * @param {string} label what the chart shows, for people who cannot see it
 * @returns {SVGSVGElement}
 */
export function drawChart(points, label) {
  const model = chartModel(points);
  const svg = /** @type {SVGSVGElement} */ (node("svg", {
    viewBox: `0 0 ${model.width} ${model.height}`, class: "rating-chart", role: "img",
    "aria-label": label }));
  const { box } = model;
  for (const tick of model.yTicks) {
    svg.append(node("line", { x1: box.left, x2: box.right, y1: tick.y, y2: tick.y, class: "grid" }),
      node("text", { x: box.left - 6, y: tick.y + 4, "text-anchor": "end", class: "axis" }, tick.label));
  }
  svg.append(node("line", { x1: box.left, x2: box.right, y1: box.bottom, y2: box.bottom, class: "base" }));
  model.xTicks.forEach((tick, k) => {
    const anchor = model.xTicks.length === 1 ? "middle" : k === 0 ? "start"
      : k === model.xTicks.length - 1 ? "end" : "middle";
    svg.append(node("text", { x: tick.x, y: box.bottom + 18, "text-anchor": anchor, class: "axis" },
      tick.label));
  });
  svg.append(node("path", { d: model.line, class: "line" }));
  for (const dot of model.dots) {
    const circle = node("circle", { cx: dot.x, cy: dot.y, r: 3.5, class: "dot" });
    circle.append(node("title", {}, `${Math.round(dot.rating)} on ${new Date(dot.at * 1000).toLocaleString()}`));
    svg.append(circle);
  }
  return svg;
}
