/**
 * The standings card of a tournament page, kept live by `standings` frames: the page loads
 * the whole model once (a cached JSON read), applies each diff to it and redraws only the
 * rows of the page shown: they update, move, enter and leave; the pinned own row updates;
 * changed rows flash (not under prefers-reduced-motion: ladder.css). A missed frame (a gap
 * in versions, a reconnect) reloads the model once, after a random wait. Each frame carries
 * the tournament's stage; `onStage` hears when it moves on (a round started or ended).
 *
 * Markup (templates/ladder/_tournament_standings.html): the table carries
 * `data-standings-url`, `data-page-start`, `data-page-size`, `data-query`; each row
 * `data-player`; each live cell `data-f="<field>"` (and `data-fmt="int"` to round).
 *
 * @module live_standings
 */
import { applyDiff, decide, formatValue, fromJson, pageIds, reloadDelay } from "./standings_model.js";

const FLASH_MS = 2000;

export class LiveStandings {
  /** @param {HTMLTableElement} table @param {{spreadMs?: number}} [options] */
  constructor(table, { spreadMs = 3000, onStage = null } = {}) {
    this.retarget(table);
    this.url = table.dataset.standingsUrl;
    this.spreadMs = spreadMs;
    this.model = null;
    this.loading = null; // the pending load, while one is under way
    this.queued = []; // frames received while loading
    this.loads = 0;
    this.stage = null; // where the tournament is (ladder/live_standings.py `stage_of`)
    this.onStage = onStage; // called when it moves on (a round started or ended ...)
  }

  noteStage(stage) {
    if (stage === undefined || stage === this.stage) return;
    const known = this.stage !== null;
    this.stage = stage;
    if (known && this.onStage) this.onStage(stage);
  }

  /** Work on `table` from now on (a fresh fragment replaced the old one). */
  retarget(table) {
    this.table = table;
    this.matched = null;
    this.body = table.querySelector("tbody:not(.pinned)");
    this.pinned = table.querySelector("tbody.pinned");
  }

  /** Load the model now (the page's first load). */
  start() { return this.load(0); }

  /** The socket reconnected: frames may have been missed. */
  reconnected() { return this.load(reloadDelay(this.spreadMs)); }

  /** A `standings` frame from the socket. */
  receive(frame) {
    if (this.loading) { this.queued.push(frame); return; }
    const verdict = decide(this.model, frame);
    if (verdict === "apply") {
      this.render(applyDiff(this.model, frame));
      this.noteStage(frame.stage);
    }
    else if (verdict === "reload") { this.queued.push(frame); this.load(reloadDelay(this.spreadMs)); }
  }

  load(delayMs) {
    if (this.loading) return this.loading;
    this.loading = (async () => {
      try {
        if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
        const response = await fetch(this.url, { credentials: "same-origin", headers: { Accept: "application/json" } });
        if (!response.ok) throw new Error(`standings: HTTP ${response.status}`);
        const data = await response.json();
        this.model = fromJson(data);
        this.loads += 1;
        this.noteStage(data.stage);
      } finally {
        this.loading = null;
      }
      const queued = this.queued.splice(0);
      const touched = new Set();
      for (const frame of queued) {
        if (decide(this.model, frame) !== "apply") continue;
        for (const id of applyDiff(this.model, frame)) touched.add(id);
        this.noteStage(frame.stage);
      }
      this.render(touched);
      this.table.dataset.version = String(this.model.v);
      document.body.dataset.standingsLoads = String(this.loads);
    })();
    this.loading.catch((error) => console.warn("ttr:", error.message));
    return this.loading;
  }

  view() {
    const d = this.table.dataset;
    if (!this.matched) { // the rows the server's search found, as the page came
      this.matched = new Set([...this.body.querySelectorAll("tr[data-player]")].map((tr) => tr.dataset.player));
    }
    const size = Number(d.pageSize || Infinity);
    return { start: Number(d.pageStart || 0), size, query: d.query || "", also: this.matched };
  }

  /** Redraw the shown page from the model; flash the rows in `touched`. */
  render(touched = new Set()) {
    const model = this.model;
    const ids = pageIds(model, this.view());
    const wanted = new Set(ids.map(String));
    const existing = new Map();
    for (const tr of this.body.querySelectorAll("tr[data-player]")) existing.set(tr.dataset.player, tr);
    const template = existing.values().next().value || (this.pinned && this.pinned.querySelector("tr"));
    for (const [key, tr] of existing) if (!wanted.has(key)) tr.remove(); // it left the page
    let cursor = this.body.firstElementChild;
    for (const id of ids) {
      const tr = existing.get(String(id)) || this.newRow(template, model.rows.get(id));
      if (!tr) continue;
      this.fill(tr, model.rows.get(id), touched);
      if (tr === cursor) cursor = tr.nextElementSibling;
      else if (cursor) cursor.before(tr);
      else this.body.append(tr);
    }
    // The own row pinned above the page: its values, and hidden while the page shows it.
    if (this.pinned) {
      for (const tr of this.pinned.querySelectorAll("tr[data-player]")) {
        const row = model.rows.get(Number(tr.dataset.player)) || model.rows.get(tr.dataset.player);
        if (row) this.fill(tr, row, touched);
        this.pinned.hidden = wanted.has(tr.dataset.player);
      }
    }
    this.table.dataset.version = String(model.v);
  }

  fill(tr, row, touched) {
    for (const cell of tr.querySelectorAll("[data-f]")) {
      const field = cell.dataset.f;
      if (!(field in row)) continue;
      const text = formatValue(row[field], cell.dataset.fmt);
      if (field === "name") {
        const target = cell.querySelector("a") || cell;
        if (target.firstChild && target.firstChild.nodeType === Node.TEXT_NODE) target.firstChild.nodeValue = text;
        else if (!target.firstChild) target.textContent = text;
      } else if (cell.textContent !== text) {
        cell.textContent = text;
      }
    }
    if (touched.has(row[this.model.key])) {
      tr.classList.remove("changed");
      void tr.offsetWidth; // restart the flash
      tr.classList.add("changed");
      clearTimeout(tr._flash);
      tr._flash = setTimeout(() => tr.classList.remove("changed"), FLASH_MS);
    }
  }

  /** A row for a player entering the page: a copy of a shown row with its own values. */
  newRow(template, row) {
    if (!template) return null;
    const tr = template.cloneNode(true);
    tr.removeAttribute("id");
    tr.className = row.status && row.status !== "active" ? "inactive" : "";
    tr.dataset.player = String(row[this.model.key]);
    for (const extra of tr.querySelectorAll("td .muted, td .tag")) extra.remove(); // byes, tags
    let named = false;
    for (const cell of tr.cells) {
      if (cell.dataset.f || cell.querySelector("[data-f]")) continue;
      cell.textContent = named ? "" : String(row.name || ""); // the player's cell
      named = true;
    }
    return tr;
  }
}
