// @ts-check
// The game page: one store holds what the page shows, one socket brings the server's views,
// the board is drawn from the view's display and look (js/draw.js), and clicks and keys go
// through the input module of the interaction the server asks for (js/inputs/). The server
// decides legality and explains every refusal; this page never names a game.
import { renderControls } from "./controls.js";
import { boardSize, cellName as displayCellName, mount, picture } from "./draw.js";
import { inputFor } from "./inputs/index.js";
import { NOTHING, capital, stillLegal } from "./inputs/common.js";
import { hints } from "./inputs/point-then-action.js";
import { describeMove, earlierPage, turnRows, withEarlier, withView } from "./movelist.js";
import { outcomeText, sideNames } from "./outcome.js";
import { changeText, changeTone, ratingText, ratingTitle } from "./rating.js";
import { request } from "./request.js";
import { playTone } from "./tone.js";
import { openSocket, socketUrl } from "./socket.js";
import { createStore } from "./store.js";
import "./me.js"; // the header about you, and your turn in other games

/**
 * @typedef {import("./inputs/common.js").Cell} Cell
 * @typedef {import("./inputs/common.js").Selection} Selection
 * @typedef {import("./inputs/common.js").InputEvent} InputEvent
 * @typedef {{
 *   view: any, moveList: import("./movelist.js").Listed | null,
 *   browsing: {upto: number, display: any} | null, selection: Selection,
 *   selectionSeat: number | null, cursor: Cell, message: {text: string, tone: string},
 *   hint: Record<string, string>, notice: string, connection: string, animateUntil: number,
 *   sound: boolean
 * }} PageState
 */

const BOARD_PX = 560;
const ANIMATION_MS = 900;
const SOUND_KEY = "lifearena-sound";
const gameId = decodeURIComponent(location.pathname.split("/").pop() || "");
const fragment = new URLSearchParams(location.hash.slice(1));
const SEAT_KEY = "lifearena-seat-" + gameId;
const LINKS_KEY = "links-" + gameId;
// a seat's token lives in the link's fragment (never sent to a server) and in this
// browser's storage, so the page finds it again; it travels only in a header or a message.
// It is stored only once the server has accepted it (a view with seats): a mistyped link
// neither breaks this browser's later visits nor replaces the good token stored before
let token = fragment.get("t") || localStorage.getItem(SEAT_KEY) || "";

/** @type {import("./store.js").Store<PageState>} */
const store = createStore(/** @type {PageState} */ ({
  view: null, moveList: null, browsing: null, selection: NOTHING, selectionSeat: null, cursor: [0, 0],
  message: { text: "", tone: "info" }, hint: {}, notice: "", connection: "connecting",
  animateUntil: 0, sound: localStorage.getItem(SOUND_KEY) === "on",
}));

/** @param {string} id @returns {HTMLElement} */
function $(id) { return /** @type {HTMLElement} */ (document.getElementById(id)); }

/** @type {import("./socket.js").GameSocket | null} */
let socket = null;

// -- what the view says -------------------------------------------------------------------------

/** The seat this page acts for now, or null. @param {any} view @returns {number | null} */
function actingSeat(view) {
  if (!view || view.outcome || view.waiting_for_opponent || view.cancelled) return null;
  const mine = view.seats.filter((/** @type {number} */ s) => view.awaiting.includes(s) && view.legal[String(s)]);
  return mine.length ? mine[0] : null;
}

/** @param {any} view @returns {string[]} */
function names(view) { return sideNames(view && view.look); }

/** The cell as the board labels it, in the order of the game's notation. @param {Cell} cell @returns {string} */
function cellName(cell) {
  const { view, browsing } = store.get();
  return displayCellName(browsing ? browsing.display : view && view.display, cell);
}

// -- talking to the server ----------------------------------------------------------------------

/** @param {string} path @param {object} body */
function post(path, body) {
  return request(`/api/games/${encodeURIComponent(gameId)}/${path}`, { body, token });
}

/** Show `text` (a sentence: the server's errors start in lower case) under the players.
 * @param {string} text @param {string} [tone] */
function say(text, tone) { store.set({ message: { text: capital(text || ""), tone: tone || "info" } }); }

/** Send `move` for `seat`; the move names the ply it was chosen at, so a late duplicate is
 * refused, not replayed. @param {string} move @param {number} seat */
async function sendMove(move, seat) {
  const view = store.get().view;
  const message = { type: "move", move, seat, ply: view.ply };
  if (socket && socket.send(message)) return;
  const answer = await post("moves", { move, seat, ply: view.ply });
  if (!answer.ok) say(answer.error || "", "error");
  else receive(answer.data);
}

/** @param {object} message */
function sendMessage(message) {
  if (!socket || !socket.send(message)) say("Not connected; reconnecting…", "error");
}

// an invitation link (#i=...): the first to open it takes the seat it offers
/** @param {string} invitation */
async function claimInvitation(invitation) {
  const answer = await post("claim", { invitation });
  if (answer.ok) {
    token = answer.data.token;
    localStorage.setItem(SEAT_KEY, token);
    history.replaceState(null, "", `${location.pathname}#t=${encodeURIComponent(token)}`);
    sessionStorage.setItem(LINKS_KEY, JSON.stringify(answer.data.links));
  } else {
    history.replaceState(null, "", token ? `${location.pathname}#t=${encodeURIComponent(token)}` : location.pathname);
    const text = answer.error || "";
    store.set({ notice: text.charAt(0).toUpperCase() + text.slice(1) });
  }
}

async function cancelGame() {
  const answer = await post("cancel", {});
  if (!answer.ok) say(answer.error || "", "error");
  else receive(answer.data);
}

/** A new view from the server. @param {any} next */
function receive(next) {
  const state = store.get();
  const previous = state.view;
  if (token && next.seats.length && localStorage.getItem(SEAT_KEY) !== token) {
    localStorage.setItem(SEAT_KEY, token); // the server accepted it
  }
  // a rematch that starts while this page is open: each player's page follows its own link
  // there (a spectator keeps the link in the controls)
  if (previous && !previous.rematch && next.rematch && next.seats.length) {
    location.assign(next.rematch.link);
  }
  const invite = next.invitation && next.invitation.link;
  const known = JSON.parse(sessionStorage.getItem(LINKS_KEY) || "{}");
  let relink = !previous || previous.waiting_for_opponent !== next.waiting_for_opponent;
  if (invite && known.invite !== invite) {
    sessionStorage.setItem(LINKS_KEY, JSON.stringify({ ...known, invite }));
    relink = true;
  }
  const advanced = Boolean(previous) && next.ply > previous.ply;
  const seat = actingSeat(next);
  // a pending selection survives everything but a new position in which it is no longer legal
  let selection = state.selection;
  const rewound = previous && next.ply < previous.ply;
  if (seat === null || seat !== state.selectionSeat || rewound
      || (advanced && !stillLegal(selection, next.legal[String(seat)]))) selection = NOTHING;
  /** @type {Partial<PageState>} */
  const patch = { view: next, moveList: withView(state.moveList, next), selection, selectionSeat: seat };
  if (advanced || rewound) {
    patch.browsing = null;
    positions.clear();
    browseAsked++; // an answer still on its way shows a position of another move list
    patch.hint = {};
    announce(describeMove(names(next), next.moves, next.move_sides, next.display));
    beep();
    if (next.display.before) patch.animateUntil = Date.now() + ANIMATION_MS;
    const collisions = next.display.collisions || [];
    if (advanced && collisions.length) {
      patch.message = { text: `Both players chose ${collisions.map(cellName).join(" ")}: left empty.`, tone: "info" };
    }
  }
  store.set(patch);
  if (relink) showLinks();
}

// -- input --------------------------------------------------------------------------------------

/** Why this page cannot move now, in words. @returns {string} */
function whyNot() {
  const { view, browsing } = store.get();
  if (browsing) return "You are looking at an earlier position; press End or the banner to return to the game.";
  if (view.cancelled) return "This game was cancelled.";
  if (view.waiting_for_opponent) return "Nobody can move until your opponent joins.";
  if (view.outcome) return "The game is over.";
  if (!view.seats.length) return "Spectators watch; only a seat's private link can move.";
  if (view.thinking) return "The agent is thinking; wait for its move.";
  if (view.simultaneous) return "You have chosen; waiting for your opponent.";
  return `It is ${names(view)[view.awaiting[0]]}'s turn, not yours.`;
}

/** Feed `event` to the input of the interaction asked of this page's seat. @param {InputEvent} event */
function dispatch(event) {
  const state = store.get();
  const view = state.view;
  if (!view) return;
  const seat = actingSeat(view);
  if (seat === null || state.browsing) { say(whyNot(), "error"); return; }
  const legal = view.legal[String(seat)];
  const input = inputFor(legal.interaction.kind);
  const result = input.reduce(state.selection, event, legal);
  const failed = result.tone === "error";
  store.set({ selection: result.selection, selectionSeat: seat,
    hint: failed && legal.interaction.kind === "point-then-action" ? hints(legal) : {},
    message: { text: result.message || "", tone: result.tone || "info" } });
  if (result.send !== undefined) sendMove(result.send, seat);
}

/** A click or a key on the cell `cell` (`touch`: a finger's tap, which may miss a small
 * square: the inputs ask for a second tap before they play). @param {Cell} cell
 * @param {boolean} [touch] */
function pickCell(cell, touch) {
  const view = store.get().view;
  if (!view) return;
  store.set({ cursor: cell });
  const grid = view.display.grid;
  const seat = actingSeat(view);
  dispatch({ type: "cell", cell, value: grid ? grid.cells[cell[0]][cell[1]] : 0,
    seat: seat === null ? undefined : seat, name: cellName(cell), names: names(view),
    ...(touch ? { touch: true } : {}) });
}

/** @param {KeyboardEvent} event */
function onBoardKey(event) {
  const state = store.get();
  const view = state.view;
  if (!view) return;
  const size = boardSize(state.browsing ? state.browsing.display : view.display);
  /** @type {Record<string, [number, number]>} */
  const steps = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  if (steps[event.key] && size) {
    const [dr, dc] = steps[event.key];
    const cursor = /** @type {Cell} */ ([Math.min(size[0] - 1, Math.max(0, state.cursor[0] + dr)),
      Math.min(size[1] - 1, Math.max(0, state.cursor[1] + dc))]);
    store.set({ cursor });
    announce(`${cellName(cursor)}${cellWords(cursor)}`);
  } else if (event.key === "Enter" || event.key === " ") {
    const seat = actingSeat(view);
    const legal = seat === null ? null : view.legal[String(seat)];
    const full = legal && legal.interaction.kind === "cells"
      && state.selection.cells.length === (legal.interaction.count || 1);
    if (event.key === "Enter" && full) dispatch({ type: "confirm" });
    else pickCell(state.cursor);
  } else if (event.key === "Escape") {
    store.set({ selection: NOTHING, hint: {}, message: { text: "", tone: "info" } });
  } else return;
  event.preventDefault();
  event.stopPropagation();
}

/** What stands on a cell, for the cursor's announcement. @param {Cell} cell @returns {string} */
function cellWords(cell) {
  const view = store.get().view;
  const grid = view.display.grid;
  const value = grid ? grid.cells[cell[0]][cell[1]] : 0;
  const picked = store.get().selection.cells.some((c) => c[0] === cell[0] && c[1] === cell[1]);
  return (value ? `, ${names(view)[value - 1]}` : ", empty") + (picked ? ", picked" : "");
}

/** The positions fetched while browsing, by the number of moves before them (for this move
 * list: cleared when it changes). @type {Map<number, any>} */
const positions = new Map();
/** How many steps were asked: an answer to any but the latest is dropped. */
let browseAsked = 0;

/** Step to the position after `upto` moves (the game as it stands at the last). The step is
 * the page's at once, so the next key steps from it; the board follows when the server's
 * answer comes, unless another step was asked meanwhile. @param {number} upto */
async function browse(upto) {
  const { view, browsing } = store.get();
  if (!view) return;
  const n = view.ply;
  const at = Math.max(0, Math.min(n, upto));
  const asked = ++browseAsked;
  if (at === n) { store.set({ browsing: null }); return; }
  const known = positions.get(at);
  store.set({ browsing: { upto: at, display: known || (browsing ? browsing.display : view.display) } });
  const listed = store.get().moveList;
  if (at > 0 && listed && at <= listed.from) listEarlier(at); // so that the move shows in the list
  if (known) return;
  const answer = await request(`/api/games/${encodeURIComponent(gameId)}/position?upto=${at}`);
  if (asked !== browseAsked) {
    if (answer.ok && store.get().view.ply === n) positions.set(at, answer.data);
    return;
  }
  if (!answer.ok) { say(answer.error || "", "error"); return; }
  positions.set(at, answer.data);
  store.set({ browsing: { upto: at, display: answer.data } });
}

/** Moves fetched at once when the page lists earlier moves of a long game. */
const MOVES_PAGE = 500;
/** Whether earlier moves are being fetched (one request at a time). */
let listing = false;

/** Fetch earlier pages of the move list until it lists move `target` (1-based; by default
 * one page), when the view left them out: a long game's view lists only its last moves.
 * @param {number} [target] */
async function listEarlier(target) {
  if (listing) return;
  listing = true;
  try {
    for (;;) {
      const known = store.get().moveList;
      const page = known && earlierPage(known, MOVES_PAGE);
      if (!known || !page) return;
      const answer = await request(`/api/games/${encodeURIComponent(gameId)}/moves?from=${page.from}&limit=${page.limit}`);
      if (!answer.ok) { say(answer.error || "", "error"); return; }
      const now = store.get().moveList;
      if (now) store.set({ moveList: withEarlier(now, answer.data) });
      const listed = store.get().moveList;
      if (target === undefined || !listed || listed.from < target || listed === now) return;
    }
  } finally {
    listing = false;
  }
}

/** ←/→, Home and End step through the positions wherever the focus is but the text fields
 * (on the board, the arrows move its cursor and stop there). @param {KeyboardEvent} event */
function onPageKey(event) {
  const target = /** @type {HTMLElement} */ (event.target);
  if (target.closest("input, textarea, select") || event.altKey || event.ctrlKey || event.metaKey) return;
  const { view, browsing } = store.get();
  if (!view) return;
  const at = browsing ? browsing.upto : view.ply;
  /** @type {Record<string, number>} */
  const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: view.ply };
  if (!(event.key in to)) return;
  event.preventDefault();
  browse(to[event.key]);
}

// -- drawing ------------------------------------------------------------------------------------

/** @param {string} text @param {string} kind */
function setBanner(text, kind) {
  const banner = $("banner");
  banner.textContent = text;
  banner.className = "banner " + kind;
}

/** @param {PageState} state @returns {[string, string]} */
function bannerFor(state) {
  const view = state.view;
  const n = names(view);
  if (state.browsing) return [`Viewing the position after move ${state.browsing.upto} — press End or click here to return`, "wait"];
  if (view.cancelled) return ["This game was cancelled by its creator before anyone joined.", "result draw"];
  if (view.waiting_for_opponent) {
    return view.seats.length ? ["Waiting for your opponent to join: send them the invitation link below.", "wait"]
      : ["Waiting for the second player to join.", "wait"];
  }
  if (view.outcome) {
    const single = view.seats.length === 1 ? view.seats[0] : null;
    let kind = "result";
    if (view.outcome.winner === null) kind += " draw";
    else if (single !== null && view.outcome.winner !== single) kind += " lost";
    const you = single === null || view.outcome.winner === null ? ""
      : view.outcome.winner === single ? "You win! " : "You lose. ";
    return [you + outcomeText(view.outcome, n), kind];
  }
  if (state.connection === "lost") return ["Connection lost; reconnecting…", "wait"];
  const seat = actingSeat(view);
  // a person with a choice to make is asked for it, even while an agent thinks
  if (seat !== null) {
    const asked = view.legal[String(seat)].interaction;
    const what = asked.prompt || "your move"; // what this board asks now (a block, a choice…)
    if (view.seats.length > 1) {
      const peek = view.simultaneous && view.chosen.length ? ` (${n[1 - seat]} has chosen — no peeking)` : "";
      return [`${n[seat]}: ${what}${peek}`, "turn"];
    }
    return [`You play ${n[seat]}: ${what}`, "turn"];
  }
  if (view.thinking) return [`The agent (${view.opponent.agent}) is thinking…`, "wait"];
  if (view.agent_error) return [`${view.agent_error} — reload the page to try again`, "wait"];
  if (!view.seats.length) {
    if (state.notice) return [state.notice, "wait"];
    return [`Spectating — waiting for ${view.awaiting.map((/** @type {number} */ p) => n[p]).join(" and ")}`, "wait"];
  }
  if (view.simultaneous) return ["Waiting for your opponent…", "wait"];
  return [`${n[view.awaiting[0]]} to move`, "wait"];
}

/** The marks on the board: the seat's own pending choice, collisions, the input's marks. @param {PageState} state */
function marksFor(state) {
  const view = state.view;
  /** @type {Record<string, string>} */
  const marks = { ...state.hint };
  if (view.seats.length === 1) {
    for (const cells of Object.values(view.mine_cells || {})) {
      for (const [r, c] of /** @type {Cell[]} */ (cells)) marks[r + "," + c] = "chosen";
    }
  }
  if (Date.now() < state.animateUntil) for (const [r, c] of view.display.collisions || []) marks[r + "," + c] = "collision";
  const seat = actingSeat(view);
  if (seat !== null) {
    const legal = view.legal[String(seat)];
    Object.assign(marks, inputFor(legal.interaction.kind).marks(state.selection, legal));
  }
  return marks;
}

/** @param {PageState} state */
function render(state) {
  const view = state.view;
  if (!view) {
    if (state.connection === "lost") setBanner("Connection lost; reconnecting…", "wait");
    return;
  }
  document.title = `lifearena — ${view.title}`;
  const opponent = view.opponent;
  let against = " · at this screen";
  if (opponent.kind === "online") against = " · online";
  if (opponent.kind === "agent") {
    against = opponent.agent === opponent.level ? ` · against the ${opponent.agent} agent`
      : ` · against ${opponent.agent} (${opponent.level})`;
  }
  $("game-title").textContent = view.title + against;
  const [text, kind] = bannerFor(state);
  setBanner(text, kind);
  renderBoard(state);
  renderPlayers(view, state.browsing ? state.browsing.display : view.display);
  renderMoves(state);
  renderChoices(state);
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
    renderControls($("controls"), view, { send: sendMessage,
      request: (/** @type {string} */ path, /** @type {any} */ options) => request(path, { ...(options || {}), token }) });
  } catch (error) {
    console.warn("controls:", error);
  }
}

/** @param {PageState} state */
function renderBoard(state) {
  const view = state.view;
  const display = state.browsing ? state.browsing.display : view.display;
  const svg = $("board");
  const printed = Boolean(display.terminal);
  svg.toggleAttribute("hidden", printed); // an <svg> has no hidden property: the attribute
  const terminal = $("terminal");
  terminal.hidden = !printed;
  $("legend").hidden = printed || !display.before;
  if (printed) {
    terminal.textContent = display.text;
    terminal.scrollTop = terminal.scrollHeight;
    return;
  }
  const width = Math.floor($("board-wrap").clientWidth) || BOARD_PX;
  const animate = !state.browsing && Date.now() < state.animateUntil;
  // an earlier position shows its own generation's births and deaths too
  const tree = picture(display, view.look, {
    size: Math.min(BOARD_PX, width), cursor: state.cursor, marks: state.browsing ? {} : marksFor(state),
    births: display.births, deaths: display.deaths, animate, own: ownColour(view),
  });
  mount(svg, tree);
  svg.setAttribute("aria-label", `board, ${boardSize(display)?.join(" by ")}: arrow keys move the cursor `
    + `(now ${cellName(state.cursor)}), Enter or Space picks, Escape clears`);
}

/** The colour of the side this page picks for (its picks are drawn in it), if any.
 * @param {any} view @returns {string | undefined} */
function ownColour(view) {
  const seat = actingSeat(view) ?? (view.seats.length === 1 ? view.seats[0] : null);
  return seat === null ? undefined : view.look.sides[seat].colour;
}

/** The players, their counts (of the position on the board: an earlier one while browsing)
 * and the game's facts. @param {any} view @param {any} display */
function renderPlayers(view, display) {
  const box = $("players");
  box.replaceChildren();
  const sides = view.look.sides;
  names(view).forEach((name, seat) => {
    const row = document.createElement("div");
    row.className = "player" + (view.awaiting.includes(seat) && !view.outcome ? " to-move" : "");
    row.dataset.seat = String(seat);
    const swatch = document.createElement("span");
    swatch.className = "swatch";
    swatch.style.background = sides[seat].colour;
    const label = document.createElement("span");
    let who = name;
    if (view.seats.length === 1 && view.seats[0] === seat) who += " (you)";
    else if (view.opponent.kind === "agent" && view.opponent.agent_seat === seat) who += `: ${view.players[seat]}`;
    else if (view.opponent.from_record && view.players[seat]) who += `: ${view.players[seat]}`;
    if (view.simultaneous && view.chosen.includes(seat)) who += " ✓ chosen";
    label.textContent = who;
    const count = document.createElement("span");
    count.className = "count";
    if (display.counts) {
      const plural = (/** @type {number} */ k, /** @type {string} */ word) => `${k} ${k === 1 ? word.replace(/s$/, "") : word}`;
      count.textContent = plural(display.counts[seat], display.count_label);
      if (display.stones) count.textContent += ` · ${plural(display.stones[seat], "stones")}`;
    }
    // the side, and under it who plays it
    const side = document.createElement("span");
    side.className = "who";
    side.appendChild(label);
    const person = view.people && view.people[seat];
    if (person) side.appendChild(personNode(person, Boolean(view.outcome)));
    row.append(swatch, side, count);
    box.appendChild(row);
  });
  if (view.people && view.people.some((/** @type {any} */ p) => p)) {
    const kind = document.createElement("div");
    kind.className = "game-kind";
    kind.dataset.rated = String(Boolean(view.rated));
    kind.textContent = view.rated ? "rated game" : "casual game (not rated)";
    box.appendChild(kind);
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
  if (words.length) {
    const status = document.createElement("div");
    status.className = "help-line";
    status.dataset.status = "";
    status.textContent = words.join(" · ");
    box.appendChild(status);
  }
}

/** A seat's player: the name (linking to the player's page), the rating, and once a rated
 * game is over the rating's change. @param {any} person @param {boolean} over */
function personNode(person, over) {
  const box = document.createElement("span");
  box.className = "person";
  let name;
  if (person.page) {
    name = document.createElement("a");
    name.href = person.page;
  } else {
    name = document.createElement("span");
  }
  name.className = "name";
  name.textContent = person.name;
  box.appendChild(name);
  if (person.kind === "bot" || person.kind === "computer") {
    const badge = document.createElement("span");
    badge.className = "badge";
    badge.textContent = person.kind;
    box.appendChild(badge);
  }
  if (person.rating) {
    const rating = document.createElement("span");
    rating.className = "rating";
    rating.textContent = ratingText(person.rating);
    rating.title = ratingTitle(person.rating);
    box.appendChild(rating);
  }
  if (over && typeof person.rating_change === "number") {
    const change = document.createElement("span");
    change.className = `change ${changeTone(person.rating_change)}`;
    change.textContent = changeText(person.rating_change);
    change.title = `rating ${person.rating_before} before this game`;
    box.appendChild(change);
  }
  return box;
}

let listed = "";
/** Where the list drawn last starts (-1: none drawn yet). */
let listedFrom = -1;

/** The first row of a list that leaves out the game's first `count` moves: a button that
 * fetches the page before (scrolling to the top of the list does too). @param {number} count */
function earlierItem(count) {
  const item = document.createElement("li");
  item.className = "earlier";
  const button = document.createElement("button");
  button.type = "button";
  button.id = "earlier-moves";
  button.textContent = count === 1 ? "1 earlier move…" : `${count} earlier moves…`;
  button.addEventListener("click", () => listEarlier());
  item.appendChild(button);
  return item;
}

/** @param {PageState} state */
function renderMoves(state) {
  const view = state.view;
  const list = $("moves");
  const viewing = state.browsing ? state.browsing.upto : -1;
  const shown = state.moveList || { from: 0, moves: view.moves, sides: view.move_sides, firstTurn: 1 };
  const signature = JSON.stringify([shown.from, shown.moves.length, view.ply, view.moves[view.moves.length - 1], view.look.sides]);
  if (signature !== listed) {
    const prepended = listedFrom > shown.from && listedFrom >= 0;
    const fromBottom = list.scrollHeight - list.scrollTop; // kept when earlier moves arrive
    listed = signature;
    listedFrom = shown.from;
    const sides = view.look.sides;
    const rows = turnRows(shown.moves, shown.sides, shown.from, shown.firstTurn);
    const items = rows.map((row) => {
      const item = document.createElement("li");
      item.className = "turn";
      const number = document.createElement("span");
      number.className = "number";
      number.textContent = `${row.number}.`;
      item.appendChild(number);
      row.sides.forEach((entries, side) => {
        const cell = document.createElement("span");
        cell.className = "side side-" + side;
        for (const entry of entries) {
          const move = document.createElement("button");
          move.type = "button";
          move.className = "move";
          move.tabIndex = -1;
          move.dataset.ply = String(entry.ply);
          move.dataset.side = String(side);
          const dot = document.createElement("span");
          dot.className = "dot";
          dot.style.background = sides[side].colour;
          move.append(dot, entry.text);
          move.setAttribute("aria-label", `${sides[side].name}: ${entry.text}, move ${entry.ply}`);
          cell.appendChild(move);
        }
        item.appendChild(cell);
      });
      return item;
    });
    if (shown.from > 0) items.unshift(earlierItem(shown.from));
    list.replaceChildren(...items);
    if (prepended) list.scrollTop = list.scrollHeight - fromBottom;
    else if (!state.browsing) list.scrollTop = list.scrollHeight;
  }
  for (const move of list.querySelectorAll(".move")) {
    const on = Number(/** @type {HTMLElement} */ (move).dataset.ply) === viewing;
    move.classList.toggle("viewing", on);
    if (on) move.scrollIntoView({ block: "nearest" });
  }
  const base = `/api/games/${encodeURIComponent(gameId)}/record`;
  $("record-json").setAttribute("href", base + "?format=json");
  $("record-text").setAttribute("href", base + "?format=text");
}

/** @param {PageState} state */
function renderChoices(state) {
  const view = state.view;
  const bar = $("choices");
  // the bar is drawn anew each time: a keyboard's focus on one of its buttons stays on the
  // button of the same id or label, or goes back to the board, never to the page's start
  const active = /** @type {HTMLElement | null} */ (document.activeElement);
  const focused = active && bar.contains(active) && active.matches(":focus-visible") ? active : null;
  bar.replaceChildren();
  fillChoices(state, bar);
  if (focused) {
    const again = [...bar.querySelectorAll("button")].find((b) => !b.disabled
      && ((focused.id && b.id === focused.id) || b.textContent === focused.textContent));
    (again || (printedBoard(state) ? $("typed-move") : $("board"))).focus();
  }
}

/** Whether the board is the 1978 program's printout (no cells to move to). @param {PageState} state */
function printedBoard(state) {
  return Boolean((state.browsing ? state.browsing.display : state.view.display).terminal);
}

/** @param {PageState} state @param {HTMLElement} bar */
function fillChoices(state, bar) {
  const view = state.view;
  if (view.waiting_for_opponent && view.seats.length) {
    bar.appendChild(button("Cancel the game", cancelGame, true, "cancel"));
    return;
  }
  const seat = actingSeat(view);
  if (seat === null || state.browsing) return;
  const legal = view.legal[String(seat)];
  for (const shown of inputFor(legal.interaction.kind).buttons(state.selection, legal, cellName)) {
    const made = button(shown.label, () => dispatch(shown.event), Boolean(shown.quiet), shown.id);
    made.disabled = Boolean(shown.disabled);
    bar.appendChild(made);
  }
}

/**
 * @param {string} label @param {() => void} onClick @param {boolean} [quiet] @param {string} [id]
 * @returns {HTMLButtonElement}
 */
function button(label, onClick, quiet, id) {
  const made = document.createElement("button");
  made.type = "button";
  made.textContent = label;
  if (quiet) made.className = "quiet";
  if (id) made.id = id;
  made.addEventListener("click", onClick);
  return made;
}

/** Say `text` in the live region (a screen reader reads it). @param {string} text */
function announce(text) {
  if (text) $("announce").textContent = text;
}

/** A short tone after a move, when the sound is on. */
function beep() {
  if (store.get().sound) playTone(660, 0.08, 0.12);
}

// -- links --------------------------------------------------------------------------------------

/** @param {HTMLInputElement} input @param {HTMLButtonElement} copy */
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

/**
 * A link's row: its label, the whole link in a read-only field, its Copy button.
 * @param {string} name @param {string} text @param {string} path @returns {HTMLElement}
 */
function linkRow(name, text, path) {
  const row = document.createElement("div");
  row.className = "row";
  const label = document.createElement("label");
  label.textContent = text;
  const input = document.createElement("input");
  input.type = "text";
  input.readOnly = true;
  input.value = location.origin + path;
  input.dataset.link = name;
  input.addEventListener("focus", () => input.select());
  label.htmlFor = input.id = "link-" + name;
  const copy = document.createElement("button");
  copy.type = "button";
  copy.className = name === "invite" ? "" : "quiet";
  copy.textContent = "Copy";
  copy.setAttribute("aria-label", "Copy " + text.toLowerCase());
  copy.addEventListener("click", () => copyLink(input, copy));
  row.append(label, input, copy);
  return row;
}

/** The game's links: while the game waits for the invited person, the invitation first, in
 * a box of its own under the banner; in the links card this seat's private link, then the
 * spectators'. */
function showLinks() {
  const stored = sessionStorage.getItem(LINKS_KEY);
  /** @type {Record<string, string>} */
  const links = stored ? JSON.parse(stored) : {};
  const view = store.get().view;
  // before the first view the stored links tell: an invitation is stored only while it waits
  const waiting = view ? Boolean(view.waiting_for_opponent && view.seats.length) : Boolean(links.invite);
  const invite = waiting && !(view && view.cancelled) ? links.invite : "";
  $("invite-box").hidden = !invite;
  $("invite-row").replaceChildren(...(invite ? [linkRow("invite", "Invitation", invite)] : []));
  const you = links.you || (token ? `${location.pathname}#t=${encodeURIComponent(token)}` : "");
  const rows = $("link-rows");
  rows.replaceChildren();
  if (you) {
    rows.appendChild(linkRow("you", "Your link", you));
    const note = document.createElement("p");
    note.className = "help-line private";
    note.textContent = "Private: it is your key to this seat. Keep it to come back; share it with nobody.";
    rows.appendChild(note);
  }
  rows.appendChild(linkRow("spectator", "Spectators", links.spectator || `/play/${gameId}`));
  $("links-note").textContent = invite
    ? "The invitation (above) is for your opponent: the first person to open it takes the other seat; after that it only watches."
    : "The spectators' link only watches.";
  $("links").hidden = false;
}

// -- start --------------------------------------------------------------------------------------

function main() {
  store.subscribe(render);
  const svg = $("board");
  let pointer = "mouse"; // the kind of pointer of the last press on the board
  svg.addEventListener("pointerdown", (event) => { pointer = event.pointerType; });
  svg.addEventListener("click", (event) => {
    const cell = /** @type {Element} */ (event.target).closest("[data-cell]");
    if (cell instanceof SVGElement) {
      pickCell([Number(cell.dataset.r), Number(cell.dataset.c)], pointer === "touch");
    }
  });
  svg.addEventListener("keydown", onBoardKey);
  // the keyboard's cursor shows once a key is used on the board, not after a click
  svg.addEventListener("pointerdown", () => svg.classList.remove("keyed"));
  svg.addEventListener("keydown", () => svg.classList.add("keyed"));
  document.addEventListener("keydown", onPageKey);
  const banner = $("banner");
  const back = () => { if (store.get().browsing) browse(Infinity); };
  banner.addEventListener("click", back);
  banner.addEventListener("keydown", (event) => { if (event.key === "Enter") back(); });
  $("moves").addEventListener("scroll", () => {
    const list = $("moves");
    const known = store.get().moveList;
    if (known && known.from > 0 && list.scrollTop < 40) listEarlier();
  });
  $("moves").addEventListener("click", (event) => {
    const move = /** @type {Element} */ (event.target).closest(".move");
    if (move instanceof HTMLElement) browse(Number(move.dataset.ply));
  });
  $("sound").addEventListener("click", () => {
    const sound = !store.get().sound;
    localStorage.setItem(SOUND_KEY, sound ? "on" : "off");
    store.set({ sound });
    if (sound) beep();
  });
  $("typed").addEventListener("submit", (event) => {
    event.preventDefault();
    const field = /** @type {HTMLInputElement} */ ($("typed-move"));
    const seat = actingSeat(store.get().view);
    const text = field.value.trim();
    if (seat === null) { say(whyNot(), "error"); return; }
    if (text) dispatch({ type: "play", move: text });
    field.value = "";
  });
  let resized = 0;
  window.addEventListener("resize", () => {
    cancelAnimationFrame(resized);
    resized = requestAnimationFrame(() => { if (store.get().view) renderBoard(store.get()); });
  });
  const invitation = fragment.get("i");
  (invitation ? claimInvitation(invitation) : Promise.resolve()).then(() => {
    showLinks();
    connect();
  });
}

/** Open the game's socket (as the holder of `token`, if any). */
function connect() {
  /** @type {string} */
  let refusal = "";
  socket = openSocket({
    url: socketUrl(gameId, location),
    token: () => token || null,
    onMessage(message) {
      if (message.type === "state") receive(message);
      else if (message.type === "error") {
        // before the first view an error may be the token's refusal: the close code tells
        if (!store.get().view && token) { refusal = message.error; return; }
        say(message.error, "error");
        if (!store.get().view) setBanner(capital(message.error), "wait");
      }
    },
    onStatus(status, detail) {
      if (status === "refused" && !store.get().view && token) {
        if (detail && detail.code === 4403) { refuseToken(); return; }
        say(refusal, "error");
        setBanner(capital(refusal), "wait");
      }
      store.set({ connection: status });
    },
  });
}

/** The server refused this link's seat token: the page goes on with the token this browser
 * stored for the game (one the server accepted before), or as a spectator. */
function refuseToken() {
  const refused = token;
  const stored = localStorage.getItem(SEAT_KEY) || "";
  if (stored === refused) localStorage.removeItem(SEAT_KEY); // stored unchecked by an older page
  token = stored && stored !== refused ? stored : "";
  history.replaceState(null, "", token ? `${location.pathname}#t=${encodeURIComponent(token)}` : location.pathname);
  if (token) say("This link's seat key is not valid; this browser's own key to the game is used instead.", "error");
  else store.set({ notice: "This link's seat key is not valid: you are watching as a spectator." });
  showLinks();
  connect();
}

main();
