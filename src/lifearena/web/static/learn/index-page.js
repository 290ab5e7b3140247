// @ts-check
// The Learn page (/learn): a card per game's lesson, its first position drawn, linking to
// the lesson.
import { mount, picture } from "../js/draw.js";
import { request } from "../js/request.js";
import "../js/me.js"; // the header about you
import { cards } from "./views.js";

const SVG_NS = "http://www.w3.org/2000/svg";

async function main() {
  const answer = await request("/api/lessons");
  const list = /** @type {HTMLElement} */ (document.getElementById("lessons"));
  if (!answer.ok) {
    /** @type {HTMLElement} */ (document.getElementById("error")).textContent = answer.error || "";
    return;
  }
  list.replaceChildren(...cards(answer.data).map((card) => {
    const item = document.createElement("li");
    item.className = "card lesson-card";
    item.dataset.game = card.game;
    const svg = document.createElementNS(SVG_NS, "svg");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", `${card.title}: the lesson's first position`);
    mount(svg, picture(card.picture, card.look, { size: 150, labels: false, showLast: false }));
    const title = document.createElement("h3");
    title.textContent = card.title;
    const summary = document.createElement("p");
    summary.textContent = `${card.summary} ${card.steps}.`;
    const link = document.createElement("a");
    link.className = "button";
    link.href = card.link;
    link.textContent = `Learn ${card.title}`;
    item.append(svg, title, summary, link);
    return item;
  }));
  document.body.dataset.ready = "1";
}

main();
