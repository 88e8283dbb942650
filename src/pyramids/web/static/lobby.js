// The lobby: create a room (game, options, seats), list open rooms and games in play.

import { agentLabel, api, gameTitle, h, LANG, languageSwitch, LEVELS, loadCatalogue, loadMessages, orderedAgents, seatName, store, t } from "./common.js";
import { createRoom, seatCount } from "./setup.js";
import { applyDisplay, displayControl } from "./access.js";
import { lockClockForRanked, readTimeControl, timeControlFields } from "./clock.js";
import { accountHref, accountLine, currentAccount, rankedRefusal } from "./account.js";
import {
  boardChooser, boardPicture, boardScores, dailyScores, loadBoards, looksLikeGameNumber,
  startSolitaire,
} from "./boards.js";

const MAIN_OPTIONS = new Set(["players", "rounds_to_win", "direction", "mode", "layout", "max_rounds", "time_limit_seconds"]);
const REFRESH_MS = 4000;

let catalogue = { games: [], agents: [] };
// The boards of the chosen game ({option, boards}) when it ships some: a picture chooser.
let boardInfo = { option: null, boards: [] };

function currentGame() {
  const name = document.getElementById("game").value;
  return catalogue.games.find((game) => game.name === name);
}

function optionInput(spec) {
  const id = `option-${spec.name}`;
  let input;
  if (spec.kind === "bool") {
    input = h("input", { id, type: "checkbox", name: spec.name });
    input.checked = Boolean(spec.default);
  } else if (spec.choices) {
    input = h(
      "select",
      { id, name: spec.name },
      spec.choices.map((choice, index) =>
        h("option", { value: String(choice), selected: choice === spec.default },
          (spec.choice_titles || [])[index] || String(choice)),
      ),
    );
  } else if (spec.kind === "int" || spec.kind === "float") {
    input = h("input", {
      id, name: spec.name, type: "number", value: spec.default,
      step: spec.kind === "int" ? 1 : "any",
    });
  } else {
    input = h("input", { id, name: spec.name, value: spec.default ?? "" });
  }
  input.dataset.kind = spec.kind;
  input.dataset.default = JSON.stringify(spec.default);
  input.addEventListener("change", () => {
    renderSeats();
    renderBoardScores();
    askRankedOptions();
  });
  return h(
    "label",
    { class: "field option", title: spec.allowed || "" },
    h("span", { class: "option-name" }, spec.title || spec.name.replaceAll("_", " ")),
    input,
    h("small", { class: "hint" }, spec.doc || ""),
  );
}

function inputValue(input) {
  return input.dataset.kind === "bool" ? input.checked : input.value;
}

function setInputValue(input, value) {
  if (input.dataset.kind === "bool") input.checked = Boolean(value);
  else input.value = String(value);
}

/** The options as the form says them; `own`: as the player chose them, where a ranked
 * room took some in their place. */
function readOptions({ own = false } = {}) {
  const options = {};
  for (const input of document.querySelectorAll("#options [name]")) {
    let value;
    const kind = input.dataset.kind;
    const raw = own && input.dataset.playerValue !== undefined
      ? JSON.parse(input.dataset.playerValue) : inputValue(input);
    if (kind === "bool") value = Boolean(raw);
    else if (kind === "int") value = raw === "" ? null : Number.parseInt(raw, 10);
    else if (kind === "float") value = raw === "" ? null : Number(raw);
    else value = raw;
    if (value === null) continue;
    if (JSON.stringify(value) !== input.dataset.default) options[input.name] = value;
  }
  return options;
}

function renderOptions() {
  const game = currentGame();
  const box = document.getElementById("options");
  box.replaceChildren(h("legend", {}, t("Options")));
  document.getElementById("game-summary").textContent = game ? game.summary : "";
  if (!game) return;
  const main = game.options.filter((spec) => MAIN_OPTIONS.has(spec.name));
  const more = game.options.filter((spec) => !MAIN_OPTIONS.has(spec.name));
  box.append(...main.map(optionInput));
  if (more.length) {
    box.append(h("details", {}, h("summary", {}, t("More options")), ...more.map(optionInput)));
  }
  if (!game.options.length) box.append(h("p", { class: "hint" }, t("This game has no options.")));
  renderSeats();
  askRankedOptions();
  return renderBoards(game);
}

// -- the options a ranked room takes ------------------------------------------------

// Where a game's rule gives a ranked room some option values whatever the player chose
// (Mahjongg at a table: the catch-up turn order, as in seat order the first seat wins
// most games), the server says which; they are chosen and locked while "ranked" is
// ticked, and the player's own choice comes back when it is not.
let rankedAnswer = Promise.resolve();
let rankedAsks = 0;

function askRankedOptions() {
  rankedAnswer = applyRankedOptions();
  return rankedAnswer;
}

function choiceWords(spec, value) {
  const index = (spec.choices || []).findIndex((choice) => String(choice) === String(value));
  return (index >= 0 && (spec.choice_titles || [])[index]) || String(value);
}

async function applyRankedOptions() {
  const game = currentGame();
  const ask = ++rankedAsks;
  let taken = {};
  const clockHint = lockClockForRanked(document.getElementById("ranked").checked, catalogue.ranked_clock);
  if (game && document.getElementById("ranked").checked) {
    try {
      const answer = await api("POST", `/api/games/${encodeURIComponent(game.name)}/ranked-options`,
        { options: readOptions({ own: true }) });
      taken = answer.options || {};
    } catch (problem) {
      // Options the server refuses anyway: creating the room says what is wrong.
    }
  }
  if (ask !== rankedAsks || currentGame() !== game) return;
  const hints = clockHint ? [clockHint] : [];
  for (const input of document.querySelectorAll("#options [name]")) {
    if (Object.hasOwn(taken, input.name)) {
      if (input.dataset.playerValue === undefined) input.dataset.playerValue = JSON.stringify(inputValue(input));
      setInputValue(input, taken[input.name]);
      input.disabled = true;
      const spec = game.options.find((option) => option.name === input.name) || { name: input.name };
      hints.push(t("Ranked: {option} is “{choice}”, so that every seat has the same chance. Untick “Ranked” to choose another.",
        { option: spec.title || spec.name, choice: choiceWords(spec, taken[input.name]) }));
    } else if (input.dataset.playerValue !== undefined) {
      setInputValue(input, JSON.parse(input.dataset.playerValue));
      delete input.dataset.playerValue;
      input.disabled = false;
    }
  }
  const box = document.getElementById("ranked-hint");
  box.replaceChildren(...hints.map((text) => h("p", {}, text)));
  box.hidden = !hints.length;
}

/** Put the picture chooser in place of the board option's box, when the game has boards. */
async function renderBoards(game) {
  document.getElementById("board-scores").replaceChildren();
  delete document.body.dataset.options;
  try {
    boardInfo = await loadBoards(game.name);
  } catch (problem) {
    boardInfo = { option: null, boards: [] };
  }
  if (currentGame() !== game) return;
  // Tests (and scripts) wait for this: the options of `game` are all in place.
  document.body.dataset.options = game.name;
  if (!boardInfo.option || !boardInfo.boards.length) return;
  const old = document.getElementById(`option-${boardInfo.option}`);
  if (!old) return;
  const spec = game.options.find((option) => option.name === boardInfo.option);
  const usual = boardInfo.boards.some((board) => board.name === spec.default) ? null : {
    name: spec.default, title: t("The mode's usual board"),
    description: t("Each mode has its own board; choose a picture to play another."),
  };
  const { element, input } = boardChooser({
    name: boardInfo.option, boards: boardInfo.boards, value: spec.default, extra: usual,
    onChange: () => {
      renderBoardScores();
      askRankedOptions();
    },
  });
  input.dataset.kind = spec.kind;
  input.dataset.default = JSON.stringify(spec.default);
  old.closest("label").replaceWith(element);
  renderBoardScores();
}

function chosenBoard() {
  if (!boardInfo.option) return null;
  const input = document.getElementById(`option-${boardInfo.option}`);
  return (input && boardInfo.boards.find((board) => board.name === input.value)) || null;
}

async function renderBoardScores() {
  const box = document.getElementById("board-scores");
  const board = chosenBoard();
  const game = currentGame();
  if (!board || !game) {
    box.replaceChildren();
    return;
  }
  const options = readOptions();
  delete options[boardInfo.option];
  try {
    const table = await boardScores(game.name, board.name, board.title, options);
    if (chosenBoard() === board) box.replaceChildren(table);
  } catch (problem) {
    box.replaceChildren(h("p", { class: "hint" }, problem.message));
  }
}

/** One person alone on a shipped board: a solitaire game, whose result counts on the
 * board's table (the server deals). */
function soloOnBoard(seats) {
  return seats.length === 1 && seats[0].kind === "me" && chosenBoard() !== null;
}

function renderSeats() {
  const game = currentGame();
  const box = document.getElementById("seats");
  const previous = [...box.querySelectorAll("select")].map((select) => select.value);
  box.replaceChildren(h("legend", {}, t("Seats")));
  const count = seatCount(game, readOptions());
  for (let index = 0; index < count; index += 1) {
    const choices = [
      ["me", t("Me")],
      ["open", t("A friend (open seat, share the link)")],
      ...orderedAgents(game.agents || catalogue.agents).map((agent) => [`bot:${agent}`, t("Bot: {agent}", { agent: agentLabel(agent) })]),
    ];
    // Newcomers meet the medium level unless they choose another.
    const usual = ["medium", "greedy", "random"].find((agent) => catalogue.agents.includes(agent));
    const fallback = index === 0 ? "me" : `bot:${usual}`;
    const chosen = previous[index] || fallback;
    box.append(
      h(
        "label",
        { class: "field seat" },
        t("Seat {number}", { number: index + 1 }),
        h(
          "select",
          { name: `seat-${index}`, "data-seat": index, "aria-describedby": "level-hints", onchange: renderLevelHints },
          choices.map(([value, label]) => h("option", { value, selected: value === chosen }, label)),
        ),
      ),
    );
  }
  box.append(h("div", { id: "level-hints", class: "hint", "aria-live": "polite" }));
  renderLevelHints();
}

/** What each bot level chosen for a seat is like to play against (the server's words). */
function renderLevelHints() {
  const box = document.getElementById("level-hints");
  if (!box) return;
  const chosen = new Set(readSeats().filter((seat) => seat.kind === "bot").map((seat) => seat.agent));
  const described = currentGame()?.levels || catalogue.levels || {};
  const levels = LEVELS.filter((level) => chosen.has(level) && described[level]);
  box.replaceChildren(...levels.map((level) => h("p", {}, t("{level}: {description}", { level: agentLabel(level), description: described[level] }))));
}

function readSeats() {
  return [...document.querySelectorAll("#seats select")].map((select) => {
    const value = select.value;
    if (value.startsWith("bot:")) return { kind: "bot", agent: value.slice(4) };
    return { kind: value };
  });
}

async function onCreate(event) {
  event.preventDefault();
  const error = document.getElementById("create-error");
  error.hidden = true;
  const name = document.getElementById("name").value.trim();
  const seats = readSeats();
  if (seats.some((seat) => seat.kind === "me") && !name) {
    error.textContent = t("Give your name to take a seat.");
    error.hidden = false;
    return;
  }
  if (seats.filter((seat) => seat.kind === "me").length > 1) {
    error.textContent = t("You can take only one seat; choose a friend or a bot for the others.");
    error.hidden = false;
    return;
  }
  await rankedAnswer;  // "ranked" just ticked: its options are in place before they are read
  const refusal = await rankedRefusal(document.getElementById("ranked").checked, seats);
  if (refusal) {
    error.textContent = refusal;
    error.hidden = false;
    return;
  }
  store.setName(name);
  const button = document.getElementById("create-button");
  button.disabled = true;
  try {
    const game = document.getElementById("game").value;
    let roomId;
    if (soloOnBoard(seats)) {
      const options = readOptions();
      delete options[boardInfo.option];
      roomId = await startSolitaire({ game, name, board: chosenBoard().name, options });
    } else {
      roomId = await createRoom({
        game,
        options: readOptions(),
        seats,
        bot_delay_seconds: Number(document.getElementById("bot-delay").value) || 0,
        bot_takeover_seconds: Number(document.getElementById("takeover").value) || null,
        ranked: document.getElementById("ranked").checked,
        time_control: readTimeControl(),
        name,
      });
    }
    window.location.assign(`/play/${roomId}`);
  } catch (problem) {
    error.textContent = problem.message;
    error.hidden = false;
    button.disabled = false;
  }
}

function roomItem(room, verb) {
  const seats = room.seats.map((seat, index) => (seat.kind === "open" ? t("open") : seatName(room.seats, index))).join(", ");
  return h(
    "li",
    { class: "room", "data-room": room.id },
    h("a", { href: `/play/${room.id}` }, h("strong", {}, gameTitle(room.game)), ` · ${room.id}`),
    h("span", { class: "hint" }, " ", t("seats: {seats}", { seats })),
    " ",
    h("a", { class: "button", href: `/play/${room.id}` }, verb),
  );
}

/** Fill a list of rooms (refreshed every few seconds): drawn again only when a room
 * came, went or changed, and then the keyboard stays on the same room's link, if it is
 * still listed: a list drawn anew each time threw a keyboard or screen-reader user, on
 * a room's Join, to the page's start every four seconds. */
function fillRooms(list, rooms, verb, none) {
  const drawn = JSON.stringify([LANG, verb, rooms.map((room) => [room.id, room.game, room.seats])]);
  if (list.dataset.drawn === drawn) return;
  list.dataset.drawn = drawn;
  const focused = list.contains(document.activeElement) ? document.activeElement : null;
  const item = focused && focused.closest("[data-room]");
  list.replaceChildren(...(rooms.length ? rooms.map((room) => roomItem(room, verb)) : [h("li", { class: "hint" }, none)]));
  if (item) {
    const kind = focused.classList.contains("button") ? "a.button" : "a:not(.button)";
    const again = list.querySelector(`[data-room="${CSS.escape(item.dataset.room)}"] ${kind}`);
    if (again) again.focus();
  }
}

async function refreshRooms() {
  try {
    const open = await api("GET", "/api/rooms?status=open");
    const playing = await api("GET", "/api/rooms?status=playing");
    fillRooms(document.getElementById("open-rooms"), open.rooms, t("Join"), t("No open rooms yet."));
    fillRooms(document.getElementById("playing-rooms"), playing.rooms, t("Watch"), t("None right now."));
  } catch (problem) {
    const list = document.getElementById("open-rooms");
    delete list.dataset.drawn;
    list.replaceChildren(h("li", { class: "error" }, problem.message));
  }
}

function onGoto(event) {
  event.preventDefault();
  const text = document.getElementById("goto-room").value.trim();
  const code = text.split("/").filter(Boolean).pop();
  if (code) window.location.assign(`/play/${encodeURIComponent(code)}`);
}

async function main() {
  await loadMessages();
  document.querySelector("header.top").append(languageSwitch());
  applyDisplay();
  document.querySelector("header.top").append(displayControl());
  document.getElementById("name").value = store.name();
  document.getElementById("time-control-box").replaceChildren(timeControlFields());
  accountLine().then(async (line) => {
    document.querySelector("header.top").append(line);
    // Logged in, a player sits as their account: its name fills an empty name field,
    // which the form asks for (else Create room did nothing until a name was typed).
    const account = await currentAccount();
    const field = document.getElementById("name");
    if (account && !field.value.trim()) field.value = account.name;
  });
  try {
    catalogue = await loadCatalogue();
  } catch (problem) {
    document.getElementById("create-error").textContent = problem.message;
    document.getElementById("create-error").hidden = false;
    return;
  }
  const select = document.getElementById("game");
  // The server lists the games in the order their manifests give.
  const known = catalogue.games;
  select.replaceChildren(
    ...known.map((game) => h("option", { value: game.name }, gameTitle(game.name))),
  );
  const wanted = new URLSearchParams(window.location.search).get("game");
  if (wanted && known.some((game) => game.name === wanted)) select.value = wanted;
  select.addEventListener("change", renderOptions);
  document.getElementById("ranked").addEventListener("change", askRankedOptions);
  await renderOptions();
  document.getElementById("create").addEventListener("submit", onCreate);
  document.getElementById("goto").addEventListener("submit", onGoto);
  await renderSolitaire(wanted);
  document.body.dataset.ready = "true";
  refreshRooms();
  setInterval(refreshRooms, REFRESH_MS);
}

// -- the daily deal and game numbers -------------------------------------------------------

let solitaireGame = null;

function playerName(errorBox) {
  const name = document.getElementById("name").value.trim();
  if (!name) {
    errorBox.textContent = t("Give your name to take a seat.");
    errorBox.hidden = false;
    document.getElementById("name").focus();
    return null;
  }
  store.setName(name);
  return name;
}

async function startAndGo(request, errorBox, button) {
  errorBox.hidden = true;
  const name = playerName(errorBox);
  if (!name) return;
  button.disabled = true;
  try {
    const roomId = await startSolitaire({ ...request, name });
    window.location.assign(`/play/${roomId}`);
  } catch (problem) {
    errorBox.textContent = problem.message;
    errorBox.hidden = false;
    button.disabled = false;
  }
}

/** What the daily deal offers: today's deal to an account; to a guest, why not and how
 * to log in (whoever has played it knows every tile, so it is played only logged in),
 * and yesterday's deal, whose game number is told once its day is over, as practice. */
async function dailyChoices(today, errorBox) {
  if (await currentAccount()) {
    const button = h("button", { type: "button", id: "daily-button", class: "primary" },
      t("Play today's deal"));
    button.addEventListener("click", () => startAndGo({ game: solitaireGame, daily: true }, errorBox, button));
    return [button];
  }
  const yesterday = new Date(Date.parse(`${today}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
  const practice = h("button", { type: "button", id: "yesterday-button" }, t("Practise yesterday's deal"));
  practice.addEventListener("click", async () => {
    try {
      const { answer } = await dailyScores(solitaireGame, yesterday);
      await startAndGo({ game: solitaireGame, game_number: answer.game_number }, errorBox, practice);
    } catch (problem) {
      errorBox.textContent = problem.message;
      errorBox.hidden = false;
    }
  });
  return [
    h("p", { id: "daily-login", class: "hint" },
      t("Today's deal is played logged in to an account: whoever has played it knows every tile."),
      " ", h("a", { href: accountHref("#solitaire"), id: "daily-login-link" }, t("Log in or register to play it.")),
      " ", t("Yesterday's deal is open to everyone as practice.")),
    practice,
  ];
}

/** The daily deal of the first game with boards (the wanted one when it has some), and
 * the game number box; a link `/?game=G&number=N` fills the box. */
async function renderSolitaire(wanted) {
  const ordered = [...catalogue.games].sort((a, b) => (b.name === wanted) - (a.name === wanted));
  for (const game of ordered) {
    let info;
    try {
      info = await loadBoards(game.name);
    } catch (problem) {
      continue;
    }
    if (!info.option || !info.boards.length) continue;
    solitaireGame = game.name;
    break;
  }
  if (!solitaireGame) return;
  document.getElementById("solitaire").hidden = false;
  const errorBox = document.getElementById("number-error");
  const daily = document.getElementById("daily");
  try {
    const { answer, table } = await dailyScores(solitaireGame);
    daily.replaceChildren(
      h("div", { class: "daily-board" }, boardPicture(answer.board),
        h("p", {}, t("Today's deal ({day}, UTC) is on {board}: the same deal for everyone. The day's table counts players logged in to an account, each one's first game.",
          { day: answer.day, board: answer.board.title }))),
      ...(await dailyChoices(answer.today, errorBox)), table,
    );
  } catch (problem) {
    daily.replaceChildren(h("p", { class: "hint" }, problem.message));
  }
  // Back from logging in through the daily deal's link: at the deal, its button focused.
  if (window.location.hash === "#solitaire") {
    document.getElementById("solitaire").scrollIntoView();
    const play = document.getElementById("daily-button");
    if (play) play.focus();
  }
  const numberInput = document.getElementById("game-number");
  const number = new URLSearchParams(window.location.search).get("number");
  if (number) numberInput.value = number;
  document.getElementById("number-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = numberInput.value.trim();
    if (!looksLikeGameNumber(text)) {
      errorBox.textContent = t("A game number is a board's name, a dash and the deal number, like {example}.",
        { example: "turtle-4821" });
      errorBox.hidden = false;
      numberInput.focus();
      return;
    }
    startAndGo({ game: solitaireGame, game_number: text }, errorBox, document.getElementById("number-button"));
  });
}

main();
