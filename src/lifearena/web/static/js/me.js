// @ts-check
// The header every page shares: who you are ("Anonymous" with a way to choose a name, or
// your name linking to your page), log in / sign up / log out, the lessons (Learn) and the
// leaderboards; and the your-turn watcher (js/turn.js) while someone is here. Pages that
// care who is here call me() and listen for the "lifearena:me" event (sent after every
// change).

import { request } from "./request.js";
import { watchTurns } from "./turn.js";

/** @typedef {{player: {id: string, name: string, kind: string, named: boolean} | null,
 *   ratings: Record<string, any>}} Me */

/** @type {Promise<Me> | null} */
let asked = null;

/** Who is here (asked once; refreshMe asks again). @returns {Promise<Me>} */
export function me() {
  if (!asked) {
    asked = request("/api/me").then((answer) => answer.ok ? answer.data : { player: null, ratings: {} });
  }
  return asked;
}

/** Whether a player holds an account (a person's or a bot's). @param {Me["player"]} player */
export function hasAccount(player) {
  return Boolean(player && (player.kind === "account" || player.kind === "bot"));
}

/** Ask again who is here, redraw the header and tell the page. @returns {Promise<Me>} */
export async function refreshMe() {
  asked = null;
  const data = await me();
  render(data);
  return data;
}

/** @param {string} href @param {string} text @param {string} [id] */
function link(href, text, id) {
  const a = document.createElement("a");
  a.href = href;
  a.textContent = text;
  if (id) a.id = id;
  if (a.pathname === location.pathname) a.setAttribute("aria-current", "page");
  return a;
}

/** @param {Me} data */
function render(data) {
  const header = document.querySelector("header.top");
  if (!header) return;
  let nav = /** @type {HTMLElement | null} */ (header.querySelector("nav.me"));
  if (!nav) {
    nav = document.createElement("nav");
    nav.className = "me";
    nav.setAttribute("aria-label", "you and the leaderboards");
    header.appendChild(nav);
  }
  const player = data.player;
  const parts = [link("/learn", "Learn", "me-learn"), link("/puzzles", "Puzzles", "me-puzzles"),
    link("/leaderboard", "Leaderboards", "me-leaderboards")];
  if (player && player.named) {
    const name = link(`/@/${encodeURIComponent(player.name)}`, player.name, "me-name");
    name.className = "me-name";
    parts.push(name);
    if (player.kind === "bot") {
      const badge = document.createElement("span");
      badge.className = "badge";
      badge.textContent = "bot";
      parts.push(badge);
    }
  } else {
    const name = document.createElement("span");
    name.className = "me-name anonymous";
    name.id = "me-name";
    name.textContent = "Anonymous";
    parts.push(name, link("/account#name", "choose a name", "me-choose"));
  }
  if (hasAccount(player)) {
    parts.push(link("/account", "Account", "me-account"));
    const out = document.createElement("button");
    out.type = "button";
    out.className = "quiet small";
    out.id = "me-logout";
    out.textContent = "Log out";
    out.addEventListener("click", async () => {
      out.disabled = true;
      await request("/api/account/logout", { body: {} });
      await refreshMe();
    });
    parts.push(out);
  } else {
    parts.push(link("/account#login", "Log in", "me-login"), link("/account#signup", "Sign up", "me-signup"));
  }
  nav.replaceChildren(...parts);
  watchTurns(Boolean(player));
  document.documentElement.dataset.me = player ? (player.named ? player.name : "anonymous") : "nobody";
  document.dispatchEvent(new CustomEvent("lifearena:me", { detail: data }));
}

me().then(render);
