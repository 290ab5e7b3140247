// @ts-check
// The banner over the board: whose turn, what is asked, how the game ended, or what the page
// waits for. Pure: [text, kind] from the state (kind: the banner's classes).
import { outcomeText } from "../../outcome.js";
import { actingSeat, names } from "../read.js";

/** @typedef {import("../read.js").PageState} PageState */

/** The banner's words and classes. @param {PageState} state @returns {[string, string]} */
export function bannerFor(state) {
  const view = state.view;
  if (!view) {
    // before the first view: what went wrong on the way, else the page's own "Connecting…"
    return state.early ? [state.early.text, state.early.kind] : ["Connecting…", "turn"];
  }
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

/** The page's title and the header's line about the game. @param {any} view
 * @returns {{title: string, heading: string}} */
export function titleOf(view) {
  const opponent = view.opponent;
  let against = " · at this screen";
  if (opponent.kind === "online") against = " · online";
  if (opponent.kind === "agent") {
    against = opponent.agent === opponent.level ? ` · against the ${opponent.agent} agent`
      : ` · against ${opponent.agent} (${opponent.level})`;
  }
  return { title: `lifearena — ${view.title}`, heading: view.title + against };
}
