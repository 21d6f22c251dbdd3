/**
 * How the board sits in the window: `fitToWindow` keeps the map no taller than the window
 * below its top edge (so at 1280×800 every city is in view beside the cards), and
 * `zoomControls` adds + / − buttons for the phone layout, where the map pans inside a box.
 * Both return a function that removes what they added.
 * @module viewport
 */

const ZOOMS = [1, 1.5, 2.25, 3];
const MIN_FIT = 320; // px: below this the page scrolls rather than shrinking the map further
const BOTTOM = 14; // px kept below the map: the board frame's padding and border

/**
 * Keep `--ttr-board-fit-h` on `root` equal to the room between the SVG's top and the
 * window's bottom; board.css caps the SVG's height with it (the viewBox letterboxes).
 * @param {HTMLElement} root  the board's element
 * @param {SVGSVGElement} svgEl
 */
export function fitToWindow(root, svgEl) {
  let frame = 0;
  const measure = () => {
    frame = 0;
    const top = svgEl.getBoundingClientRect().top + window.scrollY;
    const room = Math.max(MIN_FIT, Math.floor(window.innerHeight - top - BOTTOM));
    const value = room + "px";
    if (root.style.getPropertyValue("--ttr-board-fit-h") !== value) root.style.setProperty("--ttr-board-fit-h", value);
  };
  const later = () => {
    if (!frame) frame = requestAnimationFrame(measure);
  };
  measure();
  window.addEventListener("resize", later);
  // what sits above the map (players, notices) changes height as the game goes on
  const ro = typeof ResizeObserver === "function" ? new ResizeObserver(later) : null;
  if (ro) ro.observe(document.body);
  return () => {
    window.removeEventListener("resize", later);
    if (ro) ro.disconnect();
    if (frame) cancelAnimationFrame(frame);
  };
}

/**
 * Zoom buttons over the map: each step scales the SVG (`--ttr-zoom` on `root`, read by
 * board.css) and keeps the point at the centre of the box where it was.
 * @param {HTMLElement} root
 * @param {HTMLElement} scroller  the box the map pans in
 * @param {(s: string) => string} t
 */
export function zoomControls(root, scroller, t) {
  let level = 0;
  const bar = document.createElement("div");
  bar.className = "ttr-board__zoom";
  const button = (label, text, step) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "ttr-board__zoom-button";
    b.textContent = text;
    b.title = label;
    b.setAttribute("aria-label", label);
    b.dataset.zoom = step > 0 ? "in" : "out";
    b.addEventListener("click", () => set(level + step));
    bar.appendChild(b);
    return b;
  };
  const zin = button(t("Zoom in"), "+", 1);
  const zout = button(t("Zoom out"), "−", -1);
  function set(next) {
    next = Math.max(0, Math.min(ZOOMS.length - 1, next));
    const ratio = ZOOMS[next] / ZOOMS[level];
    const cx = scroller.scrollLeft + scroller.clientWidth / 2, cy = scroller.scrollTop + scroller.clientHeight / 2;
    level = next;
    root.style.setProperty("--ttr-zoom", String(ZOOMS[level]));
    root.dataset.zoom = String(ZOOMS[level]);
    scroller.scrollLeft = cx * ratio - scroller.clientWidth / 2;
    scroller.scrollTop = cy * ratio - scroller.clientHeight / 2;
    zin.disabled = level === ZOOMS.length - 1;
    zout.disabled = level === 0;
  }
  set(0);
  root.appendChild(bar);
  return () => bar.remove();
}
