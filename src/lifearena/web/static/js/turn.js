// @ts-check
// Your turn, wherever you are: every page polls /api/me/games while someone is signed in
// here (every POLL_MS, and when the tab comes back), marks the tab's title "(1) Your turn — …"
// and its icon, and, for a game newly waiting for you (never the one on screen), beeps when
// the sound is on (off unless chosen; kept in localStorage) and shows a notification when the
// person allowed them (asked only from a button). Each poll's list goes to the page as a
// "lifearena:games" event (the home page lists it).

import { request } from "./request.js";
import { playTone } from "./tone.js";
import { newTurns, turnTitle } from "./rating.js";

const POLL_MS = 12_000;
const SOUND_KEY = "lifearena-turn-sound";
const ICON = "data:image/svg+xml," + encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">'
  + '<circle cx="16" cy="16" r="14" fill="#2f6db3"/><circle cx="16" cy="16" r="6" fill="#fff"/></svg>');
const TURN_ICON = "data:image/svg+xml," + encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">'
  + '<circle cx="16" cy="16" r="14" fill="#2f6db3"/><circle cx="16" cy="16" r="6" fill="#fff"/>'
  + '<circle cx="25" cy="7" r="7" fill="#d6362c"/></svg>');

/** @type {ReturnType<typeof setInterval> | null} */
let timer = null;
let waiting = 0;
/** the games already told of (a beep and a notification once per turn) */
const told = new Set();
let first = true;

/** The game on screen, if this is a game's page. @returns {string | null} */
function here() {
  const found = location.pathname.match(/^\/play\/([^/]+)/);
  return found ? decodeURIComponent(found[1]) : null;
}

function icon() {
  let link = /** @type {HTMLLinkElement | null} */ (document.querySelector("link[rel=icon]"));
  if (!link) {
    link = document.createElement("link");
    link.rel = "icon";
    document.head.appendChild(link);
  }
  return link;
}

/** Put the marks of `waiting` on the title and the icon. */
function mark() {
  const title = turnTitle(document.title, waiting);
  if (title !== document.title) document.title = title;
  const href = waiting > 0 ? TURN_ICON : ICON;
  if (icon().href !== href) icon().href = href;
  document.documentElement.dataset.yourTurn = String(waiting);
}

/** Whether the beep is on (off unless chosen). */
export function soundOn() {
  try { return localStorage.getItem(SOUND_KEY) === "on"; } catch { return false; }
}

function beep() {
  if (soundOn()) playTone(880, 0.12, 0.35);
}

/** @param {any} game */
function notify(game) {
  if (typeof Notification === "undefined" || Notification.permission !== "granted") return;
  if (!document.hidden && document.hasFocus()) return; // the title and the list say it
  try {
    const note = new Notification("Your turn — lifearena", {
      body: game.opponent ? `${game.title} against ${game.opponent}` : game.title, tag: game.id });
    note.onclick = () => { window.focus(); location.href = game.link; };
  } catch { /* a browser that only notifies from a service worker */ }
}

async function poll() {
  const answer = await request("/api/me/games");
  if (!answer.ok) return;
  const playing = /** @type {any[]} */ (answer.data.playing || []);
  waiting = playing.filter((g) => g.your_turn).length;
  mark();
  const fresh = newTurns(playing, told, here());
  // a page just opened tells of nothing old: only what changes while it is open
  if (!first && fresh.length) {
    beep();
    for (const id of fresh) notify(playing.find((g) => g.id === id));
  }
  for (const g of playing) {
    if (g.your_turn) told.add(g.id);
    else told.delete(g.id);
  }
  first = false;
  document.dispatchEvent(new CustomEvent("lifearena:games", { detail: answer.data }));
}

/** Start polling (a player is here) or stop and clear the marks (nobody). @param {boolean} on */
export function watchTurns(on) {
  if (!on) {
    if (timer !== null) clearInterval(timer);
    timer = null;
    waiting = 0;
    mark();
    return;
  }
  if (timer !== null) return;
  timer = setInterval(poll, POLL_MS);
  poll();
}

document.addEventListener("visibilitychange", () => {
  if (!document.hidden && timer !== null) poll();
});
// the game page names its tab anew after each move: the mark is put back
new MutationObserver(() => { if (waiting > 0) mark(); })
  .observe(document.querySelector("title") || document.head, { childList: true, characterData: true, subtree: true });

/** Poll now (after a move elsewhere on the page, say). */
export function pollNow() { if (timer !== null) poll(); }

/**
 * The sound's toggle and the notifications' button, for a page to place.
 * @returns {HTMLElement}
 */
export function turnControls() {
  const box = document.createElement("div");
  box.className = "turn-controls";
  const sound = document.createElement("button");
  sound.type = "button";
  sound.className = "quiet small";
  sound.id = "turn-sound";
  const showSound = () => {
    sound.textContent = soundOn() ? "Sound on your turn: on" : "Sound on your turn: off";
    sound.setAttribute("aria-pressed", String(soundOn()));
  };
  sound.addEventListener("click", () => {
    try { localStorage.setItem(SOUND_KEY, soundOn() ? "off" : "on"); } catch { /* private mode */ }
    showSound();
    beep(); // a click lets the page play sound, and says what it sounds like
  });
  showSound();
  box.appendChild(sound);
  if (typeof Notification !== "undefined") {
    const ask = document.createElement("button");
    ask.type = "button";
    ask.className = "quiet small";
    ask.id = "turn-notify";
    const showAsk = () => {
      const state = Notification.permission;
      ask.textContent = state === "granted" ? "Notifications: on"
        : state === "denied" ? "Notifications: blocked by the browser" : "Notify me on my turn";
      ask.disabled = state !== "default";
    };
    ask.addEventListener("click", async () => { await Notification.requestPermission(); showAsk(); });
    showAsk();
    box.appendChild(ask);
  }
  return box;
}
