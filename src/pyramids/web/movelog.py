"""The move log of a live room, and what each client is sent of it.

The log (`pyramids.play.movelog.MoveLog`) holds, for each seat and for
spectators, each move told from that audience's own views: a client is sent
only its audience's entries (its seat's, or the spectators'), so another
player's hidden cards never reach it through the log. Entries are put into the
client's language (`lang` in its join message) when sent.

Only the audiences with a socket connected are followed move by move (a bot's
seat, or spectators nobody is, cost nothing); the log keeps every move's raw
record, and when a client of an audience that fell behind joins, that audience
is caught up by replaying the moves from the room's first state (as a restored
room's log is built).

Protocol: after each change each client gets the entries it has not had yet
(after a join: the whole log) as `{"reset": bool, "entries": [...]}`, an entry
being `{number, seat, by_bot, lines}`: inside the state message of the change,
as its `log` field (one frame instead of two), or, when no state message goes
to it then, as a message of its own, `{"type": "log", "reset": .., "entries": ..}`.

Engine work (reading views, replaying a restored room's moves) runs in the
engine pool (on the loop for a quick game), with the room's lock held:
`logged_apply` and `prepare_logs` are called from there. `with_log` and
`push_logs` run on the event loop and only slice and send entries already put
into words.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from pyramids.core import load
from pyramids.play.i18n import DEFAULT, UnknownLanguageError, check_language
from pyramids.play.movelog import MoveLog, Words, table_names
from pyramids.web.names import name_look
from pyramids.web.rooms import AGENT, PERSON

if TYPE_CHECKING:
    from pyramids.web.hub import Connection, LiveRoom


def client_language(value: Any) -> str:
    """The language a client asked for in its join message (English when none or unknown)."""
    if not isinstance(value, str) or len(value) > 35:
        return DEFAULT
    try:
        return check_language(value)
    except UnknownLanguageError:
        return DEFAULT


def ensure_log(live: LiveRoom) -> MoveLog:
    """The room's log; for a restored room, its moves' raw records from a replay of the
    seed and the actions (no audience is worded until a client of it is connected).

    (In the engine pool.) A move's seat is the seat to move before it; the log
    does not keep which moves bots made in a restored room, which it never shows."""
    if live.move_log is not None:
        return live.move_log
    room = live.room
    start = load(room.game_name, **room.options).new_initial_state(room.seed)
    log = MoveLog(room.game_name, start=start.clone())
    replay = start
    for text in room.actions:
        log.moves.append((replay.current_player, text, False))
        replay.apply_action(replay.string_to_action(text))
    live.move_log = log
    return log


# The most log work (moves replayed, entries put into words) a quick game's update
# may do on the event loop; more goes to the engine pool. A late joiner of a long
# match (a 99-round Pacal match: 5,000 moves, about 250 ms) must not stop every room.
INLINE_LOG_WORK = 300


def log_work(live: LiveRoom) -> int:
    """About how many moves the next update's log work replays or words: a restored
    room's log built from its moves, audiences of new clients caught up, and the
    entries each client has not had."""
    log = live.move_log
    total = len(live.room.actions)
    work = total if log is None else 0
    audiences = set()
    for conn in list(live.connections):
        if conn.seat not in audiences:
            audiences.add(conn.seat)
            have = 0 if log is None else len(log.entries.get(conn.seat, ()))
            work += total - have
        work += max(0, total - conn.log_sent)
    return work


def followed(live: LiveRoom) -> set[int | None]:
    """The audiences with a client connected: the seats of the sockets, and the
    spectators (None) when one watches."""
    return {conn.seat for conn in list(live.connections)}


def logged_apply(live: LiveRoom, seat: int, action: int, by_bot: bool) -> None:
    """(In the engine pool.) Apply a committed action to the room and log it for the
    audiences connected."""
    log = ensure_log(live)
    room = live.room
    text = room.state.action_to_string(action)
    log.record(room.state, seat, text, by_bot, partial(room.apply, seat, action, by_bot),
               follow=followed(live))


def current_view(live: LiveRoom, audience: int | None) -> dict[str, Any] | None:
    """The audience's view of the room's position as the log last read it, when the
    log is up to date with the room (None: build it)."""
    log = live.move_log
    if log is None or len(log) != len(live.room.actions):
        return None
    return log.latest_view(audience)


def prepare_logs(live: LiveRoom) -> None:
    """(In the engine pool.) Build the log if needed, catch up the audiences of clients
    that joined, and make each client's message of the entries it has not had (in its
    language), so that sending it is cheap."""
    log = ensure_log(live)
    total = len(log)
    names = people_names(live)
    for conn in list(live.connections):
        log.catch_up(conn.seat)
        if conn.log_sent < total:
            conn.log_ready = (conn.log_sent, *_log_message(log, conn, conn.log_sent, names))


def people_names(live: LiveRoom) -> dict[int, str | Words]:
    """The seats' names, by seat, as the page's scores and turn line name them: people
    by their names, bots by their level or rule ("Medium (bot)"); an empty seat reads
    as "seat 2". A name two seats share reads with its seat ("Bea (seat 2)", "Medium
    (bot, seat 3)"), as the page's last move does."""
    seats = live.room.seats
    return table_names({seat.index: seat.name for seat in seats
                        if seat.kind == PERSON and seat.name},
                       {seat.index: seat.agent for seat in seats
                        if seat.kind == AGENT and seat.agent}, name_look)


def _log_message(log: MoveLog, conn: Connection, since: int,
                 names: dict[int, str | Words]) -> tuple[int, str]:
    """How many entries the client has after this update, and the update,
    `{"reset":..,"entries":[..]}` (JSON text), the people's seats by their names."""
    entries, count = log.as_json_text(conn.seat, conn.lang, since, names)
    reset = "true" if since == 0 else "false"
    return since + count, f'{{"reset":{reset},"entries":{entries}}}'


def _take_log_update(live: LiveRoom, log: MoveLog, conn: Connection) -> str | None:
    """The log update the client has not had (the one `prepare_logs` made, or one made
    here), now counted as sent; None when it has had every entry."""
    ready, conn.log_ready = conn.log_ready, None
    if conn.log_sent >= len(log) or conn.dropped:
        return None
    if ready is not None and ready[0] == conn.log_sent:
        upto, text = ready[1], ready[2]
    else:
        upto, text = _log_message(log, conn, conn.log_sent, people_names(live))
    if upto == conn.log_sent:  # its audience is not caught up yet: prepare_logs does it
        return None
    conn.log_sent = upto
    return text


def with_log(live: LiveRoom, conn: Connection, state_text: str) -> str:
    """A state message (JSON text of an object) with the client's log update as its
    `log` field, when it has one: one frame to send instead of two."""
    log = live.move_log
    update = None if log is None else _take_log_update(live, log, conn)
    if update is None:
        return state_text
    return f'{state_text[:-1]},"log":{update}}}'


def push_logs(live: LiveRoom) -> None:
    """Send each client the log entries it has not had yet (on the event loop), as a
    `log` message: for the clients that had no state message with them."""
    log = live.move_log
    if log is None:
        return
    for conn in list(live.connections):
        update = _take_log_update(live, log, conn)
        if update is not None:
            conn.offer(f'{{"type":"log",{update[1:]}')


__all__ = ["client_language", "current_view", "ensure_log", "followed", "logged_apply",
           "prepare_logs", "push_logs", "with_log"]
