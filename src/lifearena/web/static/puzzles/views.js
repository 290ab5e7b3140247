// @ts-check
// The words and links of the puzzles' pages, from their state: pure (no DOM), so node's test
// runner checks them (tests/js/puzzles-*.test.mjs). No game is named here: every word comes
// from the server's data.

/** @typedef {import("./round.js").PuzzleState} PuzzleState */
/** @typedef {import("./round.js").RatingChange} RatingChange */

/**
 * A signed whole number: "+12", "−7", "±0".
 * @param {number} change
 */
export function signed(change) {
  const n = Math.round(change);
  return n > 0 ? `+${n}` : n < 0 ? `\u2212${-n}` : "\u00b10";
}

/**
 * The banner's line: what to do, or how it went.
 * @param {PuzzleState} state
 * @returns {{text: string, tone: "turn" | "good" | "bad"}}
 */
export function headline(state) {
  if (state.phase === "solved") return { text: "Solved! That wins.", tone: "good" };
  if (state.phase === "failed") return { text: "Wrong: that move does not win.", tone: "bad" };
  if (state.verdict === "right") return { text: "Right! Keep going: find the next winning move.", tone: "good" };
  return { text: (state.retry ? "Retry: " : "") + state.puzzle.prompt, tone: "turn" };
}

/**
 * What the last judged move did, in words: the move and the reply.
 * @param {PuzzleState} state
 * @returns {string}
 */
export function lastMoveText(state) {
  if (!state.last) return "";
  const reply = state.last.reply ? `; the reply: ${state.last.reply}` : "";
  return `You played ${state.last.move}${reply}.`;
}

/**
 * The rating line after an attempt ended: the change when it was rated, else why not.
 * @param {RatingChange | null} rating
 * @returns {string}
 */
export function ratingText(rating) {
  if (!rating) return "";
  if (!rating.rated || !rating.player) return "Not rated: only your first try of a puzzle is rated.";
  return `Your puzzle rating: ${rating.player.shown} (${signed(rating.player.change)})`;
}

/**
 * The puzzle's own rating line after a rated try.
 * @param {RatingChange | null} rating
 */
export function puzzleRatingText(rating) {
  if (!rating || !rating.rated || !rating.puzzle) return "";
  return `The puzzle's rating: ${rating.puzzle.after} (${signed(rating.puzzle.change)})`;
}

/**
 * The theme as words: "wipe-out-in-1" → "Theme: wipe out in 1" (told once it is over).
 * @param {PuzzleState} state
 */
export function themeText(state) {
  return state.phase !== "solving" && state.theme ? `Theme: ${state.theme.replace(/-/g, " ")}` : "";
}

/**
 * After a wrong move: the moves that won there.
 * @param {PuzzleState} state
 */
export function winningText(state) {
  if (state.phase !== "failed" || !state.winning.length) return "";
  const list = state.winning.join(", ");
  return state.winning.length === 1 ? `The winning move was ${list}.` : `The winning moves were ${list}.`;
}

/**
 * The solution stepper's caption: "Solution 2/5: 3,1".
 * @param {PuzzleState} state
 */
export function stepText(state) {
  if (state.step < 0 || !state.solution.length) return "";
  return `Solution ${state.step + 1}/${state.solution.length}: ${state.solution[state.step].move}`;
}

/**
 * The link to the game the puzzle came from: the game's page when it was played here,
 * else the game on the analysis board at the puzzle's position.
 * @param {import("./round.js").Puzzle} puzzle
 * @returns {{href: string, text: string, download: boolean}}
 */
export function sourceLink(puzzle) {
  const at = `position after move ${puzzle.source.ply}`;
  if (puzzle.source.game_id) return { href: puzzle.source.link, text: `From this game (${at})`, download: false };
  return { href: `/analysis?puzzle=${encodeURIComponent(puzzle.id)}`,
    text: `From this game: analyse it (${at})`, download: false };
}

/**
 * What the side card says about a puzzle: its game, rating and depth.
 * @param {import("./round.js").Puzzle} puzzle
 */
export function aboutText(puzzle) {
  const moves = puzzle.depth === 1 ? "1 move" : `${puzzle.depth} moves`;
  return `${puzzle.title} · puzzle rating ${puzzle.rating} · a win in ${moves}`;
}

/**
 * One game's card on the puzzles page.
 * @param {{game: string, title: string, count: number, solved: number}} entry
 * @returns {{href: string, title: string, count: string}}
 */
export function card(entry) {
  const count = `${entry.count} puzzle${entry.count === 1 ? "" : "s"}` + (entry.solved ? ` · ${entry.solved} solved` : "");
  return { href: `/puzzles/${encodeURIComponent(entry.game)}`, title: entry.title, count };
}

/**
 * The player's puzzle rating as the puzzles page shows it.
 * @param {{shown: string, plays: number} | null} rating
 */
export function myRatingText(rating) {
  if (!rating || !rating.plays) return "Your puzzle rating: 1500? (solve one to get a rating of your own)";
  return `Your puzzle rating: ${rating.shown} after ${rating.plays} puzzle${rating.plays === 1 ? "" : "s"}`;
}

/**
 * Where a page's puzzle comes from, by its address: the daily puzzle, one puzzle by id, or
 * the next of a game.
 * @param {string} pathname
 * @param {string} search
 * @returns {{kind: "daily"} | {kind: "id", id: string, game: string} | {kind: "next", game: string} | null}
 */
export function route(pathname, search) {
  const parts = pathname.replace(/\/+$/, "").split("/").filter(Boolean);
  if (parts[0] !== "puzzles" || parts.length !== 2) return null;
  if (parts[1] === "daily") return { kind: "daily" };
  const game = decodeURIComponent(parts[1]);
  const id = new URLSearchParams(search).get("id");
  return id ? { kind: "id", id, game } : { kind: "next", game };
}

/**
 * The API address a route's puzzle is read from.
 * @param {NonNullable<ReturnType<typeof route>>} where
 * @param {string} [exclude] a puzzle to skip (the one just played)
 */
export function puzzleUrl(where, exclude) {
  if (where.kind === "daily") return "/api/puzzles/daily";
  if (where.kind === "id") return `/api/puzzles/id/${encodeURIComponent(where.id)}`;
  const skip = exclude ? `?exclude=${encodeURIComponent(exclude)}` : "";
  return `/api/puzzles/${encodeURIComponent(where.game)}/next${skip}`;
}
