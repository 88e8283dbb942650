// Every player can play: display options (remembered in this browser), keyboard play on
// the boards (one tab stop per board, arrows move in reading order, Enter or Space
// chooses, Escape cancels, letter keys for the game's buttons), and the live region that
// tells each move of the others and each result in the player's language.

import { h, seatName, t, wordsText } from "./common.js";

// -- display options ---------------------------------------------------------------

const DISPLAY_KEY = "pyramids.display";
const DISPLAY_CLASSES = { contrast: "theme-contrast", large: "large", reduce: "reduce-motion" };

export function displaySettings() {
  try {
    const stored = JSON.parse(window.localStorage.getItem(DISPLAY_KEY) || "{}");
    return stored && typeof stored === "object" ? stored : {};
  } catch (error) {
    return {};
  }
}

/** Put the remembered display options on <body> as classes (the CSS does the rest). */
export function applyDisplay() {
  const settings = displaySettings();
  for (const [name, className] of Object.entries(DISPLAY_CLASSES)) {
    document.body.classList.toggle(className, Boolean(settings[name]));
  }
}

function saveDisplay(name, on) {
  const settings = { ...displaySettings(), [name]: on };
  try {
    window.localStorage.setItem(DISPLAY_KEY, JSON.stringify(settings));
  } catch (error) {
    // A browser that keeps nothing still shows the choice on this page.
  }
  document.body.classList.toggle(DISPLAY_CLASSES[name], on);
}

/** The "Display" control of the page header: high contrast, large tiles, reduced motion. */
export function displayControl() {
  const settings = displaySettings();
  const choice = (name, label, note) => {
    const input = h("input", { type: "checkbox", id: `display-${name}`, "data-display": name });
    input.checked = Boolean(settings[name]);
    input.addEventListener("change", () => saveDisplay(name, input.checked));
    return h("label", { class: "display-choice", title: note || undefined }, input, " ", label);
  };
  return h("details", { class: "display-options", id: "display-options" },
    h("summary", {}, t("Display")),
    h("div", { class: "display-menu" },
      choice("contrast", t("High contrast")),
      choice("large", t("Large tiles and cards")),
      choice("reduce", t("Reduced motion"), t("Also on when the system asks for less motion.")),
      h("p", { class: "hint" }, t("Colour-blind marks are always on: every kind and state has its own shape."))));
}

// -- keyboard play on the boards -----------------------------------------------------

// A board is an SVG whose items (cards, fields, tiles) carry data-nav. Only one item of a
// board is in the Tab order (roving focus); Left and Right go through the items in reading
// order (data-order, else document order), Home and End to the first and last; Up and
// Down move to the nearest item above or below (arrowNavigation in common.js).

/** Mark a board item as reachable by keyboard and named for screen readers. */
export function navItem(node, label, order) {
  node.dataset.nav = "";
  if (order !== undefined) node.dataset.order = String(order);
  if (!node.hasAttribute("role")) {
    // Not something to press now: reachable and read, marked unavailable.
    node.setAttribute("role", "button");
    node.setAttribute("aria-disabled", "true");
  }
  node.setAttribute("aria-label", label);
  node.setAttribute("tabindex", "-1");
  return node;
}

function boardOf(node) {
  return node.closest("svg") || node.parentElement;
}

function itemsOf(board) {
  const items = [...board.querySelectorAll("[data-nav]")];
  const order = (node) => (node.dataset.order === undefined ? Infinity : Number(node.dataset.order));
  return items
    .map((node, index) => ({ node, index }))
    .sort((a, b) => order(a.node) - order(b.node) || a.index - b.index)
    .map((entry) => entry.node);
}

function makeCurrent(node) {
  for (const other of boardOf(node).querySelectorAll("[data-nav]")) other.setAttribute("tabindex", "-1");
  node.setAttribute("tabindex", "0");
}

/**
 * After each drawing: one item per board in the Tab order (the last one focused, else the
 * first that can be pressed), and the focus kept on the board when its item went away.
 */
export function settleRoving(box, ui, focusedKey) {
  const boards = new Set([...box.querySelectorAll("[data-nav]")].map(boardOf));
  let fallback = null;
  for (const board of boards) {
    const items = itemsOf(board);
    const current = items.find((node) => node.dataset.key === ui.navKey)
      || nearPlace(items, ui)
      || items.find((node) => node.getAttribute("aria-disabled") !== "true")
      || items[0];
    makeCurrent(current);
    if (!fallback) fallback = current;
  }
  if (focusedKey && !box.querySelector(`[data-key="${CSS.escape(focusedKey)}"]`) && fallback) {
    fallback.focus();
  }
}

/** When the item that had the keyboard went (a matched tile, a picked card): the next
 * one still there that can be pressed, in the reading order it was drawn in, else the one
 * before it. The keyboard went back to the board's first item, on a big monument far
 * from where the player was. */
function nearPlace(items, ui) {
  const order = ui.navOrder || [];
  const at = order.indexOf(ui.navKey);
  if (at < 0) return null;
  const open = new Map(items.filter((node) => node.getAttribute("aria-disabled") !== "true")
    .map((node) => [node.dataset.key, node]));
  const near = [...order.slice(at + 1), ...order.slice(0, at).reverse()].find((key) => open.has(key));
  return near === undefined ? null : open.get(near);
}

/** Keys of the room page: reading order on boards, Escape, and the game's letter keys. */
export function installKeys(box, ui) {
  box.addEventListener("focusin", (event) => {
    const node = event.target.closest && event.target.closest("[data-nav]");
    if (node && box.contains(node)) {
      ui.navKey = node.dataset.key;
      ui.navOrder = itemsOf(boardOf(node)).map((item) => item.dataset.key);
      makeCurrent(node);
    }
  });
  box.addEventListener("keydown", (event) => {
    const node = document.activeElement;
    if (!node || !node.hasAttribute || !node.hasAttribute("data-nav") || !box.contains(node)) return;
    const items = itemsOf(boardOf(node));
    const at = items.indexOf(node);
    let next = null;
    if (event.key === "ArrowRight") next = items[(at + 1) % items.length];
    else if (event.key === "ArrowLeft") next = items[(at - 1 + items.length) % items.length];
    else if (event.key === "Home") next = items[0];
    else if (event.key === "End") next = items[items.length - 1];
    if (next) {
      event.preventDefault();
      event.stopPropagation();
      next.focus();
      return;
    }
    // Enter or Space on an item that cannot be chosen now (the field just filled, a card
    // while it is another's turn) did nothing and said nothing: it now says why.
    if ((event.key === "Enter" || event.key === " ") && node.getAttribute("aria-disabled") === "true") {
      event.preventDefault();
      event.stopPropagation();
      if (ui.ctx) ui.ctx.showMessage(whyNotNow(node, ui), "info");
    }
  }, true);
  // A click on such an item (a swap zone slot before a card of the hand is chosen, a
  // field the card does not fit) said nothing either: it says the same words as Enter,
  // to a seated player (a spectator has nothing to choose anywhere).
  box.addEventListener("click", (event) => {
    const node = event.target.closest && event.target.closest("[data-nav]");
    if (!node || !box.contains(node) || node.getAttribute("aria-disabled") !== "true") return;
    const ctx = ui.ctx;
    if (!ctx || ctx.replay || ctx.seat === null || ctx.seat === undefined) return;
    ctx.showMessage(whyNotNow(node, ui), "info");
  });
  document.addEventListener("keydown", (event) => {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target && ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName)) return;
    if (target && target.closest && target.closest("summary, details")) return;
    const renderer = ui.renderer;
    const ctx = ui.ctx;
    if (!renderer || !ctx || box.hidden) return;
    if (event.key === "Escape") {
      if (renderer.cancel && renderer.cancel(ctx)) {
        event.preventDefault();
        ctx.rerender();
      }
      return;
    }
    if (event.key.length === 1 && renderer.onKey && renderer.onKey(event.key.toLowerCase(), ctx)) {
      event.preventDefault();
    }
  });
}

/** Why a board item cannot be chosen now, in words: the game's own reason where it has
 * one (a card that does not fit a field), else the game's state or the item itself. */
export function whyNotNow(node, ui) {
  const ctx = ui.ctx;
  if (ctx.finished || (ctx.message && ctx.message.status === "aborted")) return t("The game is over.");
  // A watcher's turn never comes: "It is not your turn" told them to wait for it.
  if (ctx.seat === null || ctx.seat === undefined) return t("You are watching this game.");
  // A tutorial's step to read waits for Next, not for another player.
  if (!ctx.yourTurn) return ctx.notYourTurn || t("It is not your turn.");
  const why = ui.renderer && ui.renderer.whyNot ? ui.renderer.whyNot(node, ctx) : null;
  // The games' reasons are the engine's refusals, which begin in lower case.
  if (why) return why.charAt(0).toUpperCase() + why.slice(1);
  return t("{item}: nothing to choose here now.", { item: node.getAttribute("aria-label") });
}

/** The keys of a game, as one line to show under its board. */
export function keysLine(entries) {
  const all = [
    [t("arrows"), t("move on the board")],
    [t("Enter or Space"), t("choose")],
    [t("Esc"), t("cancel")],
    ...entries,
  ];
  return h("p", { class: "hint shortcuts", id: "shortcuts" },
    h("span", { class: "shortcuts-title" }, t("Keys:")), " ",
    ...all.flatMap(([key, what], index) => [
      index ? " · " : "",
      h("kbd", {}, key), " ", what,
    ]));
}

// -- the live region ---------------------------------------------------------------------

const KEPT_ANNOUNCEMENTS = 4;

/** Say `text` to screen readers (and keep the last few lines for a look). */
export function announce(text) {
  const region = document.getElementById("announcer");
  if (!region || !text) return;
  region.append(h("p", {}, text));
  while (region.childElementCount > KEPT_ANNOUNCEMENTS) region.firstElementChild.remove();
}

/** Announce the move of another seat that `message` brings, a round's end, and the result at the end. */
export function announceMove(previous, message, renderer) {
  if (!message || message.status === "waiting") return;
  // The host started the game: said to everyone who waited (and whose move comes first).
  if (previous && previous.status === "waiting" && message.status === "playing") {
    if (message.your_turn) announce(t("The game has started: your move."));
    else if (message.current_player !== null && message.current_player !== undefined) {
      announce(t("The game has started: {name} moves first.", { name: seatName(message.seats, message.current_player) }));
    } else announce(t("The game has started."));
  }
  const last = message.last_move;
  const moved = previous && previous.status !== "waiting" && message.move_number > previous.move_number;
  if (moved && last && last.seat !== message.seat && !last.action.startsWith("clock ")) {
    const name = seatName(message.seats, last.seat);
    const words = renderer && renderer.describeMove ? renderer.describeMove(last.action, message.view, message) : null;
    announce(words ? t("{name}: {move}", { name, move: words }) : t("{name} moved.", { name }));
  }
  // A round that ended since (by anyone's move, the reader's own too), the match going on.
  if (moved && message.status !== "finished" && renderer && renderer.roundEnd) {
    const line = renderer.roundEnd(previous.view, message.view, message);
    if (line) announce(line);
  }
  if (message.status === "finished" && previous && previous.status !== "finished") {
    const lines = renderer && renderer.outcome ? renderer.outcome(message.view, message) : [];
    announce([t("Game over."), ...lines].join(" "));
  }
  // How a game in play ended without a result: a ranked forfeit (who, and what it
  // means), the server's operator, the move limit, else its host.
  if (message.status === "aborted" && previous && previous.status === "playing") {
    announce(message.ended && message.ended.words ? wordsText(message.ended.words) : t("The host ended this game"));
  }
}
