// @ts-check
// How the players' pages word ratings, their changes, results and the your-turn title, in
// one place (pure functions: tests/js/players.test.mjs runs them under node).

/**
 * @typedef {{rating: number, deviation: number, provisional: boolean, shown?: string,
 *   games?: number, wins?: number, draws?: number, losses?: number}} RatingJson
 */

/**
 * A rating as people read it: "1523", with "?" while it is provisional.
 *
 * ratingText({rating: 1523, deviation: 180, provisional: true}) === "1523?"
 * @param {RatingJson | null | undefined} row
 * @returns {string}
 */
export function ratingText(row) {
  if (!row || typeof row.rating !== "number") return "";
  if (typeof row.shown === "string" && row.shown) return row.shown;
  return `${Math.round(row.rating)}${row.provisional ? "?" : ""}`;
}

/**
 * A rating's tooltip: its deviation, and why a "?" shows.
 *
 * ratingTitle({rating: 1523, deviation: 180, provisional: true})
 *   === "rating 1523 ± 180 (provisional: too few rated games yet)"
 * @param {RatingJson | null | undefined} row
 * @returns {string}
 */
export function ratingTitle(row) {
  if (!row || typeof row.rating !== "number") return "";
  const text = `rating ${Math.round(row.rating)} ± ${Math.round(row.deviation)}`;
  return row.provisional ? `${text} (provisional: too few rated games yet)` : text;
}

/**
 * A rating's change after a game: "+12", "-12", "±0".
 * @param {number | null | undefined} change
 * @returns {string}
 */
export function changeText(change) {
  if (typeof change !== "number" || !Number.isFinite(change)) return "";
  const rounded = Math.round(change);
  if (rounded === 0) return "±0";
  return rounded > 0 ? `+${rounded}` : `-${-rounded}`;
}

/**
 * The tone of a change for its colour: "up", "down" or "same".
 * @param {number | null | undefined} change
 * @returns {"up" | "down" | "same"}
 */
export function changeTone(change) {
  const rounded = Math.round(Number(change) || 0);
  return rounded > 0 ? "up" : rounded < 0 ? "down" : "same";
}

/**
 * Wins, draws and losses in a few words: "3 wins · 1 draw · 0 losses".
 * @param {{wins?: number, draws?: number, losses?: number}} counts
 * @returns {string}
 */
export function countsText(counts) {
  /** @param {number} k @param {string} one @param {string} many */
  const words = (k, one, many) => `${k} ${k === 1 ? one : many}`;
  return [words(counts.wins || 0, "win", "wins"), words(counts.draws || 0, "draw", "draws"),
    words(counts.losses || 0, "loss", "losses")].join(" · ");
}

const TURN_PREFIX = /^\(\d+\) Your turn — /;

/**
 * A page's title with the number of games waiting for you in front: "(2) Your turn — …";
 * without it when none waits (a title already marked is marked again, never twice).
 *
 * turnTitle("lifearena", 1) === "(1) Your turn — lifearena"
 * @param {string} title
 * @param {number} waiting
 * @returns {string}
 */
export function turnTitle(title, waiting) {
  const base = title.replace(TURN_PREFIX, "");
  return waiting > 0 ? `(${waiting}) Your turn — ${base}` : base;
}

/**
 * The games that wait for you and that you were not told of yet (never the one on screen).
 * @param {{id: string, your_turn: boolean}[]} playing
 * @param {Set<string>} told the ids already told (not changed)
 * @param {string | null} here the game on screen
 * @returns {string[]}
 */
export function newTurns(playing, told, here) {
  return playing.filter((g) => g.your_turn && g.id !== here && !told.has(g.id)).map((g) => g.id);
}
