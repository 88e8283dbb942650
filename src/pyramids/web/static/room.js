// A room's page: seats and start while waiting, then the game, live over the room's WebSocket.
// A reload or a lost connection joins again with the seat token kept in this browser.

import { agentLabel, api, arrowNavigation, gameRenderer, gameTitle, h, LANG, languageSwitch, loadCatalogue, loadMessages, orderedAgents, plainBoard, seatLabel, seatName, store, t, tn, wordsText } from "./common.js";
import { createRoom } from "./setup.js";
import { rankedClock, renderClock } from "./clock.js";
import { accountHref, accountLine, currentAccount, renderRatingChange } from "./account.js";
import { announceMove, applyDisplay, displayControl, installKeys, settleRoving } from "./access.js";
import { chatRefused, installSide, onChat, onLog, sideState } from "./log.js";

const CLOSE_BAD_TOKEN = 4403;
const CLOSE_UNKNOWN_ROOM = 4404;
// The server refused the join as one too many (connections, or games only bots play
// watched at once): the page tries again, less and less often, and says it is not in.
const CLOSE_TOO_MANY = 4429;
// Refusals of a chat message: said beside the chat, where the player wrote it.
const CHAT_REFUSAL = /^(chat_|bad_chat$)/;
const MAX_BACKOFF_MS = 10000;
const REMATCH_POLL_MS = 3000;

const roomId = decodeURIComponent(window.location.pathname.split("/").filter(Boolean).pop() || "");

let socket = null;
let attempt = 0;
let reconnectTimer = null;
let lastState = null;
let shownMove = -1;
let rematchTimer = null;
// Selections and other page-only state of the game drawing, kept across messages.
const ui = {};

// -- messages to the player ------------------------------------------------------

const MESSAGE_LIMIT = 220;

function showMessage(text, kind = "error") {
  const box = document.getElementById("message");
  // A refusal may list every legal action; the first part says what was wrong.
  box.textContent = text.length > MESSAGE_LIMIT ? `${text.slice(0, MESSAGE_LIMIT)}…` : text;
  box.title = text;
  box.className = `message ${kind}`;
  box.hidden = !text;
}

// A tap or click on the alert line puts it away (on a phone it stays in sight at the
// top of the screen while shown).
document.getElementById("message").addEventListener("click", () => showMessage(""));

/** No room at this address: say so, offer the way back, and no chat for nobody. */
function noSuchRoom() {
  setConnection(t("No such room"), "bad");
  showMessage(t("There is no room {room}. Check the link, or create a room in the lobby.", { room: roomId }));
  document.getElementById("side").hidden = true;
  const box = document.getElementById("message");
  if (!document.getElementById("to-lobby")) {
    box.after(h("p", { class: "actions" }, h("a", { class: "button primary", href: "/", id: "to-lobby" }, t("Back to the lobby"))));
  }
}

function setConnection(text, kind = "ok") {
  const line = document.getElementById("connection");
  line.textContent = text;
  line.className = `connection ${kind}`;
  document.body.dataset.connection = kind;
}

// -- the connection --------------------------------------------------------------

function socketUrl() {
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${window.location.host}/ws/rooms/${encodeURIComponent(roomId)}`;
}

function connect() {
  clearTimeout(reconnectTimer);
  reconnectTimer = null;
  const seat = store.seat(roomId);
  const ws = new WebSocket(socketUrl());
  socket = ws;
  setConnection(t("Connecting…"), "pending");
  ws.addEventListener("open", () => {
    if (socket !== ws) return;
    ws.send(JSON.stringify(seat ? { type: "join", token: seat.token, lang: LANG } : { type: "join", lang: LANG }));
    setConnection(seat ? t("Connected") : t("Connected: watching"), "ok");
  });
  ws.addEventListener("message", (event) => {
    if (socket !== ws) return;
    let message;
    try {
      message = JSON.parse(event.data);
    } catch (error) {
      return;
    }
    if (message.type === "state") {
      attempt = 0;  // joined: a later loss tries again at once (a refused join backs off)
      onState(message);
      if (message.log) onLog(message.log);
    }
    else if (message.type === "error") {
      // This seat is played on another device of the account now: this browser's
      // token holds nothing, and the page watches (it offers Play here again).
      if (message.code === "seat_moved") store.dropSeat(roomId);
      // Banned: the server ended every login of the account; nothing to play here.
      if (message.code === "banned") ui.account = null;
      if (!(CHAT_REFUSAL.test(message.code || "") && chatRefused(message.message))) showMessage(message.message, "error");
    }
    else if (message.type === "log") onLog(message);
    else if (message.type.startsWith("chat")) onChat(message);
  });
  ws.addEventListener("close", (event) => {
    if (socket !== ws) return;
    socket = null;
    if (event.code === CLOSE_UNKNOWN_ROOM) {
      noSuchRoom();
      return;
    }
    if (event.code === CLOSE_BAD_TOKEN) {
      store.dropSeat(roomId);
      // A banned account's seat: the server's words (said just before) stay on show.
      if (event.reason !== "banned") showMessage(t("The seat kept in this browser is not valid in this room; you are watching."));
      connect();
      return;
    }
    if (lastState && lastState.status === "finished") {
      setConnection(t("Game over"), "ok");
      return;
    }
    scheduleReconnect(event.code === CLOSE_TOO_MANY);
  });
}

/** Connect again after a while; `refused`: the server turned the join away (the page
 * says why above), so the page was never in: it does not say the connection was lost. */
function scheduleReconnect(refused = false) {
  if (reconnectTimer) return;
  const delay = Math.min(MAX_BACKOFF_MS, 500 * 2 ** attempt) + Math.floor(Math.random() * 250);
  attempt += 1;
  const seconds = Math.ceil(delay / 1000);
  setConnection(refused
    ? t("Not connected; trying again in {seconds} s…", { seconds })
    : t("Connection lost; reconnecting in {seconds} s…", { seconds }), "bad");
  reconnectTimer = setTimeout(connect, delay);
}

function reconnectNow() {
  if (socket && socket.readyState <= WebSocket.OPEN) return;
  attempt = 0;
  connect();
}

/** Join again (after taking a seat): drop the current socket quietly and open a new one. */
function rejoin() {
  const old = socket;
  socket = null;
  if (old) old.close(1000, "rejoin");
  connect();
}

/** A message other than a move (chat): false when there is no connection to send it on. */
function sendMessage(message) {
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    showMessage(t("Not connected: your message was not sent. Reconnecting…"));
    reconnectNow();
    return false;
  }
  socket.send(JSON.stringify(message));
  return true;
}

function send(actions) {
  const list = Array.isArray(actions) ? actions : [actions];
  if (!socket || socket.readyState !== WebSocket.OPEN || !lastState) {
    showMessage(t("Not connected: your move was not sent. Reconnecting…"));
    reconnectNow();
    return false;
  }
  showMessage("");
  let number = lastState.move_number;
  for (const action of list) {
    socket.send(JSON.stringify({ type: "action", action, move_number: number }));
    number += 1;
  }
  return true;
}

// -- drawing ------------------------------------------------------------------------

function onState(message) {
  const previous = lastState;
  lastState = message;
  sideState(message);
  if (message.move_number !== shownMove) {
    shownMove = message.move_number;
    if (document.getElementById("message").classList.contains("error")) showMessage("");
  }
  render(true);
  announceMove(previous, message, ui.renderer);
}

function manageToken() {
  const seat = store.seat(roomId);
  return store.host(roomId) || (seat && seat.token) || null;
}

// Only the host fills seats with bots, frees seats, starts and aborts.
function hostToken() {
  return store.host(roomId) || null;
}

/** The deal's commitment while playing; at the end, whether the revealed seed opens it. */
function renderFairness(message) {
  const box = document.getElementById("fairness");
  if (!box) return;
  const fair = message.fairness;
  if (!fair || !fair.commitment) {
    box.replaceChildren();
    return;
  }
  const commitment = fair.commitment.slice(0, 16);
  const line = h("p", { class: "hint", id: "commitment", title: fair.commitment },
    fair.practice
      ? t("Deal commitment: {commitment}… · practice deal (chosen seed): unranked", { commitment })
      : t("Deal commitment: {commitment}…", { commitment }));
  const parts = [line];
  if (fair.sealed_until) {
    // The daily deal: everyone plays it today, so its seed waits for the day's end.
    parts.push(h("p", { class: "hint", id: "fairness-check" },
      t("Today's deal: everyone plays it today, so its seed is shown when the day is over ({time} UTC).",
        { time: fair.sealed_until.slice(0, 16).replace("T", " ") })));
  }
  if (fair.salt !== undefined && fair.salt !== null) {
    const result = h("p", { class: "hint", id: "fairness-check" }, t("Checking the deal…"));
    parts.push(result);
    verifyCommitment(fair).then((ok) => {
      if (ok === null) {
        result.textContent = t("Seed {seed} revealed; this browser cannot check it here: save the game record and run \"pyramids verify-room RECORD\".", { seed: fair.seed_text ?? JSON.stringify(fair.seed) });
      } else {
        result.textContent = ok
          ? t("Fair deal: the revealed seed {seed} opens the commitment shown from the start.", { seed: fair.seed_text ?? JSON.stringify(fair.seed) })
          : t("Warning: the revealed seed does NOT match the commitment.");
        result.className = ok ? "hint fair" : "message error";
      }
    });
  }
  box.replaceChildren(...parts);
}

async function verifyCommitment(fair) {
  if (!window.crypto || !window.crypto.subtle) return null;
  // The server hashes "salt:seed-as-JSON" and sends that text as `seed_text`: a seed
  // above 2**53 read as a number here would lose its last digits.
  if (typeof fair.seed_text !== "string") return null;
  const bytes = new TextEncoder().encode(`${fair.salt}:${fair.seed_text}`);
  const digest = await window.crypto.subtle.digest("SHA-256", bytes);
  const hex = Array.from(new Uint8Array(digest)).map((b) => b.toString(16).padStart(2, "0")).join("");
  return hex === fair.commitment;
}

// A move in words: the game's renderer may describe its moves (`describeMove`); else the
// action as the engine writes it.
function describeMove(action, message) {
  const renderer = ui.renderer;
  if (renderer && typeof renderer.describeMove === "function") {
    const words = renderer.describeMove(action, message.view, message);
    if (words) return words;
  }
  return action;
}

// The reader's own move in words ("You offer 7 and 9"), where the renderer words them.
function describeOwnMove(action, message) {
  const renderer = ui.renderer;
  if (renderer && typeof renderer.describeOwnMove === "function") {
    return renderer.describeOwnMove(action, message.view, message) || null;
  }
  return null;
}

function renderStatus(message) {
  const box = document.getElementById("status");
  const mine = message.seat;
  const items = message.seats.map((seat) => {
    const toMove = message.current_player === seat.seat;
    // The seat's number too: a seat without a name is "Seat 2" in the move log.
    let label = seat.kind === "open" ? t("Seat {number}: open", { number: seat.seat + 1 })
      : t("Seat {number}: {name}", { number: seat.seat + 1, name: seatLabel(seat) });
    if (seat.seat === mine) label = t("{name} (you)", { name: label });
    if (seat.kind !== "open" && !seat.connected) label = t("{name} · away", { name: label });
    if (toMove) label = `▶ ${label}`;
    return h(
      "li",
      {
        class: `seat-chip${toMove ? " to-move" : ""}${seat.seat === mine ? " mine" : ""}`,
        "data-seat": seat.seat,
        title: seat.connected ? t("connected") : t("not connected"),
      },
      h("span", { class: `dot ${seat.connected ? "on" : "off"}`, "aria-hidden": "true" }),
      label,
    );
  });
  let turn = "";
  if (message.status === "waiting") turn = t("Waiting for the game to start");
  else if (message.status === "finished") turn = t("Game over");
  else if (message.status === "aborted" && message.ended && message.ended.words) {
    turn = wordsText(message.ended.words);  // a forfeit, the operator, the move limit: why
  } else if (message.status === "aborted") turn = t("The host ended this game");
  else if (message.status === "expired") turn = t("This room expired before it started");
  else if (message.your_turn) turn = t("Your turn");
  else turn = t("{name} to move", { name: seatName(message.seats, message.current_player) });
  const clockOnly = message.last_move && message.last_move.action.startsWith("clock ");
  let last = "";
  if (message.last_move && !clockOnly) {
    const away = message.last_move.by_bot && message.seats[message.last_move.seat].kind === "person";
    const own = mine !== null && mine !== undefined && message.last_move.seat === mine
      ? describeOwnMove(message.last_move.action, message) : null;
    if (own) {
      // The reader's own move in the second person, as the move log tells it ("You offered").
      last = away ? t("Last move: {move} (by a bot while away)", { move: own }) : t("Last move: {move}", { move: own });
    } else {
      const name = message.last_move.seat === mine ? t("You") : seatName(message.seats, message.last_move.seat);
      const values = { name, move: describeMove(message.last_move.action, message) };
      last = away ? t("Last move: {name}: {move} (by a bot while away)", values) : t("Last move: {name}: {move}", values);
    }
  }
  // The status is drawn anew at each message: the keyboard on End the game stays there.
  const onEnd = document.activeElement && document.activeElement.id === "end-game";
  box.replaceChildren(
    h("p", { class: `turn${message.your_turn ? " yours" : ""}`, id: "turn", tabindex: "-1" }, turn),
    h("ul", { class: "seats" }, items),
    h("p", { class: "last-move", id: "last-move" }, last),
    ...(mine === null ? [h("p", { class: "hint", id: "spectating" }, t("You are watching this game."))] : []),
    ...playHereOffer(message),
    // A player who left for good would hold the game up for ever: the host can end it.
    ...(message.status === "playing" && hostToken()
      ? [h("button", { id: "end-game", onclick: endGame }, t("End the game"))] : []),
  );
  // Once the game has ended, the button goes: the keyboard goes to the line that says
  // so, not to the page's start.
  if (onEnd) (document.getElementById("end-game") || document.getElementById("turn")).focus();
}

/** The seat the logged-in account holds in this room while this page only watches
 * (it was taken on another device, or this browser forgot its token), or null. */
function heldElsewhere(message) {
  if (message.seat !== null || !ui.account || !["waiting", "playing"].includes(message.status)) return null;
  const held = message.seats.find((seat) => seat.kind === "person" && seat.account && seat.name === ui.account.name);
  return held ? held.seat : null;
}

/** "Play here": the account's seat moves to this device; the server decides who may. */
function playHereOffer(message) {
  const held = heldElsewhere(message);
  if (held === null) return [];
  return [h("p", { class: "hint", id: "play-here-offer" },
    t("Your account holds seat {number} in this game, played on another device.", { number: held + 1 }), " ",
    h("button", { class: "primary", id: "play-here", onclick: () => playHere(held) }, t("Play here")))];
}

async function playHere(index) {
  try {
    const moved = await api("POST", `/api/rooms/${roomId}/seats/claim`, { seat: index });
    store.setSeat(roomId, { token: moved.token, seat: moved.seat, name: ui.account.name });
    showMessage(t("You play your seat on this device now; the other device only watches."), "info");
    rejoin();
  } catch (problem) {
    showMessage(problem.message);
  }
}

function endGame() {
  // A ranked game ended over a player away counts: the players away lose it.
  if (ui.summary && ui.summary.ranked) {
    return abortRoom(t("End this ranked game for everyone? The players who have been away lose it, whoever they are, and it counts for ratings."));
  }
  return abortRoom(t("End this game for everyone? It will count for nobody."));
}

function renderWaiting(message) {
  const box = document.getElementById("waiting");
  const mySeat = store.seat(roomId);
  const token = hostToken();
  const link = `${window.location.origin}/play/${roomId}`;
  // Drawn again only when what it shows changes (not when someone's connection comes
  // and goes): a screen reader would read the focused control again each time.
  const drawn = JSON.stringify([message.seats.map((seat) => [seat.seat, seat.kind, seat.name, seat.agent || null]),
    message.seat, mySeat, token, Boolean(ui.summary && ui.summary.ranked), Boolean(ui.account), ui.takenSeat ?? null, ui.leftSeat ?? null]);
  if (box.dataset.drawn === drawn && box.childElementCount) return;
  box.dataset.drawn = drawn;
  // The page is drawn again at every change of the room (someone takes a seat): what
  // the visitor was typing, and the keyboard's place, are kept.
  const typed = document.getElementById("seat-name");
  const focusedKey = waitingKey(box.contains(document.activeElement) ? document.activeElement : null);
  const nameInput = h("input", { id: "seat-name", maxlength: 40, value: typed ? typed.value : store.name(), placeholder: t("Your name") });
  const info = ui.catalogue && ui.catalogue.games.find((game) => game.name === message.game);
  const agents = orderedAgents((info && info.agents) || (ui.catalogue && ui.catalogue.agents) || ["random"]);
  // A ranked room seats only accounts: a guest is told so, and how to log in, in
  // place of a name field and Take this seat buttons that the server would refuse.
  const guestOfRanked = Boolean(ui.summary && ui.summary.ranked && !ui.account);
  const rows = message.seats.map((seat) => {
    const actions = [];
    if (seat.kind === "open") {
      if (!mySeat && !guestOfRanked) {
        actions.push(
          h("button", { class: "primary", "data-take-seat": seat.seat, onclick: () => takeSeat(seat.seat) }, t("Take this seat")),
        );
      }
      if (token) {
        const select = h("select", { "aria-label": t("bot for seat {number}", { number: seat.seat + 1 }) },
          agents.map((agent) => h("option", { value: agent, selected: agent === "medium" }, agentLabel(agent))));
        actions.push(select, h("button", { "data-give": seat.seat, onclick: () => giveToBot(seat.seat, select.value) }, t("Give to a bot")));
      }
    } else if (seat.seat === message.seat) {
      actions.push(h("button", { "data-leave": seat.seat, onclick: leaveSeat }, t("Leave this seat")));
    } else if (token) {
      actions.push(h("button", { "data-kick": seat.seat, onclick: () => kickSeat(seat.seat) }, t("Open this seat")));
    }
    return h("li", { class: "waiting-seat" },
      h("strong", {}, t("Seat {number}:", { number: seat.seat + 1 })), " ",
      seat.kind === "open" ? t("open") : seat.seat === message.seat ? t("{name} (you)", { name: seatLabel(seat) }) : seatName(message.seats, seat.seat),
      " ", ...actions);
  });
  const open = message.seats.filter((seat) => seat.kind === "open").length;
  // What the room waits for: people for its open seats, or, every seat taken, the host.
  let heading = t("Waiting for players");
  if (!open) heading = token ? t("Every seat is taken: you can start the game now.") : t("Every seat is taken: waiting for the host to start the game.");
  const parts = [
    h("h2", { id: "waiting-title" }, heading),
    h("p", {}, t("Share this link with your friends:")),
    h("div", { class: "share" },
      h("input", { id: "share-link", readonly: true, value: link, "aria-label": t("room link") }),
      h("button", { id: "copy-link", onclick: () => copyLink(link) }, t("Copy link"))),
    // A name is asked only of a visitor who has a seat to take.
    mySeat || !open ? null : guestOfRanked
      ? h("p", { id: "ranked-login", class: "hint" },
        t("This room is ranked: its results count for ratings, so its seats are for players logged in to an account."),
        " ", h("a", { href: accountHref(), id: "ranked-login-link" }, t("Log in or register to take a seat.")))
      : h("label", { class: "field" }, t("Your name"), " ", nameInput),
    h("ul", { class: "waiting-seats" }, rows),
    token
      ? h("div", { class: "actions" },  // Start and Close apart, not touching
        h("button", { id: "start", class: "primary", ...startOff(startWhyNot(message)), onclick: (event) => startGame(event, message) },
          open > 0 ? tn("Start ({count} seat still open)", "Start ({count} seats still open)", open) : t("Start the game")),
        h("button", { id: "abort", onclick: () => abortRoom() }, t("Close this room")))
      : h("p", { class: "hint" }, t("The game starts when the host starts it.")),
  ];
  box.replaceChildren(...parts.filter(Boolean));
  // A seat just taken (left): the keyboard goes to its Leave (Take this seat) button
  // once the page shows it.
  const taken = ui.takenSeat === undefined ? null : box.querySelector(`[data-leave="${ui.takenSeat}"]`);
  const left = ui.leftSeat === undefined ? null : box.querySelector(`[data-take-seat="${ui.leftSeat}"]`);
  if (taken || left) {
    delete ui.takenSeat;
    delete ui.leftSeat;
    (taken || left).focus();
  } else if (focusedKey) {
    // The same control, else the seat's other button (Leave this seat, then Take this
    // seat), else (its seat taken or given) Start, else the first button.
    const again = box.querySelector(focusedKey)
      || (focusedKey.startsWith("[data-leave=") && box.querySelector(focusedKey.replace("data-leave", "data-take-seat")))
      || box.querySelector("#start:not([aria-disabled]), [data-leave], button:not([disabled])");
    if (again) again.focus();
    if (again && again === nameInput && typed) nameInput.setSelectionRange(typed.selectionStart, typed.selectionEnd);
  }
}

/** A selector that finds `node`, a control of the waiting page, once drawn again. */
function waitingKey(node) {
  if (!node) return null;
  if (node.id) return `#${CSS.escape(node.id)}`;
  for (const name of ["take-seat", "leave", "kick", "give"]) {
    const value = node.getAttribute(`data-${name}`);
    if (value !== null) return `[data-${name}="${CSS.escape(value)}"]`;
  }
  return node.tagName === "SELECT" ? `select[aria-label="${CSS.escape(node.getAttribute("aria-label") || "")}"]` : "button";
}

async function copyLink(link) {
  try {
    await navigator.clipboard.writeText(link);
    showMessage(t("Link copied."), "info");
  } catch (error) {
    document.getElementById("share-link").select();
    showMessage(t("Select the link and copy it."), "info");
  }
}

async function takeSeat(index) {
  const input = document.getElementById("seat-name");
  // A logged-in person sits under their account's name (the server sees to it).
  const account = await currentAccount();
  const name = (account && account.name) || (input && input.value.trim()) || store.name();
  if (!name) {
    showMessage(t("Give your name to take a seat."));
    if (input) input.focus();
    return;
  }
  store.setName(name);
  try {
    const taken = await api("POST", `/api/rooms/${roomId}/seats`, { name, seat: index });
    store.setSeat(roomId, { token: taken.token, seat: taken.seat, name });
    ui.takenSeat = taken.seat;
    showMessage("");
    rejoin();
  } catch (problem) {
    showMessage(problem.message);
  }
}

async function leaveSeat() {
  const seat = store.seat(roomId);
  if (!seat) return;
  try {
    await api("POST", `/api/rooms/${roomId}/leave`, { token: seat.token });
    store.dropSeat(roomId);
    ui.leftSeat = seat.seat;
    rejoin();
  } catch (problem) {
    showMessage(problem.message);
  }
}

async function kickSeat(index) {
  try {
    await api("POST", `/api/rooms/${roomId}/kick`, { token: hostToken(), seat: index });
  } catch (problem) {
    showMessage(problem.message);
  }
}

/** The host ends the room, waiting or playing, once `question` is answered yes. */
async function abortRoom(question = t("End this room for everyone?")) {
  if (!window.confirm(question)) return;
  try {
    await api("POST", `/api/rooms/${roomId}/abort`, { token: hostToken() });
  } catch (problem) {
    showMessage(problem.message);
  }
}

async function giveToBot(index, agent) {
  try {
    await api("POST", `/api/rooms/${roomId}/agents`, { token: hostToken(), seat: index, agent });
  } catch (problem) {
    showMessage(problem.message);
  }
}

/** Why the host's Start button cannot start the game yet (null: it can). */
function startWhyNot(message) {
  const open = message.seats.filter((seat) => seat.kind === "open").map((seat) => seat.seat + 1);
  if (!open.length) return null;
  return tn("Seat {seats} is still open: take it or give it to a bot, then start.",
    "Seats {seats} are still open: take them or give them to bots, then start.", open.length, { seats: open.join(", ") });
}

// Start while a seat is open is dimmed and marked aria-disabled, not disabled: it stays in
// the Tab order, and a click or Enter says why in the alert line (it said nothing).
function startOff(why) {
  return why ? { "aria-disabled": "true", title: why, "aria-description": why, "data-off-reason": why } : {};
}

async function startGame(event, message) {
  const why = message ? startWhyNot(message) : null;
  if (why) {
    event.preventDefault();
    showMessage(why, "info");
    return;
  }
  try {
    await api("POST", `/api/rooms/${roomId}/start`, { token: hostToken() });
  } catch (problem) {
    showMessage(problem.message);
  }
}

function renderGame(message) {
  const box = document.getElementById("game");
  const renderer = ui.renderer;
  const focusedKey = document.activeElement && box.contains(document.activeElement)
    ? document.activeElement.dataset.key : null;
  box.dataset.legal = JSON.stringify(message.legal_actions);
  box.dataset.game = message.game;
  if (!renderer) {
    // A game with no renderer of its own: its plain-text drawing (the server sends the
    // game's text_renderer output as `texts`, one a language), else words saying it has none.
    const text = message.texts ? message.texts[LANG] ?? message.text : message.text;
    box.replaceChildren(...plainBoard(message.game, text, message.legal_actions, send));
    return;
  }
  const ctx = {
    view: message.view,
    message,
    seat: message.seat,
    seats: message.seats,
    legal: message.legal_actions,
    yourTurn: message.your_turn,
    finished: message.status === "finished",
    send,
    ui,
    rerender: render,
    showMessage,
  };
  renderer.render(box, ctx);
  ui.ctx = ctx;
  settleRoving(box, ui, focusedKey);
  if (focusedKey) {
    const again = box.querySelector(`[data-key="${CSS.escape(focusedKey)}"]`);
    if (again) again.focus();
  }
}

function rematchSetup(message) {
  const saved = store.setup(roomId);
  const kept = message.seats.map((seat) => {
    if (seat.seat === message.seat) return { kind: "me" };
    if (seat.kind === "agent") {
      const fromSetup = saved && saved.seats[seat.seat] && saved.seats[seat.seat].agent;
      return { kind: "bot", agent: fromSetup || seat.agent || "random" };
    }
    return { kind: "open" };
  });
  // Everyone moves one seat on, as a table passes the start to the left (and chess
  // swaps colours): where seat 1 moves first, a series of rematches shares it out.
  const seats = kept.map((_, index) => kept[(index + kept.length - 1) % kept.length]);
  const ranked = Boolean(ui.summary && ui.summary.ranked);
  const clock = (ui.summary && ui.summary.time_control) || null;
  return {
    game: message.game,
    options: (ui.summary && ui.summary.options) || (saved && saved.options) || {},
    seats,
    bot_delay_seconds: (ui.summary && ui.summary.bot_delay_seconds) || 0,
    ranked,
    time_control: ranked ? rankedClock(clock, ui.catalogue && ui.catalogue.ranked_clock) : clock,
    name: (store.seat(roomId) && store.seat(roomId).name) || store.name() || t("Player"),
  };
}

async function rematch() {
  const button = document.getElementById("rematch");
  // Marked busy, not disabled: a disabled button drops the keyboard to the page's start,
  // where a refused rematch left it.
  if (button && button.getAttribute("aria-disabled") === "true") return;
  if (button) button.setAttribute("aria-disabled", "true");
  try {
    const newRoom = await createRoom(rematchSetup(lastState));
    const token = manageToken();
    if (token) {
      // Tell the others where the rematch is (they see a link to it on this page).
      // The new room's host token shows the server that this page made it.
      await api("POST", `/api/pages/rematch/${roomId}`, { token, room: newRoom, room_token: store.host(newRoom) })
        .catch(() => null);
    }
    window.location.assign(`/play/${newRoom}`);
  } catch (problem) {
    showMessage(problem.message);
    if (button) button.removeAttribute("aria-disabled");
  }
}

async function pollRematch() {
  // Only the room's players learn where its rematch is; they prove it with their token.
  const token = manageToken();
  try {
    const found = await api("POST", `/api/pages/rematch/${roomId}/find`, { token });
    if (found.room) {
      const box = document.getElementById("rematch-offer");
      if (box && !box.dataset.room) {
        box.dataset.room = found.room;
        box.replaceChildren(
          t("A rematch is waiting:"), " ",
          h("a", { href: `/play/${found.room}`, class: "button primary", id: "rematch-link" }, t("Go to the rematch")),
        );
      }
    }
  } catch (problem) {
    // No rematch yet, a token the room no longer knows, or the page hook is not
    // installed: nothing to show.
  }
}

/** What the end means for a seat, in words (the engine's returns, +1 or -0.33, are not
 * for players): won, lost, a draw, or a shared win; a co-op team's +1 or -1 to every seat
 * is won or lost by all, not a draw. */
function outcomeWord(returns, seat) {
  if (returns.length === 1) return returns[0] > 0 ? t("won") : t("lost");
  const best = Math.max(...returns);
  const top = returns.filter((value) => value === best).length;
  // Every seat the same: a co-op team's common win or loss, else a draw.
  if (top === returns.length) return best > 0 ? t("won") : best < 0 ? t("lost") : t("a draw");
  if (returns[seat] !== best) return t("lost");
  return top === 1 ? t("won") : t("shares the win");
}

// Apart from the line that shows it: Babel does not read a t() inside another t()'s call.
function outcomes(message, returns) {
  const each = returns.map((value, index) => t("{name}: {outcome}", { name: seatName(message.seats, index), outcome: outcomeWord(returns, index) }));
  return each.join(", ");
}

function renderOver(message) {
  const box = document.getElementById("over");
  const renderer = ui.renderer;
  const lines = renderer && renderer.outcome ? renderer.outcome(message.view, message) : [];
  const returns = message.result ? message.result.returns : [];
  const offersRematch = message.seat !== null || Boolean(store.host(roomId));
  // Drawn again only when what it says changes: a state message after the end (someone
  // comes to watch, or leaves) redrew it, dropping the keyboard's place on Rematch and
  // emptying the rematch offer, which its live region then said again.
  const drawn = JSON.stringify([lines, returns, offersRematch, LANG]);
  if (box.dataset.drawn === drawn) return;
  box.dataset.drawn = drawn;
  const parts = [
    h("h2", {}, t("Game over")),
    ...lines.map((line) => h("p", { class: "outcome" }, line)),
    returns && returns.length
      ? h("p", { class: "hint", id: "outcomes" }, t("Result: {results}", { results: outcomes(message, returns) }))
      : null,
    h("div", { class: "actions" },
      offersRematch
        ? h("button", { id: "rematch", class: "primary", onclick: rematch }, t("Rematch"))
        : null,
      h("a", { class: "button", href: `/api/rooms/${roomId}/record`, target: "_blank" }, t("Game record")),
      h("a", { class: "button", href: "/" }, t("Lobby"))),
    h("p", { id: "rematch-offer", class: "rematch-offer", "aria-live": "polite" }),
  ];
  box.replaceChildren(...parts.filter(Boolean));
  if (!rematchTimer && manageToken()) {
    pollRematch();
    rematchTimer = setInterval(pollRematch, REMATCH_POLL_MS);
  }
}

/** Draw the page from the last state; `fromServer`: a new state message (else a redraw
 * the board asked for, a card chosen). */
function render(fromServer = false) {
  const message = lastState;
  if (!message) return;
  document.body.dataset.status = message.status;
  document.body.dataset.moveNumber = message.move_number;
  document.body.dataset.yourTurn = String(message.your_turn);
  document.body.dataset.seat = message.seat === null ? "spectator" : String(message.seat);
  document.getElementById("game-title").textContent = `· ${gameTitle(message.game)}`;
  document.title = message.your_turn
    ? t("(Your turn) Pyramids: {game}", { game: gameTitle(message.game) })
    : t("Pyramids: {game}", { game: gameTitle(message.game) });
  const onBoard = document.getElementById("game").contains(document.activeElement);
  renderStatus(message);
  renderFairness(message);
  const waiting = message.status === "waiting";
  const closed = message.status === "expired" || (message.status === "aborted" && !message.view);
  // The game starts: the keyboard was on the waiting page (Start, a seat's button) or
  // nowhere; it goes to the board, not to the page's start.
  const waitingBox = document.getElementById("waiting");
  const starts = !waiting && !closed && ui.shownStatus === "waiting"
    && (document.activeElement === document.body || waitingBox.contains(document.activeElement));
  ui.shownStatus = message.status;
  waitingBox.hidden = !waiting;
  document.getElementById("game").hidden = waiting || closed;
  document.getElementById("over").hidden = message.status !== "finished";
  if (waiting) renderWaiting(message);
  else if (!closed) {
    // A message that changes only who is connected (someone comes to watch, a player's
    // connection drops) leaves the board as drawn: drawn anew, a screen reader would
    // read the focused card or tile again.
    const drawn = JSON.stringify({ ...message, seats: message.seats.map(({ connected, ...seat }) => seat) });
    if (!(fromServer === true && ui.gameDrawn === drawn)) renderGame(message);
    ui.gameDrawn = drawn;
  }
  if (starts) {
    const stop = document.querySelector('#game [data-nav][tabindex="0"]');
    if (stop) stop.focus();
  }
  if (message.status === "finished") renderOver(message);
  if (onBoard && (!document.activeElement || document.activeElement === document.body)) keepKeyboard();
  renderClock(message);
  renderRatingChange(message, ui.summary);
}

/** The board's last item went with the keyboard on it (the monument's last pair, or
 * Finish with the last tiles): the keyboard goes to the end's first button (Rematch),
 * else to the board's tab stop or the status line, not to the page's start. */
function keepKeyboard() {
  const over = document.getElementById("over");
  const next = (!over.hidden && over.querySelector(".actions > button, .actions > a"))
    || document.querySelector('#game:not([hidden]) [data-nav][tabindex="0"]')
    || document.getElementById("turn");
  if (next) next.focus();
}

// For the console and the browser tests: drop the connection as a network failure would.
window.pyramidsPage = {
  dropConnection() {
    if (socket) socket.close(4000, "dropped on purpose");
  },
};

async function main() {
  await loadMessages();
  document.querySelector("header.top").append(languageSwitch());
  applyDisplay();
  document.querySelector("header.top").append(displayControl());
  if (!roomId) {
    window.location.assign("/");
    return;
  }
  installSide(document.getElementById("side"), { roomId, send: sendMessage, hostToken: hostToken() });
  arrowNavigation(document.getElementById("game"));
  installKeys(document.getElementById("game"), ui);
  window.addEventListener("online", reconnectNow);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") reconnectNow();
  });
  try {
    const [catalogue, summary] = await Promise.all([
      loadCatalogue(),
      api("GET", `/api/rooms/${encodeURIComponent(roomId)}`),
    ]);
    ui.catalogue = catalogue;
    ui.summary = summary.room;
    // The game's drawing, named by its manifest; loaded before the first message.
    ui.renderer = await gameRenderer(summary.room.game);
    // The game's learn page, opening beside the table.
    document.querySelector("header.top").append(h("a", {
      class: "learn-link", href: `/learn/${encodeURIComponent(summary.room.game)}`,
      target: "_blank", rel: "noopener",
    }, t("How to play")));
    // Who is logged in: a ranked room seats accounts only.
    accountLine().then((line) => document.querySelector("header.top").append(line));
    ui.account = await currentAccount();
  } catch (problem) {
    if (problem.status === 404) {
      noSuchRoom();
      return;
    }
    showMessage(problem.message);
  }
  connect();
}

main();
