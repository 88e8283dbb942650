// Shared helpers of the pages: the JSON API, stored seat tokens, DOM and SVG building.

const SVG_NS = "http://www.w3.org/2000/svg";

export class ApiError extends Error {
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

/** Call the server's JSON API; a refusal throws ApiError with the server's message. */
export async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    throw new ApiError("network", "the server cannot be reached; check your connection", 0);
  }
  let data = null;
  try {
    data = await response.json();
  } catch (error) {
    data = null;
  }
  if (!response.ok) {
    const problem = (data && data.error) || {};
    throw new ApiError(
      problem.code || "http_error",
      problem.message || `the server answered ${response.status}`,
      response.status,
    );
  }
  return data;
}

// -- tokens kept in this browser, keyed by room -----------------------------------

const SEAT_KEY = (room) => `pyramids:seat:${room}`;
const HOST_KEY = (room) => `pyramids:host:${room}`;
const NAME_KEY = "pyramids:name";
const SETUP_KEY = (room) => `pyramids:setup:${room}`;

function readJson(key) {
  try {
    const text = localStorage.getItem(key);
    return text ? JSON.parse(text) : null;
  } catch (error) {
    return null;
  }
}

export const store = {
  seat: (room) => readJson(SEAT_KEY(room)),
  setSeat: (room, seat) => localStorage.setItem(SEAT_KEY(room), JSON.stringify(seat)),
  dropSeat: (room) => localStorage.removeItem(SEAT_KEY(room)),
  host: (room) => localStorage.getItem(HOST_KEY(room)),
  setHost: (room, token) => localStorage.setItem(HOST_KEY(room), token),
  name: () => localStorage.getItem(NAME_KEY) || "",
  setName: (name) => localStorage.setItem(NAME_KEY, name),
  // How a room was set up (game, options, seats), so that a rematch can repeat it.
  setup: (room) => readJson(SETUP_KEY(room)),
  setSetup: (room, setup) => localStorage.setItem(SETUP_KEY(room), JSON.stringify(setup)),
};

// -- building elements ------------------------------------------------------------

function fill(node, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === "string" || typeof child === "number" ? String(child) : child);
  }
  return node;
}

/** An HTML element: h("button", {class: "x", onclick: f}, "label"). */
export function h(tag, attrs, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

/** An SVG element, same form as h. */
export function s(tag, attrs, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

/** Make an SVG or HTML element act as a button for the mouse and the keyboard. */
export function clickable(node, label, onActivate) {
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", label);
  node.classList.add("clickable");
  node.addEventListener("click", (event) => {
    event.preventDefault();
    onActivate(event);
  });
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      onActivate(event);
    }
  });
  return node;
}

/**
 * Arrow keys move the focus among the focusable elements of `root` by position:
 * the nearest one in the pressed direction.
 */
export function arrowNavigation(root) {
  root.addEventListener("keydown", (event) => {
    const directions = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const direction = directions[event.key];
    if (!direction || !root.contains(document.activeElement)) return;
    const current = document.activeElement;
    if (current.tagName === "INPUT" || current.tagName === "SELECT") return;
    const from = current.getBoundingClientRect();
    const cx = from.left + from.width / 2;
    const cy = from.top + from.height / 2;
    let best = null;
    let bestScore = Infinity;
    for (const node of root.querySelectorAll('[tabindex="0"], button:not([disabled])')) {
      if (node === current) continue;
      const box = node.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue;
      const dx = box.left + box.width / 2 - cx;
      const dy = box.top + box.height / 2 - cy;
      const along = dx * direction[0] + dy * direction[1];
      if (along <= 1) continue;
      const across = Math.abs(dx * direction[1]) + Math.abs(dy * direction[0]);
      const score = along + 2 * across;
      if (score < bestScore) {
        bestScore = score;
        best = node;
      }
    }
    if (best) {
      event.preventDefault();
      best.focus();
    }
  });
}

export function seatName(seats, index) {
  const seat = seats && seats[index];
  return seat ? seat.name : `seat ${index}`;
}

// The games as the server's manifests describe them (`/api/games`): titles,
// order and each game's drawing, so a new game needs no change to these pages.
let catalogue = null;

export async function loadCatalogue() {
  if (!catalogue) catalogue = await api("GET", "/api/games");
  return catalogue;
}

export function gameInfo(name) {
  return (catalogue && catalogue.games.find((game) => game.name === name)) || null;
}

export function gameTitle(name) {
  const info = gameInfo(name);
  return info ? info.title : name;
}

const renderers = {};

// The module that draws `name` (null: the page shows the view and move buttons).
export async function gameRenderer(name) {
  if (!(name in renderers)) {
    const info = gameInfo(name);
    renderers[name] = info && info.renderer ? await import(info.renderer) : null;
  }
  return renderers[name];
}
