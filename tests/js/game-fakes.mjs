// Fakes for the game page's controller (js/game/ctrl.js): storage, the address bar, the
// server's answers, the socket and the clock, all in memory; and views made from the
// captured server views (fixtures/views.json) with what a live view adds.
import { VIEWS } from "./helpers.mjs";

/** A Storage over a Map. */
export function memoryStorage(entries = {}) {
  const map = new Map(Object.entries(entries));
  return {
    getItem: (k) => (map.has(k) ? map.get(k) : null),
    setItem: (k, v) => { map.set(k, String(v)); },
    removeItem: (k) => { map.delete(k); },
    map,
  };
}

/** A captured view with the parts a live view adds (title, opponent, outcome…). */
export function liveView(name, extra = {}) {
  return structuredClone({ ...VIEWS[name], title: "A game", opponent: { kind: "hotseat" }, players: ["a", "b"],
    outcome: null, cancelled: false, waiting_for_opponent: false, chosen: [], move_help: "type a move",
    rematch: null, invitation: null, ...extra });
}

/**
 * The environment of a controller: `answers` maps a request's path (and method) to its
 * answer ({ok, status, data, error}), or a function of the options; every request is kept in
 * `requests`; the socket's sends are kept in `sent` and succeed while `socketOpen` is true;
 * `learning` says which learning routes the server serves (both by default).
 */
export function fakeEnv({ fragment = "", answers = {}, local = {}, socketOpen = true,
  learning = { rules: true, preview: true } } = {}) {
  const env = {
    gameId: "g1", path: "/play/g1", fragment: new URLSearchParams(fragment),
    local: memoryStorage(local), session: memoryStorage(),
    urls: [], assigned: [], requests: [], sent: [], tones: 0, clock: 1000, socketOpen,
    scheduled: [], sockets: [], learning,
    replaceUrl(url) { env.urls.push(url); },
    assign(url) { env.assigned.push(url); },
    async request(path, options = {}) {
      env.requests.push({ path, ...options });
      const method = options.method || (options.body === undefined ? "GET" : "POST");
      const found = answers[`${method} ${path}`] ?? answers[path];
      const answer = typeof found === "function" ? found(options) : found;
      return answer || { ok: false, status: 404, data: { error: "not found" }, error: "not found" };
    },
    openSocket(options) {
      const socket = { options, closed: false,
        send(message) { if (!env.socketOpen) return false; env.sent.push(message); return true; },
        close() { socket.closed = true; } };
      env.sockets.push(socket);
      return socket;
    },
    socketUrl: "ws://here/ws/g1",
    now: () => env.clock,
    tone() { env.tones++; },
    schedule(run, ms) { env.scheduled.push({ run, ms }); },
  };
  return env;
}

/** An ok answer. */
export const ok = (data) => ({ ok: true, status: 200, data, error: null });
/** A refused answer with its one line. */
export const refused = (status, error) => ({ ok: false, status, data: { error }, error });

/** Let pending promises settle. */
export const settle = () => new Promise((done) => setTimeout(done, 0));
