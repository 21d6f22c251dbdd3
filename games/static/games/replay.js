/*
 * ttr replay page: step through a finished game (templates/games/replay.html).
 * Data (json_script): #replay-frames (one full "all" view per version), #replay-actions
 * (frames[k] is the state after actions[k - 1]; each action carries its `seat`).
 * Test hooks: #replay-first/#replay-prev/#replay-play/#replay-next/#replay-last, #replay-slider,
 * #replay-step, #replay-action, body[data-step], #players [data-seat] (with #hand-like
 * [data-color] cards and [data-ticket-id] tickets), #final-scores; the autoplay speed
 * #replay-speed (#replay[data-speed], [data-interval-ms], [data-playing]); the move list
 * #replay-moves, one button per step ([data-step], the current one [aria-current="step"]);
 * the post-game analysis (#analysis): analysis.js.
 */
import { createAnalysis } from "./analysis.js";
import { createBoard } from "./board.js";
import { colorLabel, fillOf, symbolOf, textOf, useTaxis } from "./cards.js";
import { h, readJson, seatToken } from "./dom.js";
import { renderFinalTable } from "./final.js";
import { handColors } from "./hand.js";
import { fmt, t } from "./i18n.js";
import { describeLog, logLine } from "./log.js";
import { boardPlayers, boardState, indexBoard } from "./model.js";
import { playerStats } from "./players.js";

function start() {
  const root = document.getElementById("replay");
  if (!root) return;
  const summary = readJson("table-summary") || { seats: [] };
  const taxis = summary.ruleset === "new_york"; // New York: taxis, and no stations
  const wh = !!(summary.options && summary.options.warehouses); // Warehouses & Depots
  useTaxis(taxis);
  const board = readJson("board-data");
  const frames = readJson("replay-frames") || [];
  const actions = readJson("replay-actions") || [];
  const idx = indexBoard(board);
  const players = boardPlayers(summary.seats);
  const name = (seat) => {
    const s = (summary.seats || []).find((x) => x.position === seat);
    return s ? s.name : fmt(t("Seat %(n)s"), { n: seat + 1 });
  };
  const ctx = { idx, name, you: null, taxis };
  const last = frames.length - 1;
  let step = 0;
  let timer = null;
  let highlightSeat = null;
  const BASE_MS = 700; // one step per 0.7 s at 1×
  let speed = 1;
  let analysis = null; // the post-game analysis panel (analysis.js), once built

  const boardView = createBoard(document.getElementById("board"), board, { players, t, stations: !taxis, depots: wh, minWidth: window.matchMedia && window.matchMedia("(max-width: 720px)").matches ? 640 : 0 });

  const slider = document.getElementById("replay-slider");
  slider.max = String(Math.max(0, last));

  /** Log-like entries describing how frames[k - 1] became frames[k]. */
  function entriesFor(k) {
    if (k <= 0) return [{ type: "setup_view", seat: null }];
    const a = actions[k - 1] || {};
    const prev = frames[k - 1];
    const cur = frames[k];
    const seat = a.seat;
    const before = prev.players[seat] || {};
    const after = cur.players[seat] || {};
    const out = [];
    switch (a.type) {
      case "draw_card":
        if (a.source === "deck") {
          let color = null;
          for (const c in after.hand || {}) if ((after.hand[c] || 0) > ((before.hand || {})[c] || 0)) color = c;
          out.push({ type: "draw_card", seat, source: "deck", color });
        } else {
          out.push({ type: "draw_card", seat, source: "faceup", slot: a.slot, color: a.color || prev.faceup[a.slot], replacement: cur.faceup[a.slot] });
        }
        break;
      case "claim_route":
        if (cur.pending && cur.pending.type === "tunnel") {
          out.push({ type: "tunnel_attempt", seat, route: a.route, cards: a.cards, revealed: cur.pending.revealed, extra: cur.pending.extra });
        } else {
          out.push({ type: "claim_route", seat, route: a.route, cards: a.cards });
        }
        break;
      case "pay_tunnel":
        out.push({ type: "pay_tunnel", seat, route: prev.pending ? prev.pending.route : null, cards: a.cards });
        break;
      case "decline_tunnel":
        out.push({ type: "decline_tunnel", seat, route: prev.pending ? prev.pending.route : null });
        break;
      case "draw_tickets": {
        const offered = (after.offered_tickets || []).map((x) => x.id);
        out.push({ type: "draw_tickets", seat, count: offered.length, tickets: offered });
        break;
      }
      case "keep_tickets": {
        const offered = (before.offered_tickets || []).map((x) => x.id);
        const kept = a.tickets || [];
        out.push({ type: "keep_tickets", seat, tickets: kept, returned: offered.filter((x) => !kept.includes(x)) });
        break;
      }
      default:
        out.push(Object.assign({}, a));
    }
    if (cur.last_round && cur.last_round.active && !(prev.last_round && prev.last_round.active)) {
      const by = cur.last_round.triggered_by;
      out.push({ type: "last_round", seat: by, trains_left: (cur.players[by] || {}).trains_left });
    }
    if (cur.final && !prev.final) {
      out.push({ type: "game_end", seat: null, ranks: cur.players.map((p) => (cur.final.players.find((f) => f.seat === p.seat) || {}).rank) });
    }
    return out;
  }

  function renderAction(k) {
    const box = document.getElementById("replay-action");
    box.textContent = "";
    const list = h("ol", { class: "log replay-log" });
    for (const e of entriesFor(k)) {
      if (e.type === "setup_view") {
        list.appendChild(h("li", { class: "log-line" }, h("span", { class: "log-text", text: t("The cards and tickets are dealt. Use the controls to step through the game.") })));
        continue;
      }
      list.appendChild(logLine(e, ctx, players));
    }
    box.appendChild(list);
  }

  function renderFaceup(v) {
    const box = document.getElementById("faceup");
    box.textContent = "";
    (v.faceup || []).forEach((color, slot) => {
      box.appendChild(h("div", {
        class: "faceup-card" + (color === "locomotive" ? " card--loco" : "") + (color ? "" : " faceup-card--empty"),
        "data-slot": slot, "data-color": color || "", title: color ? colorLabel(color) : "",
        style: color ? { "--card-fill": fillOf(color), "--card-text": textOf(color) } : null,
      }, h("span", { class: "card-sym", "aria-hidden": "true", text: color ? symbolOf(color) : "" })));
    });
    document.getElementById("replay-decks").textContent = fmt(t("deck %(deck)s · discards %(discard)s · tickets %(tickets)s"), { deck: v.deck_count, discard: v.discard_count, tickets: v.ticket_deck_count });
  }

  function renderPlayers(v, acting) {
    const list = document.getElementById("players");
    list.textContent = "";
    const current = new Set(v.current_seats || []);
    for (const p of v.players) {
      const s = (summary.seats || []).find((x) => x.position === p.seat) || {};
      const hand = h("div", { class: "hand" });
      for (const color of handColors(board, p.hand)) {
        const n = (p.hand && p.hand[color]) || 0;
        hand.appendChild(h("div", {
          class: "hand-card" + (color === "locomotive" ? " card--loco" : "") + (n ? "" : " is-empty"),
          "data-color": color, "data-count": n, title: fmt(t("%(color)s: %(n)s"), { color: colorLabel(color), n }),
          style: { "--card-fill": fillOf(color), "--card-text": textOf(color) },
        }, h("span", { class: "card-sym", "aria-hidden": "true", text: symbolOf(color) }), h("span", { class: "hand-count", text: String(n) })));
      }
      const tickets = h("ul", { class: "ticket-list" });
      const all = [...(p.tickets || [])].sort((a, b) => Number(b.completed) - Number(a.completed) || b.points - a.points);
      for (const tk of all) {
        tickets.appendChild(h("li", { class: "ticket" + (tk.completed ? " is-done" : ""), "data-ticket-id": tk.id },
          h("span", { class: "ticket-mark", "aria-hidden": "true", text: tk.completed ? "✓" : "○" }),
          h("span", { class: "ticket-cities", text: idx.cityName(tk.a) + " – " + idx.cityName(tk.b) }),
          h("span", { class: "ticket-points", text: String(tk.points) })));
      }
      for (const tk of p.offered_tickets || []) {
        tickets.appendChild(h("li", { class: "ticket is-offered", "data-ticket-id": tk.id, title: t("Offered, not yet chosen") },
          h("span", { class: "ticket-mark", "aria-hidden": "true", text: "?" }),
          h("span", { class: "ticket-cities", text: idx.cityName(tk.a) + " – " + idx.cityName(tk.b) }),
          h("span", { class: "ticket-points", text: String(tk.points) })));
      }
      list.appendChild(h("li", {
        class: "replay-player" + (current.has(p.seat) && v.phase !== "over" ? " is-current" : "") + (p.seat === acting ? " is-acting" : ""),
        "data-seat": p.seat, style: { "--seat-color": s.color || "#888" },
      },
        h("div", { class: "player-head" }, seatToken(p.seat, players), h("span", { class: "player-name", text: name(p.seat) }),
          h("span", { class: "player-score", title: t("Score") }, String(p.score))),
        h("div", { class: "player-stats" }, playerStats(p, { taxis, wh })),
        hand, tickets));
    }
  }

  function renderBoard(v) {
    if (!boardView) return;
    const st = boardState(v, idx);
    let highlight = [];
    if (v.final) {
      const fp = v.final.players || [];
      if (highlightSeat !== null) highlight = (fp.find((x) => x.seat === highlightSeat) || {}).longest_path_routes || [];
      else for (const p of fp) if (p.longest_path_bonus > 0) highlight.push(...(p.longest_path_routes || []));
    } else if (step > 0) {
      const a = actions[step - 1] || {};
      if (a.type === "claim_route") highlight = [a.route];
      else if ((a.type === "pay_tunnel" || a.type === "decline_tunnel") && frames[step - 1].pending) highlight = [frames[step - 1].pending.route];
    }
    const marks = analysis ? analysis.marks(step) : [];
    boardView.update({ claims: st.claims, stations: st.stations, depots: st.depots, closed: st.closed, highlight, marks });
  }

  function renderFinal(v) {
    const box = document.getElementById("replay-final");
    if (!v.final) {
      box.classList.add("hidden");
      return;
    }
    box.classList.remove("hidden");
    if (box.dataset.done) return;
    box.dataset.done = "1";
    renderFinalTable(document.getElementById("final-scores"), v.final, { ...ctx, ruleset: v.ruleset || summary.ruleset, options: v.options, ladder: summary.ladder, seats: summary.seats }, players, (p) => {
      highlightSeat = p ? p.seat : null;
      renderBoard(frames[step]);
    });
  }

  /** The move list: every step numbered, its mover's token and what they did; a click jumps. */
  function buildMoves() {
    const list = document.getElementById("replay-moves");
    if (!list) return;
    const items = [];
    for (let k = 0; k <= last; k++) {
      const e = entriesFor(k)[0];
      const button = h("button", { type: "button", class: "replay-move", "data-step": k },
        h("span", { class: "replay-move-num", text: String(k) }));
      if (k === 0) {
        button.append(h("span", { class: "seat-token seat-token--none", "aria-hidden": "true", text: "•" }),
          h("span", { class: "log-text", text: t("Cards and tickets dealt") }));
      } else {
        const d = describeLog(e, ctx);
        button.append(seatToken(e.seat, players), d.node);
        if (d.important) button.classList.add("is-major");
      }
      button.addEventListener("click", () => { stop(); go(k); });
      items.push(h("li", null, button));
    }
    list.replaceChildren(...items);
  }

  /** Mark the current step in the move list and scroll the list (only the list) to it. */
  function showMove(k) {
    const list = document.getElementById("replay-moves");
    if (!list) return;
    list.querySelectorAll("[aria-current]").forEach((b) => b.removeAttribute("aria-current"));
    const button = list.querySelector(`[data-step="${k}"]`);
    if (!button) return;
    button.setAttribute("aria-current", "step");
    const item = button.parentElement;
    if (item.offsetTop < list.scrollTop) list.scrollTop = item.offsetTop;
    else if (item.offsetTop + item.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = item.offsetTop + item.offsetHeight - list.clientHeight;
  }

  function go(k) {
    step = Math.max(0, Math.min(last, k));
    const v = frames[step];
    if (!v) return;
    slider.value = String(step);
    document.body.dataset.step = String(step);
    document.getElementById("replay-step").textContent = fmt(t("Step %(k)s of %(n)s"), { k: step, n: last });
    document.getElementById("replay-first").disabled = step === 0;
    document.getElementById("replay-prev").disabled = step === 0;
    document.getElementById("replay-next").disabled = step === last;
    document.getElementById("replay-last").disabled = step === last;
    renderAction(step);
    showMove(step);
    renderFaceup(v);
    renderPlayers(v, step > 0 ? (actions[step - 1] || {}).seat : null);
    renderBoard(v);
    renderFinal(v);
    if (analysis) analysis.show(step);
    if (step === last) stop();
  }

  const playBtn = document.getElementById("replay-play");
  function stop() {
    clearInterval(timer);
    timer = null;
    root.dataset.playing = "false";
    playBtn.textContent = "▶";
    playBtn.setAttribute("aria-label", playBtn.dataset.labelPlay || t("Play"));
  }
  function play() {
    if (step >= last) go(0);
    clearInterval(timer);
    timer = setInterval(() => go(step + 1), BASE_MS / speed);
    root.dataset.playing = "true";
    playBtn.textContent = "❚❚";
    playBtn.setAttribute("aria-label", playBtn.dataset.labelPause || t("Pause"));
  }
  /** The autoplay speed (0.5× to 4×); a running autoplay goes on at the new pace. */
  function setSpeed(value) {
    speed = [0.5, 1, 2, 4].includes(value) ? value : 1;
    root.dataset.speed = String(speed);
    root.dataset.intervalMs = String(BASE_MS / speed);
    if (timer) play();
  }
  const speedSelect = document.getElementById("replay-speed");
  if (speedSelect) {
    speedSelect.addEventListener("change", () => {
      setSpeed(Number(speedSelect.value));
      try {
        localStorage.setItem("ttr.replaySpeed", String(speed));
      } catch (e) { /* private mode: the choice lasts for this page */ }
    });
    let saved = null;
    try {
      saved = Number(localStorage.getItem("ttr.replaySpeed"));
    } catch (e) { /* no storage */ }
    if (saved && [0.5, 1, 2, 4].includes(saved)) speedSelect.value = String(saved);
    setSpeed(Number(speedSelect.value));
  }
  playBtn.addEventListener("click", () => (timer ? stop() : play()));
  document.getElementById("replay-first").addEventListener("click", () => { stop(); go(0); });
  document.getElementById("replay-prev").addEventListener("click", () => { stop(); go(step - 1); });
  document.getElementById("replay-next").addEventListener("click", () => { stop(); go(step + 1); });
  document.getElementById("replay-last").addEventListener("click", () => { stop(); go(last); });
  slider.addEventListener("input", () => { stop(); go(Number(slider.value)); });
  document.addEventListener("keydown", (ev) => {
    if (ev.target && ["INPUT", "TEXTAREA", "SELECT"].includes(ev.target.tagName)) return; // the slider steps by itself
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    let handled = true;
    if (ev.key === "ArrowRight") { stop(); go(step + 1); }
    else if (ev.key === "ArrowLeft") { stop(); go(step - 1); }
    else if (ev.key === "Home") { stop(); go(0); }
    else if (ev.key === "End") { stop(); go(last); }
    else if (ev.key === " " && ev.target === document.body) timer ? stop() : play();
    else handled = false;
    if (handled) ev.preventDefault();
  });
  buildMoves();
  analysis = createAnalysis({
    root: document.getElementById("analysis"), idx, players, name, last,
    go: (k) => { stop(); go(k); }, redraw: () => renderBoard(frames[step]),
  });
  stop();
  const hash = /^#step-(\d+)$/.exec(location.hash);
  go(hash ? Number(hash[1]) : 0);
}

start();
