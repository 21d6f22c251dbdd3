/*
 * ttr board renderer — draws a Ticket to Ride map as inline SVG.
 * A native ES module, no build step: table.js and replay.js import its createBoard (with
 * board.css on the page). The layout maths is in layout.js, the route and label geometry in geometry.js, the card
 * colours in cards.js.
 *
 * API
 * ---
 * const b = createBoard(containerElement, board, options)
 *   board:   {ruleset, cities: [{name, display_name?, lat, lon, big_city?, tourist_attraction?}],
 *             routes: [{id, a, b, length, color, tunnel?, ferry_locomotives?, double_group?}]}
 *            (`locations` is accepted as an alias of `cities`).
 *   options: players       array indexed by seat: {name, color (any CSS colour), symbol (one char)}
 *            t             translation function (default window.gettext if present, else identity)
 *            onRouteClick  function(routeId)   — only called for routes in state.selectableRoutes
 *            onCityClick   function(cityName)  — only called for cities in state.selectableCities
 *            legend        true (default) — HTML legend below the map; false to hide
 *            stations      show the station item in the legend (default: ruleset !== "new_york")
 *            depots        show the depot item in the legend (Warehouses & Depots; default false)
 *            minWidth      px; the SVG never renders narrower than this and the wrapper scrolls
 *                          horizontally instead (default 600; 0 = always fit the container)
 *            rotate        degrees clockwise, or "auto" (default: tall maps such as Manhattan are
 *                          turned so their long axis is horizontal)
 *            relax         true (default): geography-seeded spring layout so routes get room
 *                          proportional to their length and never cross; false = pure projection
 *            fit           true: the map is never taller than the window below its top edge
 *                          (viewport.js keeps --ttr-board-fit-h up to date)
 *            zoom          true: + / − buttons (shown where the map pans in a box, see board.css)
 *   Returns an object with:
 * b.update(state)   cheap re-render of the dynamic layer only. Every field is optional:
 *   {claims: {routeId: seat}, stations: {cityName: seat}, depots: {cityName: seat},
 *    selectableRoutes: [routeId], selectableCities: [cityName],
 *    highlight: [routeId]  (drawn with a glow, e.g. longest path),
 *    closed: [routeId]     (closed double routes, drawn faded),
 *    marks: [{route?, city?, seat, latest?}]  each seat's last move, outlined in its colour;
 *                          `latest` (the move just made) also glows and animates once}
 * b.destroy()       removes the DOM and all listeners.
 * b.element         the root element (div.ttr-board), b.svg the <svg>.
 * b.buildMs, b.updateMs  duration of the last create / update (ms), for diagnostics.
 * b.routeElement(id), b.cityElement(name) — the <g> of a route / city (or null).
 *
 * DOM hooks for tests & styling
 *   <g class="route [route--claimed] [route--selectable] [route--highlight] [route--closed]
 *             [route--tunnel] [route--ferry] [route--double]" data-route-id="17" data-color="black">
 *   <g class="city [city--big] [city--tourist] [city--selectable] [city--station]" data-city="Paris">
 *   Both have a <title> tooltip; selectable ones get tabindex="0", role="button" (Enter/Space activates).
 *   Claimed routes also carry data-seat and are drawn as train cars, not slots: one
 *   <g class="route__car"> per space, in the owner's colour with the owner's symbol
 *   (<text class="route__owner">). Last moves: .route--last / .station--last (data-last-seat),
 *   the move just made also .route--latest / .station--latest. A click/tap that misses by a
 *   few pixels (10px, 22px on touch screens) goes to the nearest selectable route/city.
 *   Stations: <g class="station" data-station-city=.. data-seat=..>, depots: <g class="depot" ...>.
 */
import { COLOR_FILLS, COLOR_NAMES, COLOR_SYMBOLS, COLOR_TEXT } from "./cards.js";
import { placeLabels, routeGeometry, segDist } from "./geometry.js";
import { layout, VIEW_W } from "./layout.js";
import { fitToWindow, zoomControls } from "./viewport.js";

const SVGNS = "http://www.w3.org/2000/svg";

const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Liberation Sans", "DejaVu Sans", sans-serif';

let instances = 0;
let measureCtx = null; // 2D context used to normalise CSS colours

function svg(tag, attrs, parent) {
  const node = document.createElementNS(SVGNS, tag);
  if (attrs) for (const k in attrs) node.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(node);
  return node;
}
function html(tag, cls, parent) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (parent) parent.appendChild(node);
  return node;
}
const r2 = (v) => Math.round(v * 100) / 100;
const ESC = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const esc = (v) => String(v).replace(/[&<>"']/g, (ch) => ESC[ch]);

// Relative luminance of any CSS colour (uses canvas to normalise names / hsl / rgb).
const lumCache = new Map();
function luminance(color) {
  if (lumCache.has(color)) return lumCache.get(color);
  let hex = String(color || "").trim();
  if (measureCtx === null) {
    try {
      measureCtx = document.createElement("canvas").getContext("2d");
    } catch (e) {
      measureCtx = undefined;
    }
  }
  if (measureCtx) {
    measureCtx.fillStyle = "#000";
    measureCtx.fillStyle = hex;
    hex = String(measureCtx.fillStyle);
  }
  let rgb = [128, 128, 128];
  let m = /^#([0-9a-f]{6})$/i.exec(hex);
  if (m) rgb = [0, 2, 4].map((i) => parseInt(m[1].slice(i, i + 2), 16));
  else if ((m = /^#([0-9a-f]{3})$/i.exec(hex))) rgb = [0, 1, 2].map((i) => parseInt(m[1][i] + m[1][i], 16));
  else if ((m = /rgba?\(([^)]+)\)/i.exec(hex))) rgb = m[1].split(",").slice(0, 3).map((v) => parseFloat(v));
  const lin = rgb.map((v) => {
    v /= 255;
    return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
  });
  const L = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2];
  lumCache.set(color, L);
  return L;
}
const textOn = (color) => (luminance(color) > 0.33 ? "#111" : "#fff");

// ---------------------------------------------------------------- board
class Board {
  constructor(container, board, options) {
    if (!container) throw new Error("createBoard: container element required");
    const t0 = performance.now();
    this.container = container;
    this.options = options || {};
    const gt = typeof window.gettext === "function" ? (s) => window.gettext(s) : (s) => s;
    this.t = typeof this.options.t === "function" ? this.options.t : gt;
    this.players = this.options.players || [];
    this.uid = "ttrb" + ++instances;
    this.state = {};
    this._routeKeys = new Map();
    this._cityKeys = new Map();

    this.cities = (board.cities || board.locations || []).map((c) => ({
      name: String(c.name),
      display: String(c.display_name || c.name),
      lat: Number(c.lat),
      lon: Number(c.lon),
      big: !!c.big_city,
      tourist: !!c.tourist_attraction,
    }));
    this.cityByName = new Map(this.cities.map((c) => [c.name, c]));
    this.routes = (board.routes || [])
      .filter((r) => this.cityByName.has(r.a) && this.cityByName.has(r.b))
      .map((r) => ({
        id: r.id,
        a: String(r.a),
        b: String(r.b),
        length: Math.max(1, Number(r.length) || 1),
        color: COLOR_FILLS[r.color] ? r.color : "gray",
        tunnel: !!r.tunnel,
        ferry: Math.max(0, Number(r.ferry_locomotives) || 0),
        group: r.double_group === null || r.double_group === undefined ? null : r.double_group,
      }));
    this.routeById = new Map(this.routes.map((r) => [String(r.id), r]));
    this.ruleset = board.ruleset || board.name || "";

    const tl = performance.now();
    const L = layout(this.cities, this.routes, this.options);
    this.timings = { layout: performance.now() - tl };
    this.G = L.G;
    this.height = Math.round(L.height);
    this.cities.forEach((c, i) => {
      c.x = L.pts[i][0];
      c.y = L.pts[i][1];
      c.r = c.big ? this.G.rBig : this.G.rSmall;
    });
    let tm = performance.now();
    routeGeometry(this.routes, this.cityByName, this.G);
    placeLabels(this.cities, this.routes, this.G, this.height);
    this.timings.labels = performance.now() - tm;
    tm = performance.now();
    this._build();
    this.timings.build = performance.now() - tm;
    this.buildMs = performance.now() - t0;
  }

  _routeTitle(r, claimSeat) {
    const t = this.t;
    const A = this.cityByName.get(r.a).display, B = this.cityByName.get(r.b).display;
    let s = `${A} – ${B} · ${r.length} · ${t(r.color)}`;
    if (r.tunnel) s += ` · ${t("tunnel")}`;
    if (r.ferry) s += ` · ${t("ferry")} (${r.ferry} × ${t("locomotive")})`;
    if (claimSeat !== undefined && claimSeat !== null) s += ` · ${t("claimed by")} ${this._player(claimSeat).name}`;
    return s;
  }
  _player(seat) {
    const p = this.players[seat] || {};
    return {
      name: p.name || `${this.t("Player")} ${Number(seat) + 1}`,
      color: p.color || "#777",
      symbol: p.symbol || String(Number(seat) + 1),
    };
  }

  _build() {
    const G = this.G, t = this.t;
    const root = html("div", "ttr-board");
    root.style.setProperty("--ttr-board-min-width", (this.options.minWidth ?? 600) + "px");
    this.element = root;
    const scroller = html("div", "ttr-board__scroll", root);
    const s = svg("svg", {
      class: "ttr-board__svg",
      viewBox: `0 0 ${VIEW_W} ${this.height}`,
      preserveAspectRatio: "xMidYMid meet",
      role: "group",
      "aria-label": t("Game board"),
      "font-family": FONT,
    });
    s.style.aspectRatio = `${VIEW_W} / ${this.height}`;
    this.svg = s;
    scroller.appendChild(s);

    const defs = svg("defs", null, s);
    const filt = svg("filter", {
      id: this.uid + "-glow",
      filterUnits: "userSpaceOnUse",
      x: -50, y: -50, width: VIEW_W + 100, height: this.height + 100,
    }, defs);
    svg("feGaussianBlur", { stdDeviation: 3.5 * G.ui }, filt);

    svg("rect", { class: "ttr-board__bg", x: 0, y: 0, width: VIEW_W, height: this.height, rx: 10 }, s);
    const gRoutes = svg("g", { class: "ttr-board__routes" }, s);
    const gCities = svg("g", { class: "ttr-board__cities" }, s);
    this.gMarkers = svg("g", { class: "ttr-board__markers" }, s);
    const gLabels = svg("g", { class: "ttr-board__labels", "aria-hidden": "true" }, s);

    // Static geometry is emitted as one markup string per layer (much faster than
    // thousands of createElementNS calls), then element references are collected.
    const th = G.th, rx = r2(2.6 * G.ui);
    const loco = this._locoPath(G.sym * 0.62);
    const glowW = r2(th + 12 * G.ui), haloW = r2(th + 8 * G.ui), trackW = r2(Math.max(3, th * 0.3));
    const out = [];
    for (const r of this.routes) {
      const cls = "route route--c-" + r.color + (r.tunnel ? " route--tunnel" : "") + (r.ferry ? " route--ferry" : "") + (r.double ? " route--double" : "");
      const ln = `x1="${r2(r.x0)}" y1="${r2(r.y0)}" x2="${r2(r.x1)}" y2="${r2(r.y1)}"`;
      out.push(
        `<g class="${cls}" data-route-id="${esc(r.id)}" data-color="${r.color}"><title>${esc(this._routeTitle(r))}</title>`,
        `<line class="route__glow" filter="url(#${this.uid}-glow)" stroke-width="${glowW}" ${ln}/>`,
        `<line class="route__mark" stroke-width="${r2(haloW + 7 * G.ui)}" ${ln}/>`,
        `<line class="route__halo route__halo--outer" stroke-width="${r2(haloW + 4 * G.ui)}" ${ln}/>`,
        `<line class="route__halo" stroke-width="${haloW}" ${ln}/>`,
        `<line class="route__hit" stroke-width="${r2(r.double ? th + 2 : Math.max(24, th + 12))}" ${ln}/>`,
        `<line class="route__track" stroke-width="${trackW}" x1="${r2(r.tx0)}" y1="${r2(r.ty0)}" x2="${r2(r.tx1)}" y2="${r2(r.ty1)}"/>`
      );
      const sw = r2(r.space), sx = r2(-r.space / 2), sy = r2(-th / 2), ang = r2(r.angle);
      r.spaces.forEach((p, i) => {
        const x = r2(p.x), y = r2(p.y);
        out.push(`<rect class="route__space" x="${sx}" y="${sy}" width="${sw}" height="${r2(th)}" rx="${rx}" transform="translate(${x} ${y}) rotate(${ang})" fill="${COLOR_FILLS[r.color]}"/>`);
        if (i < r.ferry) out.push(`<path class="route__loco" d="${loco}" transform="translate(${x} ${y})"/>`);
        out.push(`<text class="route__sym" x="${x}" y="${y}" dy="0.36em" font-size="${r2(G.sym)}" fill="${COLOR_TEXT[r.color]}">${i < r.ferry ? "" : COLOR_SYMBOLS[r.color]}</text>`);
      });
      out.push("</g>");
    }
    gRoutes.innerHTML = out.join("");

    out.length = 0;
    const labels = [];
    for (const c of this.cities) {
      out.push(
        `<g class="city${c.big ? " city--big" : ""}${c.tourist ? " city--tourist" : ""}" data-city="${esc(c.name)}" transform="translate(${r2(c.x)} ${r2(c.y)})">`,
        `<title>${esc(this._cityTitle(c))}</title>`,
        `<circle class="city__hit" r="${r2(c.r + 9 * G.ui)}"/><circle class="city__halo" r="${r2(c.r + 5 * G.ui)}"/>`,
        `<circle class="city__node" r="${r2(c.r)}"/>`,
        c.big ? `<circle class="city__inner" r="${r2(c.r * 0.55)}"/>` : "",
        c.tourist ? `<path class="city__star" d="${this._starPath(c.r * 1.05, c.r * 0.45, 5)}"/>` : "",
        "</g>"
      );
      const L = c.label;
      labels.push(
        `<text class="city-label${c.big ? " city-label--big" : ""}" x="${r2(L.rect.x0)}" y="${r2(L.rect.y0 + L.size * 0.8)}" font-size="${r2(L.size)}" data-city-label="${esc(c.name)}">${esc(c.display)}</text>`
      );
    }
    gCities.innerHTML = out.join("");
    gLabels.innerHTML = labels.join("");

    this.routeEls = new Map();
    const rg = gRoutes.children;
    this.routes.forEach((r, i) => {
      const g = rg[i];
      const mark = g.querySelector(".route__mark");
      this.routeEls.set(String(r.id), { g, title: g.firstElementChild, mark, cars: null, r });
    });
    this.cityEls = new Map();
    const cg = gCities.children;
    this.cities.forEach((c, i) => this.cityEls.set(c.name, { g: cg[i], title: cg[i].firstElementChild, c }));

    if (this.options.legend !== false) this._legend(root);
    if (this.options.zoom) this._unzoom = zoomControls(root, scroller, t);
    if (this.options.fit) {
      root.classList.add("ttr-board--fit");
      this._unfit = fitToWindow(root, s);
    }

    this._onClick = (ev) => this._handleClick(ev);
    this._onKey = (ev) => this._handleKey(ev);
    s.addEventListener("click", this._onClick);
    s.addEventListener("keydown", this._onKey);
    this.container.appendChild(root);
    this._fitLabels(gLabels);
  }

  /** Keep every label inside the map, measured as rendered (the layout only estimates widths). */
  _fitLabels(gLabels) {
    const M = 4; // room for the label's halo
    for (const el of gLabels.children) {
      let b;
      try {
        b = el.getBBox();
      } catch (e) {
        return; // not rendered (a hidden container): keep the estimate
      }
      if (!b || !b.width) continue;
      const shift = b.x < M ? M - b.x : b.x + b.width > VIEW_W - M ? Math.max(M - b.x, VIEW_W - M - b.x - b.width) : 0;
      if (shift) el.setAttribute("x", r2(Number(el.getAttribute("x")) + shift));
    }
  }

  _cityTitle(c, stationSeat) {
    let s = c.display;
    if (c.tourist) s += ` · ${this.t("tourist attraction")}`;
    if (stationSeat !== undefined && stationSeat !== null) s += ` · ${this.t("station")}: ${this._player(stationSeat).name}`;
    return s;
  }

  _starPath(ro, ri, n) {
    let d = "";
    for (let i = 0; i < n * 2; i++) {
      const rr = i % 2 ? ri : ro;
      const a = -Math.PI / 2 + (i * Math.PI) / n;
      d += (i ? "L" : "M") + r2(Math.cos(a) * rr) + " " + r2(Math.sin(a) * rr);
    }
    return d + "Z";
  }
  _locoPath(s) {
    // four-pointed star (✦) drawn as a path so it doesn't depend on fonts
    const i = s * 0.28;
    return `M0 ${-s}L${i} ${-i}L${s} 0L${i} ${i}L0 ${s}L${-i} ${i}L${-s} 0L${-i} ${-i}Z`;
  }
  _housePath(w) {
    const h = w * 1.1, half = w / 2;
    return `M${-half} ${h * 0.45}V${-h * 0.1}L0 ${-h * 0.6}L${half} ${-h * 0.1}V${h * 0.45}Z`;
  }

  _legend(root) {
    const t = this.t, G = this.G;
    const lg = html("div", "ttr-board__legend", root);
    lg.setAttribute("aria-label", t("Legend"));
    const item = (svgMarkup, label) => {
      const it = html("span", "ttr-board__legend-item", lg);
      const ic = document.createElementNS(SVGNS, "svg");
      ic.setAttribute("viewBox", "-14 -9 28 18");
      ic.setAttribute("class", "ttr-board__legend-icon");
      ic.setAttribute("aria-hidden", "true");
      ic.innerHTML = svgMarkup;
      it.appendChild(ic);
      html("span", null, it).textContent = label;
    };
    const space = (fill, extra) =>
      `<rect x="-12" y="-6.5" width="24" height="13" rx="2.6" fill="${fill}" class="route__space ${extra || ""}"/>`;
    const colors = COLOR_NAMES.filter((c) => this.routes.some((r) => r.color === c));
    for (const c of colors) {
      const sym = COLOR_SYMBOLS[c];
      item(
        space(COLOR_FILLS[c]) +
          (sym ? `<text x="0" y="0" dy="0.36em" class="route__sym" font-size="10" fill="${COLOR_TEXT[c]}">${sym}</text>` : ""),
        c === "gray" ? `${t("gray")} (${t("any colour")})` : t(c)
      );
    }
    if (this.routes.some((r) => r.tunnel)) item(space(COLOR_FILLS.gray, "legend-tunnel"), t("tunnel"));
    if (this.routes.some((r) => r.ferry))
      item(space(COLOR_FILLS.gray) + `<path class="route__loco" d="${this._locoPath(6)}"/>`, t("ferry: locomotive required"));
    const owner = this._player(0);
    item(
      `<rect x="-12" y="-8" width="24" height="16" rx="6" class="route__car-body" fill="${esc(owner.color)}"/>` +
        `<text x="0" y="0" dy="0.36em" class="route__owner" font-size="10" fill="${textOn(owner.color)}">${esc(owner.symbol)}</text>`,
      t("claimed: the owner's colour and symbol")
    );
    const stations = this.options.stations ?? this.ruleset !== "new_york";
    if (stations)
      item(`<path d="${this._housePath(14)}" class="station__shape" fill="#fff"/>`, t("station"));
    if (this.options.depots)
      item(`<rect x="-5.5" y="-5.5" width="11" height="11" rx="1.5" class="depot__shape" fill="#fff"/>`, t("depot"));
    if (this.cities.some((c) => c.tourist))
      item(`<path d="${this._starPath(8, 3.6, 5)}" class="city__star"/>`, t("tourist attraction"));
    void G;
  }

  // ------------------------------------------------------------- events
  _activate(el) {
    if (!el) return false;
    if (el.hasAttribute("data-route-id")) {
      const id = el.getAttribute("data-route-id");
      if (!this._selRoutes || !this._selRoutes.has(id)) return false;
      const r = this.routeById.get(id);
      if (typeof this.options.onRouteClick === "function") this.options.onRouteClick(r ? r.id : id);
      return true;
    }
    if (el.hasAttribute("data-city")) {
      const name = el.getAttribute("data-city");
      if (!this._selCities || !this._selCities.has(name)) return false;
      if (typeof this.options.onCityClick === "function") this.options.onCityClick(name);
      return true;
    }
    return false;
  }
  _handleClick(ev) {
    const target = ev.target.closest && ev.target.closest("[data-route-id],[data-city]");
    if (this._activate(target)) return;
    // Forgiving taps: pick the nearest selectable route/city within a few screen pixels.
    const ctm = this.svg.getScreenCTM && this.svg.getScreenCTM();
    if (!ctm) return;
    const pt = this.svg.createSVGPoint();
    pt.x = ev.clientX;
    pt.y = ev.clientY;
    const p = pt.matrixTransform(ctm.inverse());
    const scale = Math.hypot(ctm.a, ctm.b) || 1;
    const tol = (ev.pointerType === "touch" || (window.matchMedia && window.matchMedia("(pointer: coarse)").matches) ? 22 : 10) / scale;
    let best = null, bestD = tol;
    if (this._selRoutes)
      for (const id of this._selRoutes) {
        const e = this.routeEls.get(id);
        if (!e) continue;
        const d = segDist(p.x, p.y, e.r.x0, e.r.y0, e.r.x1, e.r.y1) - this.G.th / 2;
        if (d < bestD) { bestD = d; best = e.g; }
      }
    if (this._selCities)
      for (const name of this._selCities) {
        const e = this.cityEls.get(name);
        if (!e) continue;
        const d = Math.hypot(p.x - e.c.x, p.y - e.c.y) - e.c.r;
        if (d < bestD) { bestD = d; best = e.g; }
      }
    if (best) this._activate(best);
  }
  _handleKey(ev) {
    if (ev.key !== "Enter" && ev.key !== " " && ev.key !== "Spacebar") return;
    const target = ev.target.closest && ev.target.closest("[data-route-id],[data-city]");
    if (target && this._activate(target)) ev.preventDefault();
  }

  // ------------------------------------------------------------- update
  update(state) {
    const t0 = performance.now();
    state = state || {};
    this.state = state;
    const claims = state.claims || {};
    const sel = new Set((state.selectableRoutes || []).map(String));
    const hl = new Set((state.highlight || []).map(String));
    const closed = new Set((state.closed || []).map(String));
    const selC = new Set((state.selectableCities || []).map(String));
    const stations = state.stations || {};
    const depots = state.depots || {};
    const marks = new Map(), cityMarks = new Map();
    for (const m of state.marks || []) {
      if (m.route !== undefined && m.route !== null) marks.set(String(m.route), m);
      if (m.city !== undefined && m.city !== null) cityMarks.set(String(m.city), m);
    }
    this._selRoutes = sel;
    this._selCities = selC;
    this.element.classList.toggle("ttr-board--selecting", sel.size > 0 || selC.size > 0);

    for (const [id, e] of this.routeEls) {
      const seat = Object.prototype.hasOwnProperty.call(claims, id) ? claims[id] : undefined;
      const claimed = seat !== undefined && seat !== null;
      const isSel = sel.has(id), isHl = hl.has(id), isClosed = closed.has(id);
      const mk = marks.get(id);
      const key = (claimed ? seat : "-") + (isSel ? "s" : "") + (isHl ? "h" : "") + (isClosed ? "c" : "") + (mk ? `m${mk.seat}${mk.latest ? "l" : ""}` : "");
      if (this._routeKeys.get(id) === key) continue;
      this._routeKeys.set(id, key);
      const g = e.g, r = e.r;
      g.classList.toggle("route--claimed", claimed);
      g.classList.toggle("route--selectable", isSel);
      g.classList.toggle("route--highlight", isHl);
      g.classList.toggle("route--closed", isClosed && !claimed);
      this._markRoute(e, mk);
      if (claimed && (!e.cars || e.cars.getAttribute("data-seat") !== String(seat))) this._cars(e, seat);
      else if (!claimed && e.cars) {
        e.cars.remove();
        e.cars = null;
      }
      if (claimed) g.setAttribute("data-seat", seat);
      else g.removeAttribute("data-seat");
      e.title.textContent = this._routeTitle(r, claimed ? seat : null) + (isClosed && !claimed ? ` · ${this.t("closed")}` : "");
      if (isSel) {
        g.setAttribute("tabindex", "0");
        g.setAttribute("role", "button");
        g.setAttribute("aria-label", e.title.textContent);
      } else {
        g.removeAttribute("tabindex");
        g.removeAttribute("role");
        g.removeAttribute("aria-label");
      }
    }

    for (const [name, e] of this.cityEls) {
      const st = Object.prototype.hasOwnProperty.call(stations, name) ? stations[name] : null;
      const isSel = selC.has(name);
      const key = (st === null ? "-" : st) + (isSel ? "s" : "");
      if ((this._cityKeys.get(name) || "-") === key) continue;
      this._cityKeys.set(name, key);
      e.g.classList.toggle("city--selectable", isSel);
      e.g.classList.toggle("city--station", st !== null);
      e.title.textContent = this._cityTitle(e.c, st);
      if (isSel) {
        e.g.setAttribute("tabindex", "0");
        e.g.setAttribute("role", "button");
        e.g.setAttribute("aria-label", e.title.textContent);
      } else {
        e.g.removeAttribute("tabindex");
        e.g.removeAttribute("role");
        e.g.removeAttribute("aria-label");
      }
    }

    // markers (stations, depots): few elements, rebuilt only when they change
    const mkey = JSON.stringify([stations, depots, [...cityMarks]]);
    if (mkey !== this._markerKey) {
      this._markerKey = mkey;
      const G = this.G;
      const layer = this.gMarkers;
      while (layer.firstChild) layer.removeChild(layer.firstChild);
      for (const name in stations) {
        const c = this.cityByName.get(name);
        const seat = stations[name];
        if (!c || seat === null || seat === undefined) continue;
        const p = this._player(seat);
        const w = 18 * G.ui;
        const mk = cityMarks.get(name);
        const g = svg("g", {
          class: "station" + (mk ? " station--last" + (mk.latest ? " station--latest" : "") : ""),
          "data-station-city": name, "data-seat": seat,
          transform: `translate(${r2(c.x)} ${r2(c.y - w * 0.05)})`,
        }, layer);
        if (mk) {
          g.setAttribute("data-last-seat", mk.seat);
          svg("circle", { class: "station__mark", r: r2(w * 0.95), stroke: this._player(mk.seat).color }, g);
        }
        svg("path", { class: "station__shape", d: this._housePath(w), fill: p.color }, g);
        const tx = svg("text", { class: "station__sym", x: 0, y: r2(w * 0.12), dy: "0.36em", "font-size": r2(w * 0.6), fill: textOn(p.color) }, g);
        tx.textContent = p.symbol;
      }
      for (const name in depots) {
        const c = this.cityByName.get(name);
        const seat = depots[name];
        if (!c || seat === null || seat === undefined) continue;
        const p = this._player(seat);
        const w = 10 * G.ui;
        const g = svg("g", {
          class: "depot", "data-depot-city": name, "data-seat": seat,
          transform: `translate(${r2(c.x + c.r + w * 0.35)} ${r2(c.y + c.r + w * 0.35)})`,
        }, layer);
        svg("rect", { class: "depot__shape", x: -w / 2, y: -w / 2, width: w, height: w, rx: 1.5, fill: p.color }, g);
        const tx = svg("text", { class: "station__sym", x: 0, y: 0, dy: "0.36em", "font-size": r2(w * 0.72), fill: textOn(p.color) }, g);
        tx.textContent = p.symbol;
      }
    }
    this.updateMs = performance.now() - t0;
    return this;
  }

  /** Outline a route in the colour of the seat whose last move it was (`mk`), or not. */
  _markRoute(e, mk) {
    const g = e.g;
    g.classList.toggle("route--last", !!mk);
    g.classList.toggle("route--latest", !!(mk && mk.latest));
    if (mk) {
      g.setAttribute("data-last-seat", mk.seat);
      if (e.mark) e.mark.setAttribute("stroke", this._player(mk.seat).color);
    } else g.removeAttribute("data-last-seat");
  }

  /** A claimed route's train cars: one per space, the owner's colour and symbol on each. */
  _cars(e, seat) {
    if (e.cars) e.cars.remove();
    const G = this.G, r = e.r, p = this._player(seat);
    const h = r2(G.th * 1.3), w = r2(r.space), rx = r2(Math.min(h * 0.4, w / 2));
    const x = r2(-w / 2), y = r2(-h / 2), inset = r2(1.6 * G.ui);
    const sym = esc(p.symbol), fg = textOn(p.color), size = r2(Math.min(G.sym * 1.1, w * 0.8));
    const out = r.spaces.map((pt) =>
      `<g class="route__car" transform="translate(${r2(pt.x)} ${r2(pt.y)})">` +
      `<g class="route__car-shape" transform="rotate(${r2(r.angle)})">` +
      `<rect class="route__car-shadow" x="${x}" y="${r2(y + 1.8 * G.ui)}" width="${w}" height="${h}" rx="${rx}"/>` +
      `<rect class="route__car-body" x="${x}" y="${y}" width="${w}" height="${h}" rx="${rx}" fill="${esc(p.color)}"/>` +
      `<rect class="route__car-trim" x="${r2(x + inset)}" y="${r2(y + inset)}" width="${r2(Math.max(1, w - 2 * inset))}" height="${r2(h - 2 * inset)}" rx="${r2(Math.max(0, rx - inset))}"/></g>` +
      `<text class="route__owner" dy="0.36em" font-size="${size}" fill="${fg}">${sym}</text></g>`
    );
    const g = svg("g", { class: "route__cars", "data-seat": seat }, e.g);
    g.innerHTML = out.join("");
    // each car's place in the roll-in, set through the CSSOM (the CSP refuses style attributes)
    Array.from(g.children).forEach((car, i) => car.style.setProperty("--i", String(i)));
    e.cars = g;
  }

  routeElement(id) {
    const e = this.routeEls.get(String(id));
    return e ? e.g : null;
  }
  cityElement(name) {
    const e = this.cityEls.get(String(name));
    return e ? e.g : null;
  }

  destroy() {
    if (!this.svg) return;
    this.svg.removeEventListener("click", this._onClick);
    this.svg.removeEventListener("keydown", this._onKey);
    if (this._unfit) this._unfit();
    if (this._unzoom) this._unzoom();
    if (this.element.parentNode) this.element.parentNode.removeChild(this.element);
    this.routeEls.clear();
    this.cityEls.clear();
    this.svg = null;
    this.element = null;
  }
}

export function createBoard(container, board, options) {
  const b = new Board(container, board || {}, options || {});
  const api = {
    update: (state) => (b.update(state), api),
    destroy: () => b.destroy(),
    routeElement: (id) => b.routeElement(id),
    cityElement: (name) => b.cityElement(name),
    get element() { return b.element; },
    get svg() { return b.svg; },
    get buildMs() { return b.buildMs; },
    get updateMs() { return b.updateMs; },
    get timings() { return b.timings; },
  };
  b.update({});
  return api;
}

