/**
 * Each seat's last move, read from the game log (no DOM in `lastMoves`): what the table page
 * marks on the map (the route claimed, the station built, outlined in the mover's colour)
 * and on the mover's panel, so that three bots moving in a couple of seconds still leave
 * each move in view until that seat moves again.
 *
 * Terms: a *turn* is a run of consecutive log entries of one seat's actions (a depot, then
 * two draws, say); the *latest* turn is the newest of them all.
 * @module lastmove
 */
import { cardsNode, h } from "./dom.js";
import { fmt, nt, t } from "./i18n.js";

/** Log entries that are a seat's own action (the engine's event types). */
const ACTIONS = new Set([
  "draw_card", "claim_route", "tunnel_attempt", "pay_tunnel", "decline_tunnel", "draw_tickets",
  "keep_tickets", "build_station", "place_depot", "warehouse_card", "take_warehouse", "pass",
]);

/**
 * @typedef {{seat: number, seq: number, latest: boolean, routes: (string|number)[],
 *   stations: string[], depots: string[], draws: (string|null)[], tickets: number,
 *   kept: number|null, declined: boolean, passed: boolean, tunnel: (string|number|null)}} Turn
 */

/**
 * The last turn of every seat that has moved, by seat.
 * @param {object[]} log  the game log, oldest first
 * @returns {Map<number, Turn>}
 */
export function lastMoves(log) {
  const bySeat = new Map();
  let cur = null;
  let n = 0;
  for (const e of log || []) {
    n++;
    if (!ACTIONS.has(e.type) || e.seat === null || e.seat === undefined) continue;
    if (!cur || cur.seat !== e.seat || (e.type === "keep_tickets" && cur.kept !== null)) {
      cur = { seat: e.seat, seq: n, latest: false, routes: [], stations: [], depots: [], draws: [], tickets: 0, kept: null, declined: false, passed: false, tunnel: null };
      bySeat.set(e.seat, cur);
    }
    cur.seq = n;
    addEvent(cur, e);
  }
  let latest = null;
  for (const turn of bySeat.values()) if (!latest || turn.seq > latest.seq) latest = turn;
  if (latest) latest.latest = true;
  return bySeat;
}

/** @param {Turn} turn @param {any} e */
function addEvent(turn, e) {
  switch (e.type) {
    case "claim_route":
    case "pay_tunnel":
      turn.routes.push(e.route);
      break;
    case "build_station":
      turn.stations.push(e.city);
      break;
    case "place_depot":
      turn.depots.push(e.city);
      break;
    case "draw_card":
      turn.draws.push(e.source === "deck" ? e.color || null : e.color);
      break;
    case "draw_tickets":
      turn.tickets += e.count || 0;
      break;
    case "keep_tickets":
      turn.kept = Array.isArray(e.tickets) ? e.tickets.length : e.kept_count || 0;
      break;
    case "tunnel_attempt":
      turn.tunnel = e.route; // until it is paid for (pay_tunnel) or given up
      break;
    case "decline_tunnel":
      turn.declined = true;
      break;
    case "pass":
      turn.passed = true;
      break;
  }
}

/**
 * The board's marks for these turns: every route claimed and station built, with the seat.
 * @param {Map<number, Turn>} turns
 */
export function boardMarks(turns) {
  const marks = [];
  for (const turn of turns.values()) {
    for (const route of turn.routes) marks.push({ route, seat: turn.seat, latest: turn.latest });
    for (const city of turn.stations) marks.push({ city, seat: turn.seat, latest: turn.latest });
  }
  return marks;
}

/**
 * What a seat's panel says about its last turn: "claimed Paris – Wien", "drew [R] + 1",...
 * @param {Turn} turn
 * @param {{routeLabel: (id: any) => string, cityName: (name: string) => string}} idx
 * @returns {HTMLElement}
 */
export function lastMoveNode(turn, idx) {
  const parts = [];
  if (turn.depots.length) parts.push(fmt(t("depot in %(city)s"), { city: turn.depots.map((c) => idx.cityName(c)).join(", ") }));
  if (turn.routes.length) parts.push(fmt(t("claimed %(route)s"), { route: turn.routes.map((r) => idx.routeLabel(r)).join(", ") }));
  if (turn.stations.length) parts.push(fmt(t("station in %(city)s"), { city: turn.stations.map((c) => idx.cityName(c)).join(", ") }));
  if (turn.declined) parts.push(t("gave up a tunnel"));
  else if (turn.tunnel !== null && !turn.routes.includes(turn.tunnel)) {
    parts.push(fmt(t("tries the tunnel %(route)s"), { route: idx.routeLabel(turn.tunnel) }));
  }
  if (turn.kept !== null) parts.push(fmt(nt("kept %(n)s ticket", "kept %(n)s tickets", turn.kept), { n: turn.kept }));
  else if (turn.tickets) parts.push(t("drew tickets"));
  if (turn.passed) parts.push(t("passed"));
  const node = h("span", { class: "player-last", "data-last-seq": turn.seq },
    h("span", { class: "visually-hidden", text: t("Last move:") + " " }));
  if (turn.draws.length) {
    const seen = turn.draws.filter(Boolean);
    const blind = turn.draws.length - seen.length;
    node.append(fmt(nt("drew %(n)s card", "drew %(n)s cards", turn.draws.length), { n: turn.draws.length }));
    if (seen.length) node.append(" ", cardsNode(seen));
    if (blind && seen.length) node.append(" " + fmt(t("+%(n)s from the deck"), { n: blind }));
    if (parts.length) node.append(" · ");
  }
  node.append(parts.join(" · "));
  node.title = node.textContent.replace(t("Last move:"), "").trim();
  return node;
}

/**
 * The app's turns, recomputed only when its log grows.
 * @param {{log: object[], _turns?: {n: number, turns: Map<number, Turn>}}} app the TableApp
 */
export function turnsOf(app) {
  if (!app._turns || app._turns.n !== app.log.length) app._turns = { n: app.log.length, turns: lastMoves(app.log) };
  return app._turns.turns;
}

/**
 * Mark a seat's panel with its last move (and, for the latest mover, .is-last-mover).
 * @param {any} app the TableApp
 * @param {HTMLElement} li the seat's panel
 * @param {number} seat
 */
export function markLastMove(app, li, seat) {
  if (!app.view || app.view.phase === "over") return;
  const turn = turnsOf(app).get(seat);
  if (!turn) return;
  const node = lastMoveNode(turn, app.idx);
  if (!node.title) return; // a turn with nothing to tell (a warehouse card only, say)
  li.classList.add("has-last-move");
  li.classList.toggle("is-last-mover", turn.latest);
  li.appendChild(node);
}
