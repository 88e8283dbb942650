// Shared helpers of the pages: the JSON API, stored seat tokens, DOM and SVG building,
// and the message catalogue (every word a player reads goes through t() or tn()).

const SVG_NS = "http://www.w3.org/2000/svg";

// -- the message catalogue -------------------------------------------------------------
// The server's catalogue (/api/i18n/<lang>, the same .po files as the terminal) in the
// language chosen on any page (remembered), else the browser's. Messages are English
// ids with {name} placeholders; scripts/update_catalogue.py extracts t("...") and
// tn("...", "...", n) from these files and data-i18n="..." from the HTML pages.

export const LANGUAGES = { en: "English", ko: "한국어" };
const LANG_KEY = "pyramids.lang";
let messages = {};

function cookieLanguage() {
  const match = /(?:^|; )pyramids_lang=([a-z]{2})/.exec(document.cookie);
  return match ? match[1] : null;
}

// The language a link asks for (`?lang=ko`), when it has a catalogue here.
function addressLanguage() {
  const asked = new URLSearchParams(window.location.search).get("lang");
  return asked && asked in LANGUAGES ? asked : null;
}

function rememberLanguage(code) {
  try {
    window.localStorage.setItem(LANG_KEY, code);
  } catch (error) {
    // A browser that keeps nothing still gets the cookie.
  }
  document.cookie = `pyramids_lang=${code}; path=/; max-age=31536000; samesite=lax`;
}

function chosenLanguage() {
  // A link's ?lang= first, remembered as the switch remembers a choice (an unknown one
  // is passed over, as the server passes it over).
  const asked = addressLanguage();
  if (asked) {
    rememberLanguage(asked);
    return asked;
  }
  let stored = null;
  try {
    stored = window.localStorage.getItem(LANG_KEY);
  } catch (error) {
    stored = null;
  }
  // The cookie first: the learn pages (served with ?lang=) set only the cookie.
  const candidates = [cookieLanguage(), stored, ...(navigator.languages || [navigator.language])];
  for (const candidate of candidates) {
    const code = (candidate || "").slice(0, 2).toLowerCase();
    if (code in LANGUAGES) return code;
  }
  return "en";
}

export let LANG = chosenLanguage();

/** Load the catalogue of the chosen language; pages await this before drawing. */
export async function loadMessages() {
  try {
    const response = await fetch(`/api/i18n/${LANG}`);
    if (response.ok) messages = (await response.json()).messages || {};
  } catch (error) {
    messages = {};
  }
  document.documentElement.lang = LANG;
  translatePage(document);
  return LANG;
}

function fillPlaceholders(text, values) {
  const filled = text.replace(/\{(\w+)\}/g, (whole, name) => (values && name in values ? String(values[name]) : whole));
  return values && LANG === "ko" ? koreanParticles(filled) : filled;
}

// Korean particles follow the sound before them (을 after a final consonant, 를 after a
// vowel): a message writes both ("{card}을(를)"), and once the value is in, the one that
// fits is kept (pyramids.play.i18n.korean_particles does the same for the server's words).
const PARTICLE_FORMS = {
  "을(를)": ["을", "를", "을"], "이(가)": ["이", "가", "이"], "은(는)": ["은", "는", "은"],
  "와(과)": ["과", "와", "과"], "과(와)": ["과", "와", "과"], "(으)로": ["으로", "로", "로"],
};
const DIGIT_ENDINGS = { 0: 0, 1: 2, 2: 1, 3: 0, 4: 1, 5: 1, 6: 0, 7: 2, 8: 2, 9: 1 };

function soundBefore(text, at) {
  let index = at - 1;
  while (index >= 0 && "'\"’”)]»›".includes(text[index])) index -= 1;
  if (index < 0) return null;
  const code = text.charCodeAt(index);
  if (code >= 0xac00 && code <= 0xd7a3) {
    const final = (code - 0xac00) % 28;
    return final === 0 ? 1 : final === 8 ? 2 : 0;
  }
  return text[index] in DIGIT_ENDINGS ? DIGIT_ENDINGS[text[index]] : null;
}

export function koreanParticles(text) {
  return text.replace(/을\(를\)|이\(가\)|은\(는\)|와\(과\)|과\(와\)|\(으\)로/g, (pair, at) => {
    const sound = soundBefore(text, at);
    return sound === null ? pair : PARTICLE_FORMS[pair][sound];
  });
}

/** A message in the page's language, with {name} placeholders filled from `values`. */
export function t(message, values) {
  const found = messages[message];
  const text = typeof found === "string" && found ? found : Array.isArray(found) ? found[0] : message;
  return fillPlaceholders(text, values);
}

/** The singular or plural form for `count` ({count} is filled, in the locale's digits). */
export function tn(singular, plural, count, values) {
  const forms = messages[singular];
  const rule = new Intl.PluralRules(LANG).select(count);
  let text;
  if (Array.isArray(forms) && forms.length) {
    text = forms.length === 1 ? forms[0] : forms[rule === "one" ? 0 : 1];
  } else {
    text = count === 1 ? singular : plural;
  }
  return fillPlaceholders(text, { ...values, count: formatNumber(count) });
}

/** Words the server sent as JSON ({msgid, values, plural?, count?}, values nested the
 * same way) in the page's language, from the catalogue. */
export function wordsText(words) {
  if (!words || typeof words !== "object") return String(words ?? "");
  const values = {};
  for (const [name, value] of Object.entries(words.values || {})) {
    values[name] = value && typeof value === "object" && "msgid" in value ? wordsText(value) : value;
  }
  if (words.plural !== undefined) {
    delete values.count;
    return tn(words.msgid, words.plural, Number(words.count), values);
  }
  return t(words.msgid, values);
}

export function formatNumber(value) {
  return new Intl.NumberFormat(LANG).format(value);
}

/** A bot's name as players read it: the difficulty levels in words, other agents by name. */
export function agentLabel(agent) {
  const labels = {
    easy: t("Easy"),
    medium: t("Medium"),
    hard: t("Hard"),
    expert: t("Expert"),
    random: t("Random moves"),
    greedy: t("Greedy rule"),
    mcts: t("MCTS tree search"),
    planner: t("Planner (sampled deals)"),
    determinized: t("Mahjongg solver on sampled faces"),
    "openspiel-mcts": t("OpenSpiel's tree search"),
    "openspiel-ismcts": t("OpenSpiel's information-set search"),
  };
  // A setting reads as its agent's words ("mcts:iterations=5" as "MCTS tree search",
  // `agent_words` in pyramids.play.results): its options are internals. A plugin's
  // agent keeps the name its author gave it.
  const setting = /^([\w-]+)(?::\w+=[^:]*)+$/.exec(agent);
  const name = setting ? setting[1] : agent;
  return labels[name] || name;
}

/** The named levels, easiest first, then the other bots in the server's order. */
export const LEVELS = ["easy", "medium", "hard", "expert"];
export function orderedAgents(agents) {
  const levels = LEVELS.filter((level) => agents.includes(level));
  return [...levels, ...agents.filter((agent) => !LEVELS.includes(agent))];
}

/** Put the catalogue's words into elements marked data-i18n (and -title, -placeholder,
 * -aria-label: those attributes). */
export function translatePage(root) {
  for (const element of root.querySelectorAll("[data-i18n]")) {
    element.textContent = t(element.dataset.i18n);
  }
  for (const element of root.querySelectorAll("[data-i18n-title]")) {
    element.title = t(element.dataset.i18nTitle);
  }
  for (const element of root.querySelectorAll("[data-i18n-placeholder]")) {
    element.placeholder = t(element.dataset.i18nPlaceholder);
  }
  for (const element of root.querySelectorAll("[data-i18n-aria-label]")) {
    element.setAttribute("aria-label", t(element.dataset.i18nAriaLabel));
  }
}

/** Choose a language for every page (remembered here and by the server's pages). */
export function setLanguage(code) {
  if (!(code in LANGUAGES)) return;
  rememberLanguage(code);
  // An address that names a language (a shared ?lang= link) would name the old one again.
  const address = new URL(window.location.href);
  if (address.searchParams.has("lang")) {
    address.searchParams.set("lang", code);
    window.location.replace(address.href);
  } else {
    window.location.reload();
  }
}

/** A language switch for the page header: a link per language, each named in its own
 * language, the page's own one marked as current. A link changes nothing until it is
 * followed (a <select> that switched on `change` reloaded the page as soon as an arrow
 * key moved through it, so a keyboard or screen-reader user could not read the list). */
export function languageSwitch() {
  const nav = document.createElement("nav");
  nav.setAttribute("aria-label", t("Language"));
  nav.className = "languages language-switch";
  Object.entries(LANGUAGES).forEach(([code, name], index) => {
    if (index) nav.append(" · ");
    if (code === LANG) {
      const current = document.createElement("strong");
      current.setAttribute("aria-current", "true");
      current.lang = code;
      current.textContent = name;
      nav.append(current);
      return;
    }
    const link = document.createElement("a");
    const address = new URL(window.location.href);
    address.searchParams.set("lang", code);
    link.href = address.pathname + address.search + address.hash;
    link.hreflang = code;
    link.lang = code;
    link.textContent = name;
    link.addEventListener("click", (event) => {
      event.preventDefault();
      setLanguage(code);
    });
    nav.append(link);
  });
  return nav;
}

export class ApiError extends Error {
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

/** Call the server's JSON API; a refusal throws ApiError with the server's message. */
export async function api(method, path, body) {
  // The server words its refusals in the language this page reads.
  const init = { method, headers: { "Accept-Language": LANG } };
  if (method !== "GET") {
    // Double-submit CSRF token: requests made with a login carry the cookie's value.
    const csrf = /(?:^|; )pyramids_csrf=([^;]*)/.exec(document.cookie);
    if (csrf) init.headers["X-CSRF-Token"] = decodeURIComponent(csrf[1]);
  }
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    throw new ApiError("network", t("the server cannot be reached; check your connection"), 0);
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
      problem.message || t("the server answered {status}", { status: response.status }),
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
    for (const node of root.querySelectorAll('[tabindex="0"], [data-nav], button:not([disabled])')) {
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
  if (!seat) return t("seat {number}", { number: index + 1 });
  const label = seatLabel(seat);
  // Three "Medium (bot)" at one table, or "Bea" beside a Cyrillic "Веа" (the server
  // gives each person's name its look): each says its seat, as the move log does.
  const twin = seats.some((other, at) => at !== index && other && other.kind !== "open"
    && (seatLabel(other) === label || (seat.look && other.look === seat.look)));
  if (!twin) return label;
  if (seat.kind === "agent" && seat.agent) {
    return t("{bot} (bot, seat {number})", { bot: agentLabel(seat.agent), number: index + 1 });
  }
  return t("{name} (seat {number})", { name: label, number: index + 1 });
}

/** A seat's name as players read it: a bot by its level or rule, in the page's language. */
export function seatLabel(seat) {
  if (seat.kind === "agent" && seat.agent) return t("{bot} (bot)", { bot: agentLabel(seat.agent) });
  return seat.name;
}

// The games as the server's manifests describe them (`/api/games`): titles,
// order and each game's drawing, so a new game needs no change to these pages.
let catalogue = null;

export async function loadCatalogue() {
  if (!catalogue) catalogue = await api("GET", `/api/games?lang=${LANG}`);
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

/** The board of a game with no drawing of its own (a plugin's without a browser
 * renderer): its plain-text drawing where the server sends one (`text`, its
 * text_renderer's), else words saying it has none (the view's fields are the game's
 * internal keys); then its legal moves, one button each, named by their words. */
export function plainBoard(game, text, legal, send) {
  const drawing = typeof text === "string"
    ? h("pre", { class: "raw-view" }, text)
    : h("p", { class: "no-drawing" },
      t("{game} has no drawing of its board here; follow the game by its moves.", { game: gameTitle(game) }));
  const parts = [drawing];
  if (legal.length) {
    parts.push(h("div", { class: "actions", role: "group", "aria-label": t("Your moves:") },
      legal.map((action) => h("button", { type: "button", "data-action": action, onclick: () => send(action) }, action))));
  }
  return parts;
}

// The module that draws `name` (null: the page shows `plainBoard`).
export async function gameRenderer(name) {
  if (!(name in renderers)) {
    const info = gameInfo(name);
    renderers[name] = info && info.renderer ? await import(info.renderer) : null;
  }
  return renderers[name];
}
