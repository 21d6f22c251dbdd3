/**
 * Pure helpers over the board and the server's frames (no DOM): the board index (names,
 * labels, points), the board state of a view, the legal actions grouped by what the page
 * offers, payment ordering, ticket-keep matching.
 * @module model
 */
import { fmt, t } from "./i18n.js";

/**
 * @typedef {{type: string, [key: string]: any}} Action  one entry of a view frame's `legal`
 * @typedef {{id: (string|number), a: string, b: string, length: number, color: string,
 *   tunnel?: boolean, ferry_locomotives?: number, double_group?: (number|null)}} Route
 */

/** Lookups over the board: routes, cities and tickets by id, and their display labels. */
export function indexBoard(board) {
  const routes = new Map();
  for (const r of board.routes || []) routes.set(String(r.id), r);
  const cities = new Map();
  for (const c of board.cities || board.locations || []) cities.set(c.name, c);
  const tickets = new Map();
  for (const tk of board.tickets || []) tickets.set(String(tk.id), tk);
  const groups = new Map();
  for (const r of board.routes || []) {
    if (r.double_group === null || r.double_group === undefined) continue;
    if (!groups.has(r.double_group)) groups.set(r.double_group, []);
    groups.get(r.double_group).push(r.id);
  }
  const cityName = (name) => {
    const c = cities.get(name);
    return (c && c.display_name) || name;
  };
  const routeLabel = (id) => {
    const r = routes.get(String(id));
    if (!r) return fmt(t("route %(id)s"), { id });
    return cityName(r.a) + " – " + cityName(r.b);
  };
  const routePoints = (id) => {
    const r = routes.get(String(id));
    return r && board.scoring ? board.scoring[String(r.length)] : null;
  };
  const ticketLabel = (tk) => {
    const x = typeof tk === "object" ? tk : tickets.get(String(tk));
    if (!x) return String(tk);
    return cityName(x.a) + " – " + cityName(x.b) + " (" + x.points + ")";
  };
  return { board, routes, cities, tickets, groups, cityName, routeLabel, routePoints, ticketLabel };
}

/** Board state (claims, stations, depots, closed twins) of a view. */
export function boardState(view, idx) {
  const claims = {};
  const stations = {};
  const depots = {};
  for (const p of view.players || []) {
    for (const r of p.routes || []) claims[r] = p.seat;
    for (const c of p.stations || []) stations[c] = p.seat;
    for (const c of p.depots || []) depots[c] = p.seat;
  }
  const closed = [];
  if ((view.seats || (view.players || []).length) <= 3) {
    for (const ids of idx.groups.values()) {
      if (ids.some((id) => claims[id] !== undefined)) {
        for (const id of ids) if (claims[id] === undefined) closed.push(id);
      }
    }
  }
  return { claims, stations, depots, closed };
}

/** A score with its sign ("+3", "−2", "0"; a real minus sign). @param {number} n */
export function signed(n) {
  n = n || 0;
  return n > 0 ? "+" + n : n < 0 ? "−" + Math.abs(n) : "0";
}

/** Seat -> {name, color, symbol}, with a placeholder for any seat the summary lacks. */
export function boardPlayers(seats) {
  const out = [];
  for (const s of seats || []) out[s.position] = { name: s.name, color: s.color, symbol: s.symbol };
  for (let i = 0; i < out.length; i++) if (!out[i]) out[i] = { name: "?", color: "#888", symbol: "?" };
  return out;
}

/** JSON with sorted keys: two equal actions give the same string. */
export function canonical(value) {
  if (Array.isArray(value)) return "[" + value.map(canonical).join(",") + "]";
  if (value && typeof value === "object")
    return "{" + Object.keys(value).sort().map((k) => JSON.stringify(k) + ":" + canonical(value[k])).join(",") + "}";
  return JSON.stringify(value);
}

/**
 * The legal actions grouped by what the page offers: the draws from the deck and per
 * face-up slot (with Warehouses & Depots one per warehouse the warehouse card can go to),
 * the ticket deck, claims per route id, stations and depots per city, ticket keeps, tunnel
 * payments, decline, pass.
 * @param {Action[]} legal
 */
export function legalIndex(legal) {
  const out = { faceup: new Map(), deck: [], tickets: null, claims: new Map(), stations: new Map(), depots: new Map(), keep: [], pay: [], decline: null, pass: null };
  for (const a of legal) {
    switch (a.type) {
      case "draw_card":
        if (a.source === "deck") out.deck.push(a);
        else {
          if (!out.faceup.has(a.slot)) out.faceup.set(a.slot, []);
          out.faceup.get(a.slot).push(a);
        }
        break;
      case "place_depot":
        out.depots.set(a.city, a);
        break;
      case "draw_tickets":
        out.tickets = a;
        break;
      case "claim_route": {
        const k = String(a.route);
        if (!out.claims.has(k)) out.claims.set(k, []);
        out.claims.get(k).push(a);
        break;
      }
      case "build_station":
        if (!out.stations.has(a.city)) out.stations.set(a.city, []);
        out.stations.get(a.city).push(a);
        break;
      case "keep_tickets":
        out.keep.push(a);
        break;
      case "pay_tunnel":
        out.pay.push(a);
        break;
      case "decline_tunnel":
        out.decline = a;
        break;
      case "pass":
        out.pass = a;
        break;
    }
  }
  return out;
}

/**
 * The ways to pay, as the payment dialog lists them: fewest locomotives first, otherwise in
 * the server's order.
 * @param {Action[]} options
 */
export function paymentOrder(options) {
  return options
    .map((a, i) => ({ a, i, loco: (a.cards && a.cards.locomotive) || 0 }))
    .sort((x, y) => x.loco - y.loco || x.i - y.i)
    .map((x) => x.a);
}

/**
 * A claim's choices split in two: the ways to pay (fewest locomotives first) and the sets of
 * warehouses it can take (Warehouses & Depots; `[[]]` without). `find` gives the legal action
 * for one payment and one set of warehouses, or null: the page only sends what `find` returns.
 * @param {Action[]} options  the legal claim_route actions of one route
 */
export function claimChoices(options) {
  const payments = [];
  const seen = new Set();
  const takes = new Map([["", []]]);
  const byKey = new Map();
  for (const a of paymentOrder(options)) {
    const pay = canonical(a.cards);
    if (!seen.has(pay)) {
      seen.add(pay);
      payments.push(a.cards);
    }
    const seats = [...(a.warehouses || [])].sort((x, y) => x - y);
    takes.set(seats.join(","), seats);
    byKey.set(pay + "|" + seats.join(","), a);
  }
  const warehouses = [...new Set([...takes.values()].flat())].sort((x, y) => x - y);
  const find = (cards, seats) => byKey.get(canonical(cards) + "|" + [...seats].sort((x, y) => x - y).join(",")) || null;
  return { payments, warehouses, takes: [...takes.values()], find };
}

/** The key of a set of ticket ids, whatever their order. @param {(string|number)[]} ids */
export const ticketSetKey = (ids) => [...ids].map(String).sort().join("|");

/**
 * The legal keep_tickets actions by the set of tickets each keeps.
 * @param {Action[]} keeps
 * @returns {Map<string, Action>}
 */
export function keepsBySet(keeps) {
  return new Map(keeps.map((a) => [ticketSetKey(a.tickets), a]));
}
