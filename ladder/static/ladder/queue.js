/**
 * The league page's queue panel (#queue-panel), live: the time waited counts up every
 * second; "Find a ranked table" and "Leave the queue" are sent without leaving the page, so
 * the page's socket (js/notifications.js) stays open and cannot miss the match; when the
 * player is matched the panel says so (and js/tablecall.js takes them to the table); a join
 * or leave in another tab, or a reconnection, redraws the panel from the server.
 *
 * Test hooks: #queue-panel[data-state] ("idle" | "waiting" | "elsewhere" | "matched"),
 * #queue-waited (m:ss), body[data-queue-live] (set once the script runs).
 * @module queue
 */
import { fmt, t } from "../games/i18n.js";

let ticker = null;
let matched = false;
let submitting = false;
// Each redraw asked for (a refresh or a form sent) takes the next number; an answer that is
// not the newest one asked for is dropped, so a slow background refresh cannot put back a
// panel, or a message, older than the player's own join or leave.
let asked = 0;

const panel = () => document.getElementById("queue-panel");

/** Seconds as m:ss (or h:mm:ss): the same in every language. */
export function clockText(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (n) => String(n).padStart(2, "0");
  return h ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
}

/** Count the time waited up from the server's clock (the page's clock may be off). */
function startTicking() {
  clearInterval(ticker);
  const status = document.getElementById("queue-status");
  const out = document.getElementById("queue-waited");
  if (!status || !out) return;
  const joined = Date.parse(status.dataset.joinedAt);
  const skew = Date.parse(status.dataset.now) - Date.now();
  if (Number.isNaN(joined) || Number.isNaN(skew)) return;
  const tick = () => {
    const seconds = (Date.now() + skew - joined) / 1000;
    out.textContent = clockText(seconds);
    out.setAttribute("datetime", `PT${Math.max(0, Math.floor(seconds))}S`);
  };
  tick();
  ticker = setInterval(tick, 1000);
}

/**
 * Put the server's fresh panel in place of ours, and its messages when the answer is to the
 * player's own join or leave (`withMessages`): a background refresh brings none.
 */
function swapIn(html, { afterGap = false, withMessages = false } = {}) {
  const doc = new DOMParser().parseFromString(html, "text/html");
  const fresh = doc.getElementById("queue-panel");
  const current = panel();
  if (!fresh || !current || matched) return false;
  if (afterGap && current.dataset.state === "waiting" && fresh.dataset.state === "idle") {
    // Seated (or left elsewhere) while this page was not listening: a table found is in the
    // notifications.
    const note = document.createElement("p");
    note.className = "queue-matched";
    note.id = "queue-gone";
    const link = document.createElement("a");
    link.href = (document.querySelector("a.bell") || { href: "/notifications/" }).href;
    link.textContent = t("See your notifications");
    note.append(document.createTextNode(t("You are no longer in the queue: if a table was found for you, the notification has its link.") + " "), link);
    fresh.insertBefore(note, fresh.querySelector("form"));
  }
  current.replaceWith(fresh);
  const messages = withMessages ? doc.querySelector("main .messages") : null;
  if (messages) {
    const old = document.querySelector("main .messages");
    if (old) old.remove();
    document.querySelector("main").prepend(messages);
  }
  startTicking();
  return true;
}

async function refresh(afterGap = false) {
  if (submitting) return; // the form's own answer redraws the panel (and carries its message)
  const mine = ++asked;
  try {
    const response = await fetch(location.href, { credentials: "same-origin", headers: { "X-Requested-With": "fetch" } });
    const html = response.ok ? await response.text() : null;
    if (html !== null && mine === asked) swapIn(html, { afterGap });
  } catch (e) {
    /* offline: the next push or reconnection tries again */
  }
}

/** Join and leave without leaving the page, while its socket is live. */
async function submitQueueForm(event) {
  const form = event.target.closest && event.target.closest("form[data-queue-form]");
  if (!form || event.defaultPrevented || document.body.dataset.notifications !== "live") return; // a normal post then
  event.preventDefault();
  const button = form.querySelector("button[type=submit]");
  if (button) button.disabled = true;
  submitting = true;
  asked++; // any refresh still on its way is older than this
  try {
    const response = await fetch(form.action, { method: "POST", body: new FormData(form), credentials: "same-origin" });
    if (!response.ok || !swapIn(await response.text(), { withMessages: true })) throw new Error(String(response.status));
  } catch (e) {
    form.submit(); // the server answers the ordinary way
  } finally {
    submitting = false;
  }
}

function showMatched(message) {
  const current = panel();
  if (!current || matched) return;
  matched = true;
  clearInterval(ticker);
  current.dataset.state = "matched";
  const p = document.createElement("p");
  p.className = "queue-matched";
  p.id = "queue-matched";
  p.setAttribute("role", "status");
  const link = document.createElement("a");
  link.href = message.url;
  link.textContent = fmt(t("Table %(table)s"), { table: message.table });
  p.append(document.createTextNode("✓ " + t("Your table has started:") + " "), link);
  const title = current.querySelector("h2");
  current.replaceChildren(...(title ? [title] : []), p);
}

const root = panel();
if (root) {
  startTicking();
  document.addEventListener("submit", submitQueueForm);
  document.addEventListener("ttr:push", (event) => {
    const message = event.detail || {};
    if (message.kind === "table_started" && message.source === "ranked") showMatched(message);
    else if (message.kind === "queue_changed") refresh();
  });
  let opened = false;
  document.addEventListener("ttr:push-open", () => {
    // A push may have come before the socket was open (a match right after the page was
    // rendered) or while it was down: ask the server what the panel is now.
    if (opened || panel().dataset.state === "waiting") refresh(true);
    opened = true;
  });
  document.body.dataset.queueLive = "1";
}
