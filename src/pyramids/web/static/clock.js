// Turn clocks on the room page: each seat's time left, counting down here from what the
// server sent (its `remaining` at the moment it sent it: the server keeps the time, this
// page only shows it), and announcements for screen readers: your turn's time, warnings
// at 30 and 10 seconds, and time-outs. The lobby's time control choice lives here too.

import { h, seatName, t } from "./common.js";

const TICK_MS = 250;
const WARNINGS = [30, 10];

let shown = null; // {clock, receivedAt, seats, mine, warned: Set, key}
let ticker = null;

/** "1:05", "0:09", "1:02:03": minutes and seconds (hours when needed). */
export function formatClock(seconds) {
  const whole = Math.max(0, Math.ceil(seconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const secs = String(whole % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${secs}` : `${minutes}:${secs}`;
}

function spoken(seconds) {
  const whole = Math.max(0, Math.ceil(seconds));
  const minutes = Math.floor(whole / 60);
  const secs = whole % 60;
  if (!minutes) return t("{seconds} s", { seconds: secs });
  return secs ? t("{minutes} min {seconds} s", { minutes, seconds: secs }) : t("{minutes} min", { minutes });
}

function announce(text) {
  const region = document.getElementById("announcer");
  if (region) region.append(h("p", {}, text));
}

function timeLeft(seat) {
  if (!shown) return 0;
  const { clock, receivedAt } = shown;
  const base = clock.remaining[seat] || 0;
  if (seat !== clock.seat || clock.adjourned || clock.overtime || clock.deadline === null) return base;
  return Math.max(0, base - (performance.now() - receivedAt) / 1000);
}

function tick() {
  if (!shown) return;
  const { clock, mine } = shown;
  for (const cell of document.querySelectorAll("#clock [data-clock-seat]")) {
    const seat = Number(cell.dataset.clockSeat);
    const left = timeLeft(seat);
    cell.querySelector(".clock-time").textContent = formatClock(left);
    cell.classList.toggle("low", seat === clock.seat && left <= WARNINGS[WARNINGS.length - 1]);
  }
  if (mine !== null && clock.seat === mine && clock.deadline !== null && !clock.adjourned) {
    const left = timeLeft(mine);
    for (const mark of WARNINGS) {
      if (left <= mark && left > 0 && !shown.warned.has(mark)) {
        shown.warned.add(mark);
        announce(t("{time} left for your move", { time: spoken(left) }));
      }
    }
  }
}

function controlText(clock) {
  if (clock.kind === "move") return t("{time} a move", { time: formatClock(clock.seconds) });
  return clock.increment
    ? t("{time} each, plus {increment} s a move", { time: formatClock(clock.seconds), increment: clock.increment })
    : t("{time} each", { time: formatClock(clock.seconds) });
}

/** Draw (or hide) the clock of a state message and announce what changed. */
export function renderClock(message) {
  const box = document.getElementById("clock");
  if (!box) return;
  const clock = message.clock;
  if (!clock || message.status === "waiting") {
    box.hidden = true;
    shown = null;
    return;
  }
  const previous = shown;
  const key = `${message.move_number}:${clock.seat}:${clock.adjourned}:${clock.overtime}`;
  shown = {
    clock, receivedAt: performance.now(), mine: message.seat,
    warned: previous && previous.key === key ? previous.warned : new Set(), key,
  };
  const rows = message.seats.map((seat) => h("li", {
    class: `clock-seat${seat.seat === clock.seat ? " running" : ""}`,
    "data-clock-seat": seat.seat,
  }, h("span", { class: "clock-name" }, seatName(message.seats, seat.seat)), " ",
  h("span", { class: "clock-time", role: "timer", "aria-label": t("time left for {name}", { name: seatName(message.seats, seat.seat) }) }, "")));
  const notes = [];
  if (clock.adjourned && clock.seat !== null) {
    notes.push(h("p", { class: "hint", id: "clock-adjourned" }, t("Adjourned: {name} ran out of time; the game waits for their move.", { name: seatName(message.seats, clock.seat) })));
  } else if (clock.overtime && clock.seat !== null) {
    notes.push(h("p", { class: "hint", id: "clock-overtime" }, t("{name} ran out of time: a bot moves for them.", { name: seatName(message.seats, clock.seat) })));
  }
  box.replaceChildren(
    h("p", { class: "hint" }, t("Clock: {control}", { control: controlText(clock) })),
    h("ul", { class: "clock-seats" }, rows),
    ...notes,
  );
  box.hidden = false;
  if (message.status !== "playing") {
    clearInterval(ticker);
    ticker = null;
  } else if (!ticker) {
    ticker = setInterval(tick, TICK_MS);
  }
  tick();
  if (!previous || previous.key === key || message.status !== "playing") return;
  if (clock.seat !== null && (clock.overtime || clock.adjourned) && !(previous.clock.overtime || previous.clock.adjourned)) {
    const name = seatName(message.seats, clock.seat);
    announce(clock.adjourned
      ? t("{name} ran out of time; the game is adjourned until they move.", { name })
      : t("{name} ran out of time; a bot moves for them.", { name }));
  } else if (clock.seat === message.seat && previous.clock.seat !== message.seat && clock.deadline !== null) {
    announce(t("Your move: {time} on your clock", { time: spoken(timeLeft(message.seat)) }));
  }
}

// -- the lobby's choice ---------------------------------------------------------------

export const TIME_CONTROLS = [
  ["none", () => t("No clock")],
  ["move:60", () => t("1 minute a move")],
  ["move:120", () => t("2 minutes a move")],
  ["move:300", () => t("5 minutes a move")],
  ["bank:300:10", () => t("5 minutes each, plus 10 s a move")],
  ["bank:900:10", () => t("15 minutes each, plus 10 s a move")],
];

/** The lobby's time control fields: how much time, and what a time-out does. */
export function timeControlFields() {
  return h("div", { class: "time-control" },
    h("label", { class: "field" }, h("span", {}, t("Turn clock")), h("select", { id: "time-control" },
      TIME_CONTROLS.map(([value, label]) => h("option", { value }, label())))),
    h("label", { class: "field" }, h("span", {}, t("When a player's time runs out")), h("select", { id: "on-timeout" },
      h("option", { value: "bot" }, t("a bot makes their move")),
      h("option", { value: "adjourn" }, t("the game waits for them (adjourned)")))));
}

/** The time control the lobby's fields describe, as the server takes it (null: none). */
export function readTimeControl() {
  const choice = document.getElementById("time-control");
  if (!choice || choice.value === "none") return null;
  const [kind, seconds, increment] = choice.value.split(":");
  const control = { kind, seconds: Number(seconds), on_timeout: document.getElementById("on-timeout").value };
  if (increment) control.increment = Number(increment);
  return control;
}

/** Whether a lobby choice ("move:120", "bank:900:10") fits the longest clock a ranked
 * room may have (`bounds`: the server's, from /api/games `ranked_clock`; the server
 * refuses a longer one, `ranked_clock_too_long`). "none" never fits. */
export function fitsRanked(value, bounds) {
  const [kind, seconds, increment] = value.split(":");
  if (kind === "move") return !bounds || Number(seconds) <= bounds.move_seconds;
  if (kind === "bank") {
    return !bounds || (Number(seconds) <= bounds.bank_seconds && Number(increment || 0) <= bounds.increment);
  }
  return false;
}

/** The clock a ranked room's rematch takes: the room's own, with the bot moving at a
 * time-out, as the server requires (`ranked_needs_clock`); two minutes a move where it
 * had none, or one longer than a ranked room may now have (`bounds`; a room ranked
 * before the rule: its rematch would be refused). */
export function rankedClock(control, bounds) {
  const timed = control && control.kind && control.kind !== "none";
  const value = timed ? `${control.kind}:${control.seconds}:${control.increment || 0}` : "none";
  return timed && fitsRanked(value, bounds)
    ? { ...control, on_timeout: "bot" } : { kind: "move", seconds: 120, on_timeout: "bot" };
}

/** A ranked room's clock, as the server requires: a clock whose time-out lets a bot move
 * (`ranked_needs_clock`), no longer than `bounds` (`ranked_clock_too_long`), so that a
 * player who stops moving cannot hold the game up. While `ranked`, "No clock", the
 * clocks too long and "the game waits" are not offered; where the player's choice is
 * one of them, the lobby chooses two minutes a move and a bot in its place, and gives
 * the player's choice back when "Ranked" is unticked. A clock the player chooses while
 * "Ranked" is ticked is their own: it stays when it is unticked. The hint to show, or
 * null. */
export function lockClockForRanked(ranked, bounds) {
  const choice = document.getElementById("time-control");
  const onTimeout = document.getElementById("on-timeout");
  if (!choice || !onTimeout) return null;
  const adjourn = onTimeout.querySelector('option[value="adjourn"]');
  for (const select of [choice, onTimeout]) {
    if (select.dataset.keepsOwn) continue;
    select.dataset.keepsOwn = "true";
    // The player's own choice while ranked: nothing to give back any more.
    select.addEventListener("change", () => { delete select.dataset.playerValue; });
  }
  if (ranked) {
    for (const option of choice.options) option.disabled = !fitsRanked(option.value, bounds);
    adjourn.disabled = true;
    if (!fitsRanked(choice.value, bounds)) {
      if (choice.dataset.playerValue === undefined) choice.dataset.playerValue = choice.value;
      choice.value = "move:120";
    }
    if (onTimeout.value !== "bot") {
      if (onTimeout.dataset.playerValue === undefined) onTimeout.dataset.playerValue = onTimeout.value;
      onTimeout.value = "bot";
    }
    return t("Ranked: a ranked game has a turn clock, and when a player's time runs out a bot makes their move; a player whose time runs out on 3 turns in a row loses the game, so that nobody can hold it up for long. Untick “Ranked” to play without a clock.");
  }
  for (const option of choice.options) option.disabled = false;
  adjourn.disabled = false;
  for (const select of [choice, onTimeout]) {
    if (select.dataset.playerValue !== undefined) {
      select.value = select.dataset.playerValue;
      delete select.dataset.playerValue;
    }
  }
  return null;
}
