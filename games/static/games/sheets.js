/**
 * The phone layout's tab bar (table-layout.css): which sheet takes the map's place — the map
 * itself, the tickets, the log, the chat, or "more" (the rest, above the banner). The choice
 * is `.game[data-sheet]` and the pressed tab; on wider screens the bar is hidden and every
 * panel shows anyway. Hooks: #phone-tabs [data-sheet], #game[data-sheet].
 * @module sheets
 */

/** @param {HTMLElement} game @param {HTMLElement} bar */
export function bindSheets(game, bar) {
  const show = (name) => {
    game.dataset.sheet = name;
    for (const b of bar.querySelectorAll("[data-sheet]")) b.setAttribute("aria-pressed", String(b.dataset.sheet === name));
    if (name === "log" || name === "chat") {
      const list = document.getElementById(name);
      if (list) list.scrollTop = list.scrollHeight;
    }
  };
  bar.addEventListener("click", (ev) => {
    const b = ev.target.closest("[data-sheet]");
    if (!b) return;
    // the open sheet's tab again: back to the map
    show(b.dataset.sheet === game.dataset.sheet && b.dataset.sheet !== "map" ? "map" : b.dataset.sheet);
  });
  show("map");
}

const game = document.getElementById("game");
const bar = document.getElementById("phone-tabs");
if (game && bar) bindSheets(game, bar);
