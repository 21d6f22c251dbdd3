/**
 * The table page's dialogs: choosing tickets, choosing how to pay for a route or station,
 * and paying for (or giving up) a tunnel. Each function takes the TableApp (`app`), reads
 * its view and legal actions, and sends through `app.act`.
 * @module dialogs
 */
import { colorLabel, cardsText, fillOf, symbolOf, textOf } from "./cards.js";
import { cardsNode, h } from "./dom.js";
import { fmt, nt, t } from "./i18n.js";
import { keepsBySet, paymentOrder, ticketSetKey } from "./model.js";

/** The payment dialog for a route or station that can be paid in several ways. */
export function openPayment(app, title, hint, options) {
  const sorted = paymentOrder(options);
  app.paymentChoices = sorted;
  document.getElementById("payment-dialog-title").textContent = title;
  document.getElementById("payment-dialog-hint").textContent = hint;
  const box = document.getElementById("payment-options");
  box.textContent = "";
  sorted.forEach((a, i) => {
    box.appendChild(h("button", { type: "button", class: "payment-option", "data-payment-index": i, "aria-label": fmt(t("Pay %(cards)s"), { cards: cardsText(a.cards) }) },
      cardsNode(a.cards), h("span", { class: "payment-text", text: cardsText(a.cards) })));
  });
  openDialog("payment-dialog");
  const first = box.querySelector("button");
  if (first) first.focus();
}

export function openDialog(id) {
  const d = document.getElementById(id);
  if (!d.open) {
    try {
      d.showModal();
    } catch (e) {
      d.setAttribute("open", "");
    }
  }
}

export function closeDialog(id) {
  const d = document.getElementById(id);
  if (d && d.open) d.close();
}

/** Open or close the ticket and tunnel dialogs to match the latest view. */
export function renderDialogs(app) {
  const ix = app.index();
  const you = app.view.you;
  // tickets
  const td = document.getElementById("ticket-dialog");
  if (ix.keep.length && you && you.offered_tickets && !app.busy) {
    const key = app.offerKey();
    if (td.dataset.key !== key) fillTicketDialog(app, key, you.offered_tickets, ix.keep);
    if (app.ticketDismissed !== key) openDialog("ticket-dialog");
  } else {
    closeDialog("ticket-dialog");
    td.dataset.key = "";
  }
  // tunnel
  if ((ix.pay.length || ix.decline) && app.view.pending && app.view.pending.type === "tunnel" && !app.busy) {
    fillTunnelDialog(app, app.view.pending, ix);
    if (app.tunnelDismissed !== app.version) openDialog("tunnel-dialog");
  } else {
    closeDialog("tunnel-dialog");
  }
  if (!ix.claims.size && !ix.stations.size) closeDialog("payment-dialog");
}

export function fillTicketDialog(app, key, offered, keeps) {
  const td = document.getElementById("ticket-dialog");
  td.dataset.key = key;
  app.keepSubsets = keepsBySet(keeps);
  const min = Math.min(...keeps.map((a) => a.tickets.length));
  const max = Math.max(...keeps.map((a) => a.tickets.length));
  document.getElementById("ticket-dialog-title").textContent = app.view.phase === "setup" ? t("Choose your starting tickets") : t("Choose your new tickets");
  document.getElementById("ticket-dialog-hint").textContent =
    min === max ? fmt(nt("Keep %(n)s ticket.", "Keep %(n)s tickets.", min), { n: min }) : fmt(t("Keep at least %(min)s of these %(n)s tickets. Unfinished tickets count against you at the end."), { min, n: offered.length });
  const list = document.getElementById("ticket-choices");
  list.textContent = "";
  const sorted = [...offered].sort((a, b) => b.points - a.points);
  for (const tk of sorted) {
    const id = "ticket-choice-" + tk.id;
    const cb = h("input", { type: "checkbox", id, "data-ticket-id": tk.id, value: tk.id });
    cb.checked = true;
    const long = tk.points >= 20;
    const li = h("li", { class: "ticket-choice" + (long ? " is-long" : "") },
      cb,
      h("label", { for: id },
        h("span", { class: "ticket-cities", text: app.idx.cityName(tk.a) + " – " + app.idx.cityName(tk.b) }),
        tk.completed ? h("span", { class: "tag tag-ok", text: t("already connected") }) : null,
        long ? h("span", { class: "tag", text: t("long route") }) : null,
        h("span", { class: "ticket-points", text: String(tk.points) })));
    li.addEventListener("mouseenter", () => app.focusCities([tk.a, tk.b]));
    li.addEventListener("mouseleave", () => app.focusCities([]));
    list.appendChild(li);
  }
  updateTicketConfirm(app);
}

/** The ids of the tickets ticked in the ticket dialog. */
export function checkedTickets() {
  return [...document.querySelectorAll("#ticket-choices input[data-ticket-id]:checked")].map((x) => x.dataset.ticketId);
}

/** The legal keep_tickets action for the ticked tickets, or null. */
export function matchingKeep(app) {
  if (!app.keepSubsets) return null;
  return app.keepSubsets.get(ticketSetKey(checkedTickets())) || null;
}

export function updateTicketConfirm(app) {
  const btn = document.getElementById("ticket-confirm");
  const a = matchingKeep(app);
  const n = checkedTickets().length;
  btn.disabled = !a || app.busy;
  btn.textContent = fmt(nt("Keep %(n)s ticket", "Keep %(n)s tickets", n), { n });
  const keeps = [...(app.keepSubsets || new Map()).values()];
  const min = keeps.length ? Math.min(...keeps.map((x) => x.tickets.length)) : 0;
  document.getElementById("ticket-dialog-note").textContent = a ? "" : fmt(nt("Keep at least %(n)s ticket.", "Keep at least %(n)s tickets.", min), { n: min });
}

export function fillTunnelDialog(app, p, ix) {
  const key = app.version;
  const dlg = document.getElementById("tunnel-dialog");
  if (dlg.dataset.key === String(key)) return;
  dlg.dataset.key = String(key);
  document.getElementById("tunnel-dialog-title").textContent = fmt(t("Tunnel %(route)s"), { route: app.idx.routeLabel(p.route) });
  const text = document.getElementById("tunnel-dialog-text");
  text.textContent = "";
  text.append(h("div", null, t("You played"), " ", cardsNode(p.played)), h("div", { text: t("The three cards turned over from the deck:") }));
  const rev = document.getElementById("tunnel-revealed");
  rev.textContent = "";
  for (const c of p.revealed || []) {
    const matches = c === "locomotive" || c === p.color;
    rev.appendChild(h("span", { class: "revealed-card" + (matches ? " is-match" : "") + (c === "locomotive" ? " card--loco" : ""), "data-color": c, style: { "--card-fill": fillOf(c), "--card-text": textOf(c) }, title: colorLabel(c) },
      h("span", { class: "card-sym", text: symbolOf(c) || "·" }), h("span", { class: "visually-hidden", text: colorLabel(c) })));
  }
  rev.appendChild(h("p", { class: "tunnel-extra", text: fmt(nt("%(n)s more card is due (matching cards are outlined).", "%(n)s more cards are due (matching cards are outlined).", p.extra), { n: p.extra }) }));
  const opts = document.getElementById("tunnel-options");
  opts.textContent = "";
  const pay = ix.pay;
  const payBtn = document.getElementById("tunnel-pay");
  if (pay.length > 1) {
    pay.forEach((a, i) => {
      const id = "tunnel-payment-" + i;
      const r = h("input", { type: "radio", name: "tunnel-payment", id, value: i, "data-payment-index": i });
      if (i === 0) r.checked = true;
      opts.appendChild(h("div", { class: "radio-option" }, r, h("label", { for: id }, cardsNode(a.cards), " ", cardsText(a.cards))));
    });
    payBtn.textContent = t("Pay and claim");
  } else if (pay.length === 1) {
    payBtn.textContent = "";
    payBtn.append(t("Pay"), " ", cardsNode(pay[0].cards));
  }
  payBtn.disabled = !pay.length;
  document.getElementById("tunnel-note").textContent = pay.length ? "" : t("You do not have the cards to pay: the route stays free and your cards come back to your hand.");
  document.getElementById("tunnel-decline").disabled = !ix.decline;
}

/**
 * Wire the dialogs' buttons once: keep the ticked tickets, pay a route or a tunnel, give a
 * tunnel up, or postpone a choice (Escape or "Look at the map") and see the board.
 * @param {any} app the TableApp
 * @param {() => void} onPostpone  after a choice is postponed (the banner offers it again)
 */
export function bindDialogs(app, onPostpone) {
  document.getElementById("ticket-later").addEventListener("click", () => {
    app.ticketDismissed = app.offerKey();
    closeDialog("ticket-dialog");
    onPostpone();
  });
  document.getElementById("ticket-confirm").addEventListener("click", () => {
    const a = matchingKeep(app);
    if (a) {
      closeDialog("ticket-dialog");
      app.act(a);
    }
  });
  document.getElementById("ticket-choices").addEventListener("change", () => updateTicketConfirm(app));
  document.getElementById("payment-cancel").addEventListener("click", () => closeDialog("payment-dialog"));
  document.getElementById("payment-options").addEventListener("click", (ev) => {
    const btn = ev.target.closest("[data-payment-index]");
    if (!btn || !app.paymentChoices) return;
    const a = app.paymentChoices[Number(btn.dataset.paymentIndex)];
    if (a) app.act(a);
  });
  document.getElementById("tunnel-pay").addEventListener("click", () => {
    const pay = app.index().pay;
    const sel = document.querySelector("#tunnel-options input[name=tunnel-payment]:checked");
    const a = pay[sel ? Number(sel.value) : 0];
    if (a) {
      closeDialog("tunnel-dialog");
      app.act(a);
    }
  });
  document.getElementById("tunnel-decline").addEventListener("click", () => {
    const a = app.index().decline;
    if (a) {
      closeDialog("tunnel-dialog");
      app.act(a);
    }
  });
  for (const id of ["ticket-dialog", "tunnel-dialog", "payment-dialog"]) {
    const d = document.getElementById(id);
    d.addEventListener("cancel", (ev) => {
      if (id === "ticket-dialog") app.ticketDismissed = app.offerKey();
      if (id === "tunnel-dialog") app.tunnelDismissed = app.version;
      void ev;
      setTimeout(onPostpone, 0);
    });
  }
}
