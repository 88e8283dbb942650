"""Bots that think in the server's worker processes (`create_app(bot_processes=N)`).

A searching bot's move is made in another process, so it neither blocks other rooms
nor holds the server's interpreter lock; the agent travels there with the state and
comes back with its memory moved on, so a room plays exactly as it would with the
bot thinking in a thread. An agent that cannot be pickled thinks in a thread, and a
worker that dies is replaced.
"""

from __future__ import annotations

import itertools
import os
import pickle
import signal
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pyramids.agents import Agent
from pyramids.core import State
from pyramids.web import bots
from pyramids.web.hub import Hub, LiveRoom
from tests.web.conftest import TIMEOUT, Client, ServerThread
from tests.web.toy import NAME, ToyGame, WanderingAgent

Seen = list[tuple[int, list[int]]]


def watch_thinking(monkeypatch: pytest.MonkeyPatch) -> Seen:
    """After each bot move: the seat and the processes its agent has thought in so far."""
    seen: Seen = []
    think = bots._think

    async def watching(hub: Hub, live: LiveRoom, seat: int, agent: Agent,
                       snapshot: State) -> tuple[int, str]:
        result = await think(hub, live, seat, agent, snapshot)
        seen.append((seat, list(live.agents[seat].processes)))  # type: ignore[attr-defined]
        return result

    monkeypatch.setattr(bots, "_think", watching)
    return seen


def bots_only_game(server: ServerThread, agent: str) -> list[str]:
    """A toy room with `agent` in both seats, watched until it ends: its actions."""
    response = server.http.post("/api/rooms", json={"game": NAME})
    assert response.status_code == 201, response.text
    room_id, host = response.json()["room"]["id"], response.json()["host_token"]
    for seat in (0, 1):
        response = server.http.post(f"/api/rooms/{room_id}/agents",
                                    json={"token": host, "seat": seat, "agent": agent})
        assert response.status_code == 200, response.text
    watcher = Client(server.ws_base, room_id)
    try:
        response = server.http.post(f"/api/rooms/{room_id}/start", json={"token": host})
        assert response.status_code == 200, response.text
        # A dead worker costs the bot one back-off before the new pool takes over.
        watcher.until(lambda m: m.get("type") == "state" and m["status"] == "finished",
                      timeout=TIMEOUT + bots.FAILURE_BACKOFF_SECONDS)
    finally:
        watcher.close()
    record = server.http.get(f"/api/rooms/{room_id}/record").json()
    actions: list[str] = record["actions"]
    return actions


def fixed_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    seeds = itertools.count(11)
    monkeypatch.setattr(bots, "agent_seed", lambda: next(seeds))


def test_a_bot_in_a_worker_process_plays_as_it_would_in_a_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    start_server: Callable[..., ServerThread],
) -> None:
    played: dict[int, list[str]] = {}
    thinking: dict[int, Seen] = {}
    for processes in (0, 1):
        with monkeypatch.context() as patch:
            fixed_seeds(patch)
            thinking[processes] = watch_thinking(patch)
            server = start_server(f"sqlite:///{tmp_path / f'rooms{processes}.db'}",
                                  seeds=itertools.count(500), bot_processes=processes)
            played[processes] = bots_only_game(server, "wandering")
    # The same seeds, the same moves: the agent came back from each move with its
    # generator moved on (a copy that forgot would draw its first card again).
    assert played[1] == played[0]
    assert len(played[1]) == 4
    here = os.getpid()
    for _seat, processes in thinking[0]:
        assert set(processes) == {here}
    moves_by_seat = {0: 0, 1: 0}
    for seat, processes in thinking[1]:
        moves_by_seat[seat] += 1
        # Every move so far is remembered, each made outside the server's process.
        assert len(processes) == moves_by_seat[seat]
        assert here not in processes
    assert moves_by_seat == {0: 2, 1: 2}


@pytest.fixture
def one_bot_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    start_server: Callable[..., ServerThread],
) -> tuple[ServerThread, Seen]:
    """A server with one bot process, and what its bots thought where."""
    fixed_seeds(monkeypatch)
    seen = watch_thinking(monkeypatch)
    return start_server(f"sqlite:///{tmp_path / 'rooms.db'}", bot_processes=1), seen


@pytest.mark.parametrize("agent", ["locked", "quick-wandering"])
def test_agents_that_cannot_or_need_not_travel_think_in_a_thread(
    one_bot_process: tuple[ServerThread, Seen], agent: str,
) -> None:
    """An agent that cannot be pickled, and a quick one (greedy in a game whose engine
    is not quick, such as Mahjongg): their moves are made in this process."""
    server, seen = one_bot_process
    assert len(bots_only_game(server, agent)) == 4
    assert {pid for _seat, processes in seen for pid in processes} == {os.getpid()}


def test_a_dead_worker_is_replaced(one_bot_process: tuple[ServerThread, Seen]) -> None:
    server, seen = one_bot_process
    bots_only_game(server, "wandering")
    first = {pid for _seat, processes in seen for pid in processes}
    assert len(first) == 1
    os.kill(first.pop(), signal.SIGKILL)
    seen.clear()
    assert len(bots_only_game(server, "wandering")) == 4
    second = {pid for _seat, processes in seen for pid in processes[-1:]}
    assert len(second) == 1 and os.getpid() not in second


class FailingAgent(WanderingAgent):
    def step(self, state: State) -> int:
        raise ValueError("no idea")


class LockingAgent(WanderingAgent):
    def step(self, state: State) -> int:
        self.lock = threading.Lock()
        return super().step(state)


def test_a_failure_in_a_worker_comes_back_as_text() -> None:
    state = ToyGame().new_initial_state(seed=3)
    outcome: Any = bots._step_packed(pickle.dumps((FailingAgent(), state)))
    assert isinstance(outcome, str) and "ValueError: no idea" in outcome
    action, text, moved_on = bots._step_packed(pickle.dumps((WanderingAgent(5), state)))
    assert action in state.legal_actions() and text == state.action_to_string(action)
    assert pickle.loads(moved_on).processes == [os.getpid()]
    # An agent that can no longer be pickled after its move: the move still comes back.
    action, text, moved_on = bots._step_packed(pickle.dumps((LockingAgent(5), state)))
    assert action in state.legal_actions() and moved_on is None
    assert bots._pack(WanderingAgent(), state) is not None
