// A tutorial (/tutorial/<game>): the server runs the lesson, this page draws it.
// The page keeps only the learner's entries (the moves accepted so far, null for a
// step read and gone past) and sends them with each request (docs/browser.md): the
// server replays them from the tutorial's fixed seed and answers with the step's
// text, the learner's own view, the legal moves and what to look at.

import { LANG, api, arrowNavigation, gameRenderer, gameTitle, h, languageSwitch, loadCatalogue, loadMessages, plainBoard, seatName, t, tn } from "./common.js";
import { announce, installKeys, settleRoving } from "./access.js";

const parts = window.location.pathname.split("/").filter(Boolean);
const game = parts.length > 1 ? decodeURIComponent(parts[1]) : null;

let moves = [];
let answer = null;
let busy = false;
// Selections of the game's drawing, kept across answers (like a room's page).
const ui = {};

// The feedback's live region stays in the page, empty when there is nothing to say
// (the style sheet gives it no room then): a region un-hidden with its text at once
// is not read by every screen reader, and a refused move's hint went unsaid.
function showFeedback(text, kind = "info") {
  const box = document.getElementById("feedback");
  box.textContent = text || "";
  box.className = `message ${kind}`;
}

async function ask(body) {
  const reply = await api("POST", `/api/tutorial/${encodeURIComponent(game)}`, { moves, lang: LANG, ...body });
  const before = answer;
  answer = reply;
  moves = reply.moves;
  keepMoves();
  render();
  const feedback = reply.feedback;
  if (feedback) showFeedback(feedback.message, feedback.accepted ? "info" : "refused");
  else showFeedback("");
  announceReply(body, before, reply);
  return reply;
}

/** Say to screen readers what the room's page says: the other seats' moves that answer
 * the learner's move (once: a step read with Next shows them again, unsaid), and the end. */
function announceReply(body, before, reply) {
  if (body.attempt && reply.feedback && reply.feedback.accepted) {
    for (const move of reply.others) {
      announce(t("{name}: {move}", { name: seatName(reply.seats, move.seat), move: describeMove(move.action) }));
    }
  }
  if (reply.finished && before && !before.finished) {
    const lines = ui.renderer && ui.renderer.outcome ? ui.renderer.outcome(reply.view, roomLike()) : [];
    announce([t("Game over."), ...lines].join(" "));
  }
}

// The learner's entries, kept for this tab: a reload (or a visit to the rules and back)
// goes on from the same step, not from the first.
const KEPT = `pyramids.tutorial.${game}`;

function keepMoves() {
  try {
    window.sessionStorage.setItem(KEPT, JSON.stringify(moves));
  } catch (error) {
    // A browser that keeps nothing starts the lesson again after a reload.
  }
}

function keptMoves() {
  try {
    const kept = JSON.parse(window.sessionStorage.getItem(KEPT) || "[]");
    return Array.isArray(kept) ? kept : [];
  } catch (error) {
    return [];
  }
}

/** One request at a time; clicks during one are ignored (the board is redrawn after it). */
async function request(body) {
  if (busy) return null;
  busy = true;
  document.body.dataset.busy = "true";
  try {
    return await ask(body);
  } catch (problem) {
    showFeedback(problem.message, "error");
    return null;
  } finally {
    busy = false;
    document.body.dataset.busy = "false";
  }
}

// The renderer's `send`: each action is tried in turn; a refused one stops the rest.
function send(actions) {
  const list = Array.isArray(actions) ? actions : [actions];
  (async () => {
    for (const action of list) {
      const reply = await request({ attempt: action });
      if (!reply || !reply.feedback.accepted) break;
    }
  })();
  return true;
}

// What a step asks the learner to look at, as the board's elements: the words of the
// tutorials (F7, hand:28, offer:48, tile:12, swap:4, button:pass; play/tutorial.py)
// matched to what the renderers draw. A button word names the move its button plays.
function highlighted(box, word, seat) {
  const [kind, value] = word.includes(":") ? word.split(/:(.*)/s) : ["field", word];
  const quoted = CSS.escape(value);
  if (kind === "field") {
    const number = /^F(\d+)$/.exec(value);
    return number ? box.querySelectorAll(`[data-key="field-${seat}-${number[1]}"]`) : [];
  }
  if (kind === "hand") return box.querySelectorAll(`.hand [data-card="${quoted}"], .hand [data-kind="${quoted}"], [data-key="hand-${quoted}"]`);
  if (kind === "offer") return box.querySelectorAll(`[data-key="pick-${quoted}"]`);
  if (kind === "tile") return box.querySelectorAll(`.tile[data-id="${quoted}"]`);
  if (kind === "swap") return box.querySelectorAll(`[data-slot="${quoted}"]`);
  if (kind === "button") return box.querySelectorAll(`button[data-action="${quoted}"]`);
  return [];
}

function markHighlights(box) {
  for (const word of answer.highlight || []) {
    for (const node of highlighted(box, word, answer.seat)) node.classList.add("tutorial-highlight");
  }
}

// A move in words: the game's renderer may describe its moves; else the engine's words.
function describeMove(action) {
  const renderer = ui.renderer;
  if (renderer && typeof renderer.describeMove === "function") {
    const words = renderer.describeMove(action, answer.view, roomLike());
    if (words) return words;
  }
  return action;
}

// The answer in the shape a room's state message has, for the renderers.
function roomLike() {
  return {
    ...answer,
    status: answer.finished ? "finished" : "playing",
    move_number: moves.length,
  };
}

function renderLesson() {
  document.getElementById("tutorial-title").textContent = answer.title;
  const count = document.getElementById("step-count");
  const say = document.getElementById("say");
  const next = document.getElementById("next");
  if (answer.finished) {
    count.textContent = "";
    say.textContent = t("The game is over.");
  } else if (answer.playing_on) {
    count.textContent = t("The steps are done.");
    say.textContent = answer.seats.length > 1
      ? t("Play on to the end of the game: the computer plays the other seats.")
      : t("Play on to the end of the game.");
  } else {
    count.textContent = t("Step {step} of {steps}", { step: answer.step, steps: answer.steps });
    say.textContent = answer.say;
  }
  document.body.dataset.step = answer.playing_on ? "done" : String(answer.step);
  const reading = !answer.playing_on && !answer.waits_for_move && !answer.finished;
  next.hidden = !reading;
  if (answer.last_step) {
    next.textContent = answer.seats.length > 1
      ? tn("Finish this game against the bot", "Finish this game against the bots", answer.seats.length - 1)
      : t("Play this game to the end");
  } else {
    next.textContent = t("Next");
  }
  const others = document.getElementById("others");
  others.textContent = answer.others.length
    ? t("Since your move: {moves}", {
        moves: answer.others.map((move) => t("{name}: {move}", { name: seatName(answer.seats, move.seat), move: describeMove(move.action) })).join("; "),
      })
    : "";
}

function renderBoard() {
  const box = document.getElementById("game");
  box.hidden = false;
  box.dataset.legal = JSON.stringify(answer.legal_actions);
  box.dataset.game = answer.game;
  const focusedKey = document.activeElement && box.contains(document.activeElement)
    ? document.activeElement.dataset.key : null;
  const renderer = ui.renderer;
  if (!renderer) {
    box.replaceChildren(...plainBoard(answer.game, null, answer.legal_actions, send));
    return;
  }
  const ctx = {
    view: answer.view,
    message: roomLike(),
    seat: answer.seat,
    seats: answer.seats,
    legal: answer.legal_actions,
    yourTurn: answer.legal_actions.length > 0,
    // No move now in a step to read: a click or Enter on the board says to read on.
    notYourTurn: !answer.playing_on && !answer.waits_for_move ? t("Read the step, then go on.") : null,
    finished: answer.finished,
    highlight: answer.highlight,
    send,
    ui,
    rerender: render,
    showMessage: (text, kind) => showFeedback(text, kind === "error" ? "refused" : kind),
  };
  renderer.render(box, ctx);
  ui.ctx = ctx;  // the game's letter keys act on what is drawn now
  markHighlights(box);
  // As in a room, one item of the board is in the Tab order (the arrows walk the rest);
  // a new step puts it on what the step points at, and the keyboard with it when the
  // keyboard was on the board: on the button of the step's move where it names one
  // (Enter there plays it; the keyboard stayed where the last move was made, and
  // Tab reached the first button, Summon, on the step that says Pass).
  const step = answer.playing_on ? "done" : answer.step;
  const newStep = step !== ui.tutorialStep;
  ui.tutorialStep = step;
  const pointed = box.querySelector(".tutorial-highlight");
  const item = pointed && pointed.closest("[data-nav]");
  if (newStep && item && item.dataset.key) ui.navKey = item.dataset.key;
  settleRoving(box, ui, focusedKey);
  if (focusedKey) {
    const taught = pointedButton(box) || item;
    const again = newStep && taught ? taught : box.querySelector(`[data-key="${CSS.escape(focusedKey)}"]`);
    if (again) again.focus();
  }
}

/** The button a step names (`button:pass`), lit: the keyboard's place on a new step. */
function pointedButton(box) {
  return box.querySelector("button.tutorial-highlight");
}

// After "Next" the button may be gone (the step waits for a move): the keyboard goes to
// the button or the board's item the step points at, not to the page's start.
function focusAfterNext() {
  const next = document.getElementById("next");
  if (!next.hidden) {
    next.focus();
    return;
  }
  const box = document.getElementById("game");
  const item = pointedButton(box) || box.querySelector('[data-nav][tabindex="0"]');
  if (item) item.focus();
}

function renderOver() {
  const box = document.getElementById("over");
  box.hidden = !answer.finished;
  if (!answer.finished) return;
  const renderer = ui.renderer;
  const lines = renderer && renderer.outcome ? renderer.outcome(answer.view, roomLike()) : [];
  box.replaceChildren(
    h("h2", {}, t("Game over")),
    ...lines.map((line) => h("p", { class: "outcome" }, line)),
    h("div", { class: "actions" },
      h("button", { id: "again", class: "primary", onclick: restart }, t("Start the tutorial again")),
      h("a", { class: "button", id: "real-game", href: `/?game=${encodeURIComponent(game)}` }, t("Play a real game")),
      h("a", { class: "button", href: "/learn" }, t("Learn the games"))),
  );
}

function render() {
  if (!answer) return;
  const onBoard = document.getElementById("game").contains(document.activeElement);
  document.body.dataset.entries = String(moves.length);
  document.body.dataset.finished = String(answer.finished);
  document.body.dataset.playingOn = String(answer.playing_on);
  renderLesson();
  renderBoard();
  renderOver();
  // The board's last item went with the keyboard on it (the monument cleared): it goes
  // to the end's first button, not to the page's start.
  if (onBoard && (!document.activeElement || document.activeElement === document.body)) {
    const next = answer.finished ? document.getElementById("again")
      : document.querySelector('#game [data-nav][tabindex="0"]');
    if (next) next.focus();
  }
}

async function restart() {
  moves = [];
  ui.pacalSelected = [];
  // The end's box goes with the button that had the keyboard: it goes to the first step.
  if (await request({})) focusAfterNext();
  window.scrollTo(0, 0);
}

async function showIndex() {
  document.getElementById("index").hidden = false;
  const list = document.getElementById("tutorial-list");
  try {
    const found = await api("GET", `/api/tutorial?lang=${LANG}`);
    list.replaceChildren(...found.tutorials.map((entry) => h("li", {},
      h("a", { href: `/tutorial/${encodeURIComponent(entry.game)}`, "data-game": entry.game },
        h("strong", {}, entry.game_title)), " · ", entry.title)));
  } catch (problem) {
    list.replaceChildren(h("li", { class: "message error" }, problem.message));
  }
  document.body.dataset.ready = "true";
}

async function main() {
  await loadMessages();
  document.querySelector("header.top").append(languageSwitch());
  if (!game) {
    await showIndex();
    return;
  }
  document.getElementById("learn-link").href = `/learn/${encodeURIComponent(game)}`;
  document.getElementById("lesson").hidden = false;
  document.getElementById("next").addEventListener("click", async () => {
    if (await request({ go_on: true })) focusAfterNext();
  });
  arrowNavigation(document.getElementById("game"));
  installKeys(document.getElementById("game"), ui);
  try {
    await loadCatalogue();
    ui.renderer = await gameRenderer(game);
    document.getElementById("game-title").textContent = `· ${gameTitle(game)}`;
    // Not a room's "Pyramids: {game}": tabs of the same game tell the lesson apart.
    document.title = t("Tutorial: {game}", { game: gameTitle(game) });
  } catch (problem) {
    showFeedback(problem.message, "error");
  }
  moves = keptMoves();
  // Kept entries the server no longer replays (the lesson changed), or a lesson played
  // to its end: from the start.
  const resumed = await request({});
  if (moves.length && (!resumed || resumed.finished)) {
    moves = [];
    await request({});
  }
  document.body.dataset.ready = "true";
}

main();
