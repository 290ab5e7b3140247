// @ts-check
// The home page's form fields, shared by the custom-game form and the challenge form: a
// game's parameters (from the catalog's specs: nothing here names a game or a parameter)
// and a time control. Each set of fields lives in a container of its own and is read back
// from it, so two forms on one page never mix their fields.

/**
 * @typedef {{name: string, label: string, kind: string, default: any, help?: string,
 *   choices?: any[], low?: number, high?: number, max_length?: number,
 *   shown_when?: [string, string] | null, drawn?: boolean}} ParamSpec
 * A parameter as /api/catalog describes it.
 * @typedef {{kind: "live", minutes: number, increment: number} |
 *   {kind: "correspondence", days: number}} TimeControl
 */

/**
 * Fill `box` with a label and an input per parameter (ids `${prefix}${name}`), each input
 * holding its default (one the server draws for each game stays empty); fields shown only with another parameter's value are hidden until it
 * has it.
 * @param {HTMLElement} box
 * @param {ParamSpec[]} specs
 * @param {string} prefix
 * @returns {void}
 */
export function buildParams(box, specs, prefix) {
  box.replaceChildren();
  for (const p of specs) {
    const id = prefix + p.name;
    const label = document.createElement("label");
    label.htmlFor = id;
    label.textContent = p.label;
    /** @type {HTMLInputElement | HTMLSelectElement} */
    let input;
    if (p.kind === "choice") {
      const select = document.createElement("select");
      for (const choice of p.choices || []) {
        const option = document.createElement("option");
        option.value = String(choice);
        option.textContent = String(choice);
        select.appendChild(option);
      }
      select.value = String(p.default);
      input = select;
    } else {
      const field = document.createElement("input");
      if (p.kind === "bool") {
        field.type = "checkbox";
        field.checked = Boolean(p.default);
      } else if (p.kind === "text") {
        field.type = "text";
        if (p.max_length) field.maxLength = p.max_length;
        field.value = String(p.default ?? "");
      } else {
        field.type = "number";
        if (p.low !== undefined) field.min = String(p.low);
        if (p.high !== undefined) field.max = String(p.high);
        field.step = p.kind === "int" ? "1" : "0.01";
        // a value the server draws afresh for each game (a random start's seed) starts empty
        field.value = p.drawn ? "" : String(p.default);
        if (p.drawn) field.placeholder = "new each game";
      }
      input = field;
    }
    input.id = id;
    input.dataset.param = p.name;
    input.dataset.kind = p.kind;
    // a choice among numbers (Losat's neighbourhood: 8 or 4) is sent as a number
    if (p.kind === "choice" && typeof (p.choices || [])[0] === "number") input.dataset.kind = "int";
    /** @type {HTMLElement[]} */
    const row = [label, input];
    if (p.help) {
      const help = document.createElement("div");
      help.className = "help";
      help.textContent = p.help;
      row.push(help);
    }
    for (const node of row) {
      if (p.shown_when) node.dataset.shownWhen = p.shown_when.join("=");
      box.appendChild(node);
    }
  }
  showWhen(box);
}

/**
 * Show the fields of `box` whose condition (another parameter's value) holds, hide the rest.
 * @param {HTMLElement} box
 * @returns {void}
 */
export function showWhen(box) {
  for (const node of /** @type {HTMLElement[]} */ ([...box.children])) {
    const rule = node.dataset.shownWhen;
    if (!rule) continue;
    const [other, value] = rule.split("=");
    const control = /** @type {HTMLInputElement | null} */ (
      box.querySelector(`[data-param="${other}"]`));
    node.hidden = !(control && control.value === value);
  }
}

/**
 * The values of the shown parameter fields of `box`, typed as the server expects them.
 * @param {HTMLElement} box
 * @returns {Record<string, string | number | boolean>}
 */
export function readParams(box) {
  /** @type {Record<string, string | number | boolean>} */
  const params = {};
  for (const input of /** @type {HTMLInputElement[]} */ ([...box.querySelectorAll("[data-param]")])) {
    if (input.hidden) continue;
    const name = input.dataset.param || "";
    const kind = input.dataset.kind;
    // an empty number is left out: the server takes its default, or draws it afresh
    if ((kind === "int" || kind === "float") && input.value.trim() === "") continue;
    if (kind === "bool") params[name] = input.checked;
    else if (kind === "int" || kind === "float") params[name] = Number(input.value);
    else params[name] = input.value;
  }
  return params;
}

/**
 * Fill `box` with a time control's fields (ids `${prefix}kind`, `${prefix}minutes`,
 * `${prefix}increment`, `${prefix}days`): none, live (minutes and an increment) or
 * correspondence (days a move); only the chosen kind's fields show.
 * @param {HTMLElement} box
 * @param {string} prefix
 * @returns {void}
 */
export function buildClock(box, prefix) {
  const kind = document.createElement("select");
  kind.id = prefix + "kind";
  for (const [value, text] of [["", "none"], ["live", "live"], ["correspondence", "days a move"]]) {
    const option = document.createElement("option");
    option.value = value;
    option.textContent = text;
    kind.appendChild(option);
  }
  /**
   * @param {string} name
   * @param {string} unit
   * @param {number} value
   * @param {number} low
   * @param {number} high
   * @param {string} show the kind it shows with
   * @returns {HTMLElement}
   */
  function numberField(name, unit, value, low, high, show) {
    const wrap = document.createElement("label");
    wrap.className = "clock-part";
    wrap.dataset.clock = show;
    const input = document.createElement("input");
    input.type = "number";
    input.id = prefix + name;
    input.min = String(low);
    input.max = String(high);
    input.step = name === "minutes" ? "0.5" : "1";
    input.value = String(value);
    input.setAttribute("aria-label", unit);
    wrap.append(input, " " + unit);
    return wrap;
  }
  box.replaceChildren(kind,
    numberField("minutes", "min", 5, 0.5, 180, "live"),
    numberField("increment", "s a move", 3, 0, 180, "live"),
    numberField("days", "days", 3, 1, 14, "correspondence"));
  const refresh = () => {
    for (const part of /** @type {HTMLElement[]} */ ([...box.querySelectorAll("[data-clock]")])) {
      part.hidden = part.dataset.clock !== kind.value;
    }
  };
  kind.addEventListener("change", refresh);
  refresh();
}

/**
 * The time control of fields made by {@link buildClock} (null: none).
 * @param {HTMLElement} box
 * @param {string} prefix
 * @returns {TimeControl | null}
 */
export function readClock(box, prefix) {
  /** @param {string} name */
  const value = (name) => Number(/** @type {HTMLInputElement} */ (
    box.querySelector("#" + prefix + name)).value);
  const kind = /** @type {HTMLSelectElement} */ (box.querySelector("#" + prefix + "kind")).value;
  if (kind === "live") return { kind, minutes: value("minutes"), increment: value("increment") };
  if (kind === "correspondence") return { kind, days: value("days") };
  return null;
}
