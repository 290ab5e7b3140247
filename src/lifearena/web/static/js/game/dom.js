// @ts-check
// Trees of js/game/h.js into the document: build makes the elements, fill puts a list of
// them into a box in place of what it held. The only module of the game's views that
// touches the DOM.

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * The element a description names, with its attributes, listeners and children (an <svg>
 * and what it holds in SVG's namespace).
 * @param {import("./h.js").Child} tree
 * @param {boolean} [inSvg] whether the element is inside an <svg>
 * @returns {Node}
 */
export function build(tree, inSvg = false) {
  if (typeof tree === "string") return document.createTextNode(tree);
  const svg = inSvg || tree.tag === "svg";
  const element = svg ? document.createElementNS(SVG_NS, tree.tag) : document.createElement(tree.tag);
  for (const [name, value] of Object.entries(tree.attrs)) {
    if (value === false || value === null || value === undefined) continue;
    // the site's CSP refuses style attributes, not the style object's properties
    if (name === "style" && typeof value === "object") {
      Object.assign(/** @type {HTMLElement} */ (element).style, value);
      continue;
    }
    element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const [type, listener] of Object.entries(tree.on || {})) element.addEventListener(type, listener);
  for (const child of tree.children) element.appendChild(build(child, svg));
  return element;
}

/**
 * Put `trees` into `box` in place of its children.
 * @param {Element} box
 * @param {import("./h.js").Child[]} trees
 */
export function fill(box, trees) {
  box.replaceChildren(...trees.map((tree) => build(tree)));
}
