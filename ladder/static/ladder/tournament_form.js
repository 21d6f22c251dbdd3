// The tournament form: offer Warehouses & Depots only with a game whose map plays it. Each
// game option says so in data-warehouses (ladder/tournament_forms.py), the same attribute and
// the same hidden-and-disabled row as the New table form (games/static/games/table_form.js,
// which is tied to that form's separate map, ticket and seat selects); the form's clean()
// refuses the same when this script does not run.

const form = document.getElementById("tournament-form");
const row = document.getElementById("field-warehouses");

if (form && row) {
  const game = form.elements.namedItem("game");

  /** Show the box only for a map with warehouses; a hidden box is disabled, so not sent. */
  function syncWarehouses() {
    const allowed = game.selectedOptions[0]?.dataset.warehouses === "true";
    row.hidden = !allowed;
    for (const input of row.querySelectorAll("input")) input.disabled = !allowed;
  }

  game.addEventListener("change", syncWarehouses);
  syncWarehouses();
}

// Settings of one format only (data-formats lists them) show with that format; hidden ones are
// still sent with their defaults, which the other formats ignore.
if (form) {
  const format = form.elements.namedItem("format");
  const rows = form.querySelectorAll("[data-formats]");

  function syncFormat() {
    for (const row of rows) row.hidden = !row.dataset.formats.split(" ").includes(format.value);
  }

  if (format) {
    format.addEventListener("change", syncFormat);
    syncFormat();
  }
}
