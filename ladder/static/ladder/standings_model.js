/**
 * The live standings model of a tournament page: the whole ordered table, loaded once as
 * JSON (ladder/live_standings.py) and kept current by the diffs of `standings` frames
 * (ladder/standings_diff.py documents the format; `applyDiff` is its `apply`). Pure: no DOM.
 *
 * @module standings_model
 */

/**
 * @typedef {object} Model
 * @property {number|null} v      the version of the standings it holds
 * @property {string} key         the id field of a row
 * @property {string|null} rank   the place field, derived from the order
 * @property {Array<number|string>} order  ids, best first
 * @property {Map<any, object>} rows       id -> row
 */

/** A model from the JSON of the reload endpoint. @returns {Model} */
export function fromJson(data) {
  const rows = new Map();
  const order = [];
  for (const values of data.rows) {
    const row = {};
    data.fields.forEach((name, i) => { row[name] = values[i]; });
    rows.set(row[data.key], row);
    order.push(row[data.key]);
  }
  return { v: data.v, key: data.key, rank: data.rank, order, rows };
}

/**
 * What to do with a standings frame: "apply" (it follows the model's version), "ignore"
 * (the model has it already) or "reload" (one was missed, or the server cannot vouch).
 * @param {Model|null} model
 * @param {{v: number, from: number|null}} frame
 */
export function decide(model, frame) {
  if (!model || model.v === null || model.v === undefined) return "reload";
  if (frame.v <= model.v) return "ignore";
  return frame.from === model.v ? "apply" : "reload";
}

/**
 * Apply a diff in place: returns the ids of the rows it changed or moved.
 * @param {Model} model
 * @param {{v: number, del?: any[], mv?: Array<[any, number]>, set?: Array<[any, object]>}} frame
 * @returns {Set<any>}
 */
export function applyDiff(model, frame) {
  const moves = (frame.mv || []).slice().sort((a, b) => a[1] - b[1]);
  const gone = new Set(frame.del || []);
  for (const [id] of moves) gone.add(id);
  const order = model.order.filter((id) => !gone.has(id));
  for (const [id, index] of moves) order.splice(index, 0, id);
  for (const id of frame.del || []) model.rows.delete(id);
  for (const [id] of moves) if (!model.rows.has(id)) model.rows.set(id, { [model.key]: id });
  if (model.rank) order.forEach((id, i) => { model.rows.get(id)[model.rank] = i + 1; });
  const touched = new Set(moves.map(([id]) => id));
  for (const [id, fields] of frame.set || []) {
    Object.assign(model.rows.get(id), fields);
    touched.add(id);
  }
  model.order = order;
  model.v = frame.v;
  return touched;
}

/** The model's rows as a list, best first (for tests and rendering). */
export const rowsOf = (model) => model.order.map((id) => model.rows.get(id));

/**
 * The ids a page shows: rows whose name contains `query` (case-insensitive; all when empty)
 * or whose id is in `also` (the server matched them by more than the name, e.g. the user
 * name), `size` of them from `start`.
 */
export function pageIds(model, { start = 0, size = Infinity, query = "", also = new Set() } = {}) {
  let ids = model.order;
  const needle = query.trim().toLocaleLowerCase();
  const named = (id) => String(model.rows.get(id).name || "").toLocaleLowerCase().includes(needle);
  if (needle) ids = ids.filter((id) => also.has(String(id)) || named(id));
  return ids.slice(start, start + size);
}

/** A value as the server's table writes it: points as 12, 10.5, 6.67; `int` rounds. */
export function formatValue(value, format = "") {
  if (typeof value !== "number") return value === null || value === undefined ? "" : String(value);
  if (format === "int") return String(Math.round(value));
  return value.toFixed(2).replace(/0+$/, "").replace(/\.$/, "");
}

/** Wait before a reload: uniform in [0, spreadMs), so a crowd does not arrive at once. */
export const reloadDelay = (spreadMs = 3000, random = Math.random) => Math.floor(random() * spreadMs);
