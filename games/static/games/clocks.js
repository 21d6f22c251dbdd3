/**
 * The move clock: when each seat's time runs out (from the `clock` facts of a view frame,
 * see games/broadcast.py) and the countdown shown in the turn banner.
 * @module clocks
 */
import { icon } from "./dom.js";
import { fmt, t } from "./i18n.js";

/**
 * @typedef {object} Clock
 * @property {"realtime"|"correspondence"} time_control
 * @property {string} [turn_started_at]  ISO time
 * @property {string} [deadline]         ISO time (used when turn_started_at is absent)
 * @property {number} [move_seconds]
 * @property {number} [turn_hours]
 * @property {Record<string, number>} [banks]  realtime: each seat's reserve, seconds
 */

/**
 * When a seat's time runs out (ms since the epoch); null for bots or without a clock.
 * @param {Clock|null|undefined} clock
 * @param {{position: number, is_bot?: boolean}[]} seats
 * @param {number} seat
 * @returns {number|null}
 */
export function seatDeadline(clock, seats, seat) {
  const c = clock;
  const s = (seats || []).find((x) => x.position === seat);
  if (!c || (s && s.is_bot)) return null;
  const start = Date.parse(c.turn_started_at || "");
  if (isNaN(start)) return c.deadline ? Date.parse(c.deadline) : null;
  if (c.time_control === "realtime") {
    const bank = Math.max(0, Number((c.banks || {})[String(seat)]) || 0);
    return start + (Number(c.move_seconds || 0) + bank) * 1000;
  }
  return start + Number(c.turn_hours || 0) * 3600 * 1000;
}

/**
 * The deadline shown in the banner: the viewer's when they decide, else the earliest human's.
 * @param {Clock|null|undefined} clock
 * @param {{position: number, is_bot?: boolean}[]} seats
 * @param {number[]} currentSeats
 * @param {number|null} mySeat  the viewer's seat when it is their decision, else null
 * @returns {number|null}
 */
export function shownDeadline(clock, seats, currentSeats, mySeat) {
  if (mySeat !== null && mySeat !== undefined) return seatDeadline(clock, seats, mySeat);
  const ds = (currentSeats || []).map((s) => seatDeadline(clock, seats, s)).filter((d) => d !== null && !isNaN(d));
  return ds.length ? Math.min(...ds) : null;
}

/** "2 d 3 h", "1 h 5 min" or "4:07". @param {number} left seconds */
export function formatTimeLeft(left) {
  if (left >= 86400) return fmt(t("%(d)s d %(h)s h"), { d: Math.floor(left / 86400), h: Math.floor((left % 86400) / 3600) });
  if (left >= 3600) return fmt(t("%(h)s h %(m)s min"), { h: Math.floor(left / 3600), m: Math.floor((left % 3600) / 60) });
  return Math.floor(left / 60) + ":" + String(Math.floor(left % 60)).padStart(2, "0");
}

/**
 * The countdown of the current decision in #turn-clock (from the frame's `clock`, if the
 * server sends one); starts a once-a-second tick the first time.
 * @param {any} app  the TableApp
 */
export function tickClock(app) {
  const el = document.getElementById("turn-clock");
  if (!el) return;
  const c = app.clock;
  if (!app.clockTimer) app.clockTimer = setInterval(() => tickClock(app), 1000);
  const over = !app.view || app.view.phase === "over" || app.summary.ended_early;
  const mine = app.isMyDecision();
  const deadline = c && !over ? shownDeadline(c, app.summary.seats, app.view.current_seats, mine ? app.seat : null) : null;
  if (deadline === null) {
    el.textContent = "";
    return;
  }
  const left = Math.max(0, (deadline - Date.now()) / 1000);
  if (isNaN(left)) {
    el.textContent = "";
    return;
  }
  el.textContent = "";
  el.append(icon("clock"), " " + formatTimeLeft(left));
  el.classList.toggle("is-low", left < 15 && mine);
}
