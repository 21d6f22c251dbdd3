/**
 * The move clock: when each seat's time runs out (from the `clock` facts of a view frame,
 * see games/broadcast.py), the countdown shown in the turn banner and each seat's clock on
 * its panel (its time bank; the deciding seat's move clock).
 * @module clocks
 */
import { h, icon } from "./dom.js";
import { fmt, t } from "./i18n.js";

/**
 * @typedef {object} Clock
 * @property {"realtime"|"correspondence"} time_control
 * @property {string} [turn_started_at]  ISO time
 * @property {string} [deadline]         ISO time (used when turn_started_at is absent)
 * @property {number} [move_seconds]
 * @property {number} [bank_seconds]     the table's bank at the start (0: none to show)
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
 * A seat's time at `now`, from the server's clock facts: `bank`, the seconds left in its
 * bank (real time; the deciding seat's drains once its move time is used up, as
 * games/clocks.py charges it), and for a deciding human seat `move`, the seconds left of the
 * move time (real time) or of the turn (turn-based). Null when the seat has no clock to show.
 * @param {Clock|null|undefined} clock
 * @param {{position: number, is_bot?: boolean}[]} seats
 * @param {number[]} currentSeats
 * @param {number} seat
 * @param {number} now  ms since the epoch
 * @returns {{bank: number|null, move: number|null}|null}
 */
export function seatTime(clock, seats, currentSeats, seat, now) {
  if (!clock) return null;
  const s = (seats || []).find((x) => x.position === seat);
  const start = Date.parse(clock.turn_started_at || "");
  const deciding = (currentSeats || []).includes(seat) && !(s && s.is_bot) && !isNaN(start);
  const elapsed = deciding ? Math.max(0, (now - start) / 1000) : 0;
  if (clock.time_control !== "realtime") {
    if (!deciding) return null;
    const deadline = seatDeadline(clock, seats, seat);
    return deadline === null || isNaN(deadline) ? null : { bank: null, move: Math.max(0, (deadline - now) / 1000) };
  }
  const moveSeconds = Number(clock.move_seconds || 0);
  const bank = Math.max(0, Number((clock.banks || {})[String(seat)]) || 0);
  const hasBank = clock.bank_seconds === undefined || Number(clock.bank_seconds) > 0; // a table without one shows none
  return {
    bank: hasBank ? Math.max(0, bank - Math.max(0, elapsed - moveSeconds)) : null,
    move: deciding ? Math.max(0, moveSeconds - elapsed) : null,
  };
}

/** One part of a panel clock: its mark (an icon or a word), the time, what it is. */
function clockPart(cls, mark, seconds, label) {
  return h("span", { class: "clock-part " + cls, title: label }, mark,
    h("span", { class: "clock-value", text: formatTimeLeft(seconds) }), h("span", { class: "visually-hidden", text: " " + label }));
}

/**
 * Every seat's clock on its panel (`#players [data-clock-seat]`): its time bank, and for
 * the deciding seat the move clock ticking down. Called on every render and every tick.
 * @param {any} app  the TableApp
 */
export function renderPanelClocks(app) {
  const over = !app.view || app.view.phase === "over" || app.summary.ended_early;
  const now = Date.now();
  for (const el of document.querySelectorAll("#players [data-clock-seat]")) {
    const seat = Number(el.dataset.clockSeat);
    const time = over ? null : seatTime(app.clock, app.summary.seats, app.view.current_seats, seat, now);
    el.textContent = "";
    el.classList.toggle("is-running", !!time && time.move !== null);
    if (!time) continue;
    if (time.move !== null) el.append(clockPart("clock-move", icon("clock"), time.move, t("time left for this move")));
    if (time.bank !== null) el.append(clockPart("clock-bank", h("span", { class: "clock-mark", "aria-hidden": "true", text: t("bank") }), time.bank, t("time bank")));
    el.classList.toggle("is-low", time.move !== null && time.move + (time.bank || 0) < 15);
  }
}

/**
 * The countdown of the current decision in #turn-clock and every panel's clock (from the
 * frame's `clock`, if the server sends one); starts a once-a-second tick the first time.
 * @param {any} app  the TableApp
 */
export function tickClock(app) {
  if (!app.clockTimer) app.clockTimer = setInterval(() => tickClock(app), 1000);
  renderPanelClocks(app);
  const el = document.getElementById("turn-clock");
  if (!el) return;
  const c = app.clock;
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
