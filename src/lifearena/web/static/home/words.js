// @ts-check
// A challenge in words, for the lobby's list: its settings, time control and colours. Pure
// (no DOM), so node's test runner checks it (tests/js/lobby_words.test.mjs).

/**
 * @typedef {{name: string, label: string, kind: string, default: any}} Spec
 * @typedef {{kind: string, minutes?: number | null, increment?: number | null,
 *   days?: number | null}} Clock
 */

/**
 * The settings of a challenge that differ from the game's defaults, as "Label value" parts
 * ("standard settings" when none do), each value whole (a typed start is shown in full before
 * anyone accepts it).
 *
 * settingsText({k: 3, start: "random"}, [{name: "k", label: "k", kind: "int", default: 2},
 *   {name: "start", label: "Start", kind: "choice", default: "random"}]) === "k 3"
 * @param {Record<string, any>} params
 * @param {Spec[]} specs
 * @returns {string}
 */
export function settingsText(params, specs) {
  const parts = [];
  for (const spec of specs) {
    if (!(spec.name in params) || params[spec.name] === spec.default) continue;
    const value = params[spec.name];
    if (spec.kind === "bool") parts.push(value ? spec.label.toLowerCase() : `no ${spec.label.toLowerCase()}`);
    // whole, never cut: a typed start is what the acceptor agrees to play from (the list
    // wraps it; home.css's .about breaks anywhere, so a long one cannot widen a phone page)
    else parts.push(`${spec.label} ${value}`);
  }
  return parts.length ? parts.join(", ") : "standard settings";
}

/**
 * A time control as people say it: "untimed", "5 min + 3 s", "3 days a move".
 *
 * clockText(null) === "untimed"; clockText({kind: "live", minutes: 5, increment: 0}) === "5 min"
 * @param {Clock | null | undefined} clock
 * @returns {string}
 */
export function clockText(clock) {
  if (!clock) return "untimed";
  if (clock.kind === "correspondence") {
    return clock.days === 1 ? "1 day a move" : `${clock.days} days a move`;
  }
  const minutes = `${clock.minutes} min`;
  return clock.increment ? `${minutes} + ${clock.increment} s` : minutes;
}

/**
 * Which side a challenge gives the person reading it: its creator's seat is `colour` (0 or
 * 1, or "random"); `own` says the reader is the creator.
 *
 * sideText(0, ["Blue", "Red"], false) === "you play Red"
 * sideText("random", ["Blue", "Red"], false) === "sides drawn at random"
 * @param {number | string} colour
 * @param {readonly string[]} names the two sides' names
 * @param {boolean} own
 * @returns {string}
 */
export function sideText(colour, names, own) {
  if (colour !== 0 && colour !== 1) return "sides drawn at random";
  const seat = own ? colour : 1 - colour;
  return `you play ${names[seat]}${seat === 0 ? " (first)" : ""}`;
}

/**
 * Keep at most `most` owner secrets, the newest: the lobby takes at most 16 in a hello.
 *
 * newestOwners({a: {owner: "1", at: 1}, b: {owner: "2", at: 2}}, 1) → ["2"]
 * @param {Record<string, {owner: string, at: number}>} owned challenge id → its secret and
 *   when it was made
 * @param {number} most
 * @returns {string[]}
 */
export function newestOwners(owned, most) {
  return Object.values(owned).sort((a, b) => b.at - a.at).slice(0, most).map((o) => o.owner);
}

/**
 * A challenge's rating range as the list words it (nothing when it has none).
 *
 * rangeText([1400, 1700]) -> ["rating 1400 to 1700"]; rangeText([null, 1600]) -> ["rating up to 1600"]
 * @param {(number | null)[] | undefined} range
 * @returns {string[]}
 */
export function rangeText(range) {
  const [low, high] = range || [null, null];
  if (low == null && high == null) return [];
  if (low == null) return [`rating up to ${high}`];
  if (high == null) return [`rating ${low} or more`];
  return [`rating ${low} to ${high}`];
}

/**
 * How long a seeker has waited, in words.
 *
 * waitedText(4) === "4 s"; waitedText(75) === "1 min 15 s"
 * @param {number} seconds
 * @returns {string}
 */
export function waitedText(seconds) {
  const whole = Math.max(0, Math.floor(seconds));
  if (whole < 60) return `${whole} s`;
  return `${Math.floor(whole / 60)} min ${whole % 60} s`;
}

/**
 * How many wait in a pool, from the server's listing.
 * @param {{game: string, preset: string, kind: string, waiting: number}[]} waiting
 * @param {string} game
 * @param {string} preset
 * @returns {number}
 */
export function waitingIn(waiting, game, preset) {
  const found = waiting.find((w) => w.game === game && w.preset === preset
                                    && w.kind === "people");
  return found ? found.waiting : 0;
}
