// Live notifications: a WebSocket to /ws/notifications/ that updates the header badge and
// shows a toast. Reconnects with a growing delay (js/socket.js); the page stays usable
// without it. Signed out (4401): nothing to listen to, no retry.
//
// It is the page's one socket to the user's own group, so it also hands every push on to
// the page's other scripts as a `ttr:push` event on document (detail: the frame), and says
// `ttr:push-open` after each (re)connection, when they may have missed a push. A started
// ranked or tournament table takes the player there (js/tablecall.js).
import { connectSocket } from "./socket.js";
import { callToTable } from "./tablecall.js";
import { unlockOnFirstGesture } from "./tone.js";

const badge = document.getElementById("notification-count");
const toasts = document.getElementById("toasts");

function showToast(message) {
  const el = document.createElement(message.url ? "a" : "div");
  el.className = "toast";
  el.textContent = message.text;
  if (message.url) el.href = message.url;
  toasts.appendChild(el);
  setTimeout(() => el.remove(), 8000);
}

function bump() {
  if (!badge) return;
  const count = (parseInt(badge.dataset.count, 10) || 0) + 1;
  badge.dataset.count = String(count);
  badge.textContent = String(count);
  badge.classList.remove("hidden");
}

unlockOnFirstGesture(); // so that the table call's tone can play

// The endpoint is push-only (it answers any frame with an error): no ping.
connectSocket("/ws/notifications/", {
  cap: 30000,
  onOpen: () => {
    document.body.dataset.notifications = "live";
    document.dispatchEvent(new CustomEvent("ttr:push-open"));
  },
  onFrame: (message) => {
    document.dispatchEvent(new CustomEvent("ttr:push", { detail: message }));
    if (message.kind === "notification") { bump(); showToast(message); }
    else if (message.kind === "table_started") callToTable(message);
  },
  onClose: () => { document.body.dataset.notifications = "offline"; },
});
