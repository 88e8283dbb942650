"""Bots on the server: one asyncio task a room plays its agent seats.

The task wakes whenever the room changes. When the seat to move belongs to an
agent, or to a person who has been away longer than the room's
`bot_takeover_seconds`, it asks the agent for a move on a copy of the state: a
quick agent in a quick game (`random` or `greedy` in Pacal) on the event loop; a
searching one in a worker process where the hub has them (`bot_processes`;
`pyramids serve` starts them), so that its thinking neither blocks other rooms nor
holds this process's interpreter lock, and otherwise in a thread. The move is
checked on that copy as the room would check it, then submitted through the same
commit and broadcast as a person's move (checked again only if the room moved
meanwhile). A person who comes back gets the seat back at once: the bot only
moves while they are away.

A room only bots play waits while nobody watches it. Each agent's seed comes from
the server's secrets, never from public data such as the room id. In a game with a
clock the task also ends the game when the time is up, and in a room with a turn
clock it times out the seat to move when its time runs out (`Hub.time_out`): with
`on_timeout: bot` the takeover agent then plays that turn.

With several server processes (cluster mode) every process that holds the room
runs this task, but only the one holding the room's bot lease (`Hub.bot_turn`)
computes and submits a bot move; the others wait for the move to reach them.
"""

from __future__ import annotations

import asyncio
import logging
import pickle
import secrets
import time
import traceback
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING

from pyramids.agents import Agent, make_agent
from pyramids.core import State
from pyramids.core.errors import N_, Words
from pyramids.web.rooms import AGENT, OVER, PERSON, WAITING, RoomError

if TYPE_CHECKING:
    from pyramids.web.hub import Hub, LiveRoom

log = logging.getLogger("pyramids.web.bots")

FAILURE_BACKOFF_SECONDS = 5.0
# How soon a process without a room's bot lease looks again (its holder may have died).
LEASE_RETRY_SECONDS = 0.5
# What pickle raises for an object it cannot pickle (a lock, a lambda, a C handle).
UNPICKLABLE = (pickle.PicklingError, TypeError, AttributeError)


def agent_seed() -> int:
    """A bot's seed: a server secret, so nobody can predict its choices."""
    return secrets.randbits(63)


def _agent_for(live: LiveRoom, seat: int, name: str) -> Agent:
    agent = live.agents.get(seat)
    if agent is None or agent.name != name:
        agent = make_agent(name, seed=agent_seed())
        live.agents[seat] = agent
    return agent


async def _wait_for_change(live: LiveRoom, timeout: float | None) -> None:
    """Until the room changes, or `timeout` seconds pass (then the event is set: the
    driver looks again either way). A timer, not `asyncio.wait_for`, which makes a
    task for every wait: a room with a turn clock waits with a timeout after every
    move."""
    if timeout is None:
        await live.changed.wait()
        return
    alarm = asyncio.get_running_loop().call_later(max(0.0, timeout), live.changed.set)
    try:
        await live.changed.wait()
    finally:
        alarm.cancel()


async def drive(hub: Hub, live: LiveRoom) -> None:
    """Play the room's bot moves until the game is over."""
    room = live.room
    while room.status not in OVER:
        live.changed.clear()
        if room.status == WAITING or live.needs_people():
            await _wait_for_change(live, None)
            continue
        time_left = hub.clock_due(live)
        if time_left is not None and time_left <= 0:
            try:
                await hub.tick_clock(live)
            except Exception:
                log.exception("room %s: could not end the game at time up", room.id)
                await _wait_for_change(live, FAILURE_BACKOFF_SECONDS)
            continue
        turn_left = hub.turn_due(live)
        if turn_left is not None and turn_left <= 0:
            try:
                await hub.time_out(live)
            except Exception:
                log.exception("room %s: could not time out a turn", room.id)
                await _wait_for_change(live, FAILURE_BACKOFF_SECONDS)
            continue
        time_left = _sooner_known(time_left, turn_left)
        async with live.lock:  # not while a move is being applied
            seat = room.state.current_player
        if room.status in OVER or not 0 <= seat < len(room.seats):
            continue
        entry = room.seats[seat]
        agent_name: str | None = None
        clock = live.turn_clock
        if entry.kind == AGENT:
            agent_name = entry.agent
        elif entry.kind == PERSON and clock is not None and clock.overtime and clock.seat == seat:
            agent_name = room.settings.takeover_agent  # the seat ran out of time
        elif entry.kind == PERSON and room.settings.bot_takeover_seconds is not None:
            away = live.away_since.get(seat)
            if away is not None:
                due = away + room.settings.bot_takeover_seconds - time.monotonic()
                if due > 0:
                    await _wait_for_change(live, _sooner(due, time_left))
                    continue
                agent_name = room.settings.takeover_agent
        if agent_name is None:
            await _wait_for_change(live, time_left)
            continue
        async with hub.bot_turn(live) as ours:
            if not ours:  # another server process plays this room's bots now
                await _wait_for_change(live, LEASE_RETRY_SECONDS)
                continue
            if room.settings.bot_delay_seconds > 0:
                await asyncio.sleep(room.settings.bot_delay_seconds)
            async with live.lock:  # a move may be being applied in the engine pool
                number = len(room.actions)
                if room.state.current_player != seat or room.status in OVER:
                    continue
                snapshot = room.state.clone()
            try:
                agent = _agent_for(live, seat, agent_name)
                action, text = await _think(hub, live, seat, agent, snapshot)
            except Exception:
                log.exception("room %s: agent %s failed at seat %d", room.id, agent_name, seat)
                await _wait_for_change(live, FAILURE_BACKOFF_SECONDS)
                continue
            finally:
                # Not kept in this task's frame until the next bot move: a copy living
                # that long costs the garbage collector a walk (see web.collector).
                del snapshot
            if len(room.actions) != number:
                continue  # the person came back and moved meanwhile
            if live.clock_limit is not None and text.startswith("clock"):
                await _wait_for_change(live, 1.0)  # the time is the server's to report
                continue
            try:
                await hub.submit(live, seat, text, by_bot=True, move_number=number,
                                 checked=action)
            except RoomError as error:
                if error.code != "stale":
                    log.error("room %s: agent %s move refused: %s", room.id, agent_name, error)
                    await _wait_for_change(live, FAILURE_BACKOFF_SECONDS)
            except Exception:
                log.exception("room %s: could not store a bot move", room.id)
                await _wait_for_change(live, FAILURE_BACKOFF_SECONDS)


def _quick_agent(live: LiveRoom, agent: Agent) -> bool:
    """Whether the agent moves without searching (`quick = True`). A level is asked
    about the agent it plays in this game."""
    resolve = getattr(agent, "agent_for", None)
    if resolve is not None:
        agent = resolve(live.room.game_name)
    return bool(getattr(agent, "quick", False))


async def _think(hub: Hub, live: LiveRoom, seat: int, agent: Agent,
                 snapshot: State) -> tuple[int, str]:
    """The agent's move and its action string: on the event loop for a quick agent in a
    quick game; in one of the hub's bot processes for a searching agent where the hub
    has them (the agent travels there with the state and comes back with its
    generator and memory moved on, so it plays as it would in this process);
    otherwise in a bot thread."""
    quick = _quick_agent(live, agent)
    if quick and hub.engine_inline(live.room):
        return _step(agent, snapshot)  # a thread hand-off would cost more than the move
    loop = asyncio.get_running_loop()
    # A quick agent in a slow engine (greedy in Mahjongg) thinks briefly: a thread.
    pool = None if quick else hub.bot_process_pool()
    packed = None if pool is None else await loop.run_in_executor(hub.bot_pool, _pack,
                                                                    agent, snapshot)
    if pool is None or packed is None:
        return await loop.run_in_executor(hub.bot_pool, _step, agent, snapshot)
    try:
        outcome = await loop.run_in_executor(pool, _step_packed, packed)
    except BrokenProcessPool:
        hub.replace_bot_process_pool(pool)
        raise
    if isinstance(outcome, str):
        raise RuntimeError(f"the agent failed in a bot process:\n{outcome}")
    action, text, moved_on = outcome
    if moved_on is not None and live.agents.get(seat) is agent:
        live.agents[seat] = pickle.loads(moved_on)
    return action, text


def _pack(agent: Agent, snapshot: State) -> bytes | None:
    """(In the bot pool.) The agent and the state, pickled for a bot process; None for
    an agent that cannot be pickled (it thinks in a thread instead)."""
    try:
        return pickle.dumps((agent, snapshot), protocol=pickle.HIGHEST_PROTOCOL)
    except UNPICKLABLE:
        log.info("agent %s cannot be pickled; it thinks in a thread", agent.name)
        return None


def _step_packed(packed: bytes) -> tuple[int, str, bytes | None] | str:
    """(In a bot process.) `_step` on the unpickled agent and state, with the agent as
    it is afterwards, pickled (None if it no longer can be: the server keeps its own
    copy); a failure comes back as its traceback's text, since not every exception
    survives pickling."""
    try:
        agent, snapshot = pickle.loads(packed)
        action, text = _step(agent, snapshot)
    except Exception:
        return traceback.format_exc()
    try:
        moved_on: bytes | None = pickle.dumps(agent, protocol=pickle.HIGHEST_PROTOCOL)
    except UNPICKLABLE:
        moved_on = None
    return action, text, moved_on


def _step(agent: Agent, snapshot: State) -> tuple[int, str]:
    """(In the bot pool.) The agent's move on a copy of the room's state, and its
    action string, checked legal there the way the room checks a move (so the hub
    need not check it again while the room is at that state)."""
    action = agent.step(snapshot)
    text = snapshot.action_to_string(action)
    if snapshot.string_to_action(text) != action or action not in snapshot.legal_actions():
        raise RoomError("illegal_action", Words(N_("the agent chose '{move}', which is not "
                                                   "legal"), move=text))
    return action, text


def _sooner(first: float, second: float | None) -> float:
    return first if second is None else min(first, max(0.0, second))


def _sooner_known(first: float | None, second: float | None) -> float | None:
    return second if first is None else _sooner(first, second)
