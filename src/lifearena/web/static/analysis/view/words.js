// @ts-check
// What the analysis board writes: marks' symbols, evaluations, a side's summary line.

/** @type {Record<string, string>} */
export const SYMBOLS = { inaccuracy: "?!", mistake: "?", blunder: "??" };

/**
 * An evaluation as a person reads it: "+0.35", "-1.00", with "!" when proven.
 *
 * evalText(0.35, false) === "+0.35"; evalText(-1, true) === "-1.00!"
 * @param {number | null | undefined} value
 * @param {boolean} [exact]
 * @returns {string}
 */
export function evalText(value, exact = false) {
  if (value === null || value === undefined || Number.isNaN(value)) return "…";
  return (value >= 0 ? "+" : "") + value.toFixed(2) + (exact ? "!" : "");
}

/**
 * A side's summary from the analysis: "Blue: 2 inaccuracies, 1 mistake, 0 blunders;
 * average loss 0.081".
 * @param {string} name
 * @param {any} summary
 * @returns {string}
 */
export function summaryText(name, summary) {
  const plural = (/** @type {number} */ n, /** @type {string} */ one, /** @type {string} */ many) =>
    `${n} ${n === 1 ? one : many}`;
  const average = summary.average_loss === null ? "–" : summary.average_loss.toFixed(3);
  return `${name}: ${plural(summary.inaccuracies, "inaccuracy", "inaccuracies")}, `
    + `${plural(summary.mistakes, "mistake", "mistakes")}, ${plural(summary.blunders, "blunder", "blunders")}; `
    + `average loss ${average}`;
}
