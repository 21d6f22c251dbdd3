/**
 * "Your table has started" (push ``table_started``, ladder/broadcast.py): a ranked table
 * (queue or challenge) or a tournament round's table, whose move clock is already running.
 *
 * Decision (issue 23): the page goes to the table at once. The player asked for the game
 * (queued, accepted, entered the tournament) and every second spent elsewhere is a second
 * of their first decision; a dialog would only add a step. Except where leaving would lose
 * something: the player's own live game on a table page, or a text field they are typing
 * in. There a dialog says so, plays a tone, counts down 10 seconds and then goes; "Go to
 * the table" goes at once and "Stay here" stays.
 *
 * Test hooks: html[data-table-call] ("going" | "asking" | "stayed"),
 * html[data-table-call-url], #table-call[data-seconds].
 * @module tablecall
 */
import { fmt, nt, t } from "../games/i18n.js";
import { playTone } from "./tone.js";

export const COUNTDOWN_SECONDS = 10;

// xgettext (makemessages) misreads a "/" unescaped inside a class, or a regex after "&&".
const LOCAL_PATH = /^\/(?!\/)[\w\-.\/]*$/;

/**
 * A same-site path the push may send the page to (never another host).
 * @param {unknown} url
 * @returns {url is string}
 */
export const isLocalPath = (url) => typeof url === "string" && LOCAL_PATH.test(url);

const TEXT_INPUT = /^(text|search|email|url|number|)$/;

/** Whether leaving this page now would lose something (see the module's decision). */
export function leavingLosesSomething(doc = document) {
  const signals = doc.getElementById("turn-signals"); // shown to a seated player of a live game
  if (signals && !signals.hidden) return true;
  const el = doc.activeElement;
  const typing = el && (el.tagName === "TEXTAREA" || (el.tagName === "INPUT" && TEXT_INPUT.test(el.type || "")));
  return !!(typing && el.value);
}

let countdown = null;

function go(url) {
  const html = document.documentElement;
  html.dataset.tableCall = "going";
  html.dataset.tableCallUrl = url;
  location.assign(url);
}

function dialogFor(message) {
  let dialog = document.getElementById("table-call");
  if (dialog) dialog.remove();
  dialog = document.createElement("dialog");
  dialog.id = "table-call";
  dialog.className = "table-call";
  dialog.setAttribute("aria-labelledby", "table-call-title");
  const title = document.createElement("h2");
  title.id = "table-call-title";
  title.textContent = t("Your table has started");
  const text = document.createElement("p");
  text.textContent = message.source === "tournament"
    ? t("Your tournament round has started, and its clock is running.")
    : t("Your ranked game has started, and its clock is running.");
  const count = document.createElement("p");
  count.className = "table-call-count";
  count.setAttribute("aria-live", "polite");
  const actions = document.createElement("div");
  actions.className = "table-call-actions";
  const goNow = document.createElement("a");
  goNow.className = "button";
  goNow.id = "table-call-go";
  goNow.href = message.url;
  goNow.textContent = t("Go to the table");
  const stay = document.createElement("button");
  stay.type = "button";
  stay.className = "secondary";
  stay.id = "table-call-stay";
  stay.textContent = t("Stay here");
  actions.append(stay, goNow);
  dialog.append(title, text, count, actions);
  document.body.appendChild(dialog);
  return { dialog, count, goNow, stay };
}

function ask(message) {
  clearInterval(countdown);
  const { dialog, count, goNow, stay } = dialogFor(message);
  let left = COUNTDOWN_SECONDS;
  const show = () => {
    dialog.dataset.seconds = String(left);
    count.textContent = fmt(nt("Going to the table in %(n)s second…", "Going to the table in %(n)s seconds…", left), { n: left });
  };
  const finish = () => {
    clearInterval(countdown);
    countdown = null;
  };
  show();
  document.documentElement.dataset.tableCall = "asking";
  goNow.addEventListener("click", finish);
  stay.addEventListener("click", () => {
    finish();
    document.documentElement.dataset.tableCall = "stayed";
    dialog.close();
  });
  dialog.addEventListener("cancel", () => stay.click()); // Escape stays too
  try {
    dialog.showModal();
  } catch (e) {
    dialog.setAttribute("open", "");
  }
  playTone("table");
  countdown = setInterval(() => {
    left -= 1;
    if (left > 0) return show();
    finish();
    go(message.url);
  }, 1000);
}

/**
 * Take the player to the table the push names.
 * @param {{url?: unknown, table?: unknown, source?: unknown}} message
 */
export function callToTable(message) {
  if (!message || !isLocalPath(message.url)) return;
  if (location.pathname === message.url) return; // already there
  if (document.documentElement.dataset.tableCall === "going") return;
  if (leavingLosesSomething()) ask(message);
  else go(message.url);
}
