/* The tournament page: live standings (diffs applied in place: live_standings.js), live
 * refresh of rounds and players over a WebSocket, and confirmations for buttons that carry
 * data-confirm. The Rounds, Crosstable and Players tabs fetch their fragment again after
 * each change (on its `standings` frame, see below). The standings tab never does for a
 * result: its table is live by diffs, and it fetches the rest of its fragment (header,
 * current round) only when the tournament's stage moves on (a round starts or ends), after a
 * random wait of up to 3 s so that thousands of spectators do not ask at once. */
import { connectSocket } from "../js/socket.js";
import { LiveStandings } from "./live_standings.js";
import { reloadDelay } from "./standings_model.js";

const root = document.getElementById("tournament-live");
let standings = null;

/** Attach the live standings to the standings table shown now (after every fragment swap). */
function mountStandings() {
  const table = root.querySelector("table[data-standings-url]");
  if (!table) return;
  if (!standings) {
    standings = new LiveStandings(table, { onStage: staged });
    standings.start();
    return;
  }
  standings.retarget(table);
  const shown = Number(table.dataset.version || 0);
  if (standings.model && standings.model.v !== null && standings.model.v >= shown) standings.render();
}

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
      mountStandings();
      document.body.dataset.tournamentRefreshed = String(Date.now());
    }
  } finally {
    fetching = false;
    if (pending) setTimeout(refresh, 200);
  }
}

let stageTimer = null;

/** The stage moved on: fetch the fragment once, at a random moment in the next 3 s. */
function staged() {
  if (stageTimer) return;
  stageTimer = setTimeout(() => { stageTimer = null; refresh(); }, reloadDelay(3000));
}

// Tabs without live standings (Rounds, Crosstable, Players, an empty standings tab) fetch
// their fragment when the `standings` frame of a change comes: it leaves once the snapshot of
// the change is stored, so the fetch finds it ready instead of every page waiting for its
// rebuild (a rebuild task that was lost is run again by the server's tournament tick).
function standingsFrame(frame) {
  if (standings) { standings.receive(frame); return; }
  refresh();
}

if (root) {
  document.addEventListener("click", (event) => {
    const button = event.target.closest("[data-confirm]");
    if (button && !window.confirm(button.dataset.confirm)) event.preventDefault();
  });
  mountStandings();
  root.addEventListener("focusout", () => { if (pending) setTimeout(refresh, 100); });
  connectSocket(root.dataset.wsPath, {
    pingMs: 25000,
    cap: 30000,
    onOpen: () => {
      document.body.dataset.tournamentLive = "1";
      if (connectedBefore) { // after a drop, catch up on what was missed
        if (standings) standings.reconnected();
        else refresh();
      }
      connectedBefore = true;
    },
    onFrame: (frame) => {
      if (frame.type === "standings") standingsFrame(frame);
    },
    onClose: () => { document.body.dataset.tournamentLive = "0"; },
  });
}
