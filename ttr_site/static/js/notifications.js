// Live notifications: a WebSocket to /ws/notifications/ that updates the header badge and
// shows a toast. Reconnects with a growing delay (js/socket.js); the page stays usable
// without it. Signed out (4401): nothing to listen to, no retry.
import { connectSocket } from "./socket.js";

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

// The endpoint is push-only (it answers any frame with an error): no ping.
connectSocket("/ws/notifications/", {
  cap: 30000,
  onOpen: () => { document.body.dataset.notifications = "live"; },
  onFrame: (message) => {
    if (message.kind === "notification") { bump(); showToast(message); }
  },
  onClose: () => { document.body.dataset.notifications = "offline"; },
});
