/**
 * Train-card colours: the one place for their order, fills, colour-blind symbols, legible
 * text colours and names (the board, the hand, the market, the log and the dialogs all
 * read them from here).
 * @module cards
 */
import { t } from "./i18n.js";

/** @typedef {"pink"|"white"|"blue"|"yellow"|"orange"|"black"|"red"|"green"|"gray"|"locomotive"} CardColor */

/** Route colours in the legend's order (gray routes take any one colour). */
export const COLOR_NAMES = Object.freeze(["pink", "white", "blue", "yellow", "orange", "black", "red", "green", "gray"]);
/** Card colours in the order a hand is shown. */
export const COLOR_ORDER = Object.freeze(["pink", "white", "blue", "yellow", "orange", "black", "red", "green", "locomotive"]);

export const COLOR_FILLS = Object.freeze({
  pink: "#f29bc4",
  white: "#f8f8f4",
  blue: "#2b6fd8",
  yellow: "#f6d21b",
  orange: "#f0861c",
  black: "#26262b",
  red: "#d8322b",
  green: "#2f9a48",
  gray: "#a9a9a6",
  locomotive: "#7b5aa6",
});
/** A letter per colour, so that colour-blind players can tell the cards apart. */
export const COLOR_SYMBOLS = Object.freeze({
  pink: "P",
  white: "W",
  blue: "B",
  yellow: "Y",
  orange: "O",
  black: "K",
  red: "R",
  green: "G",
  gray: "",
  locomotive: "✦",
});
/** A legible text colour on each fill. */
export const COLOR_TEXT = Object.freeze({
  pink: "#1d1d1d",
  white: "#1d1d1d",
  blue: "#ffffff",
  yellow: "#1d1d1d",
  orange: "#1d1d1d",
  black: "#ffffff",
  red: "#ffffff",
  green: "#ffffff",
  gray: "#1d1d1d",
  locomotive: "#ffffff",
});

// New York's wild cards are taxi cards (docs/rules.md §3): the engine's key stays "locomotive".
let taxis = false;
/** Name the wild card a taxi card on this page (New York). @param {boolean} on */
export function useTaxis(on) {
  taxis = !!on;
}

const COLOR_LABELS = {
  pink: () => t("pink"), white: () => t("white"), blue: () => t("blue"), yellow: () => t("yellow"),
  orange: () => t("orange"), black: () => t("black"), red: () => t("red"), green: () => t("green"),
  gray: () => t("gray"), locomotive: () => (taxis ? t("taxi card") : t("locomotive")),
};

/** @param {string} c */
export const fillOf = (c) => COLOR_FILLS[c] || "#999";
/** @param {string} c */
export const symbolOf = (c) => (COLOR_SYMBOLS[c] === undefined ? "" : COLOR_SYMBOLS[c]);
/** @param {string} c */
export const textOf = (c) => COLOR_TEXT[c] || "#fff";
/** The colour's name in the page's language. @param {string} c */
export const colorLabel = (c) => (COLOR_LABELS[c] ? COLOR_LABELS[c]() : c);

/**
 * The non-zero entries of a card dict, in hand order.
 * @param {Record<string, number>} cards
 * @returns {[string, number][]}
 */
export function sortedCards(cards) {
  return Object.entries(cards || {})
    .filter(([, n]) => n > 0)
    .sort((a, b) => COLOR_ORDER.indexOf(a[0]) - COLOR_ORDER.indexOf(b[0]));
}

/** "2 red + 1 locomotive". @param {Record<string, number>} cards */
export function cardsText(cards) {
  return sortedCards(cards).map(([c, n]) => n + " " + colorLabel(c)).join(" + ");
}
