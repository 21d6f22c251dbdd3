// The lobby: the open-tables list refreshes itself when a table opens, fills or starts.
import { connectSocket } from "../js/socket.js";

let timer = null;

async function refresh() {
  const response = await fetch(location.href, { headers: { "X-Requested-With": "fetch" } });
  const html = new DOMParser().parseFromString(await response.text(), "text/html");
  const fresh = html.getElementById("open-tables");
  if (fresh) document.getElementById("open-tables").replaceWith(fresh);
}

connectSocket("/ws/lobby/", {
  pingMs: 25000,
  onFrame: (frame) => {
    if (frame.type !== "lobby_changed") return; // e.g. a pong
    clearTimeout(timer);
    timer = setTimeout(refresh, 300);
  },
});
