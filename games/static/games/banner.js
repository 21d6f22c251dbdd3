/**
 * The turn banner: whose decision it is and what they can do, with the buttons that reopen
 * a postponed dialog, the last-round warning and the move clock.
 * @module banner
 */
import { tickClock } from "./clocks.js";
import { renderDialogs } from "./dialogs.js";
import { h } from "./dom.js";
import { fmt, nt, t } from "./i18n.js";

/** @param {any} app the TableApp */
export function renderBanner(app) {
  const banner = document.getElementById("turn-banner");
  const actions = document.getElementById("banner-actions");
  const v = app.view;
  if (!banner || !v) return;
  const ix = app.index();
  const mine = app.isMyDecision();
  actions.textContent = "";
  let text = "";
  let sub = "";
  let cls = "turn-banner";
  if (app.summary.ended_early) {
    text = t("The organizer ended this game early: places follow the scores at that moment.");
    cls += " is-over";
  } else if (v.phase === "over") {
    const winners = ((v.final && v.final.players) || []).filter((p) => p.rank === 1).map((p) => app.name(p.seat));
    text = winners.length > 1 ? fmt(t("Game over: %(names)s share the win!"), { names: winners.join(", ") }) : fmt(t("Game over: %(name)s wins!"), { name: winners[0] || "" });
    cls += " is-over";
  } else if (app.mode === "station") {
    text = t("Build a station: choose a highlighted city on the map.");
    cls += " is-yours";
    actions.appendChild(h("button", { type: "button", class: "small secondary", text: t("Cancel"), onclick: () => { app.mode = null; app.render(); } }));
  } else if (app.mode === "depot") {
    text = t("Place a depot: choose a highlighted city on the map. It is free and does not end your turn.");
    cls += " is-yours";
    actions.appendChild(h("button", { type: "button", class: "small secondary", text: t("Cancel"), onclick: () => { app.mode = null; app.render(); } }));
  } else if (mine) {
    cls += " is-yours";
    if (v.phase === "depots") {
      text = t("Place your first depot: choose a highlighted city on the map.");
      sub = t("Any free city without a station; it stays there for the whole game.");
    } else if (v.phase === "setup" || v.phase === "tickets") {
      const min = Math.min(...ix.keep.map((a) => a.tickets.length));
      text = v.phase === "setup" && min === 0 ? t("Choose your long ticket: keep one or none.") : v.phase === "setup" ? fmt(t("Choose your starting tickets: keep at least %(n)s."), { n: min }) : fmt(nt("Choose your new tickets: keep at least %(n)s.", "Choose your new tickets: keep at least %(n)s.", min), { n: min });
      actions.appendChild(h("button", { type: "button", class: "small", text: t("Choose tickets"), onclick: () => { app.ticketDismissed = null; renderDialogs(app); } }));
    } else if (v.phase === "draw2") {
      text = app.taxis ? t("Draw your second card (a face-up taxi card is not allowed).") : t("Draw your second card (a face-up locomotive is not allowed).");
    } else if (v.phase === "tunnel") {
      text = t("Tunnel: pay the extra cards or give up the route.");
      actions.appendChild(h("button", { type: "button", class: "small", text: t("Decide"), onclick: () => { app.tunnelDismissed = null; renderDialogs(app); } }));
    } else if (ix.pass && app.legal.length === 1) {
      text = t("Your turn, but there is nothing you can do: pass.");
      actions.appendChild(h("button", { type: "button", class: "small", id: "pass-turn", text: t("Pass"), onclick: () => app.act(ix.pass) }));
    } else if (app.taxis) {
      text = t("Your turn: draw cards, claim a route or draw tickets");
      sub = ix.claims.size ? t("Routes you can claim now pulse on the map.") : t("No route is affordable yet: draw cards.");
    } else {
      text = t("Your turn: draw cards, claim a route, draw tickets or build a station");
      sub = ix.claims.size ? t("Routes you can claim now pulse on the map.") : t("No route is affordable yet: draw cards.");
      if (app.wh && ix.depots.size) sub += " " + t("Before that, you may place depots for free.");
    }
  } else if (v.phase === "depots") {
    text = fmt(t("Waiting for %(name)s to place a first depot…"), { name: app.name((v.current_seats || [])[0]) });
  } else if (v.phase === "setup") {
    const waiting = (v.current_seats || []).map((s) => app.name(s));
    text = app.seat !== null && app.seat !== undefined ? fmt(t("Tickets kept. Waiting for %(names)s…"), { names: waiting.join(", ") }) : fmt(t("Players are choosing their tickets: %(names)s…"), { names: waiting.join(", ") });
  } else {
    const cur = (v.current_seats || [])[0];
    text = fmt(t("Waiting for %(name)s…"), { name: app.name(cur) });
    if (v.pending && v.pending.type === "tunnel") {
      sub = fmt(nt("Tunnel %(route)s: %(n)s extra card due.", "Tunnel %(route)s: %(n)s extra cards due.", v.pending.extra), { route: app.idx.routeLabel(v.pending.route), n: v.pending.extra });
    } else if (v.phase === "draw2") sub = t("drawing a second card");
    else if (v.phase === "tickets") sub = t("choosing tickets");
  }
  banner.className = cls;
  banner.textContent = "";
  banner.appendChild(h("div", { class: "banner-row" }, h("div", { class: "banner-main", text }), h("span", { id: "turn-clock", class: "turn-clock", title: t("Time left for this move") })));
  tickClock(app);
  if (sub) banner.appendChild(h("div", { class: "banner-sub", text: sub }));
  if (v.last_round && v.last_round.active && v.phase !== "over") {
    const by = v.last_round.triggered_by;
    banner.appendChild(h("div", { class: "banner-last", text: fmt(app.taxis ? t("Last round! %(name)s is almost out of taxis: everyone gets one final turn.") : t("Last round! %(name)s is almost out of trains: everyone gets one final turn."), { name: by === null || by === undefined ? "" : app.name(by) }) }));
  }
  if (app.busy) banner.appendChild(h("div", { class: "banner-sub", text: t("Sending…") }));
  const yours = cls.includes("is-yours");
  document.title = (yours ? "● " : "") + document.title.replace(/^● /, "");
}
