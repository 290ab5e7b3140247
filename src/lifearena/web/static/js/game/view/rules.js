// @ts-check
// The rules card beside the board: the game's rules in a few sections, a tiny example drawn
// as the board is drawn (its births and deaths marked, the legend's colours) with its
// caption, and the way to the lesson. Pure: an element description from the rules the server
// sends (GET /api/games/{id}/rules) and the game's look.
import { PLAIN_LOOK, picture } from "../../draw.js";
import { h } from "../h.js";

/**
 * @typedef {import("../h.js").VNode} VNode
 * @typedef {{close(): void}} RulesActions
 */

/** The example's size in pixels (its longer side). */
export const RULES_PICTURE_PX = 200;

/**
 * A picture of js/draw.js as an element description (its text nodes as text children).
 * @param {import("../../draw.js").Node} node
 * @returns {VNode}
 */
export function fromPicture(node) {
  return h(node.tag, node.attrs, [...(node.children || []).map(fromPicture), node.text]);
}

/**
 * An example's picture made inert: no cell a click or a page's query takes for the board's
 * (its cells lose their data-* attributes, and each class is prefixed "example-").
 * @param {import("../../draw.js").Node} node
 * @returns {import("../../draw.js").Node}
 */
export function inert(node) {
  /** @type {Record<string, string | number>} */
  const attrs = {};
  for (const [name, value] of Object.entries(node.attrs)) {
    if (name.startsWith("data-")) continue;
    attrs[name] = name === "class" ? String(value).split(/\s+/).map((c) => "example-" + c).join(" ") : value;
  }
  return { ...node, attrs, ...(node.children ? { children: node.children.map(inert) } : {}) };
}

/**
 * The rules card's content.
 * @param {import("../read.js").Rules} rules
 * @param {any} look the game's look (the page's view's), or null before the first view
 * @param {RulesActions} actions
 * @returns {VNode[]}
 */
export function rulesView(rules, look, actions) {
  const shown = rules.picture;
  const example = shown && inert(picture(shown, look || PLAIN_LOOK, { size: RULES_PICTURE_PX, labels: false,
    births: shown.births, deaths: shown.deaths, showLast: false }));
  if (example) {
    example.attrs.class = "rules-picture";
    example.attrs.role = "img";
    example.attrs["aria-label"] = `example: ${rules.caption || "a small position"}`;
  }
  return [
    h("div", { class: "rules-head" }, [
      h("h2", { id: "rules-title" }, [`How to play ${rules.name}`]),
      h("button", { type: "button", class: "quiet small", id: "rules-close", "aria-controls": "rules",
        on: { click: () => actions.close() } }, ["Hide"]),
    ]),
    ...rules.sections.map((section) => h("section", { class: "rules-section" }, [
      h("h3", {}, [section.title]), h("p", {}, [section.text])])),
    example && h("figure", { class: "rules-example" }, [
      fromPicture(example),
      h("figcaption", {}, [rules.caption || ""]),
      (shown.births || shown.deaths) && h("div", { class: "legend" }, [
        h("span", { class: "born" }, ["born"]), h("span", { class: "died" }, ["dies"])]),
    ]),
    rules.lesson && h("p", { class: "rules-lesson" }, [
      h("a", { class: "button quiet", href: rules.lesson, id: "rules-lesson" }, ["Try the lesson"])]),
  ];
}
