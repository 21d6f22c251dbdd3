/**
 * The one WebSocket client every page uses (table, lobby, tournament, notifications):
 * JSON frames, an optional ping, and reconnection with capped exponential backoff and
 * jitter, except after a close code that says retrying cannot help.
 *
 * @module socket
 */

/**
 * Close codes the server sends when a retry would be refused the same way
 * (games/consumers.py, ttr_site/accounts/consumers.py, ttr_site/socket_quota.py).
 * @type {Readonly<Record<number, string>>}
 */
export const FINAL_CLOSE_CODES = Object.freeze({
  4401: "signed_out", // the socket needs a signed-in user
  4403: "access_lost", // the table is no longer the user's to see
  4404: "not_found", // no such table or tournament, or not visible to this user
  4429: "too_many_sockets", // over the per-user or per-address socket cap
});

/** @param {number} code @returns {boolean} */
export const isFinalClose = (code) => Object.prototype.hasOwnProperty.call(FINAL_CLOSE_CODES, code);

/**
 * The wait before reconnect attempt `attempt` (0 for the first): base·2^attempt capped at
 * `cap`, times a random factor in [1 - jitter, 1 + jitter) so that a restarted server is not
 * hit by every client at the same moment.
 * @param {number} attempt
 * @param {{base?: number, cap?: number, jitter?: number, random?: () => number}} [options]
 * @returns {number} milliseconds
 */
export function backoffDelay(attempt, { base = 1000, cap = 15000, jitter = 0.25, random = Math.random } = {}) {
  return Math.min(cap, base * Math.pow(2, attempt)) * (1 - jitter + random() * 2 * jitter);
}

/**
 * The ws:// or wss:// address of `path` on this page's host.
 * @param {string} path
 * @param {{protocol: string, host: string}} [where]
 */
export function socketUrl(path, where = location) {
  return `${where.protocol === "https:" ? "wss" : "ws"}://${where.host}${path}`;
}

/**
 * @typedef {object} SocketOptions
 * @property {(frame: any) => void} [onFrame]   each JSON frame received
 * @property {() => void} [onOpen]              after every (re)connection
 * @property {(event: CloseEvent, final: boolean) => void} [onClose]  after every close;
 *           `final`: the code is one of FINAL_CLOSE_CODES and no reconnect follows
 * @property {number} [pingMs]   send {type: "ping"} this often while open (0: never)
 * @property {number} [base]     backoff base (ms)
 * @property {number} [cap]      backoff cap (ms)
 */

/**
 * Open a socket to `path` that keeps itself open.
 * @param {string} path
 * @param {SocketOptions} options
 * @returns {{send: (frame: object) => boolean, close: () => void, readonly open: boolean}}
 */
export function connectSocket(path, options = {}) {
  const { onFrame, onOpen, onClose, pingMs = 0, base, cap } = options;
  let ws = null;
  let retry = 0;
  let pingTimer = null;
  let reconnectTimer = null;
  let stopped = false;

  const send = (frame) => {
    if (!ws || ws.readyState !== WebSocket.OPEN) return false;
    ws.send(JSON.stringify(frame));
    return true;
  };

  function connect() {
    const socket = new WebSocket(socketUrl(path));
    ws = socket;
    socket.addEventListener("open", () => {
      retry = 0;
      clearInterval(pingTimer);
      if (pingMs) pingTimer = setInterval(() => send({ type: "ping" }), pingMs);
      if (onOpen) onOpen();
    });
    socket.addEventListener("message", (ev) => {
      let frame;
      try {
        frame = JSON.parse(ev.data);
      } catch (e) {
        return;
      }
      try {
        if (onFrame) onFrame(frame);
      } catch (e) {
        console.error("ttr: could not handle frame", frame && frame.type, e);
      }
    });
    socket.addEventListener("close", (ev) => {
      clearInterval(pingTimer);
      if (ws !== socket) return;
      const final = stopped || isFinalClose(ev.code);
      if (onClose) onClose(ev, final);
      if (final) return;
      clearTimeout(reconnectTimer);
      reconnectTimer = setTimeout(connect, backoffDelay(retry++, { base, cap }));
    });
  }

  connect();
  return {
    send,
    close() {
      stopped = true;
      clearTimeout(reconnectTimer);
      if (ws) ws.close();
    },
    get open() {
      return !!ws && ws.readyState === WebSocket.OPEN;
    },
  };
}
