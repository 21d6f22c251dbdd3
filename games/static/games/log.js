/**
 * The game log: one line per engine event, in the page's language. Hidden information never
 * reaches the client, so everything an entry holds may be shown; other seats' entries carry
 * counts instead (e.hand_count, e.ticket_count, e.kept_count, e.returned_count).
 * @module log
 */
import { fmt, nt, t } from "./i18n.js";
import { cardsNode, h, seatToken } from "./dom.js";

/**
 * @typedef {object} LogContext
 * @property {ReturnType<typeof import("./model.js").indexBoard>} idx
 * @property {(seat: number) => string} name
 * @property {number|null} [you]   the viewer's seat
 * @property {boolean} [taxis]     New York: taxis rather than trains
 */

/** The events that stand out in the log. */
export const MAJOR_EVENTS = Object.freeze(["claim_route", "pay_tunnel", "last_round", "game_end", "build_station"]);

/**
 * One log entry as {seat, node}. ctx: {idx, name(seat) -> string, you (seat or null)}.
 * Hidden information never reaches the client, so everything present may be shown.
 */
export function describeLog(e, ctx) {
  const idx = ctx.idx;
  const who = e.seat === null || e.seat === undefined ? "" : ctx.name(e.seat);
  const mine = ctx.you !== null && ctx.you !== undefined && e.seat === ctx.you;
  const parts = [];
  const say = (s, params) => parts.push(fmt(s, Object.assign({ name: who }, params || {})));
  const chips = (cards) => parts.push(cardsNode(cards));
  const tlist = (ids) => (ids || []).map((id) => idx.ticketLabel(id)).join(", ");
  switch (e.type) {
    case "game_start":
      say(nt("The game begins with %(n)s player.", "The game begins with %(n)s players.", e.seats), { n: e.seats });
      break;
    case "deal":
      if (e.hand) {
        say(t("You are dealt:"));
        chips(e.hand);
      } else {
        // others see only the counts (the engine's public side of the deal)
        say(t("%(name)s is dealt %(cards)s cards and %(tickets)s tickets."), {
          cards: e.hand_count,
          tickets: e.ticket_count,
        });
      }
      break;
    case "setup":
      say(t("Five cards are laid face up; %(first)s will play first."), { first: ctx.name(e.first_seat) });
      break;
    case "deal_tickets":
      // Mega Europe: the regular tickets, dealt once the long one is chosen
      if (Array.isArray(e.tickets)) say(nt("You are dealt %(n)s more ticket: %(list)s.", "You are dealt %(n)s more tickets: %(list)s.", e.count), { n: e.count, list: tlist(e.tickets) });
      else say(nt("%(name)s is dealt %(n)s more ticket.", "%(name)s is dealt %(n)s more tickets.", e.count), { n: e.count });
      break;
    case "keep_tickets": {
      // the chooser sees the tickets; everyone else their counts
      const kept = Array.isArray(e.tickets) ? e.tickets.length : e.kept_count || 0;
      const returned = Array.isArray(e.returned) ? e.returned.length : e.returned_count || 0;
      say(nt("%(name)s keeps %(n)s ticket", "%(name)s keeps %(n)s tickets", kept), { n: kept });
      if (returned) say(nt("and returns %(n)s.", "and returns %(n)s.", returned), { n: returned });
      if (Array.isArray(e.tickets) && e.tickets.length) say("(" + tlist(e.tickets) + ")");
      break;
    }
    case "play_start":
      say(t("Everyone has chosen tickets. %(first)s starts."), { first: ctx.name(e.first_seat) });
      break;
    case "draw_card":
      if (e.source === "deck") {
        if (e.color) {
          say(t("%(name)s draws from the deck:"));
          chips([e.color]);
        } else say(t("%(name)s draws a card from the deck."));
      } else {
        say(t("%(name)s takes a face-up card:"));
        chips([e.color]);
        if (e.replacement) {
          say(t("replaced by"));
          chips([e.replacement]);
        }
      }
      break;
    case "reshuffle":
      say(t("The discards (%(n)s cards) are shuffled into a new deck."), { n: e.count });
      break;
    case "faceup_refresh":
      say(ctx.taxis ? t("Three face-up taxi cards: the face-up cards are replaced.") : t("Three face-up locomotives: the face-up cards are replaced."));
      if (e.faceup) chips(e.faceup.filter(Boolean));
      break;
    case "claim_route": {
      const pts = idx.routePoints(e.route);
      say(t("%(name)s claims %(route)s"), { route: idx.routeLabel(e.route) });
      if (pts !== null && pts !== undefined) say(nt("(+%(n)s point) with", "(+%(n)s points) with", pts), { n: pts });
      else say(t("with"));
      chips(e.cards);
      break;
    }
    case "tunnel_attempt":
      say(t("%(name)s tries the tunnel %(route)s with"), { route: idx.routeLabel(e.route) });
      chips(e.cards);
      say(t("— revealed:"));
      chips(e.revealed || []);
      if (e.extra) say(nt("%(n)s extra card due.", "%(n)s extra cards due.", e.extra), { n: e.extra });
      else say(t("No extra card due."));
      break;
    case "pay_tunnel":
      say(t("%(name)s pays"));
      chips(e.cards);
      say(t("and claims the tunnel %(route)s."), { route: idx.routeLabel(e.route) });
      break;
    case "decline_tunnel":
      say(t("%(name)s gives up the tunnel %(route)s."), { route: idx.routeLabel(e.route) });
      break;
    case "draw_tickets":
      say(nt("%(name)s draws %(n)s ticket.", "%(name)s draws %(n)s tickets.", e.count), { n: e.count });
      if (Array.isArray(e.tickets)) say("(" + tlist(e.tickets) + ")");
      break;
    case "build_station":
      say(t("%(name)s builds a station in %(city)s with"), { city: idx.cityName(e.city) });
      chips(e.cards);
      break;
    case "pass":
      say(t("%(name)s passes."));
      break;
    case "initial_depots":
      say(t("Each player places a first depot, %(first)s first."), { first: ctx.name((e.order || [])[0]) });
      break;
    case "place_depot":
      say(t("%(name)s places a depot in %(city)s."), { city: idx.cityName(e.city) });
      break;
    case "warehouse_card":
      say(t("%(name)s puts the deck's top card, unseen, into %(owner)s's warehouse."), { owner: ctx.name(e.warehouse) });
      break;
    case "take_warehouse":
      say(nt("%(name)s spends a depot and takes the %(n)s card from %(owner)s's warehouse", "%(name)s spends a depot and takes the %(n)s cards from %(owner)s's warehouse", e.count), { n: e.count, owner: ctx.name(e.warehouse) });
      if (e.cards) chips(e.cards);
      break;
    case "warehouse_reshuffle":
      say(t("The deck is empty: the warehouses (%(n)s cards) are shuffled into a new deck."), { n: e.count });
      break;
    case "last_round":
      if (ctx.taxis) say(nt("%(name)s has %(n)s taxi left: the last round begins!", "%(name)s has %(n)s taxis left: the last round begins!", e.trains_left), { n: e.trains_left });
      else say(nt("%(name)s has %(n)s train left: the last round begins!", "%(name)s has %(n)s trains left: the last round begins!", e.trains_left), { n: e.trains_left });
      break;
    case "game_end": {
      const ranks = e.ranks || [];
      const winners = ranks.map((r, s) => (r === 1 ? ctx.name(s) : null)).filter((x) => x !== null);
      say(t("Game over. Winner: %(winners)s."), { winners: winners.join(", ") });
      break;
    }
    default:
      say(t("%(name)s: %(event)s"), { event: e.type });
  }
  const node = h("span", { class: "log-text" });
  parts.forEach((p, i) => {
    if (i) node.appendChild(document.createTextNode(" "));
    node.appendChild(typeof p === "string" ? document.createTextNode(p) : p);
  });
  return { seat: e.seat, node, mine, important: MAJOR_EVENTS.includes(e.type) };
}

/** The log entry as an <li>: the seat token, then the text. */
export function logLine(e, ctx, players) {
  const d = describeLog(e, ctx);
  const li = h("li", { class: "log-line" + (d.important ? " log-line--major" : "") + (d.mine ? " log-line--mine" : ""), "data-seq": e.seq, "data-type": e.type });
  if (d.seat !== null && d.seat !== undefined) li.appendChild(seatToken(d.seat, players));
  else li.appendChild(h("span", { class: "seat-token seat-token--none", "aria-hidden": "true", text: "•" }));
  li.appendChild(d.node);
  return li;
}
