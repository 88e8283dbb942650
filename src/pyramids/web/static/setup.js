// Creating a room the way the lobby describes it: a game, its options and who sits where.

import { api, store, t } from "./common.js";

/**
 * Create a room and fill its seats. `setup` is
 * {game, options, seats: [{kind: "me" | "open" | "bot", agent}], bot_delay_seconds,
 * bot_takeover_seconds (null: wait for an away player), name}.
 * The game starts at once when no seat is left open. Returns the room id.
 */
export async function createRoom(setup) {
  const body = {
    game: setup.game,
    options: setup.options || {},
    bot_delay_seconds: setup.bot_delay_seconds || 0,
  };
  if (setup.bot_takeover_seconds) {
    // A seat left on its turn is played by a bot of a real level, not random moves.
    body.bot_takeover_seconds = setup.bot_takeover_seconds;
    body.takeover_agent = "medium";
  }
  if (setup.ranked) body.ranked = true;
  if (setup.time_control) body.time_control = setup.time_control;
  const created = await api("POST", "/api/rooms", body);
  const roomId = created.room.id;
  const host = created.host_token;
  store.setHost(roomId, host);
  store.setSetup(roomId, setup);
  const seats = setup.seats;
  for (let index = 0; index < seats.length; index += 1) {
    const seat = seats[index];
    if (seat.kind === "me") {
      const taken = await api("POST", `/api/rooms/${roomId}/seats`, {
        name: setup.name || t("Player"),
        seat: index,
      });
      store.setSeat(roomId, { token: taken.token, seat: taken.seat, name: setup.name });
    } else if (seat.kind === "bot") {
      await api("POST", `/api/rooms/${roomId}/agents`, {
        token: host,
        seat: index,
        agent: seat.agent || "random",
      });
    }
  }
  if (seats.every((seat) => seat.kind !== "open")) {
    await api("POST", `/api/rooms/${roomId}/start`, { token: host });
  }
  return roomId;
}

/** How many seats a game has with these options (the `players` option, when it has one). */
export function seatCount(game, options) {
  if (!game) return 0;
  const players = game.options.find((option) => option.name === "players");
  if (players) {
    const value = options.players !== undefined ? options.players : players.default;
    const count = Number(value);
    if (Number.isInteger(count) && count > 0) return count;
  }
  return game.num_players;
}
