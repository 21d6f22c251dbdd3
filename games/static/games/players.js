/**
 * The players strip at the top of the table page: per seat its token, name, score, trains,
 * stations, cards and tickets (Warehouses & Depots: depots beside the warehouse and the
 * warehouse's card count), whether it is online, and what the current seat is doing.
 * @module players
 */
import { renderPanelClocks } from "./clocks.js";
import { h, icon, seatToken } from "./dom.js";
import { fmt, t } from "./i18n.js";
import { markLastMove } from "./lastmove.js";

/** Fill #players from the latest view. @param {any} app the TableApp */
export function renderPlayers(app) {
  const list = document.getElementById("players");
  if (!list || !app.view) return;
  const v = app.view;
  const current = new Set(v.current_seats || []);
  list.textContent = "";
  list.classList.toggle("players--many", v.players.length >= 5);
  const seats = app.summary.seats || [];
  for (const p of v.players) {
    const s = seats.find((x) => x.position === p.seat) || {};
    const isCurrent = current.has(p.seat) && v.phase !== "over";
    const online = s.user_id ? app.online.has(s.user_id) : null;
    const li = h("li", {
      class: "player" + (isCurrent ? " is-current" : "") + (p.seat === app.seat ? " is-you" : ""),
      "data-seat": p.seat,
      style: { "--seat-color": s.color || "#888" },
      "aria-current": isCurrent ? "true" : null,
    },
      h("div", { class: "player-head" },
        seatToken(p.seat, app.players),
        h("span", { class: "player-name", text: s.name || app.name(p.seat), title: s.name || app.name(p.seat) }),
        p.seat === app.seat ? h("span", { class: "tag tag-you", text: t("you") }) : null,
        // a bot's name says so ("Ada (medium bot)", "Bob (bot playing)": seat_names.py)
        s.is_bot && !s.name ? h("span", { class: "tag", text: t("bot") }) : null,
        ratingTag(app.summary, s),
        online === null ? null : h("span", { class: "online-dot" + (online ? " is-online" : ""), title: online ? t("Online") : t("Offline") }),
        h("span", { class: "player-score", title: t("Score") }, String(p.score))),
      h("div", { class: "player-stats" },
        playerStats(p, { taxis: app.taxis, wh: app.wh }),
        isCurrent ? h("span", { class: "player-doing", text: doingLabel(app, p.seat) }) : null,
        h("span", { class: "player-clock", "data-clock-seat": p.seat }))
    );
    markLastMove(app, li, p.seat); // lastmove.js: the seat's last move, until it moves again
    list.appendChild(li);
  }
  renderPanelClocks(app);
}

/**
 * A seat's current rating on the ladder a rated table counts for (`seat.rating`, see
 * ladder/table_ratings.py); "?" marks a provisional one. Null at other tables.
 * @param {any} summary  the table summary
 * @param {any} seat     its seat
 */
export function ratingTag(summary, seat) {
  if (!summary.ladder || !seat.rating) return null;
  const label = fmt(t("Rating in %(league)s"), { league: summary.ladder.league.name });
  return h("span", { class: "player-rating", title: label },
    h("span", { class: "visually-hidden", text: label + ": " }), seat.rating.display);
}

/**
 * A seat's counters (table page and replay): trains or taxis, stations (not New York), cards,
 * tickets, and with Warehouses & Depots the depots beside its warehouse and the warehouse's
 * cards (`.stat--<name> .stat-value`).
 * @param {object} p  the seat in a view's `players`
 * @param {{taxis: boolean, wh: boolean}} opts
 */
export function playerStats(p, opts) {
  const stat = (cls, ic, value, label) =>
    h("span", { class: "stat stat--" + cls, title: label }, icon(ic), h("span", { class: "stat-value", text: String(value) }), h("span", { class: "visually-hidden", text: " " + label }));
  return [
    stat("trains", "train", p.trains_left, opts.taxis ? t("taxis left") : t("trains left")),
    opts.taxis ? null : stat("stations", "station", p.stations_left, t("stations left")),
    stat("cards", "cards", p.hand_count, t("cards in hand")),
    stat("tickets", "ticket", p.ticket_count, t("tickets")),
    opts.wh ? stat("depots", "depot", p.depots_left ?? 0, t("depots beside the warehouse")) : null,
    opts.wh ? stat("warehouse", "warehouse", p.warehouse_count ?? 0, t("cards in the warehouse")) : null,
  ];
}

export function doingLabel(app, seat) {
  const v = app.view;
  switch (v.phase) {
    case "depots":
      return t("placing a depot…");
    case "setup":
      return t("choosing tickets…");
    case "draw2":
      return t("drawing a second card…");
    case "tickets":
      return t("choosing tickets…");
    case "tunnel":
      return t("deciding on a tunnel…");
    default:
      return seat === app.seat ? t("your turn") : t("playing…");
  }
}
