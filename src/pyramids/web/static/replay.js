// The replay of a finished game: step through it with every seat's cards shown.
//
// Everything comes from GET /api/rooms/{id}/replay, which the server answers only once
// the game is over. Each seat is drawn by the game's own renderer, read-only (no legal
// moves); the move log's lines say what each move did. The address of this page is the
// link to share; the record downloads in the format `pyramids replay` reads.

import { api, gameRenderer, gameTitle, h, languageSwitch, LANG, loadCatalogue, loadMessages, plainBoard, seatLabel, t, wordsText } from "./common.js";

const roomId = decodeURIComponent(window.location.pathname.split("/").filter(Boolean).pop() || "");
const page = { replay: null, step: 0, renderer: null, seats: [] };

function showMessage(text) {
  const box = document.getElementById("message");
  box.textContent = text;
  box.className = "message error";
  box.hidden = !text;
}

function stepFromAddress(last) {
  const match = /(?:^|[#&])step=(\d+)/.exec(window.location.hash);
  const wanted = match ? Number(match[1]) : last;
  return Math.max(0, Math.min(last, wanted));
}

function renderFairness(fair) {
  const box = document.getElementById("fairness");
  if (!fair || !fair.commitment) {
    box.replaceChildren(h("p", { class: "hint" }, t("This room kept no commitment to its deal.")));
    return;
  }
  const seed = fair.seed_text ?? JSON.stringify(fair.seed);  // every digit of a 62-bit seed
  const verdict = fair.verified
    ? h("p", { class: "hint fair", id: "fairness-check" },
      t("Fair deal: the revealed seed {seed} opens the commitment shown from the start.", { seed }))
    : h("p", { class: "message error", id: "fairness-check" },
      t("Warning: the revealed seed does NOT match the commitment."));
  box.replaceChildren(
    h("p", { class: "hint", title: fair.commitment },
      t("Deal commitment: {commitment}…", { commitment: fair.commitment.slice(0, 16) })),
    verdict);
}

/** The seats as a room's page has them (a bot by its agent), from the replay's players. */
function replaySeats(replay) {
  const agents = replay.agents || [];
  return replay.players.map((name, seat) => (agents[seat]
    ? { seat, name, kind: "agent", agent: agents[seat], connected: true }
    : { seat, name, kind: "person", connected: true }));
}

function replaySeatLabel(index) {
  const seat = page.seats[index];
  const name = seat ? seatLabel(seat) : null;
  return name ? t("Seat {number}: {name}", { number: index + 1, name }) : t("Seat {number}", { number: index + 1 });
}

function drawSeat(index, view, step) {
  const box = h("div", { class: "game replay-board" });
  const seats = page.seats;
  const message = {
    type: "state", seat: index, status: "finished", view, seats,
    current_player: null, your_turn: false, legal_actions: [], move_number: step.number,
    last_move: step.seat === null ? null : { seat: step.seat, action: step.action, by_bot: false },
  };
  if (page.renderer) {
    try {
      page.renderer.render(box, {
        // `replay`: drawn for a reader who sits nowhere: no "(you)", no keys to press.
        view, message, seat: index, seats, legal: [], yourTurn: false, finished: true, replay: true,
        send: () => false, ui: {}, rerender: () => {}, showMessage: () => {},
      });
      return box;
    } catch (error) {
      box.replaceChildren();
    }
  }
  box.append(...plainBoard(page.replay.game, step.texts ? step.texts[index] : null, [], () => false));
  return box;
}

function show(number) {
  const steps = page.replay.steps;
  page.step = Math.max(0, Math.min(steps.length - 1, number));
  const step = steps[page.step];
  const last = steps.length - 1;
  document.getElementById("step").textContent = t("Move {number} of {last}", { number: page.step, last });
  const pressed = document.activeElement;
  document.getElementById("first").disabled = page.step === 0;
  document.getElementById("back").disabled = page.step === 0;
  document.getElementById("forward").disabled = page.step === last;
  document.getElementById("last").disabled = page.step === last;
  // A button that has just become disabled (Forward at the last move) drops the focus to
  // the page's start: a keyboard player would Tab all the way back. It goes to the
  // button that steps the other way instead.
  if (pressed && pressed.disabled) {
    const other = document.getElementById(/^(first|back)$/.test(pressed.id) ? "forward" : "back");
    (other.disabled ? document.getElementById("share") : other).focus();
  }
  const move = document.getElementById("move");
  if (step.seat === null) {
    move.replaceChildren(h("p", {}, t("The deal, before the first move.")));
  } else {
    const lines = step.lines.map((line) => h("li", {}, line));
    move.replaceChildren(
      h("h2", {}, replaySeatLabel(step.seat)),
      h("ul", { id: "move-lines" }, lines));
  }
  const boxes = step.views.map((view, index) => {
    const own = step.private[String(index)];
    return h("section", { class: "replay-seat panel", "data-seat": String(index) },
      h("h2", {}, replaySeatLabel(index)),
      own ? h("div", { class: "hint private-lines" },
        h("p", {}, t("What this seat read (\"you\" is this seat):")),
        h("ul", {}, own.map((line) => h("li", {}, line)))) : null,
      drawSeat(index, view, step));
  });
  document.getElementById("seats").replaceChildren(...boxes);
  const address = `${window.location.pathname}#step=${page.step}`;
  window.history.replaceState(null, "", address);
  document.getElementById("share").href = address;
}

function installControls() {
  const go = (delta) => () => show(page.step + delta);
  document.getElementById("first").addEventListener("click", () => show(0));
  document.getElementById("back").addEventListener("click", go(-1));
  document.getElementById("forward").addEventListener("click", go(1));
  document.getElementById("last").addEventListener("click", () => show(page.replay.steps.length - 1));
  document.addEventListener("keydown", (event) => {
    if (event.target && /^(INPUT|TEXTAREA|SELECT)$/.test(event.target.tagName)) return;
    const moves = { ArrowLeft: -1, ArrowRight: 1, PageUp: -10, PageDown: 10 };
    if (event.key in moves) show(page.step + moves[event.key]);
    else if (event.key === "Home") show(0);
    else if (event.key === "End") show(page.replay.steps.length - 1);
    else return;
    event.preventDefault();
  });
  const download = document.getElementById("download");
  download.href = `/api/rooms/${encodeURIComponent(roomId)}/record`;
  download.setAttribute("download", `pyramids-${roomId}.json`);
  document.getElementById("controls").hidden = false;
}

async function main() {
  await loadMessages();
  document.querySelector("header.top").append(languageSwitch());
  try {
    await loadCatalogue();
    page.replay = await api("GET", `/api/rooms/${encodeURIComponent(roomId)}/replay?lang=${LANG}`);
    page.seats = replaySeats(page.replay);
  } catch (problem) {
    if (problem.status === 409) {
      showMessage(t("This game is not over yet: its replay opens when it ends, so that no hidden card is shown while it is played."));
    } else if (problem.status === 404) {
      showMessage(t("There is no room {room}. Check the link, or create a room in the lobby.", { room: roomId }));
    } else {
      showMessage(problem.message);
    }
    return;
  }
  document.getElementById("game-title").textContent = gameTitle(page.replay.game);
  document.title = t("Replay: {game}", { game: gameTitle(page.replay.game) });
  try {
    page.renderer = await gameRenderer(page.replay.game);
  } catch (error) {
    page.renderer = null;
  }
  renderFairness(page.replay.fairness);
  // How the game ended when its status alone does not say (a ranked forfeit on time,
  // the server's operator, the move limit).
  const ended = page.replay.record && page.replay.record.ended;
  const endedBox = document.getElementById("ended");
  endedBox.textContent = ended && ended.words ? wordsText(ended.words) : "";
  endedBox.hidden = !endedBox.textContent;
  installControls();
  show(stepFromAddress(page.replay.steps.length - 1));
}

main();
