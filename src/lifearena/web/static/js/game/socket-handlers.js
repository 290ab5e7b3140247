// @ts-check
// The game socket's messages, one handler per type (lichess's round socket): a "state" is a
// new view for the controller; an "error" is said under the players, or, before the first
// view, kept until the socket's close code tells whether it was the seat token's refusal.
// The socket's status changes (connecting, open, lost, refused) come here too.
import { capital } from "../inputs/common.js";

/**
 * @typedef {import("./ctrl.js").GameCtrl} GameCtrl
 * @typedef {{
 *   message(ctrl: GameCtrl, message: any): void,
 *   status(ctrl: GameCtrl, status: import("../socket.js").Status, detail?: {retryIn?: number, code?: number}): void
 * }} Handlers
 */

/** The handler of each message type. @type {Record<string, (ctrl: GameCtrl, message: any) => void>} */
export const HANDLERS = {
  state(ctrl, message) { ctrl.receive(message); },
  error(ctrl, message) {
    // before the first view an error may be the token's refusal: the close code tells
    if (!ctrl.state.view && ctrl.token) { ctrl.refusal = message.error; return; }
    ctrl.say(message.error, "error");
    if (!ctrl.state.view) ctrl.earlyBanner(capital(message.error), "wait");
  },
};

/** The socket's status: a refusal (close code 4403: the seat's token) before the first view.
 * @type {Handlers["status"]} */
export function onStatus(ctrl, status, detail) {
  if (status === "refused" && !ctrl.state.view && ctrl.token) {
    if (detail && detail.code === 4403) { ctrl.refuseToken(); return; }
    ctrl.say(ctrl.refusal, "error");
    ctrl.earlyBanner(capital(ctrl.refusal), "wait");
  }
  if (status === "lost" && !ctrl.state.view) ctrl.earlyBanner("Connection lost; reconnecting…", "wait");
  ctrl.store.set({ connection: status });
}

/** @type {Handlers} */
export const handlers = {
  message(ctrl, message) {
    const handle = HANDLERS[message && message.type];
    if (handle) handle(ctrl, message);
  },
  status: onStatus,
};
