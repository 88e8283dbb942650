// Beside the table: the move log and the room's chat.
//
// The server words the log for this client's seat (or for spectators) in the page's
// language: `log` messages add entries (`reset` starts over). Chat messages are other
// people's text: they are only ever put into the page as text (textContent), never as
// markup. The limits are the server's; the page shows its refusals.

import { api, h, seatName, t } from "./common.js";

const MAX_CHAT_LENGTH = 300;
const SHOWN_LOG = 400;

const side = { send: null, seats: [], mySeat: null, host: null, roomId: null, muted: false, lastSent: "" };

function seatLabel(seat) {
  if (seat === null || seat === undefined) return t("Spectator");
  const entry = side.seats[seat];
  const name = entry ? entry.name : t("seat {number}", { number: seat + 1 });
  return seat === side.mySeat ? t("{name} (you)", { name }) : name;
}

/** Build the side panel into `box` once; `send(message)` writes to the room's socket. */
export function installSide(box, { roomId, send, hostToken }) {
  side.send = send;
  side.roomId = roomId;
  side.host = hostToken || null;
  const input = h("input", {
    id: "chat-input", maxlength: String(MAX_CHAT_LENGTH), autocomplete: "off",
    placeholder: t("Write to the room"), "aria-label": t("Chat message"),
  });
  const form = h("form", { id: "chat-form", class: "chat-form" }, input,
    h("button", { type: "submit" }, t("Send")));
  const refusal = h("p", { id: "chat-error", class: "message error", role: "alert", hidden: true });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    refusal.hidden = true;
    if (side.send({ type: "chat", text })) {
      side.lastSent = text;
      input.value = "";
    }
  });
  const parts = [
    h("section", { id: "move-log", class: "move-log panel", "aria-labelledby": "move-log-title" },
      h("h2", { id: "move-log-title" }, t("Moves")),
      h("ol", { id: "move-log-list", class: "move-log-list" })),
    h("section", { id: "chat", class: "chat panel", "aria-labelledby": "chat-title" },
      h("h2", { id: "chat-title" }, t("Chat")),
      h("ol", { id: "chat-list", class: "chat-list", "aria-live": "polite" }),
      h("p", { id: "chat-muted", class: "hint", hidden: true }, t("The host has muted spectators.")),
      form,
      refusal,
      side.host ? muteControl() : null),
  ];
  box.replaceChildren(...parts.filter(Boolean));
  box.hidden = false;
}

/** The server refused a chat message (`text` says why): say so beside the chat, where
 * the player looks (the page's message line may be out of sight on a phone), and give
 * back the words they wrote, to send again. False when the page has no chat. */
export function chatRefused(text) {
  const box = document.getElementById("chat-error");
  if (!box) return false;
  box.textContent = text;
  box.hidden = false;
  box.scrollIntoView({ block: "nearest" });
  const input = document.getElementById("chat-input");
  if (input && !input.value && side.lastSent) input.value = side.lastSent;
  side.lastSent = "";
  return true;
}

function muteControl() {
  const box = h("input", { type: "checkbox", id: "chat-mute" });
  box.addEventListener("change", async () => {
    try {
      await api("POST", `/api/rooms/${encodeURIComponent(side.roomId)}/chat/mute`,
        { token: side.host, muted: box.checked });
    } catch (problem) {
      box.checked = !box.checked;
    }
  });
  return h("label", { class: "chat-mute" }, box, " ", t("Mute spectators"));
}

/** The latest state: who sits where (names in the log and chat), and whether I may write. */
export function sideState(message) {
  side.seats = message.seats || [];
  side.mySeat = message.seat;
  // A one-player game has nobody to write to: no chat, no muting spectators.
  const chat = document.getElementById("chat");
  if (chat) chat.hidden = side.seats.length === 1;
  showMuted();
  const over = message.status === "finished" || message.status === "aborted";
  if (over && !document.getElementById("replay-link")) {
    const section = document.getElementById("move-log");
    if (section) {
      section.append(h("p", {}, h("a", {
        id: "replay-link", class: "button", href: `/replay/${encodeURIComponent(side.roomId)}`,
      }, t("Watch the replay"))));
    }
  }
}

function showMuted() {
  const note = document.getElementById("chat-muted");
  const form = document.getElementById("chat-form");
  const mute = document.getElementById("chat-mute");
  if (mute) mute.checked = side.muted;
  if (!note || !form) return;
  const silenced = side.muted && (side.mySeat === null || side.mySeat === undefined);
  note.hidden = !side.muted;
  form.hidden = silenced;
}

/** A log update (a `log` message, or a state message's `log` field): entries in
 * words, for this seat or for spectators. */
export function onLog(message) {
  const list = document.getElementById("move-log-list");
  if (!list) return;
  if (message.reset) list.replaceChildren();
  for (const entry of message.entries) {
    if (!entry.lines.length) continue;
    const item = h("li", { class: "log-entry", "data-number": String(entry.number) },
      h("span", { class: "log-number" }, `${entry.number}.`),
      ...entry.lines.map((line) => h("span", { class: "log-line" }, line)));
    if (entry.by_bot) item.classList.add("by-bot");
    list.append(item);
  }
  while (list.children.length > SHOWN_LOG) list.firstChild.remove();
  list.scrollTop = list.scrollHeight;
}

function chatAuthor(entry) {
  if (entry.seat === null) return t("Spectator");
  const seated = side.seats[entry.seat];
  // Still in the seat it wrote from: named as the table names it, so that one "Bea"
  // cannot write as the other ("Bea (seat 2)" beside "Bea (seat 1)").
  if (seated && entry.name && seated.name === entry.name && entry.seat !== side.mySeat) {
    return seatName(side.seats, entry.seat);
  }
  return entry.name || seatLabel(entry.seat);
}

function chatItem(entry) {
  // textContent only: a message is someone's text, never markup.
  const author = h("span", { class: "chat-author" });
  author.textContent = chatAuthor(entry);
  const text = h("span", { class: "chat-text" });
  text.textContent = entry.text;
  return h("li", { class: "chat-message", "data-number": String(entry.number) }, author, ": ", text);
}

/** The chat so far, sent on each new connection (taking a seat opens one): the lines
 * already shown stay, and only the later ones are added. Drawn anew, the list's live
 * region read the whole chat again. */
function showHistory(list, messages) {
  const items = messages.map(chatItem);
  const shown = [...list.children];
  // The same line: its number and its words (a seat's name may read otherwise now).
  const kept = shown.length <= items.length && shown.every((item, index) =>
    item.dataset.number === items[index].dataset.number && item.textContent === items[index].textContent);
  if (kept) list.append(...items.slice(shown.length));
  else list.replaceChildren(...items);
}

/** `chat`, `chat_history` and `chat_settings` messages. */
export function onChat(message) {
  const list = document.getElementById("chat-list");
  if (!list) return;
  if (message.type === "chat_history") {
    showHistory(list, message.messages);
    side.muted = Boolean(message.spectators_muted);
  } else if (message.type === "chat") {
    list.append(chatItem(message.message));
  } else if (message.type === "chat_settings") {
    side.muted = Boolean(message.spectators_muted);
  }
  showMuted();
  list.scrollTop = list.scrollHeight;
  // Lines that come in while a refusal shows lengthen the list above it: the refusal
  // stays in sight (on a phone the burst's last line pushed it off the screen).
  const refusal = document.getElementById("chat-error");
  if (refusal && !refusal.hidden) refusal.scrollIntoView({ block: "nearest" });
}

/** Chat refusals go to the chat box's own line, not over the game. */
export function isChatError(message) {
  return typeof message.code === "string" && message.code.startsWith("chat_")
    || message.code === "bad_chat";
}
