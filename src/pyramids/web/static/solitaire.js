// On a one-player game's page: what kind of game it is (counted, the daily deal, practice),
// its game number when the player may know it, and the table it counts on once it is over.

import { api, h, loadMessages, t } from "./common.js";
import { boardScores, dailyScores, gameNumberLink, loadBoards } from "./boards.js";

const POLL_MS = 3000;

function describe(info) {
  if (info.kind === "practice") return t("Practice game: it counts on no table.");
  if (info.kind === "daily") return t("The daily deal of {day}: it counts on the day's table.", { day: info.day });
  if (info.kind === "retry") return t("The daily deal of {day}, played again: only your first game of the day counts.", { day: info.day });
  if (info.kind === "guest") return t("The daily deal of {day}, played without an account: the day's table counts players logged in to an account, one game each.", { day: info.day });
  return t("This deal counts on the board's table of best scores.");
}

async function tableFor(info) {
  if (info.kind === "daily" || info.kind === "retry" || info.kind === "guest") {
    return (await dailyScores(info.game, info.day)).table;
  }
  const boards = await loadBoards(info.game);
  const board = boards.boards.find((entry) => entry.name === info.board);
  return boardScores(info.game, info.board, board ? board.title : info.board);
}

async function show(box, roomId) {
  let info;
  try {
    info = await api("GET", `/api/solitaire/${encodeURIComponent(roomId)}`);
  } catch (problem) {
    return; // not a one-player game on a board: nothing to add
  }
  // The same answer leaves the line as it is: drawn anew, its live region would be read
  // again at every poll, all game long.
  const drawn = JSON.stringify([info.kind, info.day, info.game_number, info.finished]);
  if (box.dataset.drawn !== drawn) {
    box.dataset.drawn = drawn;
    box.replaceChildren(...await infoParts(info));
    box.hidden = false;
    box.dataset.finished = String(info.finished);
  }
  if (!info.finished) setTimeout(() => show(box, roomId), POLL_MS);
}

async function infoParts(info) {
  const parts = [h("p", {}, describe(info))];
  if (info.game_number) {
    parts.push(h("p", {}, t("Game number: {number}", { number: info.game_number }), " ",
      h("a", { href: gameNumberLink(info.game, info.game_number), id: "game-number-link" },
        t("Link to play this deal"))));
  }
  if (info.finished) {
    try {
      parts.push(await tableFor(info));
    } catch (problem) {
      parts.push(h("p", { class: "hint" }, problem.message));
    }
  }
  return parts;
}

async function main() {
  await loadMessages();
  const roomId = decodeURIComponent(window.location.pathname.split("/").filter(Boolean).pop() || "");
  const box = h("section", { id: "solitaire-info", class: "solitaire-info", "aria-live": "polite", hidden: true });
  const room = document.getElementById("room");
  if (!room) return;
  room.append(box);
  // Only a one-player game started on a board is a solitaire game: asking about any
  // other room answers 404, which the browser logs as an error on every room page.
  try {
    const summary = (await api("GET", `/api/rooms/${encodeURIComponent(roomId)}`)).room;
    if (!summary.unlisted || summary.seats.length !== 1) return;
  } catch (problem) {
    return; // no such room: the room's page says so
  }
  show(box, roomId);
}

main();
