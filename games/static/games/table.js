/*
 * ttr table page: the live game in the browser (and shared helpers for the replay page).
 * Plain ES2020, no build step. Needs board.js (window.TTRBoard) loaded first.
 *
 * Server protocol: see games/consumers.py and games/broadcast.py. Every action sent is one
 * the server listed in the last `view` frame's `legal` list, with that frame's version.
 *
 * Test hooks: body[data-version] (latest version received), body[data-phase],
 * body[data-ws] ("open" | "closed"), #turn-banner, #players [data-seat], #hand [data-color],
 * #faceup [data-slot], #deck, #ticket-deck, #build-station, #ticket-dialog
 * ([data-ticket-id] checkboxes, #ticket-confirm), #payment-dialog ([data-payment-index]),
 * #tunnel-dialog (#tunnel-pay, #tunnel-decline), #log, #chat, #chat-input, #final-scores.
 */
(function (global) {
  "use strict";

  const t = typeof global.gettext === "function" ? (s) => global.gettext(s) : (s) => s;
  const nt =
    typeof global.ngettext === "function"
      ? (s, p, n) => global.ngettext(s, p, n)
      : (s, p, n) => (n === 1 ? s : p);
  function fmt(s, params) {
    if (typeof global.interpolate === "function") return global.interpolate(s, params, true);
    return s.replace(/%\((\w+)\)s/g, (m, k) => (params[k] === undefined ? m : String(params[k])));
  }

  // ------------------------------------------------------------------ cards & colours
  const COLOR_ORDER = ["pink", "white", "blue", "yellow", "orange", "black", "red", "green", "locomotive"];
  const FALLBACK_FILLS = {
    pink: "#f29bc4", white: "#f8f8f4", blue: "#2b6fd8", yellow: "#f6d21b", orange: "#f0861c",
    black: "#26262b", red: "#d8322b", green: "#2f9a48", gray: "#a9a9a6", locomotive: "#7b5aa6",
  };
  const FALLBACK_SYMBOLS = {
    pink: "P", white: "W", blue: "B", yellow: "Y", orange: "O", black: "K", red: "R", green: "G",
    gray: "", locomotive: "✦",
  };
  const B = () => global.TTRBoard || {};
  const fillOf = (c) => (B().COLOR_FILLS || FALLBACK_FILLS)[c] || "#999";
  const symbolOf = (c) => {
    const s = (B().COLOR_SYMBOLS || FALLBACK_SYMBOLS)[c];
    return s === undefined ? "" : s;
  };
  const textOf = (c) => {
    const tx = B().COLOR_TEXT;
    if (tx && tx[c]) return tx[c];
    return ["pink", "white", "yellow", "orange", "gray"].includes(c) ? "#1d1d1d" : "#fff";
  };
  const COLOR_LABELS = {
    pink: () => t("pink"), white: () => t("white"), blue: () => t("blue"), yellow: () => t("yellow"),
    orange: () => t("orange"), black: () => t("black"), red: () => t("red"), green: () => t("green"),
    gray: () => t("gray"), locomotive: () => t("locomotive"),
  };
  const colorLabel = (c) => (COLOR_LABELS[c] ? COLOR_LABELS[c]() : c);

  function h(tag, attrs, ...children) {
    const node = document.createElement(tag);
    if (attrs) {
      for (const k in attrs) {
        const v = attrs[k];
        if (v === null || v === undefined || v === false) continue;
        if (k === "class") node.className = v;
        else if (k === "text") node.textContent = v;
        else if (k === "style" && typeof v === "object") {
          for (const p in v) {
            if (p.startsWith("--")) node.style.setProperty(p, v[p]);
            else node.style[p] = v[p];
          }
        }
        else if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
        else if (k === "dataset") Object.assign(node.dataset, v);
        else node.setAttribute(k, v === true ? "" : v);
      }
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined || c === false) continue;
      node.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
    }
    return node;
  }

  // Small monochrome icons (no emoji: not every system has an emoji font).
  const ICONS = {
    train: '<path d="M4 3h8a2 2 0 0 1 2 2v6a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2zm0 2v3h8V5zm1 5.2a1 1 0 1 0 0 .01zm6 0a1 1 0 1 0 0 .01zM4 14h2l-1 1.5H3zm6 0h2l1 1.5h-2z"/>',
    station: '<path d="M8 1.5 14.5 7v7.5h-4.5v-4h-4v4H1.5V7z"/>',
    cards: '<path d="M3 2h7a1.5 1.5 0 0 1 1.5 1.5v10A1.5 1.5 0 0 1 10 15H3a1.5 1.5 0 0 1-1.5-1.5v-10A1.5 1.5 0 0 1 3 2zm10 2 1.2.4a1.5 1.5 0 0 1 1 1.9l-2.2 7.4V4z"/>',
    ticket: '<path d="M1.5 4h13v2.5a1.5 1.5 0 0 0 0 3V12h-13V9.5a1.5 1.5 0 0 0 0-3zM5 6v4h1V6zm3 0v1h4V6zm0 2v1h3V8z"/>',
    trophy: '<path d="M4 1.5h8V3h2.5v1.5A3.5 3.5 0 0 1 11.3 8 4 4 0 0 1 9 10v2h2.5v2.5h-7V12H7v-2a4 4 0 0 1-2.3-2A3.5 3.5 0 0 1 1.5 4.5V3H4zm0 3H3a2 2 0 0 0 1.2 1.8A6 6 0 0 1 4 4.5zm8 0a6 6 0 0 1-.2 1.8A2 2 0 0 0 13 4.5z"/>',
    clock: '<path d="M8 1.5a6.5 6.5 0 1 1 0 13 6.5 6.5 0 0 1 0-13zm0 1.6a4.9 4.9 0 1 0 0 9.8 4.9 4.9 0 0 0 0-9.8zM7.3 4.5h1.4v3.2l2.2 1.3-.7 1.2-2.9-1.7z"/>',
  };
  function icon(name, label) {
    const span = h("span", { class: "icon icon--" + name, "aria-hidden": label ? null : "true", title: label || null });
    span.innerHTML = '<svg viewBox="0 0 16 16" width="1em" height="1em" fill="currentColor">' + (ICONS[name] || "") + "</svg>";
    return span;
  }

  /** A small card chip: colour swatch with the colour-blind letter and an optional count. */
  function cardChip(color, count, extraClass) {
    const chip = h("span", {
      class: "card-chip" + (color === "locomotive" ? " card-chip--loco" : "") + (extraClass ? " " + extraClass : ""),
      "data-color": color,
      title: colorLabel(color),
      style: { "--card-fill": fillOf(color), "--card-text": textOf(color) },
    });
    chip.appendChild(h("span", { class: "card-chip__sym", "aria-hidden": "true", text: symbolOf(color) || "·" }));
    if (count !== undefined && count !== null) chip.appendChild(h("span", { class: "card-chip__count", text: "×" + count }));
    chip.appendChild(h("span", { class: "visually-hidden", text: " " + colorLabel(color) }));
    return chip;
  }

  function sortedCards(cards) {
    return Object.entries(cards || {})
      .filter(([, n]) => n > 0)
      .sort((a, b) => COLOR_ORDER.indexOf(a[0]) - COLOR_ORDER.indexOf(b[0]));
  }

  /** Chips for a card dict {colour: count} or a list of colours. */
  function cardsNode(cards) {
    const wrap = h("span", { class: "card-chips" });
    if (Array.isArray(cards)) {
      for (const c of cards) wrap.appendChild(cardChip(c));
    } else {
      for (const [c, n] of sortedCards(cards)) wrap.appendChild(cardChip(c, n));
    }
    return wrap;
  }

  function cardsText(cards) {
    const parts = sortedCards(cards).map(([c, n]) => n + " " + colorLabel(c));
    return parts.join(" + ");
  }

  // ------------------------------------------------------------------ board index
  function indexBoard(board) {
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

  /** Board state (claims, stations, closed twins) of a view. */
  function boardState(view, idx) {
    const claims = {};
    const stations = {};
    for (const p of view.players || []) {
      for (const r of p.routes || []) claims[r] = p.seat;
      for (const c of p.stations || []) stations[c] = p.seat;
    }
    const closed = [];
    if ((view.seats || (view.players || []).length) <= 3) {
      for (const ids of idx.groups.values()) {
        if (ids.some((id) => claims[id] !== undefined)) {
          for (const id of ids) if (claims[id] === undefined) closed.push(id);
        }
      }
    }
    return { claims, stations, closed };
  }

  // ------------------------------------------------------------------ log lines
  /**
   * One log entry as {seat, node}. ctx: {idx, name(seat) -> string, you (seat or null)}.
   * Hidden information never reaches the client, so everything present may be shown.
   */
  function describeLog(e, ctx) {
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
        say(t("Three face-up locomotives: the face-up cards are replaced."));
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
    return { seat: e.seat, node, mine, important: ["claim_route", "pay_tunnel", "last_round", "game_end", "build_station"].includes(e.type) };
  }

  /** A seat token: the seat colour with its symbol. */
  function seatToken(seat, players) {
    const p = players[seat] || { color: "#888", symbol: "?" };
    return h("span", { class: "seat-token", style: { "--seat-color": p.color }, "aria-hidden": "true", text: p.symbol });
  }

  function logLine(e, ctx, players) {
    const d = describeLog(e, ctx);
    const li = h("li", { class: "log-line" + (d.important ? " log-line--major" : "") + (d.mine ? " log-line--mine" : ""), "data-seq": e.seq, "data-type": e.type });
    if (d.seat !== null && d.seat !== undefined) li.appendChild(seatToken(d.seat, players));
    else li.appendChild(h("span", { class: "seat-token seat-token--none", "aria-hidden": "true", text: "•" }));
    li.appendChild(d.node);
    return li;
  }

  // ------------------------------------------------------------------ final scores table
  function renderFinalTable(table, final, ctx, players, onHover) {
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
  function signed(n) {
    n = n || 0;
    return n > 0 ? "+" + n : n < 0 ? "−" + Math.abs(n) : "0";
  }

  function boardPlayers(seats) {
    const out = [];
    for (const s of seats || []) out[s.position] = { name: s.name, color: s.color, symbol: s.symbol };
    for (let i = 0; i < out.length; i++) if (!out[i]) out[i] = { name: "?", color: "#888", symbol: "?" };
    return out;
  }

  function canonical(value) {
    if (Array.isArray(value)) return "[" + value.map(canonical).join(",") + "]";
    if (value && typeof value === "object")
      return "{" + Object.keys(value).sort().map((k) => JSON.stringify(k) + ":" + canonical(value[k])).join(",") + "}";
    return JSON.stringify(value);
  }

  function readJson(id) {
    const node = document.getElementById(id);
    return node ? JSON.parse(node.textContent) : null;
  }

  // ================================================================== the live table
  class TableApp {
    constructor(root) {
      this.root = root;
      this.summary = readJson("table-summary");
      this.board = readJson("board-data");
      this.idx = indexBoard(this.board);
      this.taxis = this.summary.ruleset === "new_york"; // New York: taxis, and no stations
      this.initialStatus = this.summary.status;
      this.initialSeatsKey = this.seatsKey(this.summary);
      this.tableId = root.dataset.tableId;
      this.userId = root.dataset.userId ? Number(root.dataset.userId) : null;
      this.online = new Set();
      this.view = null;
      this.version = -1;
      // the frame's seat is the truth; until one arrives, the summary's (signed-in users only)
      this.seat = root.dataset.authenticated === "1" ? this.summary.your_seat : null;
      if (this.seat === undefined) this.seat = null;
      this.log = [];
      this.legal = [];
      this.mode = null; // null | "station"
      this.busy = false;
      this.ticketDismissed = null; // key of the offer the player postponed
      this.tunnelDismissed = null;
      this.highlightSeat = null;
      this.retry = 0;
      this.closedForGood = false;
      this.game = document.getElementById("game");
      if (this.game) this.initGame();
      else this.initPregame();
      this.connect();
    }

    seatsKey(summary) {
      return JSON.stringify([summary.status, (summary.seats || []).map((s) => [s.position, s.name, s.user_id, s.bot_level, s.abandoned])]);
    }
    name(seat) {
      const s = (this.summary.seats || []).find((x) => x.position === seat);
      if (!s) return fmt(t("Seat %(n)s"), { n: seat + 1 });
      return s.name;
    }
    get players() {
      return boardPlayers(this.summary.seats);
    }

    // -------------------------------------------------------------- pre-game page
    initPregame() {
      const list = document.getElementById("seat-list");
      if (list && this.summary.status === "open") {
        for (let i = this.summary.seats.length; i < this.summary.seat_count; i++) {
          list.appendChild(h("li", { class: "seat-row seat-row--empty" },
            h("span", { class: "seat-token seat-token--empty", "aria-hidden": "true", text: "?" }),
            h("span", { class: "seat-name muted", text: t("Free seat") })));
        }
      }
      const copy = document.getElementById("invite-copy");
      if (copy) {
        copy.addEventListener("click", async () => {
          const input = document.getElementById("invite-link");
          input.select();
          try {
            await navigator.clipboard.writeText(input.value);
          } catch (e) {
            document.execCommand && document.execCommand("copy");
          }
          copy.textContent = copy.dataset.copied || t("Copied");
        });
      }
      const preview = document.getElementById("board-preview");
      if (preview && global.TTRBoard) {
        try {
          this.boardView = global.TTRBoard.create(preview, this.board, { players: this.players, t, legend: false, minWidth: 0 });
        } catch (e) {
          console.error(e);
        }
      }
    }
    renderPresence() {
      document.querySelectorAll(".online-dot[data-user-id]").forEach((dot) => {
        const id = Number(dot.dataset.userId);
        dot.classList.toggle("is-online", !!id && this.online.has(id));
      });
      if (this.view) this.renderPlayers();
    }

    // -------------------------------------------------------------- socket
    connect() {
      const scheme = location.protocol === "https:" ? "wss" : "ws";
      const ws = new WebSocket(`${scheme}://${location.host}${this.root.dataset.wsPath}`);
      this.ws = ws;
      ws.addEventListener("open", () => {
        this.retry = 0;
        document.body.dataset.ws = "open";
        this.setConnection(true);
        clearInterval(this.pingTimer);
        this.pingTimer = setInterval(() => this.sendFrame({ type: "ping" }), 25000);
      });
      ws.addEventListener("message", (ev) => {
        let frame;
        try {
          frame = JSON.parse(ev.data);
        } catch (e) {
          return;
        }
        try {
          this.onFrame(frame);
        } catch (e) {
          console.error("ttr: could not handle frame", frame && frame.type, e);
        }
      });
      ws.addEventListener("close", (ev) => {
        clearInterval(this.pingTimer);
        document.body.dataset.ws = "closed";
        if (this.ws !== ws) return;
        this.busy = false;
        // For good: the table is not (or no longer) the user's to see, or the user has too
        // many sockets open; retrying could not help (the server said why in an error frame).
        const final = {
          4403: () => t("You can no longer see this table."),
          4404: () => t("This table is not available to you."),
          4429: () => t("Too many open connections: close some of this site's tabs and reload."),
        }[ev.code];
        if (final) {
          this.closedForGood = true;
          if (ev.code === 4403) this.showGone(final());
          else this.setConnection(false, final());
          return;
        }
        this.setConnection(false);
        const delay = Math.min(15000, 1000 * Math.pow(2, this.retry++)) * (0.75 + Math.random() * 0.5);
        clearTimeout(this.reconnectTimer);
        this.reconnectTimer = setTimeout(() => this.connect(), delay);
      });
    }
    sendFrame(frame) {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
      this.ws.send(JSON.stringify(frame));
      return true;
    }
    setConnection(ok, message) {
      this.connected = ok;
      const banner = document.getElementById("turn-banner");
      if (!banner) return;
      let note = document.getElementById("connection-note");
      if (ok) {
        if (note) note.remove();
        return;
      }
      if (!note) {
        note = h("div", { id: "connection-note", class: "connection-note" });
        banner.parentNode.insertBefore(note, banner.nextSibling);
      }
      note.textContent = message || t("Connection lost. Reconnecting…");
    }

    onFrame(f) {
      switch (f.type) {
        case "table":
          return this.onTable(f);
        case "view":
          return this.onView(f);
        case "chat":
          return this.onChat(f);
        case "presence":
          this.online = new Set(f.online || []);
          return this.renderPresence();
        case "pong":
          // a push was lost (the server's message service restarted): fetch a full view
          if (typeof f.version === "number" && f.version > this.version) this.sendFrame({ type: "sync" });
          return;
        case "error":
          this.busy = false;
          if (f.code === "stale_version" && this.lastAction && this.lastAction.type === "keep_tickets") {
            this.staleAction = this.lastAction; // a sync frame follows; retried there
            this.lastAction = null;
            return;
          }
          this.showError(f.message || f.code);
          if (this.view) this.render();
          return;
        default:
          return;
      }
    }

    onTable(f) {
      const summary = Object.assign({}, f);
      delete summary.type;
      const wasOpen = this.initialStatus === "open";
      if (wasOpen && this.seatsKey(summary) !== this.initialSeatsKey) {
        // seats changed or the game started: the server renders the fresh page
        location.reload();
        return;
      }
      if (!wasOpen && this.initialStatus !== "cancelled" && summary.status === "open") {
        location.reload();
        return;
      }
      this.summary = summary;
      if (summary.ended_early) this.legal = []; // the organizer stopped the game: no more moves
      if (this.boardView && this.game) this.render();
    }

    onView(f) {
      if (!this.game) {
        location.reload();
        return;
      }
      if (f.version < this.version) return; // an old frame overtaken by a newer one
      if (f.log_start === 0) {
        this.log = f.log.slice();
        this.renderLog();
      } else if (f.version === this.version) {
        return; // the same move twice (a push racing a sync)
      } else if (f.log_start === this.log.length) {
        this.log.push(...f.log);
        this.appendLog(f.log);
      } else {
        // we missed a move: ask for a full frame
        this.sendFrame({ type: "sync" });
        return;
      }
      const changed = f.version !== this.version;
      if (!f.view.final) this.sawLive = true;
      this.version = f.version;
      this.seat = f.seat;
      this.view = f.view;
      this.legal = f.legal || [];
      if (f.clock) this.clock = f.clock;
      this.busy = false;
      if (changed) this.mode = this.mode === "station" && this.canBuild() ? this.mode : null;
      document.body.dataset.version = String(f.version);
      document.body.dataset.phase = f.view.phase;
      this.render();
      this.retryStale();
    }

    /** During the set-up every seat chooses at once, so a ticket choice can race another
     * seat's: resend it once if it is still listed in the fresh view. */
    retryStale() {
      const a = this.staleAction;
      this.staleAction = null;
      if (!a || this.view.phase !== "setup") return;
      const same = this.legal.find((x) => canonical(x) === canonical(a));
      if (same) this.act(same);
    }

    // -------------------------------------------------------------- actions
    act(action) {
      if (this.busy) return;
      if (!this.sendFrame({ type: "action", action, version: this.version })) {
        this.showError(t("Not connected. Reconnecting…"));
        return;
      }
      this.busy = true;
      this.lastAction = action;
      this.mode = null;
      this.closeDialog("payment-dialog");
      this.render();
    }

    index() {
      const out = { faceup: new Map(), deck: null, tickets: null, claims: new Map(), stations: new Map(), keep: [], pay: [], decline: null, pass: null };
      for (const a of this.legal) {
        switch (a.type) {
          case "draw_card":
            if (a.source === "deck") out.deck = a;
            else out.faceup.set(a.slot, a);
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
    canBuild() {
      return this.legal.some((a) => a.type === "build_station");
    }
    isMyDecision() {
      return this.seat !== null && this.seat !== undefined && this.legal.length > 0;
    }

    // -------------------------------------------------------------- game page
    initGame() {
      const host = document.getElementById("board");
      if (!global.TTRBoard) {
        host.appendChild(h("p", { class: "muted", text: t("The map could not be loaded.") }));
      } else {
        const narrow = global.matchMedia && global.matchMedia("(max-width: 720px)").matches;
        this.boardView = global.TTRBoard.create(host, this.board, {
          players: this.players,
          t,
          minWidth: narrow ? 640 : 0,
          onRouteClick: (id) => this.onRouteClick(id),
          onCityClick: (name) => this.onCityClick(name),
        });
      }
      document.getElementById("deck").addEventListener("click", () => {
        const a = this.index().deck;
        if (a) this.act(a);
      });
      document.getElementById("ticket-deck").addEventListener("click", () => {
        const a = this.index().tickets;
        if (a) this.act(a);
      });
      document.getElementById("build-station").addEventListener("click", () => {
        if (!this.canBuild()) return;
        this.mode = this.mode === "station" ? null : "station";
        this.render();
      });
      document.getElementById("faceup").addEventListener("click", (ev) => {
        const btn = ev.target.closest("[data-slot]");
        if (!btn || btn.disabled) return;
        const a = this.index().faceup.get(Number(btn.dataset.slot));
        if (a) this.act(a);
      });
      // dialogs
      document.getElementById("ticket-later").addEventListener("click", () => {
        this.ticketDismissed = this.offerKey();
        this.closeDialog("ticket-dialog");
        this.renderBanner();
      });
      document.getElementById("ticket-confirm").addEventListener("click", () => {
        const a = this.matchingKeep();
        if (a) {
          this.closeDialog("ticket-dialog");
          this.act(a);
        }
      });
      document.getElementById("ticket-choices").addEventListener("change", () => this.updateTicketConfirm());
      document.getElementById("payment-cancel").addEventListener("click", () => this.closeDialog("payment-dialog"));
      document.getElementById("payment-options").addEventListener("click", (ev) => {
        const btn = ev.target.closest("[data-payment-index]");
        if (!btn || !this.paymentChoices) return;
        const a = this.paymentChoices[Number(btn.dataset.paymentIndex)];
        if (a) this.act(a);
      });
      document.getElementById("tunnel-pay").addEventListener("click", () => {
        const pay = this.index().pay;
        const sel = document.querySelector("#tunnel-options input[name=tunnel-payment]:checked");
        const a = pay[sel ? Number(sel.value) : 0];
        if (a) {
          this.closeDialog("tunnel-dialog");
          this.act(a);
        }
      });
      document.getElementById("tunnel-decline").addEventListener("click", () => {
        const a = this.index().decline;
        if (a) {
          this.closeDialog("tunnel-dialog");
          this.act(a);
        }
      });
      for (const id of ["ticket-dialog", "tunnel-dialog", "payment-dialog"]) {
        const d = document.getElementById(id);
        d.addEventListener("cancel", (ev) => {
          if (id === "ticket-dialog") this.ticketDismissed = this.offerKey();
          if (id === "tunnel-dialog") this.tunnelDismissed = this.version;
          void ev;
          setTimeout(() => this.renderBanner(), 0);
        });
      }
      document.querySelector(".action-error-close").addEventListener("click", () => this.hideError());
      // chat
      document.getElementById("chat-form").addEventListener("submit", (ev) => {
        ev.preventDefault();
        const input = document.getElementById("chat-input");
        const text = input.value.trim();
        if (!text) return;
        if (this.sendFrame({ type: "chat", text })) input.value = "";
        else this.showError(t("Not connected. Reconnecting…"));
      });
      document.addEventListener("keydown", (ev) => {
        if (ev.key === "Escape" && this.mode) {
          this.mode = null;
          this.render();
        }
      });
      this.renderStatic();
    }

    renderStatic() {
      const spectator = this.seat === null || this.seat === undefined;
      document.getElementById("hand-panel").classList.toggle("hidden", spectator);
      document.getElementById("tickets-panel").classList.toggle("hidden", spectator);
      const over = !!(this.view && this.view.phase === "over");
      document.getElementById("spectator-note").classList.toggle("hidden", !spectator || over);
      document.querySelector(".game-side .market").classList.toggle("hidden", over);
      document.getElementById("build-station").classList.toggle("hidden", spectator);
    }

    onRouteClick(id) {
      if (this.busy) return;
      const options = this.index().claims.get(String(id)) || [];
      if (!options.length) return;
      const r = this.idx.routes.get(String(id));
      if (options.length === 1) return this.act(options[0]);
      const title = fmt(t("Claim %(route)s"), { route: this.idx.routeLabel(id) });
      const size = r ? r.length : 0;
      let hint = this.taxis ? fmt(nt("%(n)s taxi", "%(n)s taxis", size), { n: size }) : fmt(nt("%(n)s car", "%(n)s cars", size), { n: size });
      const pts = this.idx.routePoints(id);
      if (pts) hint += " · " + fmt(nt("%(n)s point", "%(n)s points", pts), { n: pts });
      if (r && r.tunnel) hint += " · " + t("tunnel: extra cards may be due");
      if (r && r.ferry_locomotives) hint += " · " + fmt(nt("ferry: %(n)s locomotive needed", "ferry: %(n)s locomotives needed", r.ferry_locomotives), { n: r.ferry_locomotives });
      this.openPayment(title, hint, options);
    }
    onCityClick(name) {
      if (this.busy || this.mode !== "station") return;
      const options = this.index().stations.get(name) || [];
      if (!options.length) return;
      if (options.length === 1) return this.act(options[0]);
      const used = 3 - ((this.view.players[this.seat] || {}).stations_left ?? 3);
      this.openPayment(
        fmt(t("Build a station in %(city)s"), { city: this.idx.cityName(name) }),
        fmt(nt("This station costs %(n)s card of one colour.", "This station costs %(n)s cards of one colour.", used + 1), { n: used + 1 }),
        options
      );
    }
    openPayment(title, hint, options) {
      const sorted = options
        .map((a, i) => ({ a, i, loco: (a.cards && a.cards.locomotive) || 0 }))
        .sort((x, y) => x.loco - y.loco || x.i - y.i)
        .map((x) => x.a);
      this.paymentChoices = sorted;
      document.getElementById("payment-dialog-title").textContent = title;
      document.getElementById("payment-dialog-hint").textContent = hint;
      const box = document.getElementById("payment-options");
      box.textContent = "";
      sorted.forEach((a, i) => {
        box.appendChild(h("button", { type: "button", class: "payment-option", "data-payment-index": i, "aria-label": fmt(t("Pay %(cards)s"), { cards: cardsText(a.cards) }) },
          cardsNode(a.cards), h("span", { class: "payment-text", text: cardsText(a.cards) })));
      });
      this.openDialog("payment-dialog");
      const first = box.querySelector("button");
      if (first) first.focus();
    }

    openDialog(id) {
      const d = document.getElementById(id);
      if (!d.open) {
        try {
          d.showModal();
        } catch (e) {
          d.setAttribute("open", "");
        }
      }
    }
    closeDialog(id) {
      const d = document.getElementById(id);
      if (d && d.open) d.close();
    }

    // -------------------------------------------------------------- rendering
    render() {
      if (!this.view) return;
      document.body.classList.toggle("is-busy", this.busy);
      this.renderStatic();
      this.renderPlayers();
      this.renderBanner();
      this.renderMarket();
      this.renderHand();
      this.renderTickets();
      this.renderBoard();
      this.renderDialogs();
      this.renderFinal();
    }

    renderPlayers() {
      const list = document.getElementById("players");
      if (!list || !this.view) return;
      const v = this.view;
      const current = new Set(v.current_seats || []);
      list.textContent = "";
      list.classList.toggle("players--many", v.players.length >= 5);
      const seats = this.summary.seats || [];
      for (const p of v.players) {
        const s = seats.find((x) => x.position === p.seat) || {};
        const isCurrent = current.has(p.seat) && v.phase !== "over";
        const online = s.user_id ? this.online.has(s.user_id) : null;
        const stat = (cls, ic, value, label) =>
          h("span", { class: "stat stat--" + cls, title: label }, icon(ic), h("span", { class: "stat-value", text: String(value) }), h("span", { class: "visually-hidden", text: " " + label }));
        const li = h("li", {
          class: "player" + (isCurrent ? " is-current" : "") + (p.seat === this.seat ? " is-you" : ""),
          "data-seat": p.seat,
          style: { "--seat-color": s.color || "#888" },
          "aria-current": isCurrent ? "true" : null,
        },
          h("div", { class: "player-head" },
            seatToken(p.seat, this.players),
            h("span", { class: "player-name", text: s.name || this.name(p.seat) }),
            p.seat === this.seat ? h("span", { class: "tag tag-you", text: t("you") }) : null,
            s.is_bot ? h("span", { class: "tag", text: t("bot") }) : null,
            online === null ? null : h("span", { class: "online-dot" + (online ? " is-online" : ""), title: online ? t("Online") : t("Offline") }),
            h("span", { class: "player-score", title: t("Score") }, String(p.score))),
          h("div", { class: "player-stats" },
            stat("trains", "train", p.trains_left, this.taxis ? t("taxis left") : t("trains left")),
            this.taxis ? null : stat("stations", "station", p.stations_left, t("stations left")),
            stat("cards", "cards", p.hand_count, t("cards in hand")),
            stat("tickets", "ticket", p.ticket_count, t("tickets")),
            isCurrent ? h("span", { class: "player-doing", text: this.doingLabel(p.seat) }) : null)
        );
        list.appendChild(li);
      }
    }
    doingLabel(seat) {
      const v = this.view;
      switch (v.phase) {
        case "setup":
          return t("choosing tickets…");
        case "draw2":
          return t("drawing a second card…");
        case "tickets":
          return t("choosing tickets…");
        case "tunnel":
          return t("deciding on a tunnel…");
        default:
          return seat === this.seat ? t("your turn") : t("playing…");
      }
    }

    offerKey() {
      const you = this.view && this.view.you;
      if (!you || !you.offered_tickets) return null;
      return this.view.phase + ":" + you.offered_tickets.map((x) => x.id).join(",");
    }

    renderBanner() {
      const banner = document.getElementById("turn-banner");
      const actions = document.getElementById("banner-actions");
      const v = this.view;
      if (!banner || !v) return;
      const ix = this.index();
      const mine = this.isMyDecision();
      actions.textContent = "";
      let text = "";
      let sub = "";
      let cls = "turn-banner";
      if (this.summary.ended_early) {
        text = t("The organizer ended this game early: places follow the scores at that moment.");
        cls += " is-over";
      } else if (v.phase === "over") {
        const winners = ((v.final && v.final.players) || []).filter((p) => p.rank === 1).map((p) => this.name(p.seat));
        text = winners.length > 1 ? fmt(t("Game over: %(names)s share the win!"), { names: winners.join(", ") }) : fmt(t("Game over: %(name)s wins!"), { name: winners[0] || "" });
        cls += " is-over";
      } else if (this.mode === "station") {
        text = t("Build a station: choose a highlighted city on the map.");
        cls += " is-yours";
        actions.appendChild(h("button", { type: "button", class: "small secondary", text: t("Cancel"), onclick: () => { this.mode = null; this.render(); } }));
      } else if (mine) {
        cls += " is-yours";
        if (v.phase === "setup" || v.phase === "tickets") {
          const min = Math.min(...ix.keep.map((a) => a.tickets.length));
          text = v.phase === "setup" ? fmt(t("Choose your starting tickets: keep at least %(n)s."), { n: min }) : fmt(nt("Choose your new tickets: keep at least %(n)s.", "Choose your new tickets: keep at least %(n)s.", min), { n: min });
          actions.appendChild(h("button", { type: "button", class: "small", text: t("Choose tickets"), onclick: () => { this.ticketDismissed = null; this.renderDialogs(); } }));
        } else if (v.phase === "draw2") {
          text = t("Draw your second card (a face-up locomotive is not allowed).");
        } else if (v.phase === "tunnel") {
          text = t("Tunnel: pay the extra cards or give up the route.");
          actions.appendChild(h("button", { type: "button", class: "small", text: t("Decide"), onclick: () => { this.tunnelDismissed = null; this.renderDialogs(); } }));
        } else if (ix.pass && this.legal.length === 1) {
          text = t("Your turn, but there is nothing you can do: pass.");
          actions.appendChild(h("button", { type: "button", class: "small", id: "pass-turn", text: t("Pass"), onclick: () => this.act(ix.pass) }));
        } else {
          text = t("Your turn: draw cards, claim a route, draw tickets or build a station");
          sub = ix.claims.size ? t("Routes you can claim now pulse on the map.") : t("No route is affordable yet: draw cards.");
        }
      } else if (v.phase === "setup") {
        const waiting = (v.current_seats || []).map((s) => this.name(s));
        text = this.seat !== null && this.seat !== undefined ? fmt(t("Tickets kept. Waiting for %(names)s…"), { names: waiting.join(", ") }) : fmt(t("Players are choosing their tickets: %(names)s…"), { names: waiting.join(", ") });
      } else {
        const cur = (v.current_seats || [])[0];
        text = fmt(t("Waiting for %(name)s…"), { name: this.name(cur) });
        if (v.pending && v.pending.type === "tunnel") {
          sub = fmt(nt("Tunnel %(route)s: %(n)s extra card due.", "Tunnel %(route)s: %(n)s extra cards due.", v.pending.extra), { route: this.idx.routeLabel(v.pending.route), n: v.pending.extra });
        } else if (v.phase === "draw2") sub = t("drawing a second card");
        else if (v.phase === "tickets") sub = t("choosing tickets");
      }
      banner.className = cls;
      banner.textContent = "";
      banner.appendChild(h("div", { class: "banner-row" }, h("div", { class: "banner-main", text }), h("span", { id: "turn-clock", class: "turn-clock", title: t("Time left for this move") })));
      this.tickClock();
      if (sub) banner.appendChild(h("div", { class: "banner-sub", text: sub }));
      if (v.last_round && v.last_round.active && v.phase !== "over") {
        const by = v.last_round.triggered_by;
        banner.appendChild(h("div", { class: "banner-last", text: fmt(this.taxis ? t("Last round! %(name)s is almost out of taxis: everyone gets one final turn.") : t("Last round! %(name)s is almost out of trains: everyone gets one final turn."), { name: by === null || by === undefined ? "" : this.name(by) }) }));
      }
      if (this.busy) banner.appendChild(h("div", { class: "banner-sub", text: t("Sending…") }));
      const yours = cls.includes("is-yours");
      document.title = (yours ? "● " : "") + document.title.replace(/^● /, "");
    }

    /** The countdown of the current decision (from the frame's `clock`, if the server sends one). */
    tickClock() {
      const el = document.getElementById("turn-clock");
      if (!el) return;
      const c = this.clock;
      if (!this.clockTimer) this.clockTimer = setInterval(() => this.tickClock(), 1000);
      const over = !this.view || this.view.phase === "over" || this.summary.ended_early;
      const deadline = c && !over ? this.shownDeadline() : null;
      if (deadline === null) {
        el.textContent = "";
        return;
      }
      const left = Math.max(0, (deadline - Date.now()) / 1000);
      if (isNaN(left)) {
        el.textContent = "";
        return;
      }
      let text;
      if (left >= 86400) text = fmt(t("%(d)s d %(h)s h"), { d: Math.floor(left / 86400), h: Math.floor((left % 86400) / 3600) });
      else if (left >= 3600) text = fmt(t("%(h)s h %(m)s min"), { h: Math.floor(left / 3600), m: Math.floor((left % 3600) / 60) });
      else text = Math.floor(left / 60) + ":" + String(Math.floor(left % 60)).padStart(2, "0");
      el.textContent = "";
      el.append(icon("clock"), " " + text);
      el.classList.toggle("is-low", left < 15 && this.isMyDecision());
    }

    /** When a seat's time runs out (ms), from the clock facts; null for bots or without a clock. */
    seatDeadline(seat) {
      const c = this.clock;
      const s = (this.summary.seats || []).find((x) => x.position === seat);
      if (!c || (s && s.is_bot)) return null;
      const start = Date.parse(c.turn_started_at || "");
      if (isNaN(start)) return c.deadline ? Date.parse(c.deadline) : null;
      if (c.time_control === "realtime") {
        const bank = Math.max(0, Number((c.banks || {})[String(seat)]) || 0);
        return start + (Number(c.move_seconds || 0) + bank) * 1000;
      }
      return start + Number(c.turn_hours || 0) * 3600 * 1000;
    }
    /** The deadline shown in the banner: yours when you decide, else the earliest human's. */
    shownDeadline() {
      if (this.isMyDecision()) return this.seatDeadline(this.seat);
      const ds = (this.view.current_seats || []).map((s) => this.seatDeadline(s)).filter((d) => d !== null && !isNaN(d));
      return ds.length ? Math.min(...ds) : null;
    }

    renderMarket() {
      const v = this.view;
      const ix = this.index();
      const box = document.getElementById("faceup");
      box.textContent = "";
      const mine = this.isMyDecision();
      (v.faceup || []).forEach((color, slot) => {
        const a = ix.faceup.get(slot);
        let why = "";
        if (!a) {
          if (!color) why = t("No card here");
          else if (!mine) why = t("Wait for your turn");
          else if (v.phase === "draw2" && color === "locomotive") why = t("A face-up locomotive cannot be your second card");
          else why = t("You cannot draw now");
        }
        const btn = h("button", {
          type: "button",
          class: "faceup-card" + (color === "locomotive" ? " card--loco" : "") + (color ? "" : " faceup-card--empty"),
          "data-slot": slot,
          "data-color": color || "",
          disabled: !a || this.busy,
          title: a ? fmt(t("Take the %(color)s card"), { color: colorLabel(color) }) : why,
          style: color ? { "--card-fill": fillOf(color), "--card-text": textOf(color) } : null,
        },
          h("span", { class: "card-sym", "aria-hidden": "true", text: color ? symbolOf(color) || "" : "" }),
          h("span", { class: "visually-hidden", text: color ? colorLabel(color) : t("empty") }));
        box.appendChild(btn);
      });
      const deck = document.getElementById("deck");
      deck.disabled = !ix.deck || this.busy;
      deck.querySelector("[data-count]").textContent = v.deck_count;
      deck.title = ix.deck ? t("Draw the top card of the deck") : v.deck_count ? (mine ? t("You cannot draw now") : t("Wait for your turn")) : t("The deck is empty");
      const tk = document.getElementById("ticket-deck");
      tk.disabled = !ix.tickets || this.busy;
      tk.querySelector("[data-count]").textContent = v.ticket_deck_count;
      tk.title = ix.tickets ? t("Draw destination tickets") : v.ticket_deck_count ? (mine ? t("You cannot draw tickets now") : t("Wait for your turn")) : t("No tickets left");
      const st = document.getElementById("build-station");
      const me = this.seat !== null && this.seat !== undefined ? v.players[this.seat] : null;
      st.disabled = !this.canBuild() || this.busy;
      st.classList.toggle("is-active", this.mode === "station");
      st.textContent = this.mode === "station" ? t("Cancel station") : me ? fmt(t("Build station (%(n)s left)"), { n: me.stations_left }) : t("Build station");
      st.title = this.canBuild()
        ? t("Pick a city on the map to build a station")
        : !me ? t("Spectators cannot build") : me.stations_left <= 0 ? t("You have no stations left") : v.phase !== "turn" || !mine ? t("Only at the start of your turn") : t("You cannot pay for a station now");
      document.getElementById("discard-info").textContent = fmt(t("Discards: %(n)s"), { n: v.discard_count });
    }

    renderHand() {
      const you = this.view.you;
      const box = document.getElementById("hand");
      if (!you) {
        box.textContent = "";
        return;
      }
      box.textContent = "";
      let total = 0;
      for (const color of COLOR_ORDER) {
        const n = (you.hand && you.hand[color]) || 0;
        total += n;
        box.appendChild(h("div", {
          class: "hand-card" + (color === "locomotive" ? " card--loco" : "") + (n ? "" : " is-empty"),
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

    renderTickets() {
      const you = this.view.you;
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
        list.appendChild(this.ticketItem(tk));
      }
      if (!tickets.length) list.appendChild(h("li", { class: "muted empty", text: t("No tickets yet.") }));
      document.getElementById("tickets-summary").textContent = tickets.length ? fmt(t("%(done)s of %(n)s done · %(pts)s"), { done, n: tickets.length, pts: signed(pts) }) : "";
    }
    ticketItem(tk) {
      const li = h("li", { class: "ticket" + (tk.completed ? " is-done" : ""), "data-ticket-id": tk.id, title: tk.completed ? t("Completed") : t("Not connected yet") },
        h("span", { class: "ticket-mark", "aria-hidden": "true", text: tk.completed ? "✓" : "○" }),
        h("span", { class: "ticket-cities", text: this.idx.cityName(tk.a) + " – " + this.idx.cityName(tk.b) }),
        h("span", { class: "ticket-points", text: String(tk.points) }),
        h("span", { class: "visually-hidden", text: tk.completed ? t("completed") : "" }));
      li.addEventListener("mouseenter", () => this.focusCities([tk.a, tk.b]));
      li.addEventListener("mouseleave", () => this.focusCities([]));
      return li;
    }
    focusCities(names) {
      if (!this.boardView) return;
      document.querySelectorAll(".city--focus").forEach((n) => n.classList.remove("city--focus"));
      for (const n of names) {
        const el = this.boardView.cityElement && this.boardView.cityElement(n);
        if (el) el.classList.add("city--focus");
      }
    }

    renderBoard() {
      if (!this.boardView) return;
      const v = this.view;
      const st = boardState(v, this.idx);
      const ix = this.index();
      let highlight = [];
      if (v.final) {
        const fp = v.final.players || [];
        if (this.highlightSeat !== null && this.highlightSeat !== undefined) {
          const p = fp.find((x) => x.seat === this.highlightSeat);
          highlight = p ? p.longest_path_routes || [] : [];
        } else {
          for (const p of fp) if (p.longest_path_bonus > 0) highlight.push(...(p.longest_path_routes || []));
        }
      } else if (v.pending && v.pending.type === "tunnel") {
        highlight = [v.pending.route];
      }
      const busy = this.busy;
      this.boardView.update({
        claims: st.claims,
        stations: st.stations,
        closed: st.closed,
        highlight,
        selectableRoutes: !busy && this.mode === null ? [...ix.claims.keys()].map(Number) : [],
        selectableCities: !busy && this.mode === "station" ? [...ix.stations.keys()] : [],
      });
    }

    // -------------------------------------------------------------- dialogs
    renderDialogs() {
      const ix = this.index();
      const you = this.view.you;
      // tickets
      const td = document.getElementById("ticket-dialog");
      if (ix.keep.length && you && you.offered_tickets && !this.busy) {
        const key = this.offerKey();
        if (td.dataset.key !== key) this.fillTicketDialog(key, you.offered_tickets, ix.keep);
        if (this.ticketDismissed !== key) this.openDialog("ticket-dialog");
      } else {
        this.closeDialog("ticket-dialog");
        td.dataset.key = "";
      }
      // tunnel
      if ((ix.pay.length || ix.decline) && this.view.pending && this.view.pending.type === "tunnel" && !this.busy) {
        this.fillTunnelDialog(this.view.pending, ix);
        if (this.tunnelDismissed !== this.version) this.openDialog("tunnel-dialog");
      } else {
        this.closeDialog("tunnel-dialog");
      }
      if (!ix.claims.size && !ix.stations.size) this.closeDialog("payment-dialog");
    }

    fillTicketDialog(key, offered, keeps) {
      const td = document.getElementById("ticket-dialog");
      td.dataset.key = key;
      const subsets = keeps.map((a) => [...a.tickets].map(String).sort().join("|"));
      this.keepSubsets = new Map(subsets.map((k, i) => [k, keeps[i]]));
      const min = Math.min(...keeps.map((a) => a.tickets.length));
      const max = Math.max(...keeps.map((a) => a.tickets.length));
      document.getElementById("ticket-dialog-title").textContent = this.view.phase === "setup" ? t("Choose your starting tickets") : t("Choose your new tickets");
      document.getElementById("ticket-dialog-hint").textContent =
        min === max ? fmt(nt("Keep %(n)s ticket.", "Keep %(n)s tickets.", min), { n: min }) : fmt(t("Keep at least %(min)s of these %(n)s tickets. Unfinished tickets count against you at the end."), { min, n: offered.length });
      const list = document.getElementById("ticket-choices");
      list.textContent = "";
      const sorted = [...offered].sort((a, b) => b.points - a.points);
      for (const tk of sorted) {
        const id = "ticket-choice-" + tk.id;
        const cb = h("input", { type: "checkbox", id, "data-ticket-id": tk.id, value: tk.id });
        cb.checked = true;
        const long = tk.points >= 20;
        const li = h("li", { class: "ticket-choice" + (long ? " is-long" : "") },
          cb,
          h("label", { for: id },
            h("span", { class: "ticket-cities", text: this.idx.cityName(tk.a) + " – " + this.idx.cityName(tk.b) }),
            tk.completed ? h("span", { class: "tag tag-ok", text: t("already connected") }) : null,
            long ? h("span", { class: "tag", text: t("long route") }) : null,
            h("span", { class: "ticket-points", text: String(tk.points) })));
        li.addEventListener("mouseenter", () => this.focusCities([tk.a, tk.b]));
        li.addEventListener("mouseleave", () => this.focusCities([]));
        list.appendChild(li);
      }
      this.updateTicketConfirm();
    }
    checkedTickets() {
      return [...document.querySelectorAll("#ticket-choices input[data-ticket-id]:checked")].map((x) => x.dataset.ticketId);
    }
    matchingKeep() {
      if (!this.keepSubsets) return null;
      return this.keepSubsets.get(this.checkedTickets().map(String).sort().join("|")) || null;
    }
    updateTicketConfirm() {
      const btn = document.getElementById("ticket-confirm");
      const a = this.matchingKeep();
      const n = this.checkedTickets().length;
      btn.disabled = !a || this.busy;
      btn.textContent = fmt(nt("Keep %(n)s ticket", "Keep %(n)s tickets", n), { n });
      const keeps = [...(this.keepSubsets || new Map()).values()];
      const min = keeps.length ? Math.min(...keeps.map((x) => x.tickets.length)) : 0;
      document.getElementById("ticket-dialog-note").textContent = a ? "" : fmt(nt("Keep at least %(n)s ticket.", "Keep at least %(n)s tickets.", min), { n: min });
    }

    fillTunnelDialog(p, ix) {
      const key = this.version;
      const dlg = document.getElementById("tunnel-dialog");
      if (dlg.dataset.key === String(key)) return;
      dlg.dataset.key = String(key);
      document.getElementById("tunnel-dialog-title").textContent = fmt(t("Tunnel %(route)s"), { route: this.idx.routeLabel(p.route) });
      const text = document.getElementById("tunnel-dialog-text");
      text.textContent = "";
      text.append(h("div", null, t("You played"), " ", cardsNode(p.played)), h("div", { text: t("The three cards turned over from the deck:") }));
      const rev = document.getElementById("tunnel-revealed");
      rev.textContent = "";
      for (const c of p.revealed || []) {
        const matches = c === "locomotive" || c === p.color;
        rev.appendChild(h("span", { class: "revealed-card" + (matches ? " is-match" : "") + (c === "locomotive" ? " card--loco" : ""), "data-color": c, style: { "--card-fill": fillOf(c), "--card-text": textOf(c) }, title: colorLabel(c) },
          h("span", { class: "card-sym", text: symbolOf(c) || "·" }), h("span", { class: "visually-hidden", text: colorLabel(c) })));
      }
      rev.appendChild(h("p", { class: "tunnel-extra", text: fmt(nt("%(n)s more card is due (matching cards are outlined).", "%(n)s more cards are due (matching cards are outlined).", p.extra), { n: p.extra }) }));
      const opts = document.getElementById("tunnel-options");
      opts.textContent = "";
      const pay = ix.pay;
      const payBtn = document.getElementById("tunnel-pay");
      if (pay.length > 1) {
        pay.forEach((a, i) => {
          const id = "tunnel-payment-" + i;
          const r = h("input", { type: "radio", name: "tunnel-payment", id, value: i, "data-payment-index": i });
          if (i === 0) r.checked = true;
          opts.appendChild(h("div", { class: "radio-option" }, r, h("label", { for: id }, cardsNode(a.cards), " ", cardsText(a.cards))));
        });
        payBtn.textContent = t("Pay and claim");
      } else if (pay.length === 1) {
        payBtn.textContent = "";
        payBtn.append(t("Pay"), " ", cardsNode(pay[0].cards));
      }
      payBtn.disabled = !pay.length;
      document.getElementById("tunnel-note").textContent = pay.length ? "" : t("You do not have the cards to pay: the route stays free and your cards come back to your hand.");
      document.getElementById("tunnel-decline").disabled = !ix.decline;
    }

    // -------------------------------------------------------------- final
    renderFinal() {
      const sec = document.getElementById("final-section");
      const v = this.view;
      if (!v.final) {
        sec.classList.add("hidden");
        return;
      }
      sec.classList.remove("hidden");
      const key = this.version;
      if (sec.dataset.key === String(key)) return;
      sec.dataset.key = String(key);
      document.getElementById("final-reason").textContent =
        v.final.reason === "all_passed" ? t("The game ended because no player could do anything.") : t("The game ended after the last round.");
      renderFinalTable(document.getElementById("final-scores"), v.final, { idx: this.idx, name: (s) => this.name(s) }, this.players, (p, sticky) => {
        if (sticky) this.stickySeat = this.stickySeat === p.seat ? null : p.seat;
        this.highlightSeat = p ? p.seat : this.stickySeat ?? null;
        this.renderBoard();
      });
      if (!this.finalShown) {
        this.finalShown = true;
        if (this.sawLive) sec.scrollIntoView({ behavior: "smooth", block: "start" });
      }
    }

    // -------------------------------------------------------------- log and chat
    logCtx() {
      return { idx: this.idx, name: (s) => this.name(s), you: this.seat, taxis: this.taxis };
    }
    renderLog() {
      const box = document.getElementById("log");
      if (!box) return;
      box.textContent = "";
      this.appendLog(this.log, true);
    }
    appendLog(entries, force) {
      const box = document.getElementById("log");
      if (!box) return;
      const nearBottom = force || box.scrollHeight - box.scrollTop - box.clientHeight < 60;
      const ctx = this.logCtx();
      const players = this.players;
      const frag = document.createDocumentFragment();
      for (const e of entries) {
        try {
          frag.appendChild(logLine(e, ctx, players));
        } catch (err) {
          console.error("ttr: log entry", e, err);
        }
      }
      box.appendChild(frag);
      if (nearBottom) box.scrollTop = box.scrollHeight;
    }
    onChat(f) {
      const box = document.getElementById("chat");
      if (!box) return;
      const at = f.at ? new Date(f.at) : new Date();
      const time = isNaN(at) ? "" : at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
      const seat = (this.summary.seats || []).find((s) => s.user_id === f.user);
      const li = h("li", { class: "chat-line" + (f.user === this.userId ? " is-mine" : "") },
        seat ? seatToken(seat.position, this.players) : null,
        h("strong", { class: "chat-user", text: f.username || "?" }),
        h("span", { class: "chat-text", text: f.text }),
        h("time", { class: "chat-time muted", datetime: f.at || "", text: time }));
      const nearBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 60;
      box.appendChild(li);
      if (nearBottom || f.user === this.userId) box.scrollTop = box.scrollHeight;
    }

    /** The user may no longer see this table: take down everything it showed. */
    showGone(message) {
      const main = document.querySelector("main") || document.body;
      main.className = "container";
      const back = h("a", { class: "button", href: "/play/", text: t("Back to the lobby") });
      main.replaceChildren(h("section", { class: "card gone", id: "table-gone" }, [
        h("h1", { text: message }),
        back,
      ]));
    }
    showError(message) {
      const box = document.getElementById("action-error");
      if (!box) {
        const toasts = document.getElementById("toasts");
        if (toasts) {
          const toast = h("div", { class: "toast", role: "alert", text: message });
          toasts.appendChild(toast);
          setTimeout(() => toast.remove(), 6000);
        }
        return;
      }
      box.querySelector(".action-error-text").textContent = message;
      box.classList.remove("hidden");
      clearTimeout(this.errorTimer);
      this.errorTimer = setTimeout(() => this.hideError(), 8000);
    }
    hideError() {
      const box = document.getElementById("action-error");
      if (box) box.classList.add("hidden");
    }
  }

  global.TTRTable = Object.freeze({
    t, nt, fmt, h, icon, COLOR_ORDER, colorLabel, fillOf, symbolOf, textOf, cardChip, cardsNode, cardsText,
    indexBoard, boardState, describeLog, logLine, seatToken, renderFinalTable, boardPlayers, readJson, signed,
  });

  function start() {
    const root = document.getElementById("table-app");
    if (root && !root.dataset.started) {
      root.dataset.started = "1";
      global.ttrTable = new TableApp(root);
    }
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})(window);
