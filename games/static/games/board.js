/*
 * ttr board renderer — draws a Ticket to Ride map as inline SVG.
 * Plain ES2020, no dependencies, no build step. Load with
 *   <link rel="stylesheet" href="{% static 'games/board.css' %}">
 *   <script src="{% static 'games/board.js' %}"></script>
 * and use the global `window.TTRBoard`.
 *
 * API
 * ---
 * const b = TTRBoard.create(containerElement, board, options)
 *   board:   {ruleset, cities: [{name, display_name?, lat, lon, big_city?, tourist_attraction?}],
 *             routes: [{id, a, b, length, color, tunnel?, ferry_locomotives?, double_group?}]}
 *            (`locations` is accepted as an alias of `cities`).
 *   options: players       array indexed by seat: {name, color (any CSS colour), symbol (one char)}
 *            t             translation function (default window.gettext if present, else identity)
 *            onRouteClick  function(routeId)   — only called for routes in state.selectableRoutes
 *            onCityClick   function(cityName)  — only called for cities in state.selectableCities
 *            legend        true (default) — HTML legend below the map; false to hide
 *            stations      show the station item in the legend (default: ruleset !== "new_york")
 *            minWidth      px; the SVG never renders narrower than this and the wrapper scrolls
 *                          horizontally instead (default 600; 0 = always fit the container)
 *            rotate        degrees clockwise, or "auto" (default: tall maps such as Manhattan are
 *                          turned so their long axis is horizontal)
 *            relax         true (default): geography-seeded spring layout so routes get room
 *                          proportional to their length and never cross; false = pure projection
 *   Returns an object with:
 * b.update(state)   cheap re-render of the dynamic layer only. Every field is optional:
 *   {claims: {routeId: seat}, stations: {cityName: seat}, depots: {cityName: seat},
 *    selectableRoutes: [routeId], selectableCities: [cityName],
 *    highlight: [routeId]  (drawn with a glow, e.g. longest path),
 *    closed: [routeId]     (closed double routes, drawn faded)}
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
 *   Claimed routes also carry data-seat. A click/tap that misses by a few pixels (10px, 22px on
 *   touch screens) goes to the nearest selectable route/city.
 *   Stations: <g class="station" data-station-city=.. data-seat=..>, depots: <g class="depot" ...>.
 *
 * Exports: TTRBoard.COLOR_FILLS, TTRBoard.COLOR_SYMBOLS (colour-blind letters), TTRBoard.COLOR_TEXT
 * (legible text colour on each fill), TTRBoard.COLOR_NAMES (canonical order).
 */
(function (global) {
  "use strict";

  const SVGNS = "http://www.w3.org/2000/svg";

  const COLOR_NAMES = Object.freeze(["pink", "white", "blue", "yellow", "orange", "black", "red", "green", "gray"]);
  const COLOR_FILLS = Object.freeze({
    pink: "#f29bc4",
    white: "#f8f8f4",
    blue: "#2b6fd8",
    yellow: "#f6d21b",
    orange: "#f0861c",
    black: "#26262b",
    red: "#d8322b",
    green: "#2f9a48",
    gray: "#a9a9a6",
    locomotive: "#7b5aa6",
  });
  const COLOR_SYMBOLS = Object.freeze({
    pink: "P",
    white: "W",
    blue: "B",
    yellow: "Y",
    orange: "O",
    black: "K",
    red: "R",
    green: "G",
    gray: "",
    locomotive: "✦",
  });
  const COLOR_TEXT = Object.freeze({
    pink: "#1d1d1d",
    white: "#1d1d1d",
    blue: "#ffffff",
    yellow: "#1d1d1d",
    orange: "#1d1d1d",
    black: "#ffffff",
    red: "#ffffff",
    green: "#ffffff",
    gray: "#1d1d1d",
    locomotive: "#ffffff",
  });

  // Base geometry in viewBox units (the viewBox is always VIEW_W wide).
  const VIEW_W = 1000;
  const BASE = {
    th: 12, // car space thickness
    gap: 3, // gap between spaces
    maxSpace: 42, // longest drawn space; longer routes get centred trains with visible track
    rSmall: 6,
    rBig: 8.5,
    label: 13,
    labelBig: 14,
    sym: 9.2,
    pad: 26,
  };
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

  // Approximate advance widths (em) of a semi-bold sans-serif. Used instead of canvas
  // measureText: no font loading/layout cost, and web fonts may not be ready at build time.
  const NARROW = new Set("iljtfrI.,:;'!|() ");
  const WIDE = new Set("mwMWÆŒ");
  function textWidth(text, size, bold) {
    let em = 0;
    for (const ch of text) {
      if (NARROW.has(ch)) em += 0.34;
      else if (WIDE.has(ch)) em += 0.9;
      else if (ch >= "0" && ch <= "9") em += 0.62;
      else if (ch !== ch.toLowerCase()) em += 0.74;
      else em += 0.61;
    }
    return em * size * (bold ? 1.06 : 1) + 4;
  }

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

  // Liang–Barsky: length of segment (x0,y0)-(x1,y1) inside rect {x0,y0,x1,y1}.
  function clipLength(x0, y0, x1, y1, r) {
    let t0 = 0;
    let t1 = 1;
    const dx = x1 - x0;
    const dy = y1 - y0;
    const clip = (p, q) => {
      if (p === 0) return q >= 0;
      const t = q / p;
      if (p < 0) {
        if (t > t1) return false;
        if (t > t0) t0 = t;
      } else {
        if (t < t0) return false;
        if (t < t1) t1 = t;
      }
      return true;
    };
    if (clip(-dx, x0 - r.x0) && clip(dx, r.x1 - x0) && clip(-dy, y0 - r.y0) && clip(dy, r.y1 - y0)) {
      return (t1 - t0) * Math.sqrt(dx * dx + dy * dy);
    }
    return 0;
  }
  function overlapArea(a, b) {
    const w = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
    const h = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
    return w > 0 && h > 0 ? w * h : 0;
  }
  function segDist(px, py, ax, ay, bx, by) {
    const dx = bx - ax;
    const dy = by - ay;
    const L = dx * dx + dy * dy || 1;
    let t = ((px - ax) * dx + (py - ay) * dy) / L;
    t = Math.max(0, Math.min(1, t));
    return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
  }

  // ---------------------------------------------------------------- layout
  function layout(cities, routes, options) {
    const n = cities.length;
    const lat0 = cities.reduce((s, c) => s + Number(c.lat), 0) / (n || 1);
    const k = Math.cos((lat0 * Math.PI) / 180);
    let pts = cities.map((c) => [Number(c.lon) * k, -Number(c.lat)]);

    // Rotation: explicit degrees, or auto for tall maps (principal axis -> horizontal, north kept up).
    let rot = 0;
    const bbox = (ps) => {
      let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
      for (const [x, y] of ps) {
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
      }
      return { x0, y0, x1, y1, w: x1 - x0 || 1, h: y1 - y0 || 1 };
    };
    if (typeof options.rotate === "number") {
      rot = (options.rotate * Math.PI) / 180;
    } else if (options.rotate !== false && n > 2) {
      const b0 = bbox(pts);
      if (b0.w / b0.h < 0.8) {
        const mx = pts.reduce((s, p) => s + p[0], 0) / n;
        const my = pts.reduce((s, p) => s + p[1], 0) / n;
        let sxx = 0, syy = 0, sxy = 0;
        for (const [x, y] of pts) {
          sxx += (x - mx) * (x - mx);
          syy += (y - my) * (y - my);
          sxy += (x - mx) * (y - my);
        }
        const axis = 0.5 * Math.atan2(2 * sxy, sxx - syy); // angle of principal axis
        rot = -axis;
        // keep north (0,-1) pointing upwards after rotation
        if (-Math.cos(rot) > 0) rot += Math.PI;
      }
    }
    if (rot) {
      const c = Math.cos(rot), s = Math.sin(rot);
      pts = pts.map(([x, y]) => [x * c - y * s, x * s + y * c]);
    }

    const fit = (ps, pad) => {
      const b = bbox(ps);
      const s = (VIEW_W - 2 * pad) / b.w;
      return { pts: ps.map(([x, y]) => [pad + (x - b.x0) * s, pad + (y - b.y0) * s]), h: b.h * s + 2 * pad, s };
    };
    let f = fit(pts, BASE.pad);

    // UI scale: sparse boards (few, long routes) get bigger spaces and labels.
    const index = new Map(cities.map((c, i) => [c.name, i]));
    const per = routes
      .filter((r) => index.has(r.a) && index.has(r.b))
      .map((r) => {
        const a = f.pts[index.get(r.a)], b = f.pts[index.get(r.b)];
        return Math.hypot(a[0] - b[0], a[1] - b[1]) / Math.max(1, r.length);
      })
      .sort((x, y) => x - y);
    const median = per.length ? per[per.length >> 1] : 40;
    const ui = Math.max(1, Math.min(1.4, median / 40));
    const G = {};
    for (const key in BASE) G[key] = BASE[key] * ui;
    const uiText = Math.min(ui, 1.2);
    G.label = BASE.label * uiText;
    G.labelBig = BASE.labelBig * uiText;
    G.pad = BASE.pad + 10 * (ui - 1);
    G.ui = ui;
    G.rot = rot;
    f = fit(pts, G.pad);

    if (options.relax !== false && n > 1) {
      // Spring layout seeded with geography: every route pulls/pushes its cities towards a
      // distance proportional to its length (as on the printed boards), cities repel each other
      // and cities are pushed off routes they don't belong to. A weak anchor keeps the geography.
      const edges = new Map();
      for (const r of routes) {
        const ia = index.get(r.a), ib = index.get(r.b);
        if (ia === undefined || ib === undefined || ia === ib) continue;
        const key = ia < ib ? ia + "|" + ib : ib + "|" + ia;
        const e = edges.get(key) || { a: Math.min(ia, ib), b: Math.max(ia, ib), len: 0, lanes: 0 };
        e.len = Math.max(e.len, r.length);
        e.lanes += 1;
        edges.set(key, e);
      }
      const E = [...edges.values()];
      const m = E.length;
      const EA = new Int32Array(m), EB = new Int32Array(m), EW = new Float64Array(m), EH = new Float64Array(m);
      const R = new Float64Array(n);
      cities.forEach((c, i) => (R[i] = c.big_city ? G.rBig : G.rSmall));
      const unit = Math.max(34 * ui, median * 0.9);
      const deg = new Float64Array(n);
      for (const e of E) {
        deg[e.a] += e.lanes;
        deg[e.b] += e.lanes;
      }
      E.forEach((e, i) => {
        EA[i] = e.a;
        EB[i] = e.b;
        // wanted distance: the spaces plus room to fan out at busy cities
        EW[i] = e.len * unit + R[e.a] + R[e.b] + 1.6 * ui * (deg[e.a] + deg[e.b]);
        EH[i] = (e.lanes > 1 ? G.th + 2 : G.th / 2 + 1) + 9 * ui; // clearance from other cities
      });
      const X = new Float64Array(n), Y = new Float64Array(n), OX = new Float64Array(n), OY = new Float64Array(n);
      f.pts.forEach((p, i) => {
        X[i] = OX[i] = p[0];
        Y[i] = OY[i] = p[1];
      });
      const minCity = 50 * ui;
      const iters = 60;
      // incident edges per city, for the angular-resolution force
      const inc = Array.from({ length: n }, () => []);
      for (let i = 0; i < m; i++) {
        inc[EA[i]].push(i);
        inc[EB[i]].push(i);
      }
      const HW = new Float64Array(m);
      E.forEach((e, i) => (HW[i] = e.lanes > 1 ? G.th + 1.5 * ui : G.th / 2 + 0.5));
      const dRef = 34 * ui;
      const maxDeg = inc.reduce((mx, l) => Math.max(mx, l.length), 0);
      const angA = new Float64Array(maxDeg), angE = new Int32Array(maxDeg), angU = new Int32Array(maxDeg);
      const rotate = (w, v, delta) => {
        const dx = X[w] - X[v], dy = Y[w] - Y[v];
        const c = Math.cos(delta), s = Math.sin(delta);
        X[w] = X[v] + dx * c - dy * s;
        Y[w] = Y[v] + dx * s + dy * c;
      };
      const spreadAngles = (strength) => {
        for (let v = 0; v < n; v++) {
          const list = inc[v];
          const k = list.length;
          if (k < 2) continue;
          for (let i = 0; i < k; i++) {
            // insertion sort by angle (degrees are small)
            const e = list[i], u = EA[e] === v ? EB[e] : EA[e];
            const a = Math.atan2(Y[u] - Y[v], X[u] - X[v]);
            let j = i - 1;
            while (j >= 0 && angA[j] > a) {
              angA[j + 1] = angA[j]; angE[j + 1] = angE[j]; angU[j + 1] = angU[j];
              j--;
            }
            angA[j + 1] = a; angE[j + 1] = e; angU[j + 1] = u;
          }
          for (let i = 0; i < k; i++) {
            const j = (i + 1) % k;
            let gap = angA[j] - angA[i];
            if (gap <= 0) gap += 2 * Math.PI;
            const want = Math.atan2(HW[angE[i]] + HW[angE[j]] + 4 * ui, dRef);
            if (gap >= want) continue;
            const delta = (want - gap) * strength;
            rotate(angU[i], v, -delta);
            rotate(angU[j], v, delta);
          }
        }
      };
      // crossing routes: move the endpoint nearest to the other route across it
      const side = (ax, ay, bx, by, px, py) => (bx - ax) * (py - ay) - (by - ay) * (px - ax);
      let xpairs = [];
      const uncross = () => {
        for (let k = 0; k < xpairs.length; k += 2) {
          const i = xpairs[k], j = xpairs[k + 1];
          const a = EA[i], b = EB[i], c = EA[j], d = EB[j];
          const s1 = side(X[a], Y[a], X[b], Y[b], X[c], Y[c]), s2 = side(X[a], Y[a], X[b], Y[b], X[d], Y[d]);
          const s3 = side(X[c], Y[c], X[d], Y[d], X[a], Y[a]), s4 = side(X[c], Y[c], X[d], Y[d], X[b], Y[b]);
          if (!(s1 * s2 < 0 && s3 * s4 < 0)) continue;
          const la = Math.sqrt((X[b] - X[a]) ** 2 + (Y[b] - Y[a]) ** 2) || 1, lc = Math.sqrt((X[d] - X[c]) ** 2 + (Y[d] - Y[c]) ** 2) || 1;
          // endpoint closest to the other route moves across it
          let dist = Math.abs(s1) / la, w = c, p = a, q = b;
          if (Math.abs(s2) / la < dist) { dist = Math.abs(s2) / la; w = d; }
          if (Math.abs(s3) / lc < dist) { dist = Math.abs(s3) / lc; w = a; p = c; q = d; }
          if (Math.abs(s4) / lc < dist) { dist = Math.abs(s4) / lc; w = b; p = c; q = d; }
          const lx = X[q] - X[p], ly = Y[q] - Y[p], ll = Math.sqrt(lx * lx + ly * ly) || 1;
          let nx = -ly / ll, ny = lx / ll;
          if (side(X[p], Y[p], X[q], Y[q], X[w], Y[w]) > 0) { nx = -nx; ny = -ny; }
          const mv = (dist + 14 * ui) * 0.5;
          X[w] += nx * mv; Y[w] += ny * mv;
        }
      };
      let pairs = [], near = [];
      const refresh = () => {
        // candidate lists (cities close to each other / to each route), refreshed periodically
        pairs = [];
        const lim = (minCity * 2.5) ** 2;
        for (let i = 0; i < n; i++)
          for (let j = i + 1; j < n; j++) {
            const dx = X[j] - X[i], dy = Y[j] - Y[i];
            if (dx * dx + dy * dy < lim) pairs.push(i, j);
          }
        near = [];
        for (let i = 0; i < m; i++) {
          const a = EA[i], b = EB[i], pad = EH[i] + 25 * ui, list = [];
          const bx0 = Math.min(X[a], X[b]) - pad, bx1 = Math.max(X[a], X[b]) + pad;
          const by0 = Math.min(Y[a], Y[b]) - pad, by1 = Math.max(Y[a], Y[b]) + pad;
          for (let c = 0; c < n; c++)
            if (c !== a && c !== b && X[c] > bx0 && X[c] < bx1 && Y[c] > by0 && Y[c] < by1) list.push(c);
          near.push(list);
        }
        xpairs = [];
        for (let i = 0; i < m; i++)
          for (let j = i + 1; j < m; j++) {
            const a = EA[i], b = EB[i], c = EA[j], d = EB[j];
            if (a === c || a === d || b === c || b === d) continue;
            if (Math.max(X[a], X[b]) < Math.min(X[c], X[d]) || Math.min(X[a], X[b]) > Math.max(X[c], X[d])) continue;
            if (Math.max(Y[a], Y[b]) < Math.min(Y[c], Y[d]) || Math.min(Y[a], Y[b]) > Math.max(Y[c], Y[d])) continue;
            xpairs.push(i, j);
          }
      };
      for (let it = 0; it < iters; it++) {
        if (it % 10 === 0) refresh();
        if (it % 3 === 0) uncross();
        spreadAngles(0.25);
        const cool = 1 - it / iters;
        const kSpring = 0.15 + 0.15 * cool;
        for (let i = 0; i < m; i++) {
          const a = EA[i], b = EB[i];
          const dx = X[b] - X[a], dy = Y[b] - Y[a];
          const d = Math.sqrt(dx * dx + dy * dy) || 0.01;
          let f = (EW[i] - d) / d;
          f *= f > 0 ? 0.5 : kSpring; // push hard when too short, pull gently when too long
          X[a] -= dx * f * 0.5; Y[a] -= dy * f * 0.5;
          X[b] += dx * f * 0.5; Y[b] += dy * f * 0.5;
        }
        for (let k = 0; k < pairs.length; k += 2) {
          const i = pairs[k], j = pairs[k + 1];
          const dx = X[j] - X[i], dy = Y[j] - Y[i];
          const d2 = dx * dx + dy * dy;
          if (d2 < minCity * minCity) {
            const d = Math.sqrt(d2) || 0.01;
            const f = ((minCity - d) / d) * 0.25;
            X[i] -= dx * f; Y[i] -= dy * f;
            X[j] += dx * f; Y[j] += dy * f;
          }
        }
        for (let i = 0; i < m; i++) {
          const list = near[i];
          if (!list.length) continue;
          const a = EA[i], b = EB[i], clear = EH[i];
          const ax = X[a], ay = Y[a], dx = X[b] - ax, dy = Y[b] - ay;
          const L2 = dx * dx + dy * dy || 1;
          for (const c of list) {
            const px = X[c], py = Y[c];
            const t = ((px - ax) * dx + (py - ay) * dy) / L2;
            if (t <= 0.02 || t >= 0.98) continue;
            const ox = px - (ax + t * dx), oy = py - (ay + t * dy);
            const dist = Math.sqrt(ox * ox + oy * oy) || 0.01;
            const want = clear + R[c];
            if (dist < want) {
              const f = ((want - dist) / dist) * 0.5;
              X[c] += ox * f; Y[c] += oy * f;
              X[a] -= ox * f * (1 - t) * 0.4; Y[a] -= oy * f * (1 - t) * 0.4;
              X[b] -= ox * f * t * 0.4; Y[b] -= oy * f * t * 0.4;
            }
          }
        }
        const anchor = 0.012 * cool;
        for (let i = 0; i < n; i++) {
          X[i] += (OX[i] - X[i]) * anchor;
          Y[i] += (OY[i] - Y[i]) * anchor;
        }
      }
      f = fit(Array.from(X, (x, i) => [x, Y[i]]), G.pad);
    }
    return { pts: f.pts, height: Math.max(200, f.h), G };
  }

  // ---------------------------------------------------------------- board
  class Board {
    constructor(container, board, options) {
      if (!container) throw new Error("TTRBoard.create: container element required");
      const t0 = performance.now();
      this.container = container;
      this.options = options || {};
      const gt = typeof global.gettext === "function" ? (s) => global.gettext(s) : (s) => s;
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
      this.ruleset = board.ruleset || "";

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
      this._geometry();
      this._placeLabels();
      this.timings.labels = performance.now() - tm;
      tm = performance.now();
      this._build();
      this.timings.build = performance.now() - tm;
      this.buildMs = performance.now() - t0;
    }

    // Route geometry: offsets for doubles, trimming, car spaces.
    _geometry() {
      const G = this.G;
      const groups = new Map();
      for (const r of this.routes) {
        if (r.group === null) continue;
        const key = r.group + "|" + [r.a, r.b].sort().join("|");
        if (!groups.has(key)) groups.set(key, []);
        groups.get(key).push(r);
      }
      const lane = new Map();
      for (const list of groups.values()) {
        list.sort((x, y) => (x.id < y.id ? -1 : 1));
        list.forEach((r, i) => lane.set(r, { i, n: list.length }));
      }
      // Corridors (all lanes between two cities). Where corridors leave a city at a narrow
      // angle, their car spaces start further out so they never overlap; a thin track line
      // still connects them to the city.
      const corridors = new Map();
      for (const r of this.routes) {
        const key = [r.a, r.b].sort().join("|");
        let c = corridors.get(key);
        if (!c) corridors.set(key, (c = { a: r.a, b: r.b, lanes: 0, trim: {} }));
        c.lanes = Math.max(c.lanes, lane.has(r) ? lane.get(r).n : 1);
      }
      const byCity = new Map();
      for (const c of corridors.values()) {
        const A = this.cityByName.get(c.a), B = this.cityByName.get(c.b);
        c.len = Math.hypot(B.x - A.x, B.y - A.y);
        c.half = c.lanes > 1 ? (c.lanes * (G.th + 2.5 * G.ui)) / 2 : G.th / 2;
        for (const [v, w] of [[A, B], [B, A]]) {
          if (!byCity.has(v.name)) byCity.set(v.name, []);
          byCity.get(v.name).push({ c, a: Math.atan2(w.y - v.y, w.x - v.x) });
        }
      }
      for (const [name, list] of byCity) {
        const v = this.cityByName.get(name);
        list.sort((p, q) => p.a - q.a);
        for (let k = 0; k < list.length; k++) {
          const p = list[k];
          let need = 0;
          if (list.length > 1) {
            for (const q of [list[(k + 1) % list.length], list[(k - 1 + list.length) % list.length]]) {
              let gap = Math.abs(q.a - p.a);
              if (gap > Math.PI) gap = 2 * Math.PI - gap;
              if (gap < Math.PI / 2) need = Math.max(need, (p.c.half + q.c.half + 2 * G.ui) / Math.max(0.05, Math.sin(gap)));
            }
          }
          p.c.trim[name] = Math.min(need, p.c.len * 0.3, v.r + 26 * G.ui);
        }
      }
      for (const r of this.routes) {
        // canonical direction so both members of a double share the same normal
        const flip = r.a > r.b;
        const A = this.cityByName.get(flip ? r.b : r.a);
        const B = this.cityByName.get(flip ? r.a : r.b);
        const dx = B.x - A.x, dy = B.y - A.y;
        const d = Math.hypot(dx, dy) || 1;
        const ux = dx / d, uy = dy / d;
        const nx = -uy, ny = ux;
        const ln = lane.get(r);
        const off = ln ? (ln.i - (ln.n - 1) / 2) * (G.th + 2.5 * G.ui) : 0;
        const edgeA = Math.sqrt(Math.max(0, A.r * A.r - off * off)), edgeB = Math.sqrt(Math.max(0, B.r * B.r - off * off));
        const cor = corridors.get([r.a, r.b].sort().join("|"));
        const trimA = Math.max(edgeA + 3 * G.ui, cor.trim[A.name] || 0);
        const trimB = Math.max(edgeB + 3 * G.ui, cor.trim[B.name] || 0);
        const tx0 = A.x + nx * off + ux * edgeA, ty0 = A.y + ny * off + uy * edgeA;
        const tx1 = B.x + nx * off - ux * edgeB, ty1 = B.y + ny * off - uy * edgeB;
        const x0 = A.x + nx * off + ux * trimA, y0 = A.y + ny * off + uy * trimA;
        const x1 = B.x + nx * off - ux * trimB, y1 = B.y + ny * off - uy * trimB;
        const len = Math.max(1, d - trimA - trimB);
        const gap = Math.min(G.gap, (len / r.length) * 0.2);
        const space = Math.max(2, Math.min(G.maxSpace, (len - gap * (r.length - 1)) / r.length));
        const total = space * r.length + gap * (r.length - 1);
        const start = (len - total) / 2 + space / 2;
        let angle = (Math.atan2(uy, ux) * 180) / Math.PI;
        const spaces = [];
        for (let i = 0; i < r.length; i++) {
          const s = start + i * (space + gap);
          spaces.push({ x: x0 + ux * s, y: y0 + uy * s });
        }
        Object.assign(r, { x0, y0, x1, y1, tx0, ty0, tx1, ty1, angle, space, spaces, double: !!ln, off, ux, uy, len });
      }
    }

    // Greedy label placement avoiding nodes, routes, other labels and the border.
    _placeLabels() {
      const G = this.G;
      const W = VIEW_W, H = this.height;
      const half = G.th / 2 + 1;
      const segs = this.routes.map((r) => ({
        x0: r.x0, y0: r.y0, x1: r.x1, y1: r.y1,
        bx0: Math.min(r.x0, r.x1) - half, bx1: Math.max(r.x0, r.x1) + half,
        by0: Math.min(r.y0, r.y1) - half, by1: Math.max(r.y0, r.y1) + half,
      }));
      const rectDist = (rc, x, y) => Math.hypot(Math.max(rc.x0 - x, 0, x - rc.x1), Math.max(rc.y0 - y, 0, y - rc.y1));
      const nodes = this.cities.map((o) => ({ c: o, x0: o.x - o.r - 2, y0: o.y - o.r - 2, x1: o.x + o.r + 2, y1: o.y + o.r + 2 }));
      const degree = new Map(this.cities.map((c) => [c.name, 0]));
      for (const r of this.routes) {
        degree.set(r.a, degree.get(r.a) + 1);
        degree.set(r.b, degree.get(r.b) + 1);
      }
      const order = this.cities.slice().sort((a, b) => b.big - a.big || degree.get(b.name) - degree.get(a.name));
      // candidate directions every 30°, preferring right, then above/left/below, then diagonals
      const dirs = [];
      for (let k = 0; k < 12; k++) {
        const th = (k * Math.PI) / 6;
        const pref = [0, 3, 2, 1, 2, 3, 1, 3, 2, 1.5, 2, 3][k];
        dirs.push([Math.cos(th), Math.sin(th), pref]);
      }
      const q = { x0: 0, y0: 0, x1: 0, y1: 0 };
      const placeOne = (c, placed) => {
        const size = c.big ? G.labelBig : G.label;
        const w = textWidth(c.display, size, c.big);
        const h = size * 1.02;
        // only things within reach of any candidate rectangle matter
        const reach = w + c.r + 40 * G.ui;
        const rx0 = c.x - reach, rx1 = c.x + reach, ry0 = c.y - reach, ry1 = c.y + reach;
        const nearSegs = segs.filter((sg) => !(sg.bx1 < rx0 || sg.bx0 > rx1 || sg.by1 < ry0 || sg.by0 > ry1));
        const nearNodes = nodes.filter((o) => o.c !== c && !(o.x1 < rx0 || o.x0 > rx1 || o.y1 < ry0 || o.y0 > ry1));
        const nearPlaced = placed.filter((o) => !(o.x1 < rx0 || o.x0 > rx1 || o.y1 < ry0 || o.y0 > ry1));
        let best = null;
        for (const dist of [2, 6, 11, 17, 24]) {
          for (const [dx, dy, pref] of dirs) {
            const gap = c.r + dist * G.ui;
            const ext = Math.abs(dx) * (w / 2) + Math.abs(dy) * (h / 2);
            const cx = c.x + dx * (gap + ext), cy = c.y + dy * (gap + ext);
            const rect = { x0: cx - w / 2, y0: cy - h / 2, x1: cx + w / 2, y1: cy + h / 2 };
            let cost = pref * 6 + dist * 3;
            if (best && cost >= best.cost) continue;
            if (rect.x0 < 2 || rect.y0 < 2 || rect.x1 > W - 2 || rect.y1 > H - 2) cost += 100000;
            for (const o of nearPlaced) {
              const a = overlapArea(rect, o);
              if (a > 0) cost += 300 + a * 20;
            }
            const own = rectDist(rect, c.x, c.y);
            for (const o of nearNodes) {
              const a = overlapArea(rect, o);
              if (a > 0) cost += 600 + a * 20;
              // ambiguity: another city as close to the label as its own city
              else if (rectDist(rect, o.c.x, o.c.y) - o.c.r < own + 4 * G.ui) cost += 150;
            }
            for (const sg of nearSegs) {
              if (sg.bx1 < rect.x0 || sg.bx0 > rect.x1 || sg.by1 < rect.y0 || sg.by0 > rect.y1) continue;
              q.x0 = rect.x0 - half; q.y0 = rect.y0 - half; q.x1 = rect.x1 + half; q.y1 = rect.y1 + half;
              const l = clipLength(sg.x0, sg.y0, sg.x1, sg.y1, q);
              if (l > 0) cost += 400 + l * 25;
            }
            if (!best || cost < best.cost) best = { cost, rect, size };
          }
        }
        return best;
      };
      const labelOf = new Map();
      for (const c of order) {
        const best = placeOne(c, [...labelOf.values()].map((l) => l.rect));
        labelOf.set(c, best);
      }
      // one refinement pass: re-place every label knowing where all the others ended up
      for (const c of order) {
        if (labelOf.get(c).cost < 100) continue;
        labelOf.delete(c);
        labelOf.set(c, placeOne(c, [...labelOf.values()].map((l) => l.rect)));
      }
      for (const [c, best] of labelOf) c.label = best;
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
        const rects = [], syms = [];
        for (const ch of g.children) {
          const cl = ch.getAttribute("class");
          if (cl === "route__space") rects.push(ch);
          else if (cl === "route__sym") syms.push(ch);
        }
        this.routeEls.set(String(r.id), { g, title: g.firstElementChild, rects, syms, r });
      });
      this.cityEls = new Map();
      const cg = gCities.children;
      this.cities.forEach((c, i) => this.cityEls.set(c.name, { g: cg[i], title: cg[i].firstElementChild, c }));

      if (this.options.legend !== false) this._legend(root);

      this._onClick = (ev) => this._handleClick(ev);
      this._onKey = (ev) => this._handleKey(ev);
      s.addEventListener("click", this._onClick);
      s.addEventListener("keydown", this._onKey);
      this.container.appendChild(root);
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
      const stations = this.options.stations ?? this.ruleset !== "new_york";
      if (stations)
        item(`<path d="${this._housePath(14)}" class="station__shape" fill="#fff"/>`, t("station"));
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
      const tol = (ev.pointerType === "touch" || (global.matchMedia && global.matchMedia("(pointer: coarse)").matches) ? 22 : 10) / scale;
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
      this._selRoutes = sel;
      this._selCities = selC;
      this.element.classList.toggle("ttr-board--selecting", sel.size > 0 || selC.size > 0);

      for (const [id, e] of this.routeEls) {
        const seat = Object.prototype.hasOwnProperty.call(claims, id) ? claims[id] : undefined;
        const claimed = seat !== undefined && seat !== null;
        const isSel = sel.has(id), isHl = hl.has(id), isClosed = closed.has(id);
        const key = (claimed ? seat : "-") + (isSel ? "s" : "") + (isHl ? "h" : "") + (isClosed ? "c" : "");
        if (this._routeKeys.get(id) === key) continue;
        const prevClaim = (this._routeKeys.get(id) || "-")[0] !== "-";
        this._routeKeys.set(id, key);
        const g = e.g, r = e.r;
        g.classList.toggle("route--claimed", claimed);
        g.classList.toggle("route--selectable", isSel);
        g.classList.toggle("route--highlight", isHl);
        g.classList.toggle("route--closed", isClosed && !claimed);
        if (claimed) {
          const p = this._player(seat);
          const fg = textOn(p.color);
          g.setAttribute("data-seat", seat);
          for (const rect of e.rects) rect.setAttribute("fill", p.color);
          for (const tx of e.syms) {
            tx.textContent = p.symbol;
            tx.setAttribute("fill", fg);
          }
        } else if (prevClaim || g.hasAttribute("data-seat")) {
          g.removeAttribute("data-seat");
          for (const rect of e.rects) rect.setAttribute("fill", COLOR_FILLS[r.color]);
          e.syms.forEach((tx, i) => {
            tx.textContent = i < r.ferry ? "" : COLOR_SYMBOLS[r.color];
            tx.setAttribute("fill", COLOR_TEXT[r.color]);
          });
        }
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
      const mkey = JSON.stringify([stations, depots]);
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
          const g = svg("g", {
            class: "station", "data-station-city": name, "data-seat": seat,
            transform: `translate(${r2(c.x)} ${r2(c.y - w * 0.05)})`,
          }, layer);
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
      if (this.element.parentNode) this.element.parentNode.removeChild(this.element);
      this.routeEls.clear();
      this.cityEls.clear();
      this.svg = null;
      this.element = null;
    }
  }

  function create(container, board, options) {
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

  global.TTRBoard = Object.freeze({
    create,
    COLOR_NAMES,
    COLOR_FILLS,
    COLOR_SYMBOLS,
    COLOR_TEXT,
  });
})(typeof window !== "undefined" ? window : globalThis);
