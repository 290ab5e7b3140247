// @ts-check
// The game's WebSocket: says hello with the seat's token on every (re)connection,
// reconnects with a growing delay after a loss, reports its status (connecting, open, lost,
// refused) and hands each message to the page. A close code 4400-4499 is the server refusing
// this link: no retry.

/**
 * @typedef {"connecting" | "open" | "lost" | "refused"} Status
 * @typedef {{
 *   url: string, token?: () => string | null, onMessage: (message: any) => void,
 *   onStatus?: (status: Status, detail?: {retryIn?: number, code?: number}) => void,
 *   WebSocketImpl?: typeof WebSocket, schedule?: (run: () => void, ms: number) => unknown,
 *   firstDelay?: number, maxDelay?: number
 * }} Options
 * @typedef {{send(message: object): boolean, close(): void}} GameSocket
 */

/**
 * The delay before reconnection attempt `attempt` (0-based): doubling from `first`, at most
 * `max`. backoff(0) === 500; backoff(5) === 8000
 * @param {number} attempt
 * @param {number} [first]
 * @param {number} [max]
 * @returns {number}
 */
export function backoff(attempt, first = 500, max = 8000) {
  return Math.min(max, first * 2 ** attempt);
}

/**
 * Open the game socket. `send` returns false when the socket is not open (the caller may
 * fall back to a request).
 * @param {Options} options
 * @returns {GameSocket}
 */
export function openSocket(options) {
  const Impl = options.WebSocketImpl || WebSocket;
  const schedule = options.schedule || ((run, ms) => setTimeout(run, ms));
  const status = options.onStatus || (() => {});
  let attempt = 0;
  let closed = false;
  /** @type {WebSocket | null} */
  let socket = null;

  function connect() {
    if (closed) return;
    status("connecting");
    const ws = new Impl(options.url);
    socket = ws;
    ws.onopen = () => {
      attempt = 0;
      ws.send(JSON.stringify({ type: "hello", token: (options.token && options.token()) || null }));
      status("open");
    };
    ws.onmessage = (event) => {
      let message;
      try { message = JSON.parse(String(event.data)); } catch { return; }
      options.onMessage(message);
    };
    ws.onclose = (event) => {
      if (socket !== ws || closed) return;
      socket = null;
      if (event.code >= 4400 && event.code < 4500) { status("refused", { code: event.code }); return; }
      const wait = backoff(attempt++, options.firstDelay, options.maxDelay);
      status("lost", { retryIn: wait });
      schedule(connect, wait);
    };
  }

  connect();
  return {
    send(message) {
      if (!socket || socket.readyState !== Impl.OPEN) return false;
      socket.send(JSON.stringify(message));
      return true;
    },
    close() {
      closed = true;
      if (socket) socket.close();
      socket = null;
    },
  };
}

/**
 * The address of game `gameId`'s socket on this page's host.
 * @param {string} gameId
 * @param {{protocol: string, host: string}} where
 * @returns {string}
 */
export function socketUrl(gameId, where) {
  const scheme = where.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${where.host}/ws/${encodeURIComponent(gameId)}`;
}
