/**
 * The final scores table (table page and replay): rank, player, one column per score part
 * of the table's rule set and the total; the parts always add up to the total. Hovering a
 * row shows that seat's longest path on the map.
 *
 * Columns: `td[data-part="<final_result key>"]` (its points in `.part-points`), then
 * `td.total`. Europe: route_points, ticket_points, station_bonus, longest_path_bonus
 * (+ depot_bonus with Warehouses & Depots); New York: route_points, ticket_points,
 * attraction_points.
 * @module final
 */
import { fmt, nt, t } from "./i18n.js";
import { h, icon, seatToken } from "./dom.js";
import { signed } from "./model.js";

/** Every score part a final result may hold (`score` is their sum), in column order. */
const PARTS = [
  { key: "route_points", cls: "c-routes", label: () => t("Routes") },
  { key: "ticket_points", cls: "c-tickets", label: () => t("Tickets") },
  { key: "station_bonus", cls: "c-stations", label: () => t("Stations") },
  { key: "longest_path_bonus", cls: "c-longest", label: () => t("Longest path") },
  { key: "attraction_points", cls: "c-attractions", label: () => t("Tourist attractions") },
  { key: "depot_bonus", cls: "c-depots", label: () => t("Depots") },
];

/** The parts each rule set scores (docs/rules.md §1-§3). */
const RULESET_PARTS = {
  europe: ["route_points", "ticket_points", "station_bonus", "longest_path_bonus"],
  new_york: ["route_points", "ticket_points", "attraction_points"],
};

/**
 * The score parts shown for a rule set: its own parts (+ depots with Warehouses & Depots),
 * plus any other part some player actually scored, so that the columns always add up.
 * @param {{players: object[]}} final
 * @param {string} [ruleset]
 * @param {object} [options]   the game's options (`warehouses`)
 * @returns {typeof PARTS}
 */
export function scoreParts(final, ruleset, options) {
  const own = RULESET_PARTS[ruleset];
  const keys = new Set(own || PARTS.map((p) => p.key).filter((k) => (final.players || []).some((p) => k in p)));
  if (options && options.warehouses) keys.add("depot_bonus");
  for (const part of PARTS) if ((final.players || []).some((p) => Number(p[part.key]) || 0)) keys.add(part.key);
  return PARTS.filter((p) => keys.has(p.key));
}

/** The cell of one score part: its points, with what earned them below. */
function partCell(part, p, ctx) {
  const td = h("td", { class: (part.key === "ticket_points" ? "" : "num ") + part.cls, "data-part": part.key, "data-label": part.label() },
    h("strong", { class: "part-points", text: signed(p[part.key] || 0) }));
  const note = (text) => td.appendChild(h("div", { class: "muted small-print", text }));
  switch (part.key) {
    case "ticket_points": {
      const tickets = h("ul", { class: "final-tickets" });
      for (const tk of p.tickets || []) {
        tickets.appendChild(h("li", { class: tk.completed ? "done" : "failed", "data-ticket-id": tk.id },
          h("span", { class: "mark", "aria-hidden": "true", text: tk.completed ? "✓" : "✗" }),
          " " + ctx.idx.cityName(tk.a) + " – " + ctx.idx.cityName(tk.b) + " ",
          h("span", { class: "pts", text: (tk.completed ? "+" : "−") + tk.points }),
          h("span", { class: "visually-hidden", text: tk.completed ? t("completed") : t("failed") })));
      }
      td.appendChild(tickets);
      break;
    }
    case "station_bonus":
      if (p.station_routes && p.station_routes.length) note(fmt(nt("%(n)s station built", "%(n)s stations built", p.station_routes.length), { n: p.station_routes.length }));
      break;
    case "longest_path_bonus":
      note(fmt(nt("%(n)s car", "%(n)s cars", p.longest_path || 0), { n: p.longest_path || 0 }));
      break;
    case "attraction_points": {
      const names = (p.attractions || []).map((c) => ctx.idx.cityName(c));
      if (names.length) td.appendChild(h("div", { class: "muted small-print final-attractions", text: names.join(", ") }));
      break;
    }
    case "depot_bonus":
      if (p.depots_left) note(fmt(nt("%(n)s depot left", "%(n)s depots left", p.depots_left), { n: p.depots_left }));
      break;
  }
  return td;
}

/**
 * A rated table's rating column: each player's change and new rating once the match is
 * recorded (`seat.rating_change`, ladder/table_ratings.py), else why there is none yet.
 * @param {object} p  the seat's final result
 * @param {{ladder: any, seats: any[]}} ctx
 */
function ratingCell(p, ctx) {
  const seat = (ctx.seats || []).find((s) => s.position === p.seat) || {};
  const c = seat.rating_change;
  const status = ctx.ladder.status;
  const td = h("td", { class: "num rating-change", "data-label": t("Rating"), "data-status": c ? "recorded" : status });
  if (c) {
    td.dataset.delta = String(c.delta);
    td.append(h("strong", { class: "rating-delta " + (c.delta < 0 ? "is-down" : "is-up"), text: signed(c.delta) }),
      h("div", { class: "muted small-print rating-after", text: fmt(t("now %(rating)s"), { rating: c.display }) }));
  } else if (!seat.rating) td.textContent = "—"; // a bot's seat is not rated
  else if (status === "annulled") td.textContent = t("annulled");
  else td.append(h("span", { class: "muted small-print", text: ctx.ladder.by_tournament ? t("when the tournament ends") : t("being recorded…") }));
  return td;
}

/**
 * @param {HTMLTableElement} table
 * @param {{players: object[]}} final   the view's `final`
 * @param {import("./log.js").LogContext & {ruleset?: string, options?: object, ladder?: any, seats?: any[]}} ctx
 *   (`ladder` and `seats`: a rated table's summary facts, for its rating column)
 * @param {{color: string, symbol: string}[]} players
 * @param {(p: object|null, sticky?: boolean) => void} [onHover]
 */
export function renderFinalTable(table, final, ctx, players, onHover) {
  table.textContent = "";
  const parts = scoreParts(final, ctx.ruleset, ctx.options);
  table.appendChild(h("thead", null, h("tr", null,
    h("th", { text: t("Rank") }), h("th", { text: t("Player") }),
    ...parts.map((part) => h("th", { class: part.key === "ticket_points" ? "" : "num", "data-part": part.key, text: part.label() })),
    h("th", { class: "num", text: t("Total") }),
    ctx.ladder ? h("th", { class: "num", text: t("Rating") }) : null)));
  const body = h("tbody");
  const rows = [...final.players].sort((a, b) => a.rank - b.rank || a.seat - b.seat);
  for (const p of rows) {
    const tr = h("tr", { "data-seat": p.seat, class: p.rank === 1 ? "winner" : "" },
      h("td", { class: "rank" }, p.rank === 1 ? icon("trophy") : null, " " + p.rank),
      h("td", { class: "who" }, seatToken(p.seat, players), " ", h("span", { text: ctx.name(p.seat) })),
      ...parts.map((part) => partCell(part, p, ctx)),
      h("td", { class: "num total", "data-label": t("Total"), text: String(p.score) }),
      ctx.ladder ? ratingCell(p, ctx) : null);
    if (onHover) {
      tr.addEventListener("mouseenter", () => onHover(p));
      tr.addEventListener("mouseleave", () => onHover(null));
      tr.addEventListener("click", () => onHover(p, true));
    }
    body.appendChild(tr);
  }
  table.appendChild(body);
}
