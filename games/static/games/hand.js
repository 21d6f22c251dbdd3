/**
 * The viewer's hand (a card per colour, with counts) and their tickets (done first by
 * points, with a running total); pointing at a ticket shows its cities on the map.
 * @module hand
 */
import { COLOR_ORDER, colorLabel, fillOf, symbolOf, textOf } from "./cards.js";
import { h } from "./dom.js";
import { fmt, nt, t } from "./i18n.js";
import { signed } from "./model.js";

/** @param {any} app the TableApp */
export function renderHand(app) {
  const you = app.view.you;
  const box = document.getElementById("hand");
  if (!you) {
    box.textContent = "";
    return;
  }
  box.textContent = "";
  const fresh = freshness(app, "_handSeen", you.hand || {}, (before, now, c) => (now[c] || 0) > (before[c] || 0));
  let total = 0;
  for (const color of handColors(app.board, you.hand)) {
    const n = (you.hand && you.hand[color]) || 0;
    total += n;
    box.appendChild(h("div", {
      class: "hand-card" + (color === "locomotive" ? " card--loco" : "") + (n ? "" : " is-empty") + fresh(color),
      "data-color": color,
      "data-count": n,
      title: fmt(t("%(color)s: %(n)s"), { color: colorLabel(color), n }),
      style: { "--card-fill": fillOf(color), "--card-text": textOf(color) },
    },
      h("span", { class: "card-sym", "aria-hidden": "true", text: symbolOf(color) || "" }),
      h("span", { class: "hand-count", text: String(n) }),
      h("span", { class: "visually-hidden", text: " " + colorLabel(color) })));
  }
  document.getElementById("hand-total").textContent = fmt(nt("%(n)s card", "%(n)s cards", total), { n: total });
}

/**
 * The card colours of the table's rule set (its `cards.colors` and wild card), in hand
 * order; a colour the hand holds is never left out.
 * @param {{cards?: {colors?: string[], wild?: string}}} board
 * @param {Record<string, number>} [hand]
 */
export function handColors(board, hand) {
  const cards = (board && board.cards) || {};
  if (!cards.colors) return COLOR_ORDER;
  const own = new Set([...cards.colors, cards.wild || "locomotive"]);
  return COLOR_ORDER.filter((c) => own.has(c) || (hand && hand[c]));
}

export function renderTickets(app) {
  const you = app.view.you;
  const list = document.getElementById("my-tickets");
  list.textContent = "";
  if (!you) return;
  const tickets = [...(you.tickets || [])].sort((a, b) => Number(a.completed) - Number(b.completed) || b.points - a.points);
  let done = 0;
  let pts = 0;
  for (const tk of tickets) {
    if (tk.completed) {
      done++;
      pts += tk.points;
    } else pts -= tk.points;
    list.appendChild(ticketItem(app, tk));
  }
  if (!tickets.length) list.appendChild(h("li", { class: "muted empty", text: t("No tickets yet.") }));
  document.getElementById("tickets-summary").textContent = tickets.length ? fmt(t("%(done)s of %(n)s done · %(pts)s"), { done, n: tickets.length, pts: signed(pts) }) : "";
}

export function ticketItem(app, tk) {
  const li = h("li", { class: "ticket" + (tk.completed ? " is-done" : ""), "data-ticket-id": tk.id, title: tk.completed ? t("Completed") : t("Not connected yet") },
    h("span", { class: "ticket-mark", "aria-hidden": "true", text: tk.completed ? "✓" : "○" }),
    h("span", { class: "ticket-cities", text: app.idx.cityName(tk.a) + " – " + app.idx.cityName(tk.b) }),
    h("span", { class: "ticket-points", text: String(tk.points) }),
    h("span", { class: "visually-hidden", text: tk.completed ? t("completed") : "" }));
  li.addEventListener("mouseenter", () => app.focusCities([tk.a, tk.b]));
  li.addEventListener("mouseleave", () => app.focusCities([]));
  return li;
}

/**
 * Which cards are new since the previous move (the version before): `test(before, now, key)`.
 * The first render of a move marks them " is-new" (a short animation, board.css/table.css);
 * later renders of the same move " is-drawn" (the outline only, so nothing replays).
 * @param {any} app the TableApp (keeps what it saw under `slot`)
 * @param {string} slot
 * @param {any} now
 * @param {(before: any, now: any, key: any) => boolean} test
 * @returns {(key: any) => string} the class to add for a key
 */
export function freshness(app, slot, now, test) {
  const seen = app[slot];
  let state;
  if (!seen) state = { version: app.version, before: null, now, first: false };
  else if (seen.version !== app.version) state = { version: app.version, before: seen.now, now, first: true };
  else state = { ...seen, now, first: false };
  app[slot] = state;
  return (key) => (state.before && test(state.before, now, key) ? (state.first ? " is-new" : " is-drawn") : "");
}
