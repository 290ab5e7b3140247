// @ts-check
// The game page's start: makes the controller with the browser as its environment, draws the
// store's state with the views into game.html's boxes on every change, and wires the
// document's clicks and keys to the controller's methods. The only module of the page that
// reads or writes the document; it holds no state of its own but what drawing needs (the move
// list last drawn, the pointer's kind).
import { renderControls } from "../controls.js";
import { mount } from "../draw.js";
import { request } from "../request.js";
import { openSocket, socketUrl } from "../socket.js";
import { playTone } from "../tone.js";
import { GameCtrl } from "./ctrl.js";
import { fill } from "./dom.js";
import { bannerFor, titleOf } from "./view/banner.js";
import { BOARD_PX, boardView } from "./view/board.js";
import { choicesView } from "./view/choices.js";
import { linksView } from "./view/links.js";
import { listSignature, moveItems, shownList } from "./view/moves.js";
import { playersView } from "./view/players.js";
import { analysisHref, generationsView } from "./view/after.js";
import { rulesView } from "./view/rules.js";
import { actingSeat, shownDisplay } from "./read.js";
import { handlers } from "./socket-handlers.js";

/** @typedef {import("./read.js").PageState} PageState */

/** @param {string} id @returns {HTMLElement} */
function $(id) { return /** @type {HTMLElement} */ (document.getElementById(id)); }

/** @param {HTMLInputElement} input @param {HTMLElement} copy */
function copyLink(input, copy) {
  // the clipboard API needs a secure context (https or localhost); elsewhere, the selection
  input.select();
  const copied = navigator.clipboard && window.isSecureContext
    ? navigator.clipboard.writeText(input.value).then(() => true, () => false)
    : Promise.resolve(document.execCommand("copy"));
  copied.then((ok) => {
    copy.textContent = ok ? "Copied" : "Select and copy";
    setTimeout(() => { copy.textContent = "Copy"; }, 1500);
  });
}

const LINK_ACTIONS = {
  /** @param {Event} event */
  copy(event) {
    const copy = /** @type {HTMLElement} */ (event.currentTarget);
    const input = /** @type {HTMLInputElement} */ (copy.parentElement?.querySelector("input"));
    copyLink(input, copy);
  },
  /** @param {Event} event */
  select(event) { /** @type {HTMLInputElement} */ (event.currentTarget).select(); },
};

/**
 * The page's drawing: every part of the state into its box.
 * @param {GameCtrl} ctrl
 * @returns {{render(state: PageState): void, renderBoard(state: PageState): void}}
 */
function renderer(ctrl) {
  /** what the move list was drawn from last, and where it started (-1: none drawn yet) */
  const drawn = { list: "", from: -1, links: /** @type {PageState["links"]} */ (null), announced: "",
    rules: /** @type {PageState["rules"]} */ (null), look: null };
  const choiceActions = { cancel: () => ctrl.cancelGame(), dispatch: (/** @type {any} */ e) => ctrl.dispatch(e),
    hoverMove: (/** @type {string | null} */ move) => ctrl.hoverMove(move) };
  const afterActions = { browse: (/** @type {number} */ upto) => ctrl.browse(upto) };

  /** @param {PageState} state */
  function renderBoard(state) {
    const svg = $("board");
    const board = boardView(state, { width: Math.floor($("board-wrap").clientWidth) || BOARD_PX, now: Date.now() });
    svg.toggleAttribute("hidden", board.printed); // an <svg> has no hidden property: the attribute
    const terminal = $("terminal");
    terminal.hidden = !board.printed;
    if (board.printed) {
      $("legend").hidden = true;
      $("preview-line").hidden = true;
      terminal.textContent = board.text;
      terminal.scrollTop = terminal.scrollHeight;
      return;
    }
    $("legend").hidden = !board.legend;
    $("legend-born").textContent = board.legendWords[0];
    $("legend-died").textContent = board.legendWords[1];
    const line = $("preview-line");
    line.hidden = !board.preview;
    line.textContent = board.preview;
    svg.classList.toggle("previewing", Boolean(board.preview));
    mount(svg, board.tree);
    svg.setAttribute("aria-label", board.label);
  }

  /** @param {PageState} state */
  function renderMoves(state) {
    const list = $("moves");
    const signature = listSignature(state);
    if (signature !== drawn.list) {
      const shown = shownList(state);
      const prepended = drawn.from > shown.from && drawn.from >= 0;
      const fromBottom = list.scrollHeight - list.scrollTop; // kept when earlier moves arrive
      drawn.list = signature;
      drawn.from = shown.from;
      fill(list, moveItems(state, () => ctrl.listEarlier()));
      if (prepended) list.scrollTop = list.scrollHeight - fromBottom;
      else if (!state.browsing) list.scrollTop = list.scrollHeight;
    }
    const viewing = state.browsing ? state.browsing.upto : -1;
    for (const move of list.querySelectorAll(".move")) {
      const on = Number(/** @type {HTMLElement} */ (move).dataset.ply) === viewing;
      move.classList.toggle("viewing", on);
      if (on) move.scrollIntoView({ block: "nearest" });
    }
    const base = `/api/games/${encodeURIComponent(ctrl.env.gameId)}/record`;
    $("record-json").setAttribute("href", base + "?format=json");
    $("record-text").setAttribute("href", base + "?format=text");
  }

  /** @param {PageState} state */
  function renderChoices(state) {
    const bar = $("choices");
    // the bar is drawn anew each time: a keyboard's focus on one of its buttons stays on the
    // button of the same id or label, or goes back to the board, never to the page's start
    const active = /** @type {HTMLElement | null} */ (document.activeElement);
    const focused = active && bar.contains(active) && active.matches(":focus-visible") ? active : null;
    fill(bar, choicesView(state, choiceActions));
    if (focused) {
      const again = [...bar.querySelectorAll("button")].find((b) => !b.disabled
        && ((focused.id && b.id === focused.id) || b.textContent === focused.textContent));
      (again || (shownDisplay(state).terminal ? $("typed-move") : $("board"))).focus();
    }
  }

  /** @param {PageState} state */
  function renderLinks(state) {
    if (!state.links || state.links === drawn.links) return;
    drawn.links = state.links;
    const shown = linksView(state.links, location.origin, LINK_ACTIONS);
    $("invite-box").hidden = !shown.invite.length;
    fill($("invite-row"), shown.invite);
    fill($("link-rows"), shown.rows);
    $("links-note").textContent = shown.note;
    $("links").hidden = false;
  }

  /** The rules card, drawn when the rules (or the look they are drawn in) change.
   * @param {PageState} state */
  function renderRules(state) {
    const card = $("rules");
    const button = $("rules-button");
    button.hidden = !state.rules;
    button.setAttribute("aria-expanded", String(Boolean(state.rules && state.rulesOpen)));
    card.hidden = !state.rules || !state.rulesOpen;
    const look = state.view ? state.view.look : null;
    if (!state.rules || (state.rules === drawn.rules && look === drawn.look)) return;
    drawn.rules = state.rules;
    drawn.look = look;
    fill(card, rulesView(state.rules, look, { close: () => ctrl.toggleRules(false) }));
  }

  /** @param {PageState} state */
  function render(state) {
    const banner = $("banner");
    const [text, kind] = bannerFor(state);
    banner.textContent = text;
    banner.className = "banner " + kind;
    if (state.announcement && state.announcement !== drawn.announced) {
      drawn.announced = state.announcement;
      $("announce").textContent = state.announcement;
    }
    renderLinks(state);
    renderRules(state);
    const view = state.view;
    if (!view) return;
    const title = titleOf(view);
    document.title = title.title;
    $("game-title").textContent = title.heading;
    renderBoard(state);
    fill($("players"), playersView(view, shownDisplay(state)));
    renderMoves(state);
    renderChoices(state);
    fill($("generations"), generationsView(state, afterActions));
    const analysis = analysisHref(view, ctrl.env.gameId);
    $("analysis-link").hidden = !analysis;
    if (analysis) $("analysis-link").setAttribute("href", analysis);
    const box = $("message");
    box.textContent = state.message.text;
    box.className = "message " + state.message.tone;
    $("move-help").textContent = view.move_help;
    // how to type a move: for those who can, while the game is on
    $("move-help").hidden = !view.seats.length || Boolean(view.outcome) || Boolean(view.cancelled);
    $("typed").hidden = actingSeat(view) === null;
    const sound = $("sound");
    sound.setAttribute("aria-pressed", String(state.sound));
    sound.textContent = state.sound ? "Sound: on" : "Sound: off";
    try {
      renderControls($("controls"), view, { send: (message) => ctrl.sendMessage(message),
        request: (/** @type {string} */ path, /** @type {any} */ options) => ctrl.requestWithToken(path, options) });
    } catch (error) {
      console.warn("controls:", error);
    }
  }

  return { render, renderBoard };
}

/** Wire the document's events to the controller. @param {GameCtrl} ctrl @param {() => void} redrawBoard */
function listen(ctrl, redrawBoard) {
  const svg = $("board");
  const pointer = { kind: "mouse" }; // the kind of pointer of the last press on the board
  svg.addEventListener("pointerdown", (event) => { pointer.kind = event.pointerType; });
  svg.addEventListener("click", (event) => {
    const cell = /** @type {Element} */ (event.target).closest("[data-cell]");
    if (cell instanceof SVGElement) {
      ctrl.pickCell([Number(cell.dataset.r), Number(cell.dataset.c)], pointer.kind === "touch");
    }
  });
  // the pointer over a cell previews the move a click there would play
  const hovered = { key: "" };
  svg.addEventListener("pointermove", (event) => {
    if (event.pointerType === "touch") return; // a finger has no hover: its tap plays
    const cell = /** @type {Element} */ (event.target).closest("[data-cell]");
    const key = cell instanceof SVGElement ? String(cell.dataset.cell) : "";
    if (key === hovered.key) return;
    hovered.key = key;
    ctrl.hoverCell(cell instanceof SVGElement ? [Number(cell.dataset.r), Number(cell.dataset.c)] : null);
  });
  svg.addEventListener("pointerleave", () => { hovered.key = ""; ctrl.hoverCell(null); });
  $("rules-button").addEventListener("click", () => ctrl.toggleRules());
  svg.addEventListener("keydown", (event) => {
    if (!ctrl.boardKey(event.key)) return;
    event.preventDefault();
    event.stopPropagation();
  });
  // the keyboard's cursor shows once a key is used on the board, not after a click
  svg.addEventListener("pointerdown", () => svg.classList.remove("keyed"));
  svg.addEventListener("keydown", () => svg.classList.add("keyed"));
  // ←/→, Home and End step through the positions wherever the focus is but the text fields
  // (on the board, the arrows move its cursor and stop there)
  document.addEventListener("keydown", (event) => {
    const target = /** @type {HTMLElement} */ (event.target);
    if (target.closest("input, textarea, select") || event.altKey || event.ctrlKey || event.metaKey) return;
    if (ctrl.pageKey(event.key)) event.preventDefault();
  });
  const banner = $("banner");
  banner.addEventListener("click", () => ctrl.backToGame());
  banner.addEventListener("keydown", (event) => { if (event.key === "Enter") ctrl.backToGame(); });
  const list = $("moves");
  list.addEventListener("scroll", () => {
    const known = ctrl.state.moveList;
    if (known && known.from > 0 && list.scrollTop < 40) ctrl.listEarlier();
  });
  list.addEventListener("click", (event) => {
    const move = /** @type {Element} */ (event.target).closest(".move");
    if (move instanceof HTMLElement) ctrl.browse(Number(move.dataset.ply));
  });
  $("sound").addEventListener("click", () => ctrl.toggleSound());
  $("typed").addEventListener("submit", (event) => {
    event.preventDefault();
    const field = /** @type {HTMLInputElement} */ ($("typed-move"));
    ctrl.playTyped(field.value);
    field.value = "";
  });
  const resized = { frame: 0 };
  window.addEventListener("resize", () => {
    cancelAnimationFrame(resized.frame);
    resized.frame = requestAnimationFrame(redrawBoard);
  });
}

/** Start the game page. */
export function boot() {
  const gameId = decodeURIComponent(location.pathname.split("/").pop() || "");
  const ctrl = new GameCtrl({
    gameId, path: location.pathname, fragment: new URLSearchParams(location.hash.slice(1)),
    local: localStorage, session: sessionStorage,
    replaceUrl: (url) => history.replaceState(null, "", url),
    assign: (url) => location.assign(url),
    request, openSocket, socketUrl: socketUrl(gameId, location),
    now: () => Date.now(), tone: () => playTone(660, 0.08, 0.12),
    schedule: (run, ms) => { setTimeout(run, ms); }, learning: { rules: true, preview: true },
  });
  const drawing = renderer(ctrl);
  ctrl.store.subscribe(drawing.render);
  listen(ctrl, () => { if (ctrl.state.view) drawing.renderBoard(ctrl.state); });
  ctrl.start(handlers);
  return ctrl;
}
