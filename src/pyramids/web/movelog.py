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

Protocol: after each change the server sends each client a
`{"type": "log", "entries": [...]}` message with the entries it has not had yet
(after a join: the whole log); an entry is `{number, seat, by_bot, lines}`.

Engine work (reading views, replaying a restored room's moves) runs in the
engine pool, with the room's lock held: `logged_apply` and `prepare_logs` are
called from there. `push_logs` runs on the event loop and only slices and sends
entries already put into words.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from pyramids.core import load
from pyramids.play.i18n import DEFAULT, UnknownLanguageError, check_language
from pyramids.play.movelog import MoveLog

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
    for conn in list(live.connections):
        log.catch_up(conn.seat)
        if conn.log_sent < total:
            conn.log_ready = (conn.log_sent, *_log_message(log, conn, conn.log_sent))


def _log_message(log: MoveLog, conn: Connection, since: int) -> tuple[int, str]:
    """How many entries the client has after this message, and the message."""
    entries, count = log.as_json_text(conn.seat, conn.lang, since)
    reset = "true" if since == 0 else "false"
    return since + count, f'{{"type":"log","reset":{reset},"entries":{entries}}}'


def push_logs(live: LiveRoom) -> None:
    """Send each client the log entries it has not had (on the event loop): the
    message `prepare_logs` made, or one made here."""
    log = live.move_log
    if log is None:
        return
    total = len(log)
    for conn in list(live.connections):
        ready, conn.log_ready = conn.log_ready, None
        if conn.log_sent >= total or conn.dropped:
            continue
        if ready is not None and ready[0] == conn.log_sent:
            upto, text = ready[1], ready[2]
        else:
            upto, text = _log_message(log, conn, conn.log_sent)
        if upto == conn.log_sent:  # its audience is not caught up yet: prepare_logs does it
            continue
        conn.log_sent = upto
        conn.offer(text)


__all__ = ["client_language", "current_view", "ensure_log", "followed", "logged_apply",
           "prepare_logs", "push_logs"]
