/**
 * Short signal tones made with the Web Audio API (no sound files). Browsers keep audio
 * blocked until the page has had a user gesture: `playTone` then does nothing, and never
 * throws; `unlockAudio` is bound to the first pointer or key press so that later tones play.
 * @module tone
 */

/** Two rising notes for "your turn"; three for "your table is ready". */
const TUNES = Object.freeze({
  turn: [660, 880],
  table: [523, 659, 784],
});
const NOTE_SECONDS = 0.14;

let context = null;

function audio() {
  if (context) return context;
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return null;
  try {
    context = new Ctx();
  } catch (e) {
    return null;
  }
  return context;
}

/** Resume audio after a user gesture (browsers start it suspended). */
export function unlockAudio() {
  const ctx = audio();
  if (ctx && ctx.state === "suspended") ctx.resume().catch(() => {});
}

/**
 * Play `tune` ("turn" or "table"). Returns whether a tone was scheduled: false while audio is
 * blocked or missing.
 * @param {keyof typeof TUNES} tune
 * @returns {boolean}
 */
export function playTone(tune = "turn") {
  try {
    const ctx = audio();
    if (!ctx) return false;
    if (ctx.state === "suspended") ctx.resume().catch(() => {});
    if (ctx.state !== "running") return false;
    const start = ctx.currentTime + 0.02;
    (TUNES[tune] || TUNES.turn).forEach((hz, i) => {
      const at = start + i * NOTE_SECONDS;
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = "sine";
      osc.frequency.value = hz;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.2, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + NOTE_SECONDS);
      osc.connect(gain).connect(ctx.destination);
      osc.start(at);
      osc.stop(at + NOTE_SECONDS + 0.02);
    });
    return true;
  } catch (e) {
    return false;
  }
}

let bound = false;

/** Unlock audio on the first pointer or key press of the page (once). */
export function unlockOnFirstGesture() {
  if (bound) return;
  bound = true;
  const unlock = () => {
    unlockAudio();
    window.removeEventListener("pointerdown", unlock, true);
    window.removeEventListener("keydown", unlock, true);
  };
  window.addEventListener("pointerdown", unlock, true);
  window.addEventListener("keydown", unlock, true);
}
