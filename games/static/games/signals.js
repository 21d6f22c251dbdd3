/**
 * Turn signals of the table page: when a decision of the player's starts, a short tone (on
 * by default; #sound-toggle, remembered in localStorage), a browser notification if they
 * asked for them (#notify-toggle asks permission only when clicked) and the tab is hidden,
 * and a flashing tab title ("● Your turn" / the table's title) while the tab is hidden and
 * the decision lasts. A decision *starts* when the player has legal actions after a view in
 * which they had none (or on the page's first view), or when their turn follows at once on
 * their set-up choice (`decisionKey`): the second card of a draw or a tunnel payment
 * continue the decision, another seat's move never starts one.
 *
 * Test hooks: html[data-turn-signal] (decisions signalled so far), html[data-turn-tones]
 * (tones played for them), html[data-turn-notified] (notifications shown), html[data-sound]
 * ("on" | "off"), html[data-notify] ("on" | "off" | "blocked" | "unsupported"),
 * body[data-title-flash] ("on" | "off").
 * @module signals
 */
import { playTone, unlockOnFirstGesture } from "../js/tone.js";
import { fmt, t } from "./i18n.js";

const SOUND_KEY = "ttr.turn-sound";
const NOTIFY_KEY = "ttr.turn-notify";
const FLASH_MS = 1000;
const MARK = "● ";

function stored(key) {
  try {
    return window.localStorage.getItem(key);
  } catch (e) {
    return null; // storage refused (private mode, policy): defaults apply
  }
}

function store(key, value) {
  try {
    window.localStorage.setItem(key, value);
  } catch (e) {
    /* not remembered, still applied */
  }
}

function bump(name) {
  const html = document.documentElement;
  html.dataset[name] = String((parseInt(html.dataset[name], 10) || 0) + 1);
}

const reducedMotion = () => !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);

/** The tab title: flashes while hidden during the player's decision. */
class TitleFlash {
  constructor() {
    this.base = document.title.replace(/^● /, "");
    this.timer = null;
    document.body.dataset.titleFlash = "off";
  }

  start() {
    if (this.timer !== null) return;
    const alert = t("● Your turn");
    document.body.dataset.titleFlash = "on";
    // Reduced motion: the title says it once, without blinking.
    if (reducedMotion()) {
      document.title = alert + " · " + this.base;
      this.timer = 0;
      return;
    }
    let on = true;
    document.title = alert;
    this.timer = setInterval(() => {
      on = !on;
      document.title = on ? alert : MARK + this.base;
    }, FLASH_MS);
  }

  stop(mine) {
    if (this.timer === null) return;
    clearInterval(this.timer);
    this.timer = null;
    document.body.dataset.titleFlash = "off";
    document.title = (mine ? MARK : "") + this.base;
  }
}

/** The sound toggle: on by default, remembered per browser. */
function bindSound(button) {
  const html = document.documentElement;
  const apply = (on) => {
    html.dataset.sound = on ? "on" : "off";
    if (!button) return;
    button.setAttribute("aria-pressed", on ? "true" : "false");
    button.dataset.sound = on ? "on" : "off";
    button.textContent = on ? t("♪ Sound: on") : t("♪ Sound: off");
    button.title = on ? t("A short tone when your turn starts. Click to turn it off.") : t("Click to hear a short tone when your turn starts.");
  };
  apply(stored(SOUND_KEY) !== "off");
  if (button) {
    button.addEventListener("click", () => {
      const on = html.dataset.sound !== "on";
      store(SOUND_KEY, on ? "on" : "off");
      apply(on);
      if (on) playTone("turn"); // a sample, and the click unlocks the audio
    });
  }
  return () => html.dataset.sound === "on";
}

/** The notification toggle: asks the browser's permission only when clicked. */
function bindNotify(button) {
  const html = document.documentElement;
  const supported = "Notification" in window;
  const state = () => {
    if (!supported) return "unsupported";
    if (Notification.permission === "denied") return "blocked";
    return Notification.permission === "granted" && stored(NOTIFY_KEY) === "on" ? "on" : "off";
  };
  const render = () => {
    const s = state();
    html.dataset.notify = s;
    if (!button) return;
    button.hidden = s === "unsupported";
    button.disabled = s === "blocked";
    button.setAttribute("aria-pressed", s === "on" ? "true" : "false");
    button.textContent = {
      on: t("✉ Notifications: on"),
      off: t("✉ Notify me when it is my turn"),
      blocked: t("✉ Notifications are blocked by the browser"),
      unsupported: "",
    }[s];
  };
  render();
  if (button && supported) {
    button.addEventListener("click", async () => {
      if (state() === "on") {
        store(NOTIFY_KEY, "off");
        return render();
      }
      let permission = Notification.permission;
      if (permission === "default") {
        try {
          permission = await Notification.requestPermission();
        } catch (e) {
          permission = "denied";
        }
      }
      if (permission === "granted") store(NOTIFY_KEY, "on");
      render();
    });
  }
  return () => state() === "on";
}

/**
 * Which decision a view asks for: the set-up's (tickets, first depots) or one turn's. A turn
 * holds several steps (a second card, a tunnel payment, new tickets to keep) but is one
 * decision; the set-up's ticket choice followed at once by the player's first turn is two.
 * @param {any} view
 */
export function decisionKey(view) {
  if (!view) return null;
  return view.phase === "setup" || view.phase === "depots" ? view.phase : "turn:" + view.turn;
}

/**
 * The signals of one table page.
 * @param {{tableTitle?: string}} [options]
 * @returns {{update: (state: {mine: boolean, seated: boolean, over: boolean}) => void}}
 */
export function createTurnSignals(options = {}) {
  const controls = document.getElementById("turn-signals");
  const soundOn = bindSound(document.getElementById("sound-toggle"));
  const notifyOn = bindNotify(document.getElementById("notify-toggle"));
  const flash = new TitleFlash();
  const html = document.documentElement;
  html.dataset.turnSignal = html.dataset.turnSignal || "0";
  html.dataset.turnTones = html.dataset.turnTones || "0";
  html.dataset.turnNotified = html.dataset.turnNotified || "0";
  unlockOnFirstGesture();
  let mine = false;

  const notify = () => {
    try {
      const note = new Notification(t("Your turn"), {
        body: fmt(t("%(table)s: it is your decision."), { table: options.tableTitle || flash.base }),
        tag: "ttr-turn-" + location.pathname,
      });
      note.onclick = () => {
        window.focus();
        note.close();
      };
      bump("turnNotified");
    } catch (e) {
      /* the browser refused: the title still flashes */
    }
  };

  const signal = () => {
    bump("turnSignal");
    if (soundOn() && playTone("turn")) bump("turnTones");
    if (document.hidden) {
      if (notifyOn()) notify();
      flash.start();
    }
  };

  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) flash.stop(mine);
    else if (mine) flash.start();
  });

  let lastKey = null;

  return {
    /** After each view: `mine` whether the player has a decision in `view`. */
    update({ mine: now, seated, view }) {
      const over = !!(view && (view.final || view.phase === "over"));
      if (controls) controls.hidden = !seated || over;
      const key = decisionKey(view);
      if (now && (!mine || key !== lastKey)) signal();
      if (!now) flash.stop(false);
      mine = now;
      lastKey = now ? key : null;
    },
  };
}
