/*
 * The replay page's post-game analysis (templates/games/replay.html #analysis; the server side
 * is games/services/analysis.py, the grading games/engine/bots/grading.py).
 * The button asks the API for it (POST /api/v1/tables/<id>/analysis/); while it is queued or
 * running the page polls the same URL every POLL_MS (a replay page has no table socket, and
 * one small GET a second and a half is lighter than a socket for a job of a minute or two)
 * and shows a progress bar. Once done: the win-chance graph (SVG drawn here: one line per
 * seat in its colour, with its own dash pattern and its symbol at the line's end, for
 * colour-blind players), the marked decisions in the move list (?! inaccuracy, ? mistake, with
 * the loss), and at a marked step the evaluator's suggestion (a route outlined on the map in
 * the mover's colour, or a text for other moves).
 * Test hooks: #analysis[data-status], #analysis-request, #analysis-progress[aria-valuenow],
 * #analysis-graph svg .chance-line[data-seat], .replay-move .analysis-mark[data-mark],
 * #analysis-step, #analysis-suggestion[data-route].
 */
import { h } from "./dom.js";
import { colorLabel } from "./cards.js";
import { fmt, t } from "./i18n.js";

const POLL_MS = 1500;
const W = 320;
const H = 120;
const DASHES = ["", "6 3", "2 3", "8 3 2 3", "1 2"];
const SVGNS = "http://www.w3.org/2000/svg";

function svg(tag, attrs, parent) {
  const node = document.createElementNS(SVGNS, tag);
  for (const k in attrs || {}) if (attrs[k] !== null && attrs[k] !== undefined) node.setAttribute(k, String(attrs[k]));
  if (parent) parent.appendChild(node);
  return node;
}

const pct = (x) => Math.round(100 * x) + "%";
const points = (x) => fmt(t("%(n)s points"), { n: (Math.round(x * 10) / 10).toLocaleString() });

/** A text for an action the evaluator preferred. */
export function describeAction(a, idx) {
  switch (a.type) {
    case "claim_route":
      return fmt(t("claim %(route)s"), { route: idx.routeLabel(a.route) });
    case "draw_card":
      if (a.source === "deck") return t("draw a card from the deck");
      return fmt(t("take the face-up %(color)s card"), { color: colorLabel(a.color) });
    case "draw_tickets":
      return t("draw destination tickets");
    case "keep_tickets":
      return fmt(t("keep these tickets: %(tickets)s"), { tickets: (a.tickets || []).map((id) => idx.ticketLabel ? idx.ticketLabel(id) : id).join(", ") || "—" });
    case "build_station":
      return fmt(t("build a station in %(city)s"), { city: idx.cityName(a.city) });
    case "place_depot":
      return fmt(t("place a depot in %(city)s"), { city: idx.cityName(a.city) });
    case "pay_tunnel":
      return t("pay for the tunnel");
    case "decline_tunnel":
      return t("give up the tunnel");
    case "pass":
      return t("pass");
    default:
      return a.type;
  }
}

/**
 * @param {object} o  root (#analysis), idx (indexBoard), players (boardPlayers), name(seat),
 *                    last (the last step), go(k) (jump to a step), redraw() (board again)
 */
export function createAnalysis(o) {
  const root = o.root;
  if (!root) return { show() {}, marks: () => [] };
  const url = root.dataset.url;
  const bar = document.getElementById("analysis-progress");
  const status = document.getElementById("analysis-status");
  const button = document.getElementById("analysis-request");
  const form = document.getElementById("analysis-form");
  let data = JSON.parse((document.getElementById("analysis-data") || {}).textContent || "null") || { status: "none" };
  let byStep = new Map();
  let step = 0;
  let cursor = null;
  let timer = null;

  function setState(next) {
    data = next;
    root.dataset.status = data.status;
    const running = data.status === "queued" || data.status === "running";
    if (button) button.hidden = !(data.status === "none" || data.status === "failed");
    bar.hidden = !running;
    bar.setAttribute("aria-valuenow", String(Math.round(100 * (data.progress || 0))));
    bar.querySelector(".analysis-progress-fill").style.width = pct(data.progress || 0);
    const texts = {
      none: t("Nobody has asked for an analysis of this game yet."),
      queued: t("The analysis is queued and starts shortly…"),
      running: fmt(t("Analysing the game: %(p)s done"), { p: pct(data.progress || 0) }),
      done: "",
      failed: t("The analysis failed. You may ask again."),
    };
    status.textContent = texts[data.status] || "";
    if (running) {
      clearTimeout(timer);
      timer = setTimeout(poll, POLL_MS);
    }
    if (data.status === "done" && data.result && !byStep.size) render(data.result);
  }

  async function poll() {
    try {
      const r = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" });
      if (r.ok) return setState(await r.json());
    } catch (e) { /* the network hiccuped: try again */ }
    timer = setTimeout(poll, POLL_MS * 2);
  }

  async function request(ev) {
    ev.preventDefault();
    const token = form.querySelector("input[name=csrfmiddlewaretoken]").value;
    button.disabled = true;
    try {
      const r = await fetch(url, { method: "POST", credentials: "same-origin", headers: { Accept: "application/json", "X-CSRFToken": token } });
      const body = await r.json();
      if (r.ok) setState(body);
      else status.textContent = body.message || t("The analysis could not be requested.");
    } catch (e) {
      status.textContent = t("The analysis could not be requested.");
    } finally {
      button.disabled = false;
    }
  }
  if (form) form.addEventListener("submit", request);

  function render(result) {
    byStep = new Map((result.decisions || []).map((d) => [d.step, d]));
    drawGraph(result.chances || []);
    markMoves();
    drawSummary(result);
    show(step);
    o.redraw();
  }

  function drawGraph(chances) {
    const box = document.getElementById("analysis-graph");
    box.textContent = "";
    if (!chances.length) return;
    const n = chances[0].length;
    const x = (k) => (o.last ? (k / o.last) * W : 0);
    const y = (p) => 4 + (1 - p) * (H - 8);
    const s = svg("svg", { viewBox: `0 0 ${W + 16} ${H}`, class: "chance-graph", role: "img", "aria-label": t("Each player's chance to win after every move") });
    svg("line", { x1: 0, x2: W, y1: y(0.5), y2: y(0.5), class: "chance-mid" }, s);
    for (let seat = 0; seat < n; seat++) {
      const p = o.players[seat] || { color: "#888", symbol: "?" };
      const pts = chances.map((row, k) => `${x(k).toFixed(1)},${y(row[seat]).toFixed(1)}`).join(" ");
      svg("polyline", { points: pts, class: "chance-line", "data-seat": seat, stroke: p.color, "stroke-dasharray": DASHES[seat % DASHES.length] || null }, s);
      const end = chances[chances.length - 1][seat];
      const label = svg("text", { x: W + 3, y: y(end) + 4, class: "chance-symbol", fill: p.color }, s);
      label.textContent = p.symbol;
    }
    for (const d of byStep.values()) {
      if (!d.kind) continue;
      const row = chances[d.step] || [];
      const dot = svg("circle", { cx: x(d.step), cy: y(row[d.seat] || 0), r: d.kind === "mistake" ? 3.5 : 2.5, class: "chance-mark chance-mark--" + d.kind, "data-step": d.step }, s);
      svg("title", null, dot).textContent = markTitle(d);
    }
    cursor = svg("line", { x1: 0, x2: 0, y1: 0, y2: H, class: "chance-cursor" }, s);
    s.addEventListener("click", (ev) => {
      const rect = s.getBoundingClientRect();
      const k = Math.round(((ev.clientX - rect.left) / rect.width) * ((W + 16) / W) * o.last);
      o.go(Math.max(0, Math.min(o.last, k)));
    });
    box.appendChild(s);
    const legend = h("ul", { class: "chance-legend" });
    for (let seat = 0; seat < n; seat++) {
      const p = o.players[seat] || { color: "#888", symbol: "?" };
      legend.appendChild(h("li", { "data-seat": seat },
        h("span", { class: "seat-token", style: { "--seat-color": p.color }, "aria-hidden": "true", text: p.symbol }),
        h("span", { text: o.name(seat) })));
    }
    box.appendChild(legend);
  }

  function markTitle(d) {
    const kind = d.kind === "mistake" ? t("Mistake") : t("Inaccuracy");
    return fmt(t("%(kind)s: −%(loss)s"), { kind, loss: points(d.loss) });
  }

  function markMoves() {
    for (const d of byStep.values()) {
      if (!d.kind) continue;
      const b = document.querySelector(`#replay-moves .replay-move[data-step="${d.step}"]`);
      if (!b || b.querySelector(".analysis-mark")) continue;
      b.classList.add("is-" + d.kind);
      b.appendChild(h("span", { class: "analysis-mark", "data-mark": d.kind, title: markTitle(d) },
        h("span", { class: "analysis-mark-sign", text: d.kind === "mistake" ? "?" : "?!" }),
        h("span", { class: "analysis-mark-loss", text: "−" + (Math.round(d.loss * 10) / 10).toLocaleString() })));
    }
  }

  function drawSummary(result) {
    const box = document.getElementById("analysis-summary");
    box.textContent = "";
    const list = h("ul", { class: "analysis-seats" });
    for (const row of result.seats || []) {
      list.appendChild(h("li", { "data-seat": row.seat },
        h("span", { class: "player-name", text: o.name(row.seat) }), " ",
        h("span", { text: fmt(t("average loss per decision: %(loss)s (decisions graded: %(n)s; mistakes: %(m)s; inaccuracies: %(i)s)"), { loss: points(row.average_loss), n: row.decisions, m: row.mistakes, i: row.inaccuracies }) })));
    }
    if (!(result.seats || []).length) list.appendChild(h("li", { class: "muted", text: t("No player's decisions were graded (bots are not).") }));
    box.appendChild(list);
    const th = result.thresholds || {};
    box.appendChild(h("p", { class: "muted small-print", text: fmt(t("?! inaccuracy: a loss of %(i)s points or more; ? mistake: %(m)s or more (estimated final margin over the best other player)."), { i: th.inaccuracy, m: th.mistake }) }));
  }

  /** The current step: the graph's cursor, the chances there and a marked move's suggestion. */
  function show(k) {
    step = k;
    const box = document.getElementById("analysis-step");
    if (!box || data.status !== "done" || !data.result) return;
    if (cursor) {
      const xk = o.last ? (k / o.last) * W : 0;
      cursor.setAttribute("x1", xk.toFixed(1));
      cursor.setAttribute("x2", xk.toFixed(1));
    }
    box.textContent = "";
    const row = (data.result.chances || [])[k] || [];
    box.appendChild(h("p", { class: "analysis-chances", text: t("Chances to win after this move:") + " " + row.map((c, seat) => (o.players[seat] || {}).symbol + " " + o.name(seat) + " " + pct(c)).join(" · ") }));
    const d = byStep.get(k);
    if (!d) return;
    const verdict = d.kind ? markTitle(d) : t("A good move.");
    box.appendChild(h("p", { class: "analysis-verdict", "data-kind": d.kind || "good", text: verdict }));
    if (d.best) {
      box.appendChild(h("p", { id: "analysis-suggestion", class: "analysis-suggestion", "data-route": d.best.type === "claim_route" ? d.best.route : null,
        text: fmt(t("Better: %(move)s"), { move: describeAction(d.best, o.idx) }) + (d.best.type === "claim_route" ? " " + t("(outlined on the map)") : "") }));
    }
  }

  /** Board marks for step k: the suggested route, outlined in the mover's colour. */
  function marks(k) {
    const d = byStep.get(k);
    if (!d || !d.best || d.best.type !== "claim_route") return [];
    return [{ route: d.best.route, seat: d.seat }];
  }

  setState(data);
  return { show, marks };
}
