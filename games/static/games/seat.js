/**
 * The player's own seat during the game (docs/rules.md 1.7): "Take my seat back" when a bot
 * took it over after timeouts, and "Leave the game" behind a confirmation that says what it
 * costs. The forms (templates/games/_seat_actions.html) work without this module; with it they
 * go over the table socket (`{type: "take_back"}`, `{type: "leave"}`) and the page follows
 * without a reload: the server moves the socket to the seat's view (or the public one) and
 * sends a fresh summary, which shows or hides the buttons here.
 *
 * Test hooks: body[data-seat-actions="ready"] once bound; #take-back, #take-back-button,
 * #leave-game, #leave-game-button, #leave-dialog, #leave-confirm, #leave-cancel.
 * @module seat
 */
import { closeDialog, openDialog } from "./dialogs.js";

/** Send `frame` over the socket; `false` if it is not open (the form is posted instead). */
function viaSocket(app, frame) {
  return !!app && app.connected !== false && app.sendFrame(frame);
}

/** Bind the seat's buttons (once, on the game page). @param {any} app the TableApp */
export function bindSeatActions(app) {
  const takeBack = document.getElementById("take-back-button");
  if (takeBack) {
    takeBack.form.addEventListener("submit", (ev) => {
      if (viaSocket(app, { type: "take_back" })) ev.preventDefault();
    });
  }
  const leave = document.getElementById("leave-game-button");
  const dialog = document.getElementById("leave-dialog");
  if (leave && dialog) {
    leave.addEventListener("click", () => {
      openDialog("leave-dialog");
      document.getElementById("leave-cancel").focus(); // the safe choice first
    });
    document.getElementById("leave-cancel").addEventListener("click", () => closeDialog("leave-dialog"));
    dialog.querySelector("form").addEventListener("submit", (ev) => {
      if (!viaSocket(app, { type: "leave" })) return;
      ev.preventDefault();
      closeDialog("leave-dialog");
    });
  }
  document.body.dataset.seatActions = "ready";
}

/** Show the buttons that fit the latest summary. @param {any} app the TableApp */
export function renderSeatActions(app) {
  const s = app.summary || {};
  const box = document.getElementById("take-back");
  const playing = s.status === "playing" && !s.ended_early;
  if (box) {
    box.classList.toggle("hidden", !(playing && s.can_take_back));
  }
  const leave = document.getElementById("leave-game");
  const seated = s.your_seat !== null && s.your_seat !== undefined;
  if (leave) leave.classList.toggle("hidden", !(playing && seated));
  if (!(playing && seated)) closeDialog("leave-dialog");
}

/**
 * Whether a seat changed hands between two summaries (a bot took it over, or its player took
 * it back): the clock of the current decision changes with it, so the page asks for a fresh
 * view (the version stays the same, so no push would bring it).
 */
export function seatsHandedOver(before, after) {
  const flags = (s) => JSON.stringify(((s && s.seats) || []).map((x) => [x.position, !!x.abandoned]));
  return !!before && !!after && flags(before) !== flags(after);
}
