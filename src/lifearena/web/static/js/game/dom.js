// @ts-check
// Trees of js/game/h.js into the document: build makes the elements, fill puts a list of
// them into a box in place of what it held. The only module of the game's views that
// touches the DOM.

/**
 * The element a description names, with its attributes, listeners and children.
 * @param {import("./h.js").Child} tree
 * @returns {Node}
 */
export function build(tree) {
  if (typeof tree === "string") return document.createTextNode(tree);
  const element = document.createElement(tree.tag);
  for (const [name, value] of Object.entries(tree.attrs)) {
    if (value === false || value === null || value === undefined) continue;
    // the site's CSP refuses style attributes, not the style object's properties
    if (name === "style" && typeof value === "object") { Object.assign(element.style, value); continue; }
    element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const [type, listener] of Object.entries(tree.on || {})) element.addEventListener(type, listener);
  for (const child of tree.children) element.appendChild(build(child));
  return element;
}

/**
 * Put `trees` into `box` in place of its children.
 * @param {Element} box
 * @param {import("./h.js").Child[]} trees
 */
export function fill(box, trees) {
  box.replaceChildren(...trees.map(build));
}
