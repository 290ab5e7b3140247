// @ts-check
// The game's links: while the game waits for the invited person, the invitation in a box of
// its own under the banner; in the links card this seat's private link, then the
// spectators'. Pure: rows from the links and the site's origin.
import { h } from "../h.js";

/**
 * @typedef {import("../h.js").VNode} VNode
 * @typedef {{copy(event: Event): void, select(event: Event): void}} LinkActions
 */

/**
 * A link's row: its label, the whole link in a read-only field, its Copy button.
 * @param {string} name @param {string} text @param {string} href @param {LinkActions} actions
 * @returns {VNode}
 */
export function linkRow(name, text, href, actions) {
  const id = "link-" + name;
  return h("div", { class: "row" }, [
    h("label", { for: id }, [text]),
    h("input", { type: "text", readonly: true, value: href, "data-link": name, id, on: { focus: actions.select } }),
    h("button", { type: "button", class: name === "invite" ? "" : "quiet", "aria-label": "Copy " + text.toLowerCase(),
      on: { click: actions.copy } }, ["Copy"]),
  ]);
}

/**
 * The invitation's rows (none unless it waits) and the links card's rows and note.
 * @param {import("../read.js").Links} links
 * @param {string} origin the site's origin, before each path
 * @param {LinkActions} actions
 * @returns {{invite: VNode[], rows: VNode[], note: string}}
 */
export function linksView(links, origin, actions) {
  /** @type {VNode[]} */
  const rows = [];
  if (links.you) {
    rows.push(linkRow("you", "Your link", origin + links.you, actions),
      h("p", { class: "help-line private" }, ["Private: it is your key to this seat. Keep it to come back; share it with nobody."]));
  }
  rows.push(linkRow("spectator", "Spectators", origin + links.spectator, actions));
  return {
    invite: links.invite ? [linkRow("invite", "Invitation", origin + links.invite, actions)] : [],
    rows,
    note: links.invite
      ? "The invitation (above) is for your opponent: the first person to open it takes the other seat; after that it only watches."
      : "The spectators' link only watches.",
  };
}
