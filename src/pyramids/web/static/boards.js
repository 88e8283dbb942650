// Boards drawn from their geometry: the picture chooser of the lobby, the best-score and
// daily tables, and one-player games started from a board, a game number or the daily deal.
// Every board comes from the server's list (`/api/games/{game}/boards`), so a board a game
// adds appears here by itself; the server checks every name it is sent.

import { LANG, api, formatNumber, h, s, store, t, tn } from "./common.js";

const boardLists = new Map();

/** The boards a game ships ({option, boards}); {option: null, boards: []} for none. */
export async function loadBoards(game) {
  if (!boardLists.has(game)) {
    boardLists.set(game, api("GET", `/api/games/${encodeURIComponent(game)}/boards?lang=${LANG}`));
  }
  try {
    return await boardLists.get(game);
  } catch (problem) {
    boardLists.delete(game);
    throw problem;
  }
}

// -- the picture -----------------------------------------------------------------------

const CELL = 10; // one half-tile cell, in picture units
const LIFT = 3; // how far a layer is drawn up and to the left

/** A board seen from above, layers lifted and lighter as they rise; capstones gold,
 * vaults blue, face-down tiles dark. Decorative: the card says the same in words. */
export function boardPicture(board) {
  const width = board.width * CELL + LIFT * board.layers + 2;
  const height = board.height * CELL + LIFT * board.layers + 2;
  const capstones = new Set(board.capstones);
  const vaults = new Set(board.vaults);
  const faceDown = new Set(board.face_down);
  const order = board.positions.map((position, tile) => [position, tile])
    .sort((a, b) => a[0][2] - b[0][2] || a[0][1] - b[0][1] || a[0][0] - b[0][0]);
  const tiles = order.map(([[x, y, z], tile]) => {
    const kind = capstones.has(tile) ? "capstone" : vaults.has(tile) ? "vault"
      : faceDown.has(tile) ? "face-down" : `layer-${Math.min(z, 7)}`;
    return s("rect", {
      class: `preview-tile ${kind}`,
      x: x * CELL + LIFT * (board.layers - z) + 1,
      y: y * CELL + LIFT * (board.layers - z) + 1,
      width: 2 * CELL - 1, height: 2 * CELL - 1, rx: 2,
    });
  });
  return s("svg", {
    class: "board-preview", viewBox: `0 0 ${width} ${height}`, "aria-hidden": "true",
    focusable: "false",
  }, tiles);
}

function boardFacts(board) {
  const facts = [
    tn("{count} tile", "{count} tiles", board.tiles),
    tn("{count} layer", "{count} layers", board.layers),
  ];
  const minutes = board.figures && board.figures.estimated_minutes;
  if (minutes) facts.push(t("about {minutes} min", { minutes: formatNumber(Math.round(minutes)) }));
  // The server sends the tier in the page's language.
  if (board.tier) facts.unshift(t("tier: {tier}", { tier: board.tier }));
  return facts.join(" · ");
}

// -- the chooser --------------------------------------------------------------------------

/**
 * A radio group of board cards (a picture, the title, tier, tile count, description)
 * writing the chosen name into a hidden input `name` (so the form reads it like any
 * option). `extra` is a card for a value that is no board (e.g. "auto"), or null.
 * Arrow keys move the choice, as in any radio group; Tab leaves the group.
 */
export function boardChooser({ name, boards, value, extra, onChange }) {
  const input = h("input", { type: "hidden", id: `option-${name}`, name });
  const label = h("span", { id: `${name}-chooser-label`, class: "option-name" }, t("Board"));
  const group = h("div", {
    class: "board-chooser", role: "radiogroup", "aria-labelledby": `${name}-chooser-label`,
  });
  const entries = extra ? [extra, ...boards] : boards;
  const cards = entries.map((board) => {
    const describedBy = `board-${board.name}-about`;
    return h(
      "div",
      {
        class: "board-card", role: "radio", "aria-checked": "false", tabindex: "-1",
        "data-board": board.name, "aria-describedby": describedBy,
      },
      board.positions ? boardPicture(board) : h("div", { class: "board-preview none", "aria-hidden": "true" }),
      h("strong", { class: "board-title" }, board.title),
      h("span", { class: "board-facts", id: describedBy },
        board.positions ? boardFacts(board) : board.description),
      board.positions && board.description
        ? h("small", { class: "board-about", title: board.description }, board.description) : null,
    );
  });
  group.append(...cards);

  function choose(card, focus) {
    for (const other of cards) {
      const chosen = other === card;
      other.setAttribute("aria-checked", String(chosen));
      other.tabIndex = chosen ? 0 : -1;
      other.classList.toggle("chosen", chosen);
    }
    input.value = card.dataset.board;
    if (focus) card.focus();
    if (onChange) onChange(card.dataset.board);
  }

  group.addEventListener("click", (event) => {
    const card = event.target.closest(".board-card");
    if (card) choose(card, true);
  });
  group.addEventListener("keydown", (event) => {
    const index = cards.indexOf(document.activeElement);
    if (index < 0) return;
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
    if (step) {
      event.preventDefault();
      choose(cards[(index + step + cards.length) % cards.length], true);
    } else if (event.key === " " || event.key === "Enter") {
      event.preventDefault();
      choose(cards[index], true);
    } else if (event.key === "Home" || event.key === "End") {
      event.preventDefault();
      choose(cards[event.key === "Home" ? 0 : cards.length - 1], true);
    }
  });
  const start = cards.find((card) => card.dataset.board === value) || cards[0];
  if (start) choose(start, false);
  return { element: h("div", { class: "field board-field" }, label, input, group), input };
}

// -- the tables ------------------------------------------------------------------------------

export function clockText(seconds) {
  const whole = Math.max(0, Math.floor(Number(seconds) || 0));
  const minutes = Math.floor(whole / 60);
  return `${minutes}:${String(whole % 60).padStart(2, "0")}`;
}

/** A table of results (`rows` from the server), or a line saying there are none yet. */
export function scoreTable(caption, rows) {
  if (!rows.length) {
    return h("div", { class: "scores" }, h("p", { class: "hint" }, caption), h("p", { class: "hint" }, t("No results yet: be the first.")));
  }
  return h(
    "table",
    { class: "scores" },
    h("caption", {}, caption),
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, t("Rank")),
      h("th", { scope: "col" }, t("Player")),
      h("th", { scope: "col" }, t("Score")),
      h("th", { scope: "col" }, t("Time")),
      h("th", { scope: "col" }, t("Cleared")))),
    h("tbody", {}, rows.map((row) => h("tr", {},
      h("td", {}, formatNumber(row.rank)),
      h("td", {}, row.player),
      h("td", {}, formatNumber(row.score)),
      h("td", {}, clockText(row.seconds)),
      h("td", {}, row.won ? t("yes") : t("no"))))),
  );
}

export async function boardScores(game, board, title, options) {
  const query = options && Object.keys(options).length
    ? `?options=${encodeURIComponent(JSON.stringify(options))}` : "";
  const answer = await api("GET", `/api/scores/${encodeURIComponent(game)}/${encodeURIComponent(board)}${query}`);
  return scoreTable(t("Best scores on {board}", { board: title }), answer.scores);
}

export async function dailyScores(game, day) {
  const query = `?lang=${LANG}` + (day ? `&day=${encodeURIComponent(day)}` : "");
  const answer = await api("GET", `/api/daily/${encodeURIComponent(game)}${query}`);
  return {
    answer,
    table: scoreTable(t("Daily deal of {day}: {board}", { day: answer.day, board: answer.board.title }), answer.scores),
  };
}

// -- starting one-player games -------------------------------------------------------------------

const GAME_NUMBER = /^\s*[a-z0-9_][a-z0-9_-]*-[0-9]{1,19}\s*$/i;

/** Whether text reads as a game number (the server checks the board and the range). */
export function looksLikeGameNumber(text) {
  return GAME_NUMBER.test(text);
}

/**
 * Start a one-player game and keep its tokens like any room made here. `request` is
 * {game, name, board, options} (a deal the server draws), {game, name, game_number}
 * (practice) or {game, name, daily: true}. Returns the room id.
 */
export async function startSolitaire(request) {
  const started = await api("POST", "/api/solitaire", { ...request, lang: LANG });
  const roomId = started.room.id;
  store.setHost(roomId, started.host_token);
  store.setSetup(roomId, {
    game: request.game, options: started.room.options, seats: [{ kind: "me" }],
    bot_delay_seconds: 0, name: request.name,
  });
  store.setSeat(roomId, { token: started.token, seat: started.seat, name: request.name });
  return roomId;
}

export function gameNumberLink(game, number) {
  return `/?game=${encodeURIComponent(game)}&number=${encodeURIComponent(number)}`;
}
