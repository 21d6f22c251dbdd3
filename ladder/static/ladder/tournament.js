/* The tournament page: live refresh of standings, rounds and players over a WebSocket, and
 * confirmations for buttons that carry data-confirm. The server renders everything; this
 * script only swaps in the fresh fragment when the tournament changes. */
import { connectSocket } from "../js/socket.js";

const root = document.getElementById("tournament-live");

let pending = false;
let fetching = false;
let connectedBefore = false;

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

if (root) {
  document.addEventListener("click", (event) => {
    const button = event.target.closest("[data-confirm]");
    if (button && !window.confirm(button.dataset.confirm)) event.preventDefault();
  });
  root.addEventListener("focusout", () => { if (pending) setTimeout(refresh, 100); });
  connectSocket(root.dataset.wsPath, {
    pingMs: 25000,
    cap: 30000,
    onOpen: () => {
      document.body.dataset.tournamentLive = "1";
      if (connectedBefore) refresh(); // after a drop, catch up on what was missed
      connectedBefore = true;
    },
    onFrame: (frame) => { if (frame.type === "tournament_changed") refresh(); },
    onClose: () => { document.body.dataset.tournamentLive = "0"; },
  });
}
