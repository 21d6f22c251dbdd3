/**
 * The table page's dialogs: choosing tickets, choosing how to pay for a route or station
 * (with Warehouses & Depots, which warehouses the claim empties), whose warehouse gets the
 * deck's top card before a draw, and paying for (or giving up) a tunnel. Each function takes
 * the TableApp (`app`), reads its view and legal actions, and sends through `app.act` only
 * a legal action that is exactly what the player picked.
 * @module dialogs
 */
import { colorLabel, cardsText, fillOf, symbolOf, textOf } from "./cards.js";
import { cardsNode, h, seatToken } from "./dom.js";
import { fmt, nt, t } from "./i18n.js";
import { claimChoices, keepsBySet, ticketSetKey } from "./model.js";

/**
 * The payment dialog for a route or station that can be paid in several ways, or for a claim
 * that can empty warehouses (Warehouses & Depots: a checkbox per warehouse, none ticked).
 */
export function openPayment(app, title, hint, options) {
  const choices = claimChoices(options);
  app.paymentChoices = choices;
  document.getElementById("payment-dialog-title").textContent = title;
  document.getElementById("payment-dialog-hint").textContent = hint;
  fillWarehouseTakes(app, choices);
  const box = document.getElementById("payment-options");
  box.textContent = "";
  choices.payments.forEach((cards, i) => {
    box.appendChild(h("button", { type: "button", class: "payment-option", "data-payment-index": i, "data-cards": JSON.stringify(cards), "aria-label": fmt(t("Pay %(cards)s"), { cards: cardsText(cards) }) },
      cardsNode(cards), h("span", { class: "payment-text", text: cardsText(cards) })));
  });
  updatePayment(app);
  openDialog("payment-dialog");
  const first = box.querySelector("button:not([disabled])");
  if (first) first.focus();
}

/** The warehouses a claim may empty, one checkbox each (hidden when there are none). */
function fillWarehouseTakes(app, choices) {
  const set = document.getElementById("payment-warehouses");
  const list = document.getElementById("payment-warehouse-choices");
  list.textContent = "";
  set.classList.toggle("hidden", !choices.warehouses.length);
  if (!choices.warehouses.length) return;
  for (const seat of choices.warehouses) {
    const p = app.view.players[seat] || {};
    const id = "take-warehouse-" + seat;
    const n = p.warehouse_count || 0;
    const whose = seat === app.seat ? fmt(nt("Your own warehouse (%(n)s card)", "Your own warehouse (%(n)s cards)", n), { n })
      : fmt(nt("%(name)s's warehouse (%(n)s card)", "%(name)s's warehouse (%(n)s cards)", n), { name: app.name(seat), n });
    list.appendChild(h("div", { class: "check-option" },
      h("input", { type: "checkbox", id, "data-warehouse": seat, value: seat }),
      h("label", { for: id }, seatToken(seat, app.players), " ", whose)));
  }
  const me = app.view.players[app.seat] || {};
  set.dataset.note = fmt(
    t("Each warehouse costs one depot from beside yours, out of the game (%(n)s left). Its cards come to your hand once the route is yours."),
    { n: me.depots_left || 0 });
}

/** The warehouses ticked in the payment dialog. */
function tickedWarehouses() {
  return [...document.querySelectorAll("#payment-warehouse-choices input[data-warehouse]:checked")].map((x) => Number(x.dataset.warehouse));
}

/** Enable the ways to pay that go with the ticked warehouses (all of them, without W&D). */
export function updatePayment(app) {
  const choices = app.paymentChoices;
  if (!choices) return;
  const ticked = tickedWarehouses();
  let any = false;
  document.querySelectorAll("#payment-options [data-payment-index]").forEach((btn) => {
    const ok = !!choices.find(choices.payments[Number(btn.dataset.paymentIndex)], ticked);
    btn.disabled = !ok || app.busy;
    any = any || ok;
  });
  const note = document.getElementById("payment-warehouse-note");
  note.textContent = !any && ticked.length ? t("You do not have the depots to empty all of these warehouses: untick one.")
    : document.getElementById("payment-warehouses").dataset.note || "";
}

/**
 * The warehouse dialog: before a draw (Warehouses & Depots), whose warehouse gets the deck's
 * top card. `options` are the legal draws of one source, one per warehouse.
 * @param {string} what  the card the player is about to take, for the dialog's text
 */
export function openWarehouse(app, options, what) {
  app.warehouseChoices = options;
  const dlg = document.getElementById("warehouse-dialog");
  dlg.dataset.version = String(app.version);
  document.getElementById("warehouse-dialog-draw").textContent = what ? fmt(t("Then you take %(card)s."), { card: what }) : "";
  const box = document.getElementById("warehouse-options");
  box.textContent = "";
  const sorted = [...options].sort((a, b) => (a.warehouse === app.seat ? -1 : b.warehouse === app.seat ? 1 : a.warehouse - b.warehouse));
  for (const a of sorted) {
    const seat = a.warehouse;
    const p = app.view.players[seat] || {};
    const n = p.warehouse_count || 0;
    const label = seat === app.seat ? t("My own warehouse") : fmt(t("%(name)s's warehouse"), { name: app.name(seat) });
    box.appendChild(h("button", { type: "button", class: "payment-option warehouse-option", "data-warehouse": seat, "aria-label": label },
      seatToken(seat, app.players),
      h("span", { class: "payment-text", text: label }),
      h("span", { class: "muted small-print", text: fmt(nt("%(n)s card in it", "%(n)s cards in it", n), { n }) + " · " + fmt(nt("%(n)s depot on the map", "%(n)s depots on the map", (p.depots || []).length), { n: (p.depots || []).length }) })));
  }
  openDialog("warehouse-dialog");
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
  // a draw's warehouse choice holds for the version it was offered at only
  const wd = document.getElementById("warehouse-dialog");
  if (wd && wd.open && (app.busy || wd.dataset.version !== String(app.version))) closeDialog("warehouse-dialog");
}

export function fillTicketDialog(app, key, offered, keeps) {
  const td = document.getElementById("ticket-dialog");
  td.dataset.key = key;
  app.keepSubsets = keepsBySet(keeps);
  const min = Math.min(...keeps.map((a) => a.tickets.length));
  const max = Math.max(...keeps.map((a) => a.tickets.length));
  const longOnly = offered.every((tk) => isLong(app, tk));
  document.getElementById("ticket-dialog-title").textContent = app.view.phase === "setup" ? (longOnly ? t("Choose your long ticket") : t("Choose your starting tickets")) : t("Choose your new tickets");
  document.getElementById("ticket-dialog-hint").textContent =
    longOnly && min === 0 ? t("Keep one long ticket or none. Your regular tickets are dealt next; keeping a long ticket lowers how many of them you must keep.")
      : min === max ? fmt(nt("Keep %(n)s ticket.", "Keep %(n)s tickets.", min), { n: min })
        : fmt(t("Keep at least %(min)s of these %(n)s tickets. Unfinished tickets count against you at the end."), { min, n: offered.length });
  const list = document.getElementById("ticket-choices");
  list.textContent = "";
  const sorted = [...offered].sort((a, b) => b.points - a.points);
  for (const tk of sorted) {
    const id = "ticket-choice-" + tk.id;
    const cb = h("input", { type: "checkbox", id, "data-ticket-id": tk.id, value: tk.id });
    cb.checked = !longOnly; // a choice of long tickets starts with none ticked: at most one may be kept
    const long = isLong(app, tk);
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

/** Whether a ticket is a long one (the board's ticket kind). */
function isLong(app, tk) {
  const known = app.idx.tickets.get(String(tk.id));
  return known ? known.kind === "long" : tk.points >= 20;
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
  btn.textContent = n ? fmt(nt("Keep %(n)s ticket", "Keep %(n)s tickets", n), { n }) : t("Keep none");
  const keeps = [...(app.keepSubsets || new Map()).values()];
  const min = keeps.length ? Math.min(...keeps.map((x) => x.tickets.length)) : 0;
  document.getElementById("ticket-dialog-note").textContent = a ? ""
    : n < min ? fmt(nt("Keep at least %(n)s ticket.", "Keep at least %(n)s tickets.", min), { n: min })
      : t("You may keep at most one long ticket.");
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
  if (p.warehouses && p.warehouses.length) {
    const names = p.warehouses.map((w) => (w === app.seat ? t("your own") : app.name(w))).join(", ");
    rev.appendChild(h("p", { class: "tunnel-takes", text: fmt(t("If you pay, you also empty these warehouses into your hand: %(names)s."), { names }) }));
  }
  const opts = document.getElementById("tunnel-options");
  opts.textContent = "";
  const pay = ix.pay;
  const payBtn = document.getElementById("tunnel-pay");
  if (pay.length > 1) {
    pay.forEach((a, i) => {
      const id = "tunnel-payment-" + i;
      const r = h("input", { type: "radio", name: "tunnel-payment", id, value: i, "data-payment-index": i, "data-cards": JSON.stringify(a.cards) });
      if (i === 0) r.checked = true;
      opts.appendChild(h("div", { class: "radio-option" }, r, h("label", { for: id }, cardsNode(a.cards), " ", cardsText(a.cards))));
    });
    payBtn.textContent = t("Pay and claim");
    delete payBtn.dataset.cards;
  } else if (pay.length === 1) {
    payBtn.dataset.cards = JSON.stringify(pay[0].cards);
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
    const choices = app.paymentChoices;
    if (!btn || btn.disabled || !choices) return;
    const a = choices.find(choices.payments[Number(btn.dataset.paymentIndex)], tickedWarehouses());
    if (a) app.act(a);
  });
  document.getElementById("payment-warehouse-choices").addEventListener("change", () => updatePayment(app));
  document.getElementById("warehouse-cancel").addEventListener("click", () => closeDialog("warehouse-dialog"));
  document.getElementById("warehouse-options").addEventListener("click", (ev) => {
    const btn = ev.target.closest("[data-warehouse]");
    if (!btn || !app.warehouseChoices) return;
    const a = app.warehouseChoices.find((x) => x.warehouse === Number(btn.dataset.warehouse));
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
