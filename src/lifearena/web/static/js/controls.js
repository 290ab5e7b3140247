// @ts-check
// The game page's controls beside the board: both clocks (ticking locally between the
// server's messages), resign (with a confirm step), draw offers, rematch, take back, and
// whether the opponent has the game open. The server decides everything; this module only
// shows the view it sends and sends the page's requests through `actions.send`.
//
// The pure helpers (formatClock, remainingNow, isLow, controlsFor, declinedText, sideLabel) are
// exported for
// tests/js/controls.test.mjs; renderControls is the one function the page calls, on every
// render, with the latest view.

/**
 * @typedef {{kind: "live" | "correspondence", minutes?: number | null,
 *   increment?: number, days?: number | null}} TimeControl
 * @typedef {{control: TimeControl, remaining_ms: number[], running: number[],
 *   server_now: number}} ClockView
 *   remaining_ms: each seat's time left when the server sent the view (server_now, ms since
 *   the epoch); running: the seats whose clocks were running then.
 * @typedef {{draw?: number | null, rematch?: number | null, draw_declined?: number | null,
 *   rematch_declined?: number | null}} Offers
 *   draw_declined, rematch_declined: the seat that declined the last offer (until the next
 *   move, or a new offer).
 * @typedef {{
 *   seats: number[], players?: string[], symbols?: string[], simultaneous?: boolean,
 *   awaiting?: number[], cancelled?: boolean, waiting_for_opponent?: boolean,
 *   opponent?: {kind?: string}, outcome?: object | null, clock?: ClockView | null,
 *   invitation?: {seat: number} | null,
 *   connected?: boolean[], offers?: Offers, rematch?: {id: string, link: string} | null,
 *   can_take_back?: boolean, look?: {sides?: {name: string, colour?: string}[]}
 * }} View
 * The part of the server's game view the controls read.
 * @typedef {{send(message: object): void}} Actions
 * @typedef {{
 *   resign: boolean, draw: "offer" | "answer" | "offered" | null,
 *   rematch: "offer" | "answer" | "offered" | "go" | null, takeback: boolean,
 *   presence: {seat: number, connected: boolean, joined: boolean}[], declined: string | null
 * }} Shown
 * Which controls a view shows: each null or false when hidden; declined: the words telling
 * an offer's maker that it was declined.
 */

const LOW_SECONDS = 20;
/** A live clock counts as low under this many seconds (or a tenth of its start). */

/**
 * A clock's time in words: tenths under 20 seconds, m:ss under an hour, h:mm:ss under a
 * day, and days and hours beyond.
 *
 * formatClock(65_000) === "1:05"; formatClock(9_420) === "9.4"; formatClock(0) === "0.0"
 * @param {number} ms
 * @returns {string}
 */
export function formatClock(ms) {
  const clamped = Math.max(0, ms);
  if (clamped < LOW_SECONDS * 1000) {
    return (Math.floor(clamped / 100) / 10).toFixed(1);
  }
  const total = Math.floor(clamped / 1000);
  const days = Math.floor(total / 86_400);
  const hours = Math.floor((total % 86_400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const two = (/** @type {number} */ n) => String(n).padStart(2, "0");
  if (days > 0) return `${days}d ${hours}h`;
  if (hours > 0) return `${hours}:${two(minutes)}:${two(seconds)}`;
  return `${minutes}:${two(seconds)}`;
}

/**
 * A seat's time left now: the view's remaining time, less what has passed since the page
 * received the view when that seat's clock runs (never below zero).
 * @param {ClockView} clock
 * @param {number} seat
 * @param {number} receivedAt when the page received the view (ms, the page's own clock)
 * @param {number} now the page's clock now (ms)
 * @returns {number}
 */
export function remainingNow(clock, seat, receivedAt, now) {
  const left = clock.remaining_ms[seat];
  if (!clock.running.includes(seat)) return Math.max(0, left);
  return Math.max(0, left - Math.max(0, now - receivedAt));
}

/**
 * Whether ``ms`` is low time for ``control``: under 20 seconds or a tenth of a live clock's
 * start, under an hour of a correspondence move.
 * @param {TimeControl} control
 * @param {number} ms
 * @returns {boolean}
 */
export function isLow(control, ms) {
  if (control.kind === "correspondence") return ms < 3_600_000;
  const start = (control.minutes || 0) * 60_000;
  return ms < Math.max(LOW_SECONDS * 1000, start / 10);
}

/**
 * Which controls a view shows to the page holding ``view.seats`` (none but the presence
 * and a rematch's link for a spectator).
 * @param {View} view
 * @returns {Shown}
 */
export function controlsFor(view) {
  const seats = view.seats || [];
  const offers = view.offers || {};
  const over = Boolean(view.outcome) || Boolean(view.cancelled);
  const started = !view.waiting_for_opponent && !view.cancelled;
  const playing = seats.length > 0;
  /** @type {Shown} */
  const shown = { resign: false, draw: null, rematch: null, takeback: false, presence: [],
    declined: declinedText(view) };
  if (view.opponent && view.opponent.kind === "online") {
    const watched = playing ? [0, 1].filter((s) => !seats.includes(s)) : [0, 1];
    // before the invitation is claimed its seat has no holder yet: nobody has left
    const invited = view.invitation ? view.invitation.seat : null;
    shown.presence = watched.map((seat) => ({
      seat, connected: Boolean(view.connected && view.connected[seat]),
      joined: !(view.waiting_for_opponent && (invited === null || invited === seat)) }));
  }
  if (over && view.rematch) shown.rematch = "go";
  if (!playing) return shown;
  if (!over && started) {
    shown.resign = true;
    if (!view.simultaneous) shown.draw = offerState(offers.draw, seats, "offer");
    shown.takeback = Boolean(view.can_take_back);
  }
  if (over && !view.cancelled && !view.rematch) {
    shown.rematch = offerState(offers.rematch, seats, "offer");
  }
  return shown;
}

/**
 * What the maker of a declined offer is told (null when there is nothing to tell this
 * page): a draw declined until the next move, a rematch until a new offer.
 *
 * declinedText({seats: [0], offers: {draw_declined: 1}}) === "Your opponent declined the draw."
 * @param {View} view
 * @returns {string | null}
 */
export function declinedText(view) {
  const seats = view.seats || [];
  const offers = view.offers || {};
  const over = Boolean(view.outcome) || Boolean(view.cancelled);
  const what = over ? "rematch" : "draw";
  const by = over ? (view.rematch ? null : offers.rematch_declined) : offers.draw_declined;
  if (typeof by !== "number" || !seats.includes(1 - by)) return null;
  if (view.opponent && view.opponent.kind === "agent") {
    return what === "draw" ? "The computer declines draws." : "The computer declined the rematch.";
  }
  // at one screen both sides read the page: the decliner is named
  if (seats.length > 1) return `${sideLabel(view, by)} declined the ${what}.`;
  return `Your opponent declined the ${what}.`;
}

/**
 * A seat's name on its clock: the side's name as the board shows it (else the player's),
 * with "(you)" on the page's own seat.
 *
 * sideLabel({seats: [1], look: {sides: [{name: "Blue"}, {name: "Red"}]}}, 1) === "Red (you)"
 * @param {View} view
 * @param {number} seat
 * @returns {string}
 */
export function sideLabel(view, seat) {
  const side = view.look && view.look.sides && view.look.sides[seat];
  const name = (side && side.name) || (view.players && view.players[seat])
    || `Player ${seat + 1}`;
  const seats = view.seats || [];
  return seats.length === 1 && seats[0] === seat ? `${name} (you)` : name;
}

/**
 * An offer's state for the page holding ``seats``: none yet (``fresh``), one to answer
 * (the other side's), or its own waiting for an answer.
 * @template {string} T
 * @param {number | null | undefined} by the seat that made the offer, if any
 * @param {number[]} seats
 * @param {T} fresh
 * @returns {T | "answer" | "offered"}
 */
function offerState(by, seats, fresh) {
  if (by === null || by === undefined) return fresh;
  return seats.includes(1 - by) ? "answer" : "offered";
}

// -- the DOM ------------------------------------------------------------------------------------

/**
 * @typedef {{view: View | null, receivedAt: number, confirming: boolean, timer: number | null,
 *   signature: string, actions: Actions | null}} PanelState
 */
/** @type {WeakMap<HTMLElement, PanelState>} */
const PANELS = new WeakMap();

/**
 * Draw the controls of ``view`` into ``container`` (called on every render; a view seen
 * before keeps the time it was received, so the clocks do not jump back).
 * @param {HTMLElement | null} container
 * @param {View} view
 * @param {Actions} actions
 */
export function renderControls(container, view, actions) {
  if (!container) return;
  let panel = PANELS.get(container);
  if (!panel) {
    panel = { view: null, receivedAt: 0, confirming: false, timer: null, signature: "",
              actions: null };
    PANELS.set(container, panel);
  }
  if (panel.view !== view) {
    panel.view = view;
    panel.receivedAt = Date.now();
  }
  panel.actions = actions;
  const shown = controlsFor(view);
  if (!shown.resign) panel.confirming = false;
  const signature = JSON.stringify([shown, panel.confirming, Boolean(view.clock),
                                    view.players, view.symbols, view.seats]);
  if (signature !== panel.signature) {
    panel.signature = signature;
    build(container, panel, view, shown);
  }
  tick(container, panel);
  const running = Boolean(view.clock && view.clock.running.length);
  if (running && panel.timer === null) {
    const state = panel;
    panel.timer = window.setInterval(() => {
      if (!container.isConnected) {
        if (state.timer !== null) window.clearInterval(state.timer);
        state.timer = null;
        return;
      }
      tick(container, state);
    }, 100);
  } else if (!running && panel.timer !== null) {
    window.clearInterval(panel.timer);
    panel.timer = null;
  }
}

/**
 * @param {HTMLElement} container
 * @param {PanelState} panel
 * @param {View} view
 * @param {Shown} shown
 */
function build(container, panel, view, shown) {
  container.replaceChildren();
  container.classList.add("controls");
  // on a narrow screen the card moves up, under the board, while it holds clocks or an
  // offer to answer (controls.css)
  container.classList.toggle("pressing", Boolean(view.clock && !view.outcome)
    || shown.draw === "answer" || shown.rematch === "answer");
  const send = (/** @type {object} */ message) => panel.actions && panel.actions.send(message);
  if (view.clock) {
    const clocks = element("div", "clocks");
    // side 0 first, as the players' card lists them (the page's own marked "(you)")
    for (const seat of [0, 1]) {
      const row = element("div", "clock");
      row.dataset.seat = String(seat);
      const name = element("span", "clock-name");
      const colour = view.look && view.look.sides && view.look.sides[seat]
        && view.look.sides[seat].colour;
      if (colour) {
        const dot = element("span", "clock-dot");
        dot.style.background = colour;
        name.append(dot);
      }
      name.append(sideLabel(view, seat));
      row.append(name, element("span", "clock-time"));
      clocks.append(row);
    }
    container.append(clocks);
  }
  for (const { seat, connected, joined } of shown.presence) {
    const who = view.seats.length ? "Opponent" : sideLabel(view, seat);
    const [kind, words] = !joined ? ["waiting", "not joined yet"]
      : connected ? ["here", "connected"] : ["gone", "left the page"];
    container.append(element("p", "presence " + kind, `${who}: ${words}`));
  }
  // a question for this page (an offer to answer, or the confirm step) stands in a box of its
  // own, above the buttons that are always there
  const offer = element("div", "controls-offer");
  offer.setAttribute("role", "status");
  const offers = view.offers || {};
  // at one screen the offer's maker is named: both sides read this page
  const maker = (/** @type {number | null | undefined} */ by) =>
    view.seats.length > 1 && typeof by === "number" ? sideLabel(view, by) : "Your opponent";
  if (shown.draw === "answer") {
    offer.append(element("p", "offer-text", `${maker(offers.draw)} offers a draw.`),
                 button("Accept draw", "", () => send({ type: "draw", action: "accept" })),
                 button("Decline", "quiet", () => send({ type: "draw", action: "decline" })));
  } else if (shown.rematch === "answer") {
    offer.append(element("p", "offer-text",
                         `${maker(offers.rematch)} offers a rematch, colours swapped.`),
                 button("Accept rematch", "", () => send({ type: "rematch", action: "accept" })),
                 button("Decline", "quiet",
                        () => send({ type: "rematch", action: "decline" })));
  }
  if (shown.resign && panel.confirming) {
    const confirm = element("div", "controls-offer confirm");
    confirm.append(element("p", "confirm-text", "Resign this game? Your opponent wins."),
                   button("Yes, resign", "danger", () => {
                     panel.confirming = false;
                     send({ type: "resign" });
                   }),
                   button("No", "quiet", () => { panel.confirming = false;
                                                  rerender(container); }));
    if (offer.childElementCount) container.append(offer);
    container.append(confirm);
    return;
  }
  const bar = element("div", "controls-actions");
  if (shown.resign) {
    bar.append(button("Resign", "quiet", () => { panel.confirming = true;
                                                  rerender(container); }));
  }
  if (shown.draw === "offer") {
    bar.append(button("Offer draw", "quiet", () => send({ type: "draw", action: "offer" })));
  }
  if (shown.takeback) {
    bar.append(button("Take back", "quiet", () => send({ type: "takeback" })));
  }
  if (shown.rematch === "offer") {
    bar.append(button("Rematch", "", () => send({ type: "rematch", action: "offer" })));
  } else if (shown.rematch === "go" && view.rematch) {
    const link = /** @type {HTMLAnchorElement} */ (element("a", "button", "Go to the rematch"));
    link.href = view.rematch.link;
    link.id = "rematch-link";
    bar.append(link);
  }
  if (shown.draw === "offered") {
    offer.append(element("p", "offer-text waiting",
                         "You offered a draw; waiting for your opponent's answer."));
  } else if (shown.rematch === "offered") {
    offer.append(element("p", "offer-text waiting",
                         "You offered a rematch; waiting for your opponent's answer."));
  }
  if (shown.declined) offer.append(element("p", "offer-text declined", shown.declined));
  if (offer.childElementCount) container.append(offer);
  if (bar.childElementCount) container.append(bar);
}

/** @param {HTMLElement} container */
function rerender(container) {
  const panel = PANELS.get(container);
  if (!panel || !panel.view || !panel.actions) return;
  panel.signature = "";
  renderControls(container, panel.view, panel.actions);
}

/**
 * Update the clocks' texts from the last view and the time since it came.
 * @param {HTMLElement} container
 * @param {PanelState} panel
 */
function tick(container, panel) {
  const clock = panel.view && panel.view.clock;
  if (!clock) return;
  const now = Date.now();
  for (const row of container.querySelectorAll(".clock")) {
    const seat = Number(/** @type {HTMLElement} */ (row).dataset.seat);
    const left = remainingNow(clock, seat, panel.receivedAt, now);
    const text = row.querySelector(".clock-time");
    if (text) text.textContent = formatClock(left);
    row.classList.toggle("running", clock.running.includes(seat));
    row.classList.toggle("low", isLow(clock.control, left));
  }
}

/**
 * @param {string} tag
 * @param {string} className
 * @param {string} [text]
 * @returns {HTMLElement}
 */
function element(tag, className, text) {
  const made = document.createElement(tag);
  if (className) made.className = className;
  if (text !== undefined) made.textContent = text;
  return made;
}

/**
 * @param {string} text
 * @param {string} className
 * @param {() => void} onClick
 * @returns {HTMLButtonElement}
 */
function button(text, className, onClick) {
  const made = /** @type {HTMLButtonElement} */ (element("button", className, text));
  made.type = "button";
  made.addEventListener("click", onClick);
  return made;
}
