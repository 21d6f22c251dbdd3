/**
 * Translation helpers over Django's JavaScript catalogue (/jsi18n/, loaded as a classic
 * script before any module runs). `t` and `nt` are the keywords makemessages extracts
 * (ttr_site/management/commands/makemessages.py); without a catalogue they return English.
 * @module i18n
 */

/** @type {(s: string) => string} */
export const t = typeof window.gettext === "function" ? (s) => window.gettext(s) : (s) => s;

/** @type {(singular: string, plural: string, n: number) => string} */
export const nt =
  typeof window.ngettext === "function"
    ? (s, p, n) => window.ngettext(s, p, n)
    : (s, p, n) => (n === 1 ? s : p);

/**
 * Fill the %(name)s placeholders of a translated string.
 * @param {string} s
 * @param {Record<string, unknown>} params
 */
export function fmt(s, params) {
  if (typeof window.interpolate === "function") return window.interpolate(s, params, true);
  return s.replace(/%\((\w+)\)s/g, (m, k) => (params[k] === undefined ? m : String(params[k])));
}
