/**
 * ttr table page: the live game in the browser. The entry module of templates/games/table.html;
 * the pieces live beside it (board, hand, market, players, banner, dialogs, log, clocks,
 * cards, model) and the socket in js/socket.js, shared with every page.
 *
 * Server protocol: see games/consumers.py and games/broadcast.py. Every action sent is one
 * the server listed in the last `view` frame's `legal` list, with that frame's version.
 *
 * Test hooks: body[data-version] (latest version received), body[data-phase],
 * body[data-ws] ("open" | "closed"), #turn-banner, #players [data-seat], #hand [data-color],
 * #faceup [data-slot], #deck, #ticket-deck, #build-station, #place-depot, #ticket-dialog
 * ([data-ticket-id] checkboxes, #ticket-confirm), #payment-dialog ([data-payment-index],
 * [data-cards]; Warehouses & Depots: #payment-warehouses [data-warehouse] checkboxes),
 * #warehouse-dialog ([data-warehouse] buttons), #tunnel-dialog (#tunnel-pay,
 * #tunnel-decline), #log, #chat, #chat-input, #final-scores.
 *
 * The page sends only what the player chose: a claim or a station always opens the payment
 * dialog (cards are spent only from there), a draw with Warehouses & Depots first asks whose
 * warehouse gets the deck's top card, and a claim that could empty warehouses lists them in
 * the payment dialog to tick (none ticked: none taken).
 */
import { connectSocket } from "../js/socket.js";
import { renderBanner } from "./banner.js";
import { createBoard } from "./board.js";
import { bindDialogs, closeDialog, openPayment, openWarehouse, renderDialogs } from "./dialogs.js";
import { h, readJson, seatToken } from "./dom.js";
import { renderFinalTable } from "./final.js";
import { renderHand, renderTickets } from "./hand.js";
import { colorLabel, useTaxis } from "./cards.js";
import { fmt, nt, t } from "./i18n.js";
import { logLine } from "./log.js";
import { boardMarks, turnsOf } from "./lastmove.js";
import { renderMarket } from "./market.js";
import { boardPlayers, boardState, canonical, indexBoard, legalIndex } from "./model.js";
import { renderPlayers } from "./players.js";
import { bindSeatActions, renderSeatActions, seatsHandedOver } from "./seat.js";
import { createTurnSignals } from "./signals.js";

/** The live table: its state (latest view, legal actions, version, log) and the socket. */
export class TableApp {
  constructor(root) {
    this.root = root;
    this.summary = readJson("table-summary");
    this.board = readJson("board-data");
    this.idx = indexBoard(this.board);
    this.taxis = this.summary.ruleset === "new_york"; // New York: taxis, and no stations
    this.wh = !!(this.summary.options && this.summary.options.warehouses); // Warehouses & Depots
    useTaxis(this.taxis);
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
    this.mode = null; // null | "station" | "depot" (a free depot, Warehouses & Depots)
    this.busy = false;
    this.ticketDismissed = null; // key of the offer the player postponed
    this.tunnelDismissed = null;
    this.highlightSeat = null;
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
    if (preview) {
      try {
        this.boardView = createBoard(preview, this.board, { players: this.players, t, legend: false, stations: !this.taxis, minWidth: 0 });
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
    if (this.view) renderPlayers(this);
  }

  // -------------------------------------------------------------- socket
  connect() {
    this.socket = connectSocket(this.root.dataset.wsPath, {
      pingMs: 25000,
      onOpen: () => {
        document.body.dataset.ws = "open";
        this.setConnection(true);
      },
      onFrame: (frame) => this.onFrame(frame),
      onClose: (ev, final) => this.onClose(ev, final),
    });
  }

  onClose(ev, final) {
    document.body.dataset.ws = "closed";
    this.busy = false;
    if (!final) {
      this.setConnection(false);
      return;
    }
    // For good: the table is not (or no longer) the user's to see, or the user has too
    // many sockets open; retrying could not help (the server said why in an error frame).
    const message = {
      4403: () => t("You can no longer see this table."),
      4404: () => t("This table is not available to you."),
      4429: () => t("Too many open connections: close some of this site's tabs and reload."),
    }[ev.code];
    this.closedForGood = true;
    if (ev.code === 4403) this.showGone(message());
    else this.setConnection(false, message ? message() : undefined);
  }

  sendFrame(frame) {
    return !!this.socket && this.socket.send(frame);
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
      case "clock":
        // an outage's time given back (games/services/clock_outages.py): the same version, a new clock
        if (f.version === this.version && f.clock) {
          this.clock = f.clock;
          if (this.view) this.render();
        }
        return;
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
    if (this.view && seatsHandedOver(this.summary, summary)) this.sendFrame({ type: "sync" }); // seat.js
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
    // Turn signals (signals.js): a tone, a notification and a flashing title when a decision starts.
    (this.signals ||= createTurnSignals()).update({ mine: this.isMyDecision(), seated: this.seat !== null && this.seat !== undefined, view: f.view });
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
    closeDialog("payment-dialog");
    closeDialog("warehouse-dialog");
    this.render();
  }

  index() {
    return legalIndex(this.legal);
  }

  canBuild() {
    return this.legal.some((a) => a.type === "build_station");
  }

  canPlaceDepot() {
    return this.legal.some((a) => a.type === "place_depot");
  }

  /** Where a city click places a depot: the set-up's first depot, or a free one (its mode). */
  placingDepot() {
    return !!this.view && (this.mode === "depot" || (this.view.phase === "depots" && this.canPlaceDepot()));
  }

  /**
   * Draw a card: `options` are the legal draws of the deck or of one face-up slot. With
   * Warehouses & Depots there is one per warehouse the deck's top card can go to: the
   * player picks it in the warehouse dialog, and nothing is sent before.
   */
  draw(options, what) {
    if (this.busy || !options || !options.length) return;
    if (options.length === 1 && options[0].warehouse === undefined) return this.act(options[0]);
    openWarehouse(this, options, what);
  }

  isMyDecision() {
    return this.seat !== null && this.seat !== undefined && this.legal.length > 0;
  }

  // -------------------------------------------------------------- game page
  initGame() {
    const host = document.getElementById("board");
    try {
      const narrow = window.matchMedia && window.matchMedia("(max-width: 720px)").matches;
      this.boardView = createBoard(host, this.board, {
        players: this.players,
        t,
        stations: !this.taxis,
        minWidth: narrow ? 640 : 0,
        depots: this.wh,
        fit: true, // the whole map in the window (viewport.js)
        zoom: true, // + / − where the map pans in a box (phones)
        onRouteClick: (id) => this.onRouteClick(id),
        onCityClick: (name) => this.onCityClick(name),
      });
    } catch (e) {
      console.error(e);
      host.appendChild(h("p", { class: "muted", text: t("The map could not be loaded.") }));
    }
    document.getElementById("deck").addEventListener("click", () => {
      this.draw(this.index().deck, t("the top card of the deck"));
    });
    document.getElementById("ticket-deck").addEventListener("click", () => {
      const a = this.index().tickets;
      if (a) this.act(a);
    });
    const station = document.getElementById("build-station");
    if (station && this.taxis) station.remove(); // New York has no stations
    else if (station) {
      station.addEventListener("click", () => {
        if (!this.canBuild()) return;
        this.mode = this.mode === "station" ? null : "station";
        this.render();
      });
    }
    document.getElementById("faceup").addEventListener("click", (ev) => {
      const btn = ev.target.closest("[data-slot]");
      if (!btn || btn.disabled) return;
      const options = this.index().faceup.get(Number(btn.dataset.slot)) || [];
      this.draw(options, options.length ? fmt(t("the face-up %(color)s card"), { color: colorLabel(options[0].color || btn.dataset.color) }) : "");
    });
    const depot = document.getElementById("place-depot");
    if (depot) {
      depot.addEventListener("click", () => {
        if (!this.canPlaceDepot()) return;
        this.mode = this.mode === "depot" ? null : "depot";
        this.render();
      });
    }
    bindDialogs(this, () => renderBanner(this));
    bindSeatActions(this); // seat.js: take the seat back, leave the game
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
    for (const id of ["build-station", "place-depot"]) {
      const button = document.getElementById(id);
      if (button) button.classList.toggle("hidden", spectator || over);
    }
  }

  onRouteClick(id) {
    if (this.busy) return;
    const options = this.index().claims.get(String(id)) || [];
    if (!options.length) return;
    const r = this.idx.routes.get(String(id));
    // Always ask before spending cards, even when there is one way to pay (Enter confirms).
    const title = fmt(t("Claim %(route)s"), { route: this.idx.routeLabel(id) });
    const size = r ? r.length : 0;
    let hint = this.taxis ? fmt(nt("%(n)s taxi", "%(n)s taxis", size), { n: size }) : fmt(nt("%(n)s car", "%(n)s cars", size), { n: size });
    const pts = this.idx.routePoints(id);
    if (pts) hint += " · " + fmt(nt("%(n)s point", "%(n)s points", pts), { n: pts });
    if (r && r.tunnel) hint += " · " + t("tunnel: extra cards may be due");
    if (r && r.ferry_locomotives) hint += " · " + fmt(nt("ferry: %(n)s locomotive needed", "ferry: %(n)s locomotives needed", r.ferry_locomotives), { n: r.ferry_locomotives });
    openPayment(this, title, hint, options);
  }

  onCityClick(name) {
    if (this.busy) return;
    if (this.placingDepot()) {
      const a = this.index().depots.get(name);
      if (a) this.act(a);
      return;
    }
    if (this.mode !== "station") return;
    const options = this.index().stations.get(name) || [];
    if (!options.length) return;
    const used = 3 - ((this.view.players[this.seat] || {}).stations_left ?? 3);
    openPayment(this, 
      fmt(t("Build a station in %(city)s"), { city: this.idx.cityName(name) }),
      fmt(nt("This station costs %(n)s card of one colour.", "This station costs %(n)s cards of one colour.", used + 1), { n: used + 1 }),
      options
    );
  }

  // -------------------------------------------------------------- rendering
  render() {
    if (!this.view) return;
    document.body.classList.toggle("is-busy", this.busy);
    this.renderStatic();
    renderPlayers(this);
    renderBanner(this);
    renderMarket(this);
    renderHand(this);
    renderTickets(this);
    this.renderBoard();
    renderDialogs(this);
    this.renderFinal();
    renderSeatActions(this);
  }

  offerKey() {
    const you = this.view && this.view.you;
    if (!you || !you.offered_tickets) return null;
    return this.view.phase + ":" + you.offered_tickets.map((x) => x.id).join(",");
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
    const depots = this.placingDepot();
    this.boardView.update({
      claims: st.claims,
      stations: st.stations,
      depots: st.depots,
      closed: st.closed,
      highlight,
      marks: v.final ? [] : boardMarks(turnsOf(this)), // lastmove.js: each seat's last move
      selectableRoutes: !busy && this.mode === null ? [...ix.claims.keys()].map(Number) : [],
      selectableCities: busy ? [] : depots ? [...ix.depots.keys()] : this.mode === "station" ? [...ix.stations.keys()] : [],
    });
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
    // a rated table's rating changes arrive with a later summary (ladder/table_ratings.py)
    const key = this.version + ":" + JSON.stringify(this.summary.ladder ? this.summary.seats : null);
    if (sec.dataset.key === String(key)) return;
    sec.dataset.key = String(key);
    document.getElementById("final-reason").textContent =
      v.final.reason === "all_passed" ? t("The game ended because no player could do anything.") : t("The game ended after the last round.");
    const ctx = { idx: this.idx, name: (s) => this.name(s), ruleset: v.ruleset || this.summary.ruleset, options: v.options,
      ladder: this.summary.ladder, seats: this.summary.seats };
    renderFinalTable(document.getElementById("final-scores"), v.final, ctx, this.players, (p, sticky) => {
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
    // the site's time format in every language (ttr_site/formats: 14:05), not the browser's
    const time = isNaN(at) ? "" : at.toLocaleTimeString(document.documentElement.lang || [], { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
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

const root = document.getElementById("table-app");
if (root && !root.dataset.started) {
  root.dataset.started = "1";
  new TableApp(root);
}
