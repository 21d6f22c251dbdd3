// Live notifications: a WebSocket to /ws/notifications/ that updates the header badge and
// shows a toast. Reconnects with a growing delay; the page stays usable without it.
(function () {
  "use strict";
  const badge = document.getElementById("notification-count");
  const toasts = document.getElementById("toasts");
  let delay = 1000;

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

  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws/notifications/`);
    socket.onopen = () => { delay = 1000; document.body.dataset.notifications = "live"; };
    socket.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.kind === "notification") { bump(); showToast(message); }
    };
    socket.onclose = (event) => {
      document.body.dataset.notifications = "offline";
      if (event.code === 4401) return;  // signed out: nothing to listen to
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 30000);
    };
  }
  connect();
})();
