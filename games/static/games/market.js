/**
 * The market: the five face-up cards, the deck, the ticket deck, the station button and
 * (Warehouses & Depots) the depot button, each enabled only when the server lists a matching
 * action (with a reason when it does not).
 * @module market
 */
import { colorLabel, fillOf, symbolOf, textOf } from "./cards.js";
import { h } from "./dom.js";
import { freshness } from "./hand.js";
import { fmt, t } from "./i18n.js";

/** @param {any} app the TableApp */
export function renderMarket(app) {
  const v = app.view;
  const ix = app.index();
  const box = document.getElementById("faceup");
  box.textContent = "";
  const mine = app.isMyDecision();
  const fresh = freshness(app, "_faceupSeen", v.faceup || [], (before, now, slot) => !!now[slot] && before[slot] !== now[slot]);
  (v.faceup || []).forEach((color, slot) => {
    const a = (ix.faceup.get(slot) || [])[0];
    let why = "";
    if (!a) {
      if (!color) why = t("No card here");
      else if (!mine) why = t("Wait for your turn");
      else if (v.phase === "draw2" && color === "locomotive") why = app.taxis ? t("A face-up taxi card cannot be your second card") : t("A face-up locomotive cannot be your second card");
      else why = t("You cannot draw now");
    }
    const btn = h("button", {
      type: "button",
      class: "faceup-card" + (color === "locomotive" ? " card--loco" : "") + (color ? "" : " faceup-card--empty") + fresh(slot),
      "data-slot": slot,
      "data-color": color || "",
      disabled: !a || app.busy,
      title: a ? fmt(t("Take the %(color)s card"), { color: colorLabel(color) }) : why,
      style: color ? { "--card-fill": fillOf(color), "--card-text": textOf(color) } : null,
    },
      h("span", { class: "card-sym", "aria-hidden": "true", text: color ? symbolOf(color) || "" : "" }),
      h("span", { class: "visually-hidden", text: color ? colorLabel(color) : t("empty") }));
    box.appendChild(btn);
  });
  const deck = document.getElementById("deck");
  deck.disabled = !ix.deck.length || app.busy;
  deck.querySelector("[data-count]").textContent = v.deck_count;
  deck.title = ix.deck.length ? t("Draw the top card of the deck") : v.deck_count ? (mine ? t("You cannot draw now") : t("Wait for your turn")) : t("The deck is empty");
  const tk = document.getElementById("ticket-deck");
  tk.disabled = !ix.tickets || app.busy;
  tk.querySelector("[data-count]").textContent = v.ticket_deck_count;
  tk.title = ix.tickets ? t("Draw destination tickets") : v.ticket_deck_count ? (mine ? t("You cannot draw tickets now") : t("Wait for your turn")) : t("No tickets left");
  document.getElementById("discard-info").textContent = fmt(t("Discards: %(n)s"), { n: v.discard_count });
  const me = app.seat !== null && app.seat !== undefined ? v.players[app.seat] : null;
  renderDepotButton(app, me, mine);
  const st = document.getElementById("build-station");
  if (!st) return; // New York: no stations
  st.disabled = !app.canBuild() || app.busy;
  st.classList.toggle("is-active", app.mode === "station");
  st.textContent = app.mode === "station" ? t("Cancel station") : me ? fmt(t("Build station (%(n)s left)"), { n: me.stations_left }) : t("Build station");
  st.title = app.canBuild()
    ? t("Pick a city on the map to build a station")
    : !me ? t("Spectators cannot build") : me.stations_left <= 0 ? t("You have no stations left") : v.phase !== "turn" || !mine ? t("Only at the start of your turn") : t("You cannot pay for a station now");
}

/** Warehouses & Depots: the button that starts placing a free depot on your turn. */
function renderDepotButton(app, me, mine) {
  const btn = document.getElementById("place-depot");
  if (!btn) return;
  const v = app.view;
  const can = app.canPlaceDepot() && v.phase === "turn";
  btn.disabled = !can || app.busy;
  btn.classList.toggle("is-active", app.mode === "depot");
  btn.textContent = app.mode === "depot" ? t("Cancel depot") : me ? fmt(t("Place depot (%(n)s left)"), { n: me.depots_left }) : t("Place depot");
  btn.title = can
    ? t("Free, before your turn's action: pick a city on the map")
    : !me ? t("Spectators cannot place depots") : me.depots_left <= 0 ? t("You have no depots left") : v.phase !== "turn" || !mine ? t("Only at the start of your turn") : t("No city is free for a depot");
}
