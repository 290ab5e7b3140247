// @ts-check
// A finished game's result in words, from the server's outcome and the two sides' names (the
// game's look): "Blue wins — Red has no pieces left". Pure: no DOM, no game names.

/**
 * @typedef {{winner?: number | null, termination: string, detail?: string | null}} Outcome
 * The outcome as the server sends it: the winning seat (null for a draw), the termination
 * code and, when the game has one, its own detail in words.
 */

/** @type {Record<string, (who: {winner: string | null, loser: string | null}) => string>} */
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
  resign: ({ loser }) => `${loser} resigned`,
  resigned: ({ loser }) => `${loser} resigned`,
  timeout: ({ loser }) => `${loser} ran out of time`,
  agreed: () => "drawn by agreement",
  agreement: () => "drawn by agreement",
  aborted: () => "left unplayed",
};

/**
 * Why a game ended, in words, from its termination code and the two sides' names (the
 * code itself when it has no words here).
 * @param {string} termination
 * @param {string | null} winner
 * @param {string | null} loser
 * @returns {string}
 */
export function endingText(termination, winner, loser) {
  const words = REASONS[termination];
  return words ? words({ winner, loser }) : termination;
}

/**
 * A finished game's result for people; the game's own detail, when it has one, is the
 * reason. `sideNames` are the two sides' names from the game's look.
 *
 * outcomeText({winner: 0, termination: "win"}, ["Blue", "Red"])
 *   === "Blue wins — Red has no pieces left"
 * outcomeText({winner: null, termination: "aborted", detail: "no move in 10 minutes"}, names)
 *   === "Aborted — no move in 10 minutes"
 * @param {Outcome} outcome
 * @param {readonly string[]} sideNames
 * @returns {string}
 */
export function outcomeText(outcome, sideNames) {
  const names = sideNames && sideNames.length === 2 ? sideNames : ["Player 1", "Player 2"];
  const seat = outcome.winner;
  const winner = seat === null || seat === undefined ? null : names[seat];
  const loser = seat === null || seat === undefined ? null : names[1 - seat];
  const reason = outcome.detail || endingText(outcome.termination, winner, loser);
  // an aborted game was neither won nor drawn
  const head = outcome.termination === "aborted" ? "Aborted" : winner === null ? "Draw" : `${winner} wins`;
  return `${head} — ${reason}`;
}

/**
 * The sides' names of a look (as the server sends it), for {@link outcomeText}.
 * @param {{sides: {name: string}[]} | null | undefined} look
 * @returns {string[]}
 */
export function sideNames(look) {
  return look && look.sides ? look.sides.map((side) => side.name) : ["Player 1", "Player 2"];
}
