/**
 * The final scores table (table page and replay): rank, routes, tickets, stations, longest
 * path and total per seat; hovering a row shows that seat's longest path on the map.
 * @module final
 */
import { fmt, nt, t } from "./i18n.js";
import { h, icon, seatToken } from "./dom.js";
import { signed } from "./model.js";

/**
 * @param {HTMLTableElement} table
 * @param {{players: object[]}} final   the view's `final`
 * @param {import("./log.js").LogContext} ctx
 * @param {{color: string, symbol: string}[]} players
 * @param {(p: object|null, sticky?: boolean) => void} [onHover]
 */
export function renderFinalTable(table, final, ctx, players, onHover) {
  table.textContent = "";
  const head = h("thead", null, h("tr", null,
    h("th", { text: t("Rank") }), h("th", { text: t("Player") }), h("th", { class: "num", text: t("Routes") }),
    h("th", { text: t("Tickets") }), h("th", { class: "num", text: t("Stations") }),
    h("th", { class: "num", text: t("Longest path") }), h("th", { class: "num", text: t("Total") })));
  table.appendChild(head);
  const body = h("tbody");
  const rows = [...final.players].sort((a, b) => a.rank - b.rank || a.seat - b.seat);
  for (const p of rows) {
    const tickets = h("ul", { class: "final-tickets" });
    for (const tk of p.tickets || []) {
      tickets.appendChild(h("li", { class: tk.completed ? "done" : "failed", "data-ticket-id": tk.id },
        h("span", { class: "mark", "aria-hidden": "true", text: tk.completed ? "✓" : "✗" }),
        " " + ctx.idx.cityName(tk.a) + " – " + ctx.idx.cityName(tk.b) + " ",
        h("span", { class: "pts", text: (tk.completed ? "+" : "−") + tk.points }),
        h("span", { class: "visually-hidden", text: tk.completed ? t("completed") : t("failed") })));
    }
    const stationCell = h("td", { class: "num c-stations", "data-label": t("Stations") }, h("strong", { text: signed(p.station_bonus) }));
    if (p.station_routes && p.station_routes.length) {
      stationCell.appendChild(h("div", { class: "muted small-print", text: fmt(nt("%(n)s station built", "%(n)s stations built", p.station_routes.length), { n: p.station_routes.length }) }));
    }
    const lp = h("td", { class: "num c-longest", "data-label": t("Longest path") }, h("span", { text: fmt(nt("%(n)s car", "%(n)s cars", p.longest_path), { n: p.longest_path }) }));
    if (p.longest_path_bonus) lp.appendChild(h("div", { class: "bonus", text: "+" + p.longest_path_bonus + " " + t("bonus") }));
    const tr = h("tr", { "data-seat": p.seat, class: p.rank === 1 ? "winner" : "" },
      h("td", { class: "rank" }, p.rank === 1 ? icon("trophy") : null, " " + p.rank),
      h("td", { class: "who" }, seatToken(p.seat, players), " ", h("span", { text: ctx.name(p.seat) })),
      h("td", { class: "num c-routes", "data-label": t("Routes"), text: signed(p.route_points) }),
      h("td", { class: "c-tickets", "data-label": t("Tickets") }, h("strong", { text: signed(p.ticket_points) }), tickets),
      stationCell, lp,
      h("td", { class: "num total", "data-label": t("Total"), text: String(p.score) }));
    if (onHover) {
      tr.addEventListener("mouseenter", () => onHover(p));
      tr.addEventListener("mouseleave", () => onHover(null));
      tr.addEventListener("click", () => onHover(p, true));
    }
    body.appendChild(tr);
  }
  table.appendChild(body);
}
