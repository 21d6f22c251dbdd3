/**
 * Where the board's cities go: pure layout maths (no DOM), in viewBox units (the viewBox is
 * always VIEW_W wide).
 *
 * Terms: `pts` are [x, y] points, one per city in the cities' order; `G` is the geometry
 * scale (BASE scaled by `ui`, which grows on sparse boards with few, long routes); `rot` is
 * the map's rotation in radians.
 *
 * The layout projects latitude/longitude, turns tall maps (Manhattan) so their long axis is
 * horizontal, and then relaxes the points with a spring model seeded with the geography:
 * every route wants a length proportional to its number of spaces (as on the printed
 * boards), cities repel each other and are pushed off routes they do not belong to, crossing
 * routes are untangled and a weak anchor keeps the geography recognisable.
 * @module layout
 */

export const VIEW_W = 1000;
export const BASE = Object.freeze({
  th: 12, // car space thickness
  gap: 3, // gap between spaces
  maxSpace: 42, // longest drawn space; longer routes get centred trains with visible track
  rSmall: 6,
  rBig: 8.5,
  label: 13,
  labelBig: 14,
  sym: 9.2,
  pad: 26,
});
const ITERATIONS = 60;

/**
 * @typedef {[number, number]} Point
 * @typedef {{name: string, lat: number, lon: number, big?: boolean, big_city?: boolean}} City
 * @typedef {{a: string, b: string, length: number}} Route
 * @typedef {{x0: number, y0: number, x1: number, y1: number, w: number, h: number}} Box
 */

/** @param {Point[]} ps @returns {Box} */
export function bbox(ps) {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const [x, y] of ps) {
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  }
  return { x0, y0, x1, y1, w: x1 - x0 || 1, h: y1 - y0 || 1 };
}

/** Equirectangular projection around the mean latitude (north up). @param {City[]} cities */
export function project(cities) {
  const n = cities.length;
  const lat0 = cities.reduce((s, c) => s + Number(c.lat), 0) / (n || 1);
  const k = Math.cos((lat0 * Math.PI) / 180);
  return cities.map((c) => [Number(c.lon) * k, -Number(c.lat)]);
}

/**
 * The rotation (radians): explicit degrees, or for a tall map its principal axis turned
 * horizontal with north kept up; 0 for `false` or a map that is not tall.
 * @param {Point[]} pts
 * @param {number|boolean|string|undefined} option  degrees, false, or "auto"/undefined
 */
export function rotationFor(pts, option) {
  const n = pts.length;
  if (typeof option === "number") return (option * Math.PI) / 180;
  if (option === false || n <= 2) return 0;
  const b0 = bbox(pts);
  if (b0.w / b0.h >= 0.8) return 0;
  const mx = pts.reduce((s, p) => s + p[0], 0) / n;
  const my = pts.reduce((s, p) => s + p[1], 0) / n;
  let sxx = 0, syy = 0, sxy = 0;
  for (const [x, y] of pts) {
    sxx += (x - mx) * (x - mx);
    syy += (y - my) * (y - my);
    sxy += (x - mx) * (y - my);
  }
  const axis = 0.5 * Math.atan2(2 * sxy, sxx - syy); // angle of principal axis
  let rot = -axis;
  // keep north (0,-1) pointing upwards after rotation
  if (-Math.cos(rot) > 0) rot += Math.PI;
  return rot;
}

/** @param {Point[]} pts @param {number} rot radians */
export function rotatePoints(pts, rot) {
  if (!rot) return pts;
  const c = Math.cos(rot), s = Math.sin(rot);
  return pts.map(([x, y]) => [x * c - y * s, x * s + y * c]);
}

/**
 * Scale and translate to VIEW_W wide with `pad` around.
 * @param {Point[]} ps @param {number} pad
 * @returns {{pts: Point[], h: number, s: number}}
 */
export function fit(ps, pad) {
  const b = bbox(ps);
  const s = (VIEW_W - 2 * pad) / b.w;
  return { pts: ps.map(([x, y]) => [pad + (x - b.x0) * s, pad + (y - b.y0) * s]), h: b.h * s + 2 * pad, s };
}

/**
 * The median drawn length of one route space (viewBox units) at the fitted scale.
 * @param {Route[]} routes @param {Map<string, number>} index city name -> position
 * @param {Point[]} pts
 */
export function medianSpace(routes, index, pts) {
  const per = routes
    .filter((r) => index.has(r.a) && index.has(r.b))
    .map((r) => {
      const a = pts[index.get(r.a)], b = pts[index.get(r.b)];
      return Math.hypot(a[0] - b[0], a[1] - b[1]) / Math.max(1, r.length);
    })
    .sort((x, y) => x - y);
  return per.length ? per[per.length >> 1] : 40;
}

/**
 * The geometry scale: sparse boards (few, long routes) get bigger spaces and labels.
 * @param {number} median  medianSpace of the board
 * @param {number} rot
 */
export function geometryScale(median, rot) {
  const ui = Math.max(1, Math.min(1.4, median / 40));
  const G = {};
  for (const key in BASE) G[key] = BASE[key] * ui;
  const uiText = Math.min(ui, 1.2);
  G.label = BASE.label * uiText;
  G.labelBig = BASE.labelBig * uiText;
  G.pad = BASE.pad + 10 * (ui - 1);
  G.ui = ui;
  G.rot = rot;
  return G;
}

// ---------------------------------------------------------------- the spring model

/**
 * The model's state: positions X, Y (and their geographic anchors OX, OY), one edge per
 * pair of connected cities (EA, EB; wanted length EW; clearance EH; half width HW), city
 * radii R, incident edges per city, and the candidate lists `refresh` keeps.
 */
function springModel(cities, routes, index, pts, G, median) {
  const n = cities.length;
  const ui = G.ui;
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
  const S = {
    n, m, ui,
    EA: new Int32Array(m), EB: new Int32Array(m), EW: new Float64Array(m), EH: new Float64Array(m), HW: new Float64Array(m),
    R: new Float64Array(n),
    X: new Float64Array(n), Y: new Float64Array(n), OX: new Float64Array(n), OY: new Float64Array(n),
    minCity: 50 * ui,
    dRef: 34 * ui,
    inc: Array.from({ length: n }, () => []),
    pairs: [], near: [], xpairs: [],
  };
  cities.forEach((c, i) => (S.R[i] = c.big_city ? G.rBig : G.rSmall));
  const unit = Math.max(34 * ui, median * 0.9);
  const deg = new Float64Array(n);
  for (const e of E) {
    deg[e.a] += e.lanes;
    deg[e.b] += e.lanes;
  }
  E.forEach((e, i) => {
    S.EA[i] = e.a;
    S.EB[i] = e.b;
    // wanted distance: the spaces plus room to fan out at busy cities
    S.EW[i] = e.len * unit + S.R[e.a] + S.R[e.b] + 1.6 * ui * (deg[e.a] + deg[e.b]);
    S.EH[i] = (e.lanes > 1 ? G.th + 2 : G.th / 2 + 1) + 9 * ui; // clearance from other cities
    S.HW[i] = e.lanes > 1 ? G.th + 1.5 * ui : G.th / 2 + 0.5;
  });
  pts.forEach((p, i) => {
    S.X[i] = S.OX[i] = p[0];
    S.Y[i] = S.OY[i] = p[1];
  });
  // incident edges per city, for the angular-resolution force
  for (let i = 0; i < m; i++) {
    S.inc[S.EA[i]].push(i);
    S.inc[S.EB[i]].push(i);
  }
  const maxDeg = S.inc.reduce((mx, l) => Math.max(mx, l.length), 0);
  S.angA = new Float64Array(maxDeg);
  S.angE = new Int32Array(maxDeg);
  S.angU = new Int32Array(maxDeg);
  return S;
}

/** Turn city w about city v by delta radians. */
function rotateAbout(S, w, v, delta) {
  const { X, Y } = S;
  const dx = X[w] - X[v], dy = Y[w] - Y[v];
  const c = Math.cos(delta), s = Math.sin(delta);
  X[w] = X[v] + dx * c - dy * s;
  Y[w] = Y[v] + dx * s + dy * c;
}

/** Widen the angles between routes leaving a city until their spaces fit side by side. */
function spreadAngles(S, strength) {
  const { X, Y, EA, EB, HW, inc, angA, angE, angU, ui, dRef } = S;
  for (let v = 0; v < S.n; v++) {
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
      rotateAbout(S, angU[i], v, -delta);
      rotateAbout(S, angU[j], v, delta);
    }
  }
}

/** Which side of the line a-b the point p is on (sign), times the line's length. */
const side = (ax, ay, bx, by, px, py) => (bx - ax) * (py - ay) - (by - ay) * (px - ax);

/** Crossing routes: move the endpoint nearest to the other route across it. */
function uncross(S) {
  const { X, Y, EA, EB, xpairs, ui } = S;
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
}

/** Candidate lists (cities close to each other, cities near each route, routes that may
 * cross), refreshed every few iterations rather than on each. */
function refreshCandidates(S) {
  const { X, Y, EA, EB, EH, n, m, ui, minCity } = S;
  const pairs = [];
  const lim = (minCity * 2.5) ** 2;
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      const dx = X[j] - X[i], dy = Y[j] - Y[i];
      if (dx * dx + dy * dy < lim) pairs.push(i, j);
    }
  const near = [];
  for (let i = 0; i < m; i++) {
    const a = EA[i], b = EB[i], pad = EH[i] + 25 * ui, list = [];
    const bx0 = Math.min(X[a], X[b]) - pad, bx1 = Math.max(X[a], X[b]) + pad;
    const by0 = Math.min(Y[a], Y[b]) - pad, by1 = Math.max(Y[a], Y[b]) + pad;
    for (let c = 0; c < n; c++)
      if (c !== a && c !== b && X[c] > bx0 && X[c] < bx1 && Y[c] > by0 && Y[c] < by1) list.push(c);
    near.push(list);
  }
  const xpairs = [];
  for (let i = 0; i < m; i++)
    for (let j = i + 1; j < m; j++) {
      const a = EA[i], b = EB[i], c = EA[j], d = EB[j];
      if (a === c || a === d || b === c || b === d) continue;
      if (Math.max(X[a], X[b]) < Math.min(X[c], X[d]) || Math.min(X[a], X[b]) > Math.max(X[c], X[d])) continue;
      if (Math.max(Y[a], Y[b]) < Math.min(Y[c], Y[d]) || Math.min(Y[a], Y[b]) > Math.max(Y[c], Y[d])) continue;
      xpairs.push(i, j);
    }
  Object.assign(S, { pairs, near, xpairs });
}

/** Every route towards its wanted length: push hard when too short, pull gently when too long. */
function springs(S, kSpring) {
  const { X, Y, EA, EB, EW } = S;
  for (let i = 0; i < S.m; i++) {
    const a = EA[i], b = EB[i];
    const dx = X[b] - X[a], dy = Y[b] - Y[a];
    const d = Math.sqrt(dx * dx + dy * dy) || 0.01;
    let f = (EW[i] - d) / d;
    f *= f > 0 ? 0.5 : kSpring;
    X[a] -= dx * f * 0.5; Y[a] -= dy * f * 0.5;
    X[b] += dx * f * 0.5; Y[b] += dy * f * 0.5;
  }
}

/** Cities closer than minCity push each other apart. */
function repelCities(S) {
  const { X, Y, pairs, minCity } = S;
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
}

/** A city lying on a route it does not belong to moves off it (and the route away). */
function clearRoutes(S) {
  const { X, Y, EA, EB, EH, R, near } = S;
  for (let i = 0; i < S.m; i++) {
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
}

/** A weak pull back towards the geography. */
function anchor(S, strength) {
  const { X, Y, OX, OY } = S;
  for (let i = 0; i < S.n; i++) {
    X[i] += (OX[i] - X[i]) * strength;
    Y[i] += (OY[i] - Y[i]) * strength;
  }
}

/**
 * Relax fitted points with the spring model; returns the new points (not yet re-fitted).
 * @returns {Point[]}
 */
export function relax(cities, routes, index, pts, G, median) {
  const S = springModel(cities, routes, index, pts, G, median);
  for (let it = 0; it < ITERATIONS; it++) {
    if (it % 10 === 0) refreshCandidates(S);
    if (it % 3 === 0) uncross(S);
    spreadAngles(S, 0.25);
    const cool = 1 - it / ITERATIONS;
    springs(S, 0.15 + 0.15 * cool);
    repelCities(S);
    clearRoutes(S);
    anchor(S, 0.012 * cool);
  }
  return Array.from(S.X, (x, i) => [x, S.Y[i]]);
}

/**
 * The board's layout.
 * @param {City[]} cities
 * @param {Route[]} routes
 * @param {{rotate?: number|boolean|string, relax?: boolean}} options
 * @returns {{pts: Point[], height: number, G: Record<string, number>}}
 */
export function layout(cities, routes, options) {
  const n = cities.length;
  let pts = project(cities);
  const rot = rotationFor(pts, options.rotate);
  pts = rotatePoints(pts, rot);
  const index = new Map(cities.map((c, i) => [c.name, i]));
  const median = medianSpace(routes, index, fit(pts, BASE.pad).pts);
  const G = geometryScale(median, rot);
  let f = fit(pts, G.pad);
  if (options.relax !== false && n > 1) f = fit(relax(cities, routes, index, f.pts, G, median), G.pad);
  return { pts: f.pts, height: Math.max(200, f.h), G };
}
