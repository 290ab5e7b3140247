// @ts-check
// The game page's views describe the page as plain trees (snabbdom's habit, without its
// diffing): h(tag, attrs, children) builds one element's description, text children are
// strings, and `on` holds the element's listeners. Pure: no DOM, so node's test runner reads
// what a view draws; js/game/dom.js turns a tree into elements.

/**
 * @typedef {{tag: string, attrs: Record<string, string | number | boolean | null | undefined | Record<string, string>>,
 *   on?: Record<string, (event: any) => void>, children: Child[]}} VNode
 * @typedef {VNode | string} Child
 * attrs: an attribute's value (true: present and empty; false, null or undefined: absent);
 * `style` an object of the style's properties (the site's CSP refuses style attributes).
 */

/**
 * One element's description. h("p", {class: "note"}, ["Hello"]).children[0] === "Hello"
 * @param {string} tag
 * @param {Record<string, any>} [attrs] attributes, with `on` for the listeners
 * @param {(Child | null | undefined | false)[]} [children] left-out children are skipped
 * @returns {VNode}
 */
export function h(tag, attrs = {}, children = []) {
  const { on, ...rest } = attrs;
  /** @type {VNode} */
  const made = { tag, attrs: rest, children: /** @type {Child[]} */ (children.filter((c) => c !== null && c !== undefined && c !== false)) };
  if (on) made.on = on;
  return made;
}

/**
 * The text a tree shows, its children's text joined in order.
 * @param {Child} tree
 * @returns {string}
 */
export function textOf(tree) {
  return typeof tree === "string" ? tree : tree.children.map(textOf).join("");
}

/**
 * Every element of a tree, depth first, the tree first.
 * @param {Child} tree
 * @returns {VNode[]}
 */
export function elements(tree) {
  if (typeof tree === "string") return [];
  return [tree, ...tree.children.flatMap(elements)];
}
