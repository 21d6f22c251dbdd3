// The New table form: offer only what the chosen map plays (its ticket variants, its seat
// counts, Warehouses & Depots on Europe) and only the clock fields of the chosen time
// control (real time: seconds per move and the time bank). The maps' facts come from the
// server as data- attributes (games/forms.py); the form's clean() refuses the same things
// when this script does not run.

const form = document.getElementById("table-form");

if (form) {
  const ruleset = form.elements.namedItem("ruleset");
  const variant = form.elements.namedItem("variant");
  const seats = form.elements.namedItem("seat_count");
  const timeControl = form.elements.namedItem("time_control");
  // Every variant option, whatever its map (the select's own list is rebuilt from these).
  const allVariants = Array.from(variant.querySelectorAll("option[data-ruleset]"));
  const allSeats = Array.from(seats.options);

  /** Show or hide a field's row; a hidden field is disabled so it is not submitted. */
  function showField(name, visible) {
    const row = document.getElementById(`field-${name}`);
    if (!row) return;
    row.hidden = !visible;
    for (const input of row.querySelectorAll("input, select, textarea")) input.disabled = !visible;
  }

  function syncMap() {
    const chosen = ruleset.selectedOptions[0];
    if (!chosen) return;
    const map = chosen.value;
    const previous = variant.value;
    const mine = allVariants.filter((o) => o.dataset.ruleset === map);
    variant.replaceChildren(...mine);
    variant.value = mine.some((o) => o.value === previous) ? previous : mine[0]?.value ?? "";

    const low = Number(chosen.dataset.minSeats);
    const high = Number(chosen.dataset.maxSeats);
    const seatCount = Number(seats.value);
    const fitting = allSeats.filter((o) => Number(o.value) >= low && Number(o.value) <= high);
    seats.replaceChildren(...fitting);
    seats.value = String(Math.min(Math.max(seatCount, low), high));

    showField("warehouses", chosen.dataset.warehouses === "true");
  }

  function syncClock() {
    const turnBased = timeControl.value === "turn_based";
    showField("move_seconds", !turnBased);
    showField("bank_seconds", !turnBased); // a time bank only in real time
    showField("turn_hours", turnBased);
  }

  ruleset.addEventListener("change", syncMap);
  timeControl.addEventListener("change", syncClock);
  syncMap();
  syncClock();
}
