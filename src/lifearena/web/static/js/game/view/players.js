// @ts-check
// The players card: each side's swatch, name and who plays it (their page, rating, and once a
// rated game is over the rating's change), the counts of the position on the board (an
// earlier one while browsing), whether the game is rated, and the game's facts. Pure.
import { changeText, changeTone, ratingText, ratingTitle } from "../../rating.js";
import { h } from "../h.js";
import { names } from "../read.js";

/** @typedef {import("../h.js").VNode} VNode */

/** A seat's player: the name (linking to the player's page), the rating, and once a rated
 * game is over the rating's change. @param {any} person @param {boolean} over @returns {VNode} */
export function personView(person, over) {
  const name = person.page ? h("a", { href: person.page, class: "name" }, [person.name])
    : h("span", { class: "name" }, [person.name]);
  return h("span", { class: "person" }, [
    name,
    (person.kind === "bot" || person.kind === "computer") && h("span", { class: "badge" }, [person.kind]),
    person.rating && h("span", { class: "rating", title: ratingTitle(person.rating) }, [ratingText(person.rating)]),
    over && typeof person.rating_change === "number" && h("span", {
      class: `change ${changeTone(person.rating_change)}`,
      title: `rating ${person.rating_before} before this game` }, [changeText(person.rating_change)]),
  ]);
}

/** @param {number} k @param {string} word */
function plural(k, word) { return `${k} ${k === 1 ? word.replace(/s$/, "") : word}`; }

/** The players card's rows. @param {any} view @param {any} display the position on the board
 * @returns {VNode[]} */
export function playersView(view, display) {
  const sides = view.look.sides;
  const rows = names(view).map((name, seat) => {
    let who = name;
    if (view.seats.length === 1 && view.seats[0] === seat) who += " (you)";
    else if (view.opponent.kind === "agent" && view.opponent.agent_seat === seat) who += `: ${view.players[seat]}`;
    else if (view.opponent.from_record && view.players[seat]) who += `: ${view.players[seat]}`;
    if (view.simultaneous && view.chosen.includes(seat)) who += " ✓ chosen";
    let count = "";
    if (display.counts) {
      count = plural(display.counts[seat], display.count_label);
      if (display.stones) count += ` · ${plural(display.stones[seat], "stones")}`;
    }
    const person = view.people && view.people[seat];
    return h("div", { class: "player" + (view.awaiting.includes(seat) && !view.outcome ? " to-move" : ""),
      "data-seat": seat }, [
      h("span", { class: "swatch", style: { background: sides[seat].colour } }),
      // the side, and under it who plays it
      h("span", { class: "who" }, [h("span", {}, [who]), person && personView(person, Boolean(view.outcome))]),
      h("span", { class: "count" }, [count]),
    ]);
  });
  if (view.people && view.people.some((/** @type {any} */ p) => p)) {
    rows.push(h("div", { class: "game-kind", "data-rated": String(Boolean(view.rated)) },
      [view.rated ? "rated game" : "casual game (not rated)"]));
  }
  // whose turn it is means nothing once the game is over: the banner says how it ended
  const words = [...(display.status && !view.outcome ? [display.status] : []),
    ...(display.k ? [`k = ${display.k}`] : []),
    ...(display.captures_to_win ? [`${display.captures_to_win} captures win`] : []),
    ...(display.goal_words || []),
    ...(display.torus ? ["the board wraps around"] : []),
    // what the server drew for this game (a random start's seed): typed in a form, it
    // starts the same game again
    ...(view.drawn || []).map((/** @type {[string, any]} */ [label, value]) => `${label} ${value}`)];
  if (words.length) rows.push(h("div", { class: "help-line", "data-status": "" }, [words.join(" · ")]));
  return rows;
}
