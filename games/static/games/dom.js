/**
 * DOM building blocks shared by the table and replay pages: `h` (element factory; styles go
 * through the CSSOM, which the Content-Security-Policy allows), icons, card chips, seat tokens.
 * @module dom
 */
import { colorLabel, fillOf, sortedCards, symbolOf, textOf } from "./cards.js";

/**
 * Create an element. attrs: class, text, style {prop|--var: value}, on<event>: fn,
 * dataset {...}, anything else as an attribute (true: empty, null/false/undefined: absent).
 * @param {string} tag
 * @param {Record<string, any> | null} [attrs]
 * @param {...any} children  nodes, strings or numbers (arrays are flattened; null skipped)
 * @returns {HTMLElement}
 */
export function h(tag, attrs, ...children) {
  const node = document.createElement(tag);
  if (attrs) {
    for (const k in attrs) {
      const v = attrs[k];
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else if (k === "style" && typeof v === "object") {
        for (const p in v) {
          if (p.startsWith("--")) node.style.setProperty(p, v[p]);
          else node.style[p] = v[p];
        }
      }
      else if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
      else if (k === "dataset") Object.assign(node.dataset, v);
      else node.setAttribute(k, v === true ? "" : v);
    }
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
  return node;
}

// Small monochrome icons (no emoji: not every system has an emoji font).
const ICONS = {
  train: '<path d="M4 3h8a2 2 0 0 1 2 2v6a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2zm0 2v3h8V5zm1 5.2a1 1 0 1 0 0 .01zm6 0a1 1 0 1 0 0 .01zM4 14h2l-1 1.5H3zm6 0h2l1 1.5h-2z"/>',
  station: '<path d="M8 1.5 14.5 7v7.5h-4.5v-4h-4v4H1.5V7z"/>',
  cards: '<path d="M3 2h7a1.5 1.5 0 0 1 1.5 1.5v10A1.5 1.5 0 0 1 10 15H3a1.5 1.5 0 0 1-1.5-1.5v-10A1.5 1.5 0 0 1 3 2zm10 2 1.2.4a1.5 1.5 0 0 1 1 1.9l-2.2 7.4V4z"/>',
  ticket: '<path d="M1.5 4h13v2.5a1.5 1.5 0 0 0 0 3V12h-13V9.5a1.5 1.5 0 0 0 0-3zM5 6v4h1V6zm3 0v1h4V6zm0 2v1h3V8z"/>',
  trophy: '<path d="M4 1.5h8V3h2.5v1.5A3.5 3.5 0 0 1 11.3 8 4 4 0 0 1 9 10v2h2.5v2.5h-7V12H7v-2a4 4 0 0 1-2.3-2A3.5 3.5 0 0 1 1.5 4.5V3H4zm0 3H3a2 2 0 0 0 1.2 1.8A6 6 0 0 1 4 4.5zm8 0a6 6 0 0 1-.2 1.8A2 2 0 0 0 13 4.5z"/>',
  depot: '<path fill-rule="evenodd" d="M2.5 2.5h11v11h-11zm2.5 2.5v6h6V5z"/>',
  warehouse: '<path d="M1 6.5 8 2l7 4.5V14h-2V8H3v6H1zm3 2.5h8v1.5H4zm0 2.5h8V14H4z"/>',
  clock: '<path d="M8 1.5a6.5 6.5 0 1 1 0 13 6.5 6.5 0 0 1 0-13zm0 1.6a4.9 4.9 0 1 0 0 9.8 4.9 4.9 0 0 0 0-9.8zM7.3 4.5h1.4v3.2l2.2 1.3-.7 1.2-2.9-1.7z"/>',
};
export function icon(name, label) {
  const span = h("span", { class: "icon icon--" + name, "aria-hidden": label ? null : "true", title: label || null });
  span.innerHTML = '<svg viewBox="0 0 16 16" width="1em" height="1em" fill="currentColor">' + (ICONS[name] || "") + "</svg>";
  return span;
}

/** A small card chip: colour swatch with the colour-blind letter and an optional count. */
export function cardChip(color, count, extraClass) {
  const chip = h("span", {
    class: "card-chip" + (color === "locomotive" ? " card-chip--loco" : "") + (extraClass ? " " + extraClass : ""),
    "data-color": color,
    title: colorLabel(color),
    style: { "--card-fill": fillOf(color), "--card-text": textOf(color) },
  });
  chip.appendChild(h("span", { class: "card-chip__sym", "aria-hidden": "true", text: symbolOf(color) || "·" }));
  if (count !== undefined && count !== null) chip.appendChild(h("span", { class: "card-chip__count", text: "×" + count }));
  chip.appendChild(h("span", { class: "visually-hidden", text: " " + colorLabel(color) }));
  return chip;
}

/** Chips for a card dict {colour: count} or a list of colours. */
export function cardsNode(cards) {
  const wrap = h("span", { class: "card-chips" });
  if (Array.isArray(cards)) {
    for (const c of cards) wrap.appendChild(cardChip(c));
  } else {
    for (const [c, n] of sortedCards(cards)) wrap.appendChild(cardChip(c, n));
  }
  return wrap;
}

/** A seat token: the seat colour with its symbol. */
export function seatToken(seat, players) {
  const p = players[seat] || { color: "#888", symbol: "?" };
  return h("span", { class: "seat-token", style: { "--seat-color": p.color }, "aria-hidden": "true", text: p.symbol });
}

/** The parsed content of a json_script element, or null. @param {string} id */
export function readJson(id) {
  const node = document.getElementById(id);
  return node ? JSON.parse(node.textContent) : null;
}
