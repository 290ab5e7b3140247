// @ts-check
// The home page's quick pairing (lichess's pools): choose a game and a time control, and
// the server pairs you with the waiting player whose rating is closest (the window widens
// while you wait); the page then goes to the game. Rated pools need an account. While it
// seeks, the page keeps one request open that the server answers as soon as it pairs you
// (or after 20 s, when the page asks again: a page that stops asking is taken out of the
// pools after half a minute).

import { request } from "/static/js/request.js";
import { waitedText, waitingIn } from "/static/home/words.js";

/**
 * @typedef {{key: string, label: string, speed: string, clock: any}} Preset
 * @typedef {{name: string, title: string}} Entry
 * @typedef {{game: string, preset: string, kind: string}} Seeking
 */

const WAIT_S = 20;
const COUNTS_MS = 5000;

/** @param {string} id */
function $(id) { return /** @type {HTMLElement} */ (document.getElementById(id)); }

/** @param {Entry[]} catalog */
export async function startPools(catalog) {
  const gameField = /** @type {HTMLSelectElement} */ ($("pool-game"));
  const rated = /** @type {HTMLInputElement} */ ($("pool-rated"));
  const presetsBox = $("pool-presets");
  for (const entry of catalog) {
    const option = document.createElement("option");
    option.value = entry.name;
    option.textContent = entry.title;
    gameField.append(option);
  }
  const listing = await request("/api/pools");
  if (!listing.ok) {
    $("pool-error").textContent = listing.error || "";
    return;
  }
  /** @type {Preset[]} */
  const presets = listing.data.presets;
  /** @type {Map<string, HTMLButtonElement>} */
  const buttons = new Map();
  let seeking = false;
  let since = 0;
  /** @type {number | null} */
  let ticking = null;

  for (const preset of presets) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "preset";
    button.dataset.preset = preset.key;
    const label = document.createElement("span");
    label.className = "label";
    label.textContent = preset.label;
    const count = document.createElement("span");
    count.className = "count muted";
    button.append(label, count);
    button.addEventListener("click", () => seek(preset.key));
    buttons.set(preset.key, button);
    presetsBox.append(button);
  }

  /** @param {any} data */
  function showCounts(data) {
    for (const [key, button] of buttons) {
      const count = waitingIn(data.waiting || [], gameField.value, key);
      const shown = /** @type {HTMLElement} */ (button.querySelector(".count"));
      shown.textContent = count ? `${count} waiting` : "";
    }
  }
  showCounts(listing.data);

  /** @param {Seeking[]} seeking */
  function showSeeking(seeking) {
    for (const [key, button] of buttons) {
      const on = seeking.some((s) => s.preset === key && s.game === gameField.value);
      button.classList.toggle("seeking", on);
      button.setAttribute("aria-pressed", on ? "true" : "false");
    }
    $("pool-status").textContent = seeking.length
      ? `Looking for an opponent: ${seeking.map((s) => s.preset).join(", ")}, waiting `
        + `${waitedText((Date.now() - since) / 1000)} (click again to stop)`
      : "";
  }

  /** @param {string} key */
  async function seek(key) {
    $("pool-error").textContent = "";
    if (buttons.get(key)?.classList.contains("seeking")) {
      await request("/api/pools/leave", { body: {} });
      stop();
      showSeeking([]);
      return;
    }
    const answer = await request(`/api/pools/${encodeURIComponent(gameField.value)}/`
                                 + `${encodeURIComponent(key)}/join`,
                                 { body: { rated: rated.checked } });
    if (!answer.ok) {
      $("pool-error").textContent = answer.error || "";
      return;
    }
    since = Date.now();
    shown = answer.data.seeking;
    showSeeking(shown);
    if (!seeking) wait();
  }

  /** @type {any[]} */
  let shown = [];

  async function wait() {
    seeking = true;
    ticking = window.setInterval(async () => {  // the wait's words, and the pools' counts
      showSeeking(shown);
      const counts = await request("/api/pools");
      if (counts.ok) showCounts(counts.data);
    }, COUNTS_MS);
    while (seeking) {
      const answer = await request(`/api/pools/me?wait=${WAIT_S}`);
      if (!seeking) return;
      if (!answer.ok) {  // the server away for a moment: ask again a little later
        await new Promise((done) => window.setTimeout(done, 2000));
        continue;
      }
      if (answer.data.paired) {
        stop();
        $("pool-status").textContent = "Paired: opening the game…";
        window.location.assign(answer.data.paired.link);
        return;
      }
      shown = answer.data.seeking;
      showSeeking(shown);
      if (!shown.length) stop();
    }
  }

  function stop() {
    seeking = false;
    if (ticking !== null) window.clearInterval(ticking);
    ticking = null;
  }

  gameField.addEventListener("change", async () => {
    const counts = await request("/api/pools");
    if (counts.ok) showCounts(counts.data);
  });
}
