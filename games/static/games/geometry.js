/**
 * The board's static geometry, pure (no DOM): where each route's car spaces go (lanes of
 * double routes side by side, spaces kept clear of busy cities) and where each city's label
 * goes (greedy placement that avoids cities, routes, other labels and the border).
 * Mutates the route and city records it is given (x/y and the like), as the renderer reads them.
 * @module geometry
 */
import { VIEW_W } from "./layout.js";

// Approximate advance widths (em) of a semi-bold sans-serif. Used instead of canvas
// measureText: no font loading/layout cost, and web fonts may not be ready at build time.
const NARROW = new Set("iljtfrI.,:;'!|() ");
const WIDE = new Set("mwMWÆŒ");
export function textWidth(text, size, bold) {
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

// Liang–Barsky: length of segment (x0,y0)-(x1,y1) inside rect {x0,y0,x1,y1}.
export function clipLength(x0, y0, x1, y1, r) {
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
export function overlapArea(a, b) {
  const w = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
  const h = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
  return w > 0 && h > 0 ? w * h : 0;
}
export function segDist(px, py, ax, ay, bx, by) {
  const dx = bx - ax;
  const dy = by - ay;
  const L = dx * dx + dy * dy || 1;
  let t = ((px - ax) * dx + (py - ay) * dy) / L;
  t = Math.max(0, Math.min(1, t));
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}

/**
 * Route geometry: offsets for doubles, trimming, car spaces. Sets on each route x0..y1 (the
 * spaces' line), tx0..ty1 (the track), angle, space, spaces [{x, y}], double, off, ux, uy, len.
 * @param {object[]} routes  {id, a, b, length, group}
 * @param {Map<string, {name: string, x: number, y: number, r: number}>} cityByName
 * @param {Record<string, number>} G  the layout's geometry scale
 */
export function routeGeometry(routes, cityByName, G) {
    const groups = new Map();
  for (const r of routes) {
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
  for (const r of routes) {
    const key = [r.a, r.b].sort().join("|");
    let c = corridors.get(key);
    if (!c) corridors.set(key, (c = { a: r.a, b: r.b, lanes: 0, trim: {} }));
    c.lanes = Math.max(c.lanes, lane.has(r) ? lane.get(r).n : 1);
  }
  const byCity = new Map();
  for (const c of corridors.values()) {
    const A = cityByName.get(c.a), B = cityByName.get(c.b);
    c.len = Math.hypot(B.x - A.x, B.y - A.y);
    c.half = c.lanes > 1 ? (c.lanes * (G.th + 2.5 * G.ui)) / 2 : G.th / 2;
    for (const [v, w] of [[A, B], [B, A]]) {
      if (!byCity.has(v.name)) byCity.set(v.name, []);
      byCity.get(v.name).push({ c, a: Math.atan2(w.y - v.y, w.x - v.x) });
    }
  }
  for (const [name, list] of byCity) {
    const v = cityByName.get(name);
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
  for (const r of routes) {
    // canonical direction so both members of a double share the same normal
    const flip = r.a > r.b;
    const A = cityByName.get(flip ? r.b : r.a);
    const B = cityByName.get(flip ? r.a : r.b);
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

/**
 * Greedy label placement avoiding nodes, routes, other labels and the border; sets
 * `label` = {cost, rect, size} on each city.
 * @param {object[]} cities  {name, display, x, y, r, big}
 * @param {object[]} routes  with routeGeometry's x0..y1
 * @param {Record<string, number>} G
 * @param {number} height  the viewBox height
 */
export function placeLabels(cities, routes, G, height) {
    const W = VIEW_W, H = height;
  const half = G.th / 2 + 1;
  const segs = routes.map((r) => ({
    x0: r.x0, y0: r.y0, x1: r.x1, y1: r.y1,
    bx0: Math.min(r.x0, r.x1) - half, bx1: Math.max(r.x0, r.x1) + half,
    by0: Math.min(r.y0, r.y1) - half, by1: Math.max(r.y0, r.y1) + half,
  }));
  const rectDist = (rc, x, y) => Math.hypot(Math.max(rc.x0 - x, 0, x - rc.x1), Math.max(rc.y0 - y, 0, y - rc.y1));
  const nodes = cities.map((o) => ({ c: o, x0: o.x - o.r - 2, y0: o.y - o.r - 2, x1: o.x + o.r + 2, y1: o.y + o.r + 2 }));
  const degree = new Map(cities.map((c) => [c.name, 0]));
  for (const r of routes) {
    degree.set(r.a, degree.get(r.a) + 1);
    degree.set(r.b, degree.get(r.b) + 1);
  }
  const order = cities.slice().sort((a, b) => b.big - a.big || degree.get(b.name) - degree.get(a.name));
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
  // a label never leaves the map: shift one that found no place inside back onto it
  for (const [c, best] of labelOf) {
    const rc = best.rect;
    const dx = rc.x0 < 2 ? 2 - rc.x0 : rc.x1 > W - 2 ? Math.max(2 - rc.x0, W - 2 - rc.x1) : 0;
    const dy = rc.y0 < 2 ? 2 - rc.y0 : rc.y1 > H - 2 ? Math.max(2 - rc.y0, H - 2 - rc.y1) : 0;
    c.label = dx || dy ? { ...best, rect: { x0: rc.x0 + dx, y0: rc.y0 + dy, x1: rc.x1 + dx, y1: rc.y1 + dy } } : best;
  }
}
