/* The tournament page: live refresh of standings, rounds and players over a WebSocket, and
 * confirmations for buttons that carry data-confirm. The server renders everything; this
 * script only swaps in the fresh fragment when the tournament changes. */
(function () {
  "use strict";
  const root = document.getElementById("tournament-live");
  if (!root) return;

  document.addEventListener("click", (event) => {
    const button = event.target.closest("[data-confirm]");
    if (button && !window.confirm(button.dataset.confirm)) event.preventDefault();
  });

  let pending = false;
  let fetching = false;
  let retry = 0;

  function typing() {
    const el = document.activeElement;
    return el && root.contains(el) && /^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName);
  }

  async function refresh() {
    if (typing() || fetching) {
      pending = true; // try again when the organizer leaves the field
      return;
    }
    fetching = true;
    pending = false;
    try {
      const response = await fetch(root.dataset.partialUrl, { credentials: "same-origin" });
      if (response.ok) {
        root.innerHTML = await response.text();
        document.body.dataset.tournamentRefreshed = String(Date.now());
      }
    } finally {
      fetching = false;
      if (pending) setTimeout(refresh, 200);
    }
  }
  root.addEventListener("focusout", () => { if (pending) setTimeout(refresh, 100); });

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    const socket = new WebSocket(scheme + location.host + root.dataset.wsPath);
    let timer = null;
    socket.onopen = () => {
      retry = 0;
      document.body.dataset.tournamentLive = "1";
      timer = setInterval(() => socket.send(JSON.stringify({ type: "ping" })), 25000);
    };
    socket.onmessage = (event) => {
      const frame = JSON.parse(event.data);
      if (frame.type === "tournament_changed") refresh();
    };
    socket.onclose = () => {
      clearInterval(timer);
      document.body.dataset.tournamentLive = "0";
      retry = Math.min(retry + 1, 6);
      // after a drop, catch up on what was missed, then listen again
      setTimeout(() => { refresh(); connect(); }, 500 * 2 ** retry);
    };
  }
  connect();
})();
