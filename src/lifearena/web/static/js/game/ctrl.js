// @ts-check
// The game page's controller (lichess's RoundController): it owns the store and makes every
// change to it, and every send: moves (through the socket, else a request), offers and
// claims, cancelling, browsing earlier positions, fetching earlier moves. The views read the
// store; js/game/boot.js wires the document's events to these methods; the socket's
// messages come through js/game/socket-handlers.js. What the page reaches outside itself
// (storage, the address bar, requests, the socket, the clock, a tone) comes in `env`, so
// node's test runner drives it with fakes.
import { inputFor } from "../inputs/index.js";
import { NOTHING, capital, stillLegal } from "../inputs/common.js";
import { hints } from "../inputs/point-then-action.js";
import { boardSize } from "../draw.js";
import { describeMove, earlierPage, withEarlier, withView } from "../movelist.js";
import { createStore } from "../store.js";
import { actingSeat, cellName, cellWords, names, whyNot } from "./read.js";

/**
 * @typedef {import("./read.js").PageState} PageState
 * @typedef {import("../inputs/common.js").Cell} Cell
 * @typedef {import("../inputs/common.js").InputEvent} InputEvent
 * @typedef {{getItem(key: string): string | null, setItem(key: string, value: string): void,
 *   removeItem(key: string): void}} Storage
 * @typedef {{
 *   gameId: string, path: string, fragment: URLSearchParams, local: Storage, session: Storage,
 *   replaceUrl(url: string): void, assign(url: string): void,
 *   request: typeof import("../request.js").request,
 *   openSocket(options: import("../socket.js").Options): import("../socket.js").GameSocket,
 *   socketUrl: string, now(): number, tone(): void, schedule(run: () => void, ms: number): void,
 *   learning: {rules: boolean, preview: boolean}
 * }} Env
 * path: the page's path (/play/<id>); fragment: the link's #fragment; replaceUrl: the
 * address bar's URL, history unchanged; assign: go to another page; tone: the move's beep;
 * schedule: run later (setTimeout); learning: which learning aids the page asks the server
 * for (the rules card, the move preview; the game page asks for both).
 */

const ANIMATION_MS = 900;
const SOUND_KEY = "lifearena-sound";
/** Moves fetched at once when the page lists earlier moves of a long game. */
const MOVES_PAGE = 500;
/** The least time between two preview requests (at most 5 a second, one at a time). */
const PREVIEW_GAP_MS = 200;
/** How long a move must stay pointed at before its preview is asked (a pointer passing
 * over a cell, or a click right after the pointer came, asks nothing). */
const PREVIEW_SETTLE_MS = 150;
/** Where this browser keeps that a player closed a game's rules card. */
const RULES_KEY = "lifearena-rules-closed-";

export class GameCtrl {
  /** @param {Env} env */
  constructor(env) {
    this.env = env;
    this.seatKey = "lifearena-seat-" + env.gameId;
    this.linksKey = "links-" + env.gameId;
    // a seat's token lives in the link's fragment (never sent to a server) and in this
    // browser's storage, so the page finds it again; it travels only in a header or a
    // message. It is stored only once the server has accepted it (a view with seats): a
    // mistyped link neither breaks this browser's later visits nor replaces the good token
    // stored before
    /** @type {string} */
    this.token = env.fragment.get("t") || env.local.getItem(this.seatKey) || "";
    /** @type {import("../socket.js").GameSocket | null} */
    this.socket = null;
    /** an error before the first view, kept until the close code says whether it was the token's refusal */
    this.refusal = "";
    /** the positions fetched while browsing, by the number of moves before them (for this move list) */
    /** @type {Map<number, any>} */
    this.positions = new Map();
    /** counts the browsing requests: an answer to an older one only fills `positions` */
    this.browseAsked = 0;
    /** whether earlier moves are being fetched (one request at a time) */
    this.listing = false;
    /** where the socket's messages go (kept to connect again after a refused token) */
    /** @type {import("./socket-handlers.js").Handlers | null} */
    this.handlers = null;
    /** the composed move whose preview is wanted now (null: none), and the preview requests'
     * pacing: whether one is on its way, when the last one left, whether one is scheduled */
    this.previewWanted = /** @type {string | null} */ (null);
    this.previewSince = 0;
    this.previewBusy = false;
    this.previewLeft = -Infinity;
    this.previewLater = false;
    /** the previews fetched for the position on the board, by move */
    /** @type {Map<string, any>} */
    this.previews = new Map();
    this.previewsPly = -1;
    /** @type {import("../store.js").Store<PageState>} */
    this.store = createStore(/** @type {PageState} */ ({
      view: null, moveList: null, browsing: null, selection: NOTHING, selectionSeat: null, cursor: [0, 0],
      message: { text: "", tone: "info" }, hint: {}, notice: "", connection: "connecting",
      animateUntil: 0, sound: env.local.getItem(SOUND_KEY) === "on", announcement: "", early: null,
      links: null, rules: null, rulesOpen: false, preview: null,
    }));
  }

  /** @returns {PageState} */
  get state() { return this.store.get(); }

  // -- talking to the server --------------------------------------------------------------------

  /** A request to one of this game's routes, with this page's seat token.
   * @param {string} path @param {import("../request.js").Options} [options] */
  api(path, options = {}) {
    return this.env.request(`/api/games/${encodeURIComponent(this.env.gameId)}/${path}`, { ...options, token: this.token });
  }

  /** A request to any route with this page's seat token (the controls' offers and claims).
   * @param {string} path @param {import("../request.js").Options} [options] */
  requestWithToken(path, options) { return this.env.request(path, { ...(options || {}), token: this.token }); }

  /** Show `text` (a sentence: the server's errors start in lower case) under the players.
   * @param {string} text @param {string} [tone] */
  say(text, tone) { this.store.set({ message: { text: capital(text || ""), tone: tone || "info" } }); }

  /** Say `text` in the live region (a screen reader reads it). @param {string} text */
  announce(text) { if (text) this.store.set({ announcement: text }); }

  /** A short tone after a move, when the sound is on. */
  beep() { if (this.state.sound) this.env.tone(); }

  /** Send `move` for `seat`; the move names the ply it was chosen at, so a late duplicate is
   * refused, not replayed. @param {string} move @param {number} seat */
  async sendMove(move, seat) {
    const ply = this.state.view.ply;
    if (this.socket && this.socket.send({ type: "move", move, seat, ply })) return;
    const answer = await this.api("moves", { body: { move, seat, ply } });
    if (!answer.ok) this.say(answer.error || "", "error");
    else this.receive(answer.data);
  }

  /** A message on the socket (an offer, a claim); said when the socket is not open. @param {object} message */
  sendMessage(message) {
    if (!this.socket || !this.socket.send(message)) this.say("Not connected; reconnecting…", "error");
  }

  /** An invitation link (#i=...): the first to open it takes the seat it offers. @param {string} invitation */
  async claimInvitation(invitation) {
    const { env } = this;
    const answer = await this.api("claim", { body: { invitation } });
    if (answer.ok) {
      this.token = answer.data.token;
      env.local.setItem(this.seatKey, this.token);
      env.replaceUrl(`${env.path}#t=${encodeURIComponent(this.token)}`);
      env.session.setItem(this.linksKey, JSON.stringify(answer.data.links));
    } else {
      env.replaceUrl(this.token ? `${env.path}#t=${encodeURIComponent(this.token)}` : env.path);
      this.store.set({ notice: capital(answer.error || "") });
    }
  }

  async cancelGame() {
    const answer = await this.api("cancel", { body: {} });
    if (!answer.ok) this.say(answer.error || "", "error");
    else this.receive(answer.data);
  }

  /** A new view from the server. @param {any} next */
  receive(next) {
    const { env } = this;
    const state = this.state;
    const previous = state.view;
    if (this.token && next.seats.length && env.local.getItem(this.seatKey) !== this.token) {
      env.local.setItem(this.seatKey, this.token); // the server accepted it
    }
    // a rematch that starts while this page is open: each player's page follows its own
    // link there (a spectator keeps the link in the controls)
    if (previous && !previous.rematch && next.rematch && next.seats.length) env.assign(next.rematch.link);
    const invite = next.invitation && next.invitation.link;
    const known = JSON.parse(env.session.getItem(this.linksKey) || "{}");
    let relink = !previous || previous.waiting_for_opponent !== next.waiting_for_opponent;
    if (invite && known.invite !== invite) {
      env.session.setItem(this.linksKey, JSON.stringify({ ...known, invite }));
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
      patch.preview = null;
      this.previewWanted = null;
      this.positions.clear();
      this.browseAsked++; // an answer still on its way shows a position of another move list
      patch.hint = {};
      const said = describeMove(names(next), next.moves, next.move_sides, next.display);
      if (said) patch.announcement = said;
      this.beep();
      if (next.display.before) patch.animateUntil = env.now() + ANIMATION_MS;
      const collisions = next.display.collisions || [];
      if (advanced && collisions.length) {
        const named = collisions.map((/** @type {Cell} */ cell) => cellName(state, cell)).join(" ");
        patch.message = { text: `Both players chose ${named}: left empty.`, tone: "info" };
      }
    }
    this.store.set(patch);
    if (relink) this.showLinks();
  }

  /** Work out the game's links (the invitation while it waits, this seat's, the spectators')
   * into the store, from what this browser keeps of them and the view. */
  showLinks() {
    const { env } = this;
    const stored = env.session.getItem(this.linksKey);
    /** @type {Record<string, string>} */
    const links = stored ? JSON.parse(stored) : {};
    const view = this.state.view;
    // before the first view the stored links tell: an invitation is stored only while it waits
    const waiting = view ? Boolean(view.waiting_for_opponent && view.seats.length) : Boolean(links.invite);
    const invite = waiting && !(view && view.cancelled) ? links.invite : "";
    const you = links.you || (this.token ? `${env.path}#t=${encodeURIComponent(this.token)}` : "");
    this.store.set({ links: { invite: invite || "", you, spectator: links.spectator || `/play/${env.gameId}` } });
  }

  // -- input ------------------------------------------------------------------------------------

  /** Feed `event` to the input of the interaction asked of this page's seat. @param {InputEvent} event */
  dispatch(event) {
    const state = this.state;
    const view = state.view;
    if (!view) return;
    const seat = actingSeat(view);
    if (seat === null || state.browsing) { this.say(whyNot(state), "error"); return; }
    const legal = view.legal[String(seat)];
    const result = inputFor(legal.interaction.kind).reduce(state.selection, event, legal);
    const failed = result.tone === "error";
    this.store.set({ selection: result.selection, selectionSeat: seat,
      hint: failed && legal.interaction.kind === "point-then-action" ? hints(legal) : {},
      message: { text: result.message || "", tone: result.tone || "info" } });
    if (result.send !== undefined) {
      this.wantPreview(null);
      this.sendMove(result.send, seat);
    } else this.wantPreview(this.composedMove());
  }

  /** The event of a click on `cell` (`touch`: a finger's tap). @param {Cell} cell @param {boolean} [touch]
   * @returns {InputEvent} */
  cellEvent(cell, touch) {
    const state = this.state;
    const view = state.view;
    const grid = view.display.grid;
    const seat = actingSeat(view);
    return { type: "cell", cell, value: grid ? grid.cells[cell[0]][cell[1]] : 0,
      seat: seat === null ? undefined : seat, name: cellName(state, cell), names: names(view),
      ...(touch ? { touch: true } : {}) };
  }

  /** A click or a key on the cell `cell` (`touch`: a finger's tap, which may miss a small
   * square: the inputs ask for a second tap before they play). @param {Cell} cell
   * @param {boolean} [touch] */
  pickCell(cell, touch) {
    if (!this.state.view) return;
    this.store.set({ cursor: cell });
    this.dispatch(this.cellEvent(cell, touch));
  }

  /** A key on the board: the arrows move the cursor, Enter or Space picks (Enter confirms a
   * full selection of cells), Escape clears. Returns whether the key was used.
   * @param {string} key @returns {boolean} */
  boardKey(key) {
    const state = this.state;
    const view = state.view;
    if (!view) return false;
    const size = boardSize(state.browsing ? state.browsing.display : view.display);
    /** @type {Record<string, [number, number]>} */
    const steps = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (steps[key] && size) {
      const [dr, dc] = steps[key];
      const cursor = /** @type {Cell} */ ([Math.min(size[0] - 1, Math.max(0, state.cursor[0] + dr)),
        Math.min(size[1] - 1, Math.max(0, state.cursor[1] + dc))]);
      this.store.set({ cursor });
      this.announce(`${cellName(this.state, cursor)}${cellWords(this.state, cursor)}`);
      this.hoverCell(cursor); // the cursor on a cell is the keyboard's hover
    } else if (key === "Enter" || key === " ") {
      const seat = actingSeat(view);
      const legal = seat === null ? null : view.legal[String(seat)];
      const full = legal && legal.interaction.kind === "cells"
        && state.selection.cells.length === (legal.interaction.count || 1);
      if (key === "Enter" && full) this.dispatch({ type: "confirm" });
      else this.pickCell(state.cursor);
    } else if (key === "Escape") {
      this.store.set({ selection: NOTHING, hint: {}, message: { text: "", tone: "info" } });
      this.wantPreview(null);
    } else return false;
    return true;
  }

  /** ←/→, Home and End step through the positions. Returns whether the key was used.
   * @param {string} key @returns {boolean} */
  pageKey(key) {
    const { view, browsing } = this.state;
    if (!view) return false;
    const at = browsing ? browsing.upto : view.ply;
    /** @type {Record<string, number>} */
    const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: view.ply };
    if (!(key in to)) return false;
    this.browse(to[key]);
    return true;
  }

  /** A typed move from the form. @param {string} typed */
  playTyped(typed) {
    const text = typed.trim();
    if (actingSeat(this.state.view) === null) { this.say(whyNot(this.state), "error"); return; }
    if (text) this.dispatch({ type: "play", move: text });
  }

  toggleSound() {
    const sound = !this.state.sound;
    this.env.local.setItem(SOUND_KEY, sound ? "on" : "off");
    this.store.set({ sound });
    this.beep();
  }

  // -- browsing ---------------------------------------------------------------------------------

  /** Show the position after `upto` moves (the game's own at its end): at once from the
   * positions fetched before (else the one on the board stays until the answer comes), then
   * as the server draws it when the answer comes, unless another step was asked meanwhile.
   * @param {number} upto */
  async browse(upto) {
    const { view, browsing } = this.state;
    if (!view) return;
    const n = view.ply;
    const at = Math.max(0, Math.min(n, upto));
    const asked = ++this.browseAsked;
    if (at === n) { this.store.set({ browsing: null }); return; }
    const known = this.positions.get(at);
    this.store.set({ browsing: { upto: at, display: known || (browsing ? browsing.display : view.display) } });
    const listed = this.state.moveList;
    if (at > 0 && listed && at <= listed.from) this.listEarlier(at); // so that the move shows in the list
    if (known) return;
    const answer = await this.api(`position?upto=${at}`);
    if (asked !== this.browseAsked) {
      if (answer.ok && this.state.view.ply === n) this.positions.set(at, answer.data);
      return;
    }
    if (!answer.ok) { this.say(answer.error || "", "error"); return; }
    this.positions.set(at, answer.data);
    this.store.set({ browsing: { upto: at, display: answer.data } });
  }

  /** Back to the game's own position, when browsing. */
  backToGame() { if (this.state.browsing) this.browse(Infinity); }

  /** Fetch earlier pages of the move list until it lists move `target` (1-based; by default
   * one page), when the view left them out: a long game's view lists only its last moves.
   * @param {number} [target] */
  async listEarlier(target) {
    if (this.listing) return;
    this.listing = true;
    try {
      for (;;) {
        const known = this.state.moveList;
        const page = known && earlierPage(known, MOVES_PAGE);
        if (!known || !page) return;
        const answer = await this.api(`moves?from=${page.from}&limit=${page.limit}`);
        if (!answer.ok) { this.say(answer.error || "", "error"); return; }
        const now = this.state.moveList;
        if (now) this.store.set({ moveList: withEarlier(now, answer.data) });
        const listed = this.state.moveList;
        if (target === undefined || !listed || listed.from < target || listed === now) return;
      }
    } finally {
      this.listing = false;
    }
  }

  // -- the preview of a composed move ----------------------------------------------------------

  /** The legal view of the seat that may preview now (a person's turn in a game of turns,
   * on the game's own position), or null. @returns {any} */
  previewLegal() {
    const { view, browsing } = this.state;
    const seat = actingSeat(view);
    // a preview marks births and deaths: a board of cells; never a choice hidden until both chose
    if (!this.env.learning.preview || seat === null || browsing || view.simultaneous || !view.display.grid) return null;
    return view.legal[String(seat)];
  }

  /** The move the selection makes once confirmed (a chosen point, a chosen cell), if any.
   * @returns {string | null} */
  composedMove() {
    const legal = this.previewLegal();
    if (!legal || !this.state.selection.cells.length) return null;
    const result = inputFor(legal.interaction.kind).reduce(this.state.selection, { type: "confirm" }, legal);
    return result.send === undefined ? null : result.send;
  }

  /** The pointer (or the keyboard's cursor) on `cell` (null: off the board): the move a click
   * there would play is previewed, else the composed move. @param {Cell | null} cell */
  hoverCell(cell) {
    const legal = this.previewLegal();
    if (!legal) { this.wantPreview(null); return; }
    let move = null;
    if (cell) {
      const result = inputFor(legal.interaction.kind).reduce(this.state.selection, this.cellEvent(cell), legal);
      if (result.send !== undefined) move = result.send;
    }
    this.wantPreview(move ?? this.composedMove());
  }

  /** A button's move pointed at or focused (null: left). @param {string | null} move */
  hoverMove(move) {
    if (!this.previewLegal()) { this.wantPreview(null); return; }
    this.wantPreview(move ?? this.composedMove());
  }

  /** Show the preview of `move` (null: none): at once when fetched before, else when the
   * server answers, one request at a time and at most five a second. @param {string | null} move */
  wantPreview(move) {
    const view = this.state.view;
    if (!view || move === null) {
      this.previewWanted = null;
      if (this.state.preview) this.store.set({ preview: null });
      return;
    }
    if (this.previewsPly !== view.ply) { this.previews.clear(); this.previewsPly = view.ply; }
    const known = this.previews.get(move);
    if (known) {
      this.previewWanted = move;
      const shown = this.state.preview;
      if (!shown || shown.move !== move || shown.ply !== view.ply) this.store.set({ preview: { move, ply: view.ply, display: known } });
      return;
    }
    // another move's preview never stands for this one while its answer is on the way
    if (this.state.preview && this.state.preview.move !== move) this.store.set({ preview: null });
    if (this.previewWanted !== move) this.previewSince = this.env.now();
    this.previewWanted = move;
    this.pumpPreview();
  }

  /** Send the wanted preview's request once the move has stayed wanted a moment and the
   * pacing allows. */
  async pumpPreview() {
    const { env } = this;
    if (this.previewBusy || this.previewLater || this.previewWanted === null) return;
    const wait = Math.max(this.previewLeft + PREVIEW_GAP_MS, this.previewSince + PREVIEW_SETTLE_MS) - env.now();
    if (wait > 0) {
      this.previewLater = true;
      env.schedule(() => { this.previewLater = false; this.pumpPreview(); }, wait);
      return;
    }
    const move = this.previewWanted;
    const ply = this.state.view.ply;
    this.previewBusy = true;
    this.previewLeft = env.now();
    const answer = await this.api("preview", { body: { move } });
    this.previewBusy = false;
    const current = this.state.view.ply === ply;
    if (answer.ok && current) this.previews.set(move, answer.data.display);
    if (current && this.previewWanted === move) {
      if (answer.ok) this.store.set({ preview: { move, ply, display: answer.data.display } });
      else {
        this.previewWanted = null;
        this.store.set({ preview: { move, ply, display: null, error: capital(answer.error || "") } });
      }
    }
    if (this.previewWanted !== null && this.previewWanted !== move) this.pumpPreview();
  }

  // -- the rules card ---------------------------------------------------------------------------

  /** Fetch the game's rules: the card opens unless this browser's player closed it before. */
  async loadRules() {
    if (!this.env.learning.rules) return;
    const answer = await this.api("rules");
    if (!answer.ok || !answer.data || !Array.isArray(answer.data.sections)) return;
    const closed = this.env.local.getItem(RULES_KEY + answer.data.game) === "1";
    this.store.set({ rules: answer.data, rulesOpen: !closed });
  }

  /** Open or close the rules card (by default the other way); a closed card stays closed on
   * the next visit. @param {boolean} [open] */
  toggleRules(open) {
    const rules = this.state.rules;
    if (!rules) return;
    const next = open === undefined ? !this.state.rulesOpen : open;
    if (next) this.env.local.removeItem(RULES_KEY + rules.game);
    else this.env.local.setItem(RULES_KEY + rules.game, "1");
    this.store.set({ rulesOpen: next });
  }

  // -- the socket -------------------------------------------------------------------------------

  /** Open the game's socket (as the holder of `token`, if any); its messages go to `handlers`.
   * @param {import("./socket-handlers.js").Handlers} handlers */
  connect(handlers) {
    this.refusal = "";
    this.socket = this.env.openSocket({
      url: this.env.socketUrl,
      token: () => this.token || null,
      onMessage: (message) => handlers.message(this, message),
      onStatus: (status, detail) => handlers.status(this, status, detail),
    });
    this.handlers = handlers;
  }

  /** The banner before the first view. @param {string} text @param {string} kind */
  earlyBanner(text, kind) { this.store.set({ early: { text, kind } }); }

  /** The server refused this link's seat token: the page goes on with the token this browser
   * stored for the game (one the server accepted before), or as a spectator. */
  refuseToken() {
    const { env } = this;
    const refused = this.token;
    const stored = env.local.getItem(this.seatKey) || "";
    if (stored === refused) env.local.removeItem(this.seatKey); // stored unchecked by an older page
    this.token = stored && stored !== refused ? stored : "";
    env.replaceUrl(this.token ? `${env.path}#t=${encodeURIComponent(this.token)}` : env.path);
    if (this.token) this.say("This link's seat key is not valid; this browser's own key to the game is used instead.", "error");
    else this.store.set({ notice: "This link's seat key is not valid: you are watching as a spectator." });
    this.showLinks();
    if (this.handlers) this.connect(this.handlers);
  }

  /** Claim an invitation if the link holds one, then show the links and connect.
   * @param {import("./socket-handlers.js").Handlers} handlers */
  async start(handlers) {
    const invitation = this.env.fragment.get("i");
    if (invitation) await this.claimInvitation(invitation);
    this.showLinks();
    this.connect(handlers);
    this.loadRules();
  }
}
