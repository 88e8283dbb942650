"""Secrets over the wire for the real games: each client gets exactly its own view.

Every registered game with two or more seats is played over WebSockets, every
seat a person driven by the test with random legal moves, plus a spectator. The
test fixes the seeds its server draws (clients cannot choose one) and keeps its
own copy of the game, so each message can be judged by the state at its move number: its view
must be exactly `view(seat)` (`view(None)` for the spectator), legal actions go
only to the seat to move, and everything else is the same for every audience.
For Pacal it also searches every message's cards for the opponent's hand.
"""

from __future__ import annotations

import itertools
import json
import random
import re
from collections.abc import Callable
from typing import Any

import pytest

from pyramids.core import State, game_entry, game_names, load
from tests.web.conftest import Client, ServerThread
from tests.web.test_server import create_room, start, take_seat
from tests.web.toy import NAME as TOY

MAX_MOVES = 250
SEAT_ONLY = ("seat", "your_turn", "view", "legal_actions")

MULTIPLAYER = [
    pytest.param(name, variant, id=f"{name}-{json.dumps(variant, sort_keys=True)}")
    for name in game_names()
    if name != TOY
    for variant in game_entry(name).variants[:1]
    if load(name, **variant).num_players >= 2
]


def play_over_the_wire(
    server: ServerThread, clients: list[Client], game: str, options: dict[str, Any], seed: int
) -> tuple[list[State], dict[int | None, list[dict[str, Any]]]]:
    """Play up to MAX_MOVES random moves; the states by move number and each audience's
    state messages."""
    room_id, host = create_room(server, game, options=options)
    players = load(game, **options).num_players
    seats = [Client(server.ws_base, room_id, take_seat(server, room_id, f"P{i}"))
             for i in range(players)]
    spectator = Client(server.ws_base, room_id)
    clients.extend([*seats, spectator])
    start(server, room_id, host)

    replica = load(game, **options).new_initial_state(seed)
    states = [replica.clone()]
    choose = random.Random(seed)
    while not replica.is_terminal() and len(states) <= MAX_MOVES:
        moves = len(states) - 1
        mover = replica.current_player
        message = seats[mover].state_at_least(moves)
        assert message["your_turn"]
        action = choose.choice(message["legal_actions"])
        seats[mover].send({"type": "action", "action": action, "move_number": moves})
        replica.apply_action(replica.string_to_action(action))
        states.append(replica.clone())
        for client in [*seats, spectator]:
            assert client.state_at_least(moves + 1)["last_move"]["action"] == action

    audiences: dict[int | None, list[dict[str, Any]]] = {}
    for seat, client in [*enumerate(seats), (None, spectator)]:
        audiences[seat] = [
            json.loads(text) for text in client.received
            if json.loads(text)["type"] == "state" and json.loads(text)["status"] != "waiting"
        ]
    return states, audiences


@pytest.fixture
def seeded(
    db_url: str, start_server: Callable[..., ServerThread]
) -> Callable[[int], ServerThread]:
    """A server whose secret seeds are all `seed`, so that the test can follow the game."""
    return lambda seed: start_server(db_url, seeds=itertools.repeat(seed))


@pytest.mark.parametrize(("game", "options"), MULTIPLAYER)
def test_each_client_gets_only_its_own_view(
    seeded: Callable[[int], ServerThread], clients: list[Client], game: str,
    options: dict[str, Any],
) -> None:
    states, audiences = play_over_the_wire(seeded(11), clients, game, options, seed=11)
    public: dict[int, dict[str, Any]] = {}
    for seat, messages in audiences.items():
        assert messages
        for message in messages:
            state = states[message["move_number"]]
            assert message["seat"] == seat
            assert message["view"] == json.loads(json.dumps(state.view(seat)))
            if message["your_turn"]:
                assert seat == state.current_player
                assert message["legal_actions"] == state.legal_action_strings()
            else:
                assert message["legal_actions"] == []
            rest = {k: v for k, v in message.items() if k not in SEAT_ONLY}
            rest["seats"] = [{**s, "connected": None} for s in rest["seats"]]
            # The same move number tells every audience the same public facts.
            assert public.setdefault(message["move_number"], rest) == rest


CARD_FIELDS = ("hand", "offer", "picked", "to_place", "card_to_place", "pyramids",
               "revealed_apex_bases")


def cards_in(message: dict[str, Any]) -> set[int]:
    """Every Pacal card value a message shows: card fields of its view and action strings."""
    found: set[int] = set()

    def walk(value: Any) -> None:
        if isinstance(value, bool):
            return
        if isinstance(value, int):
            found.add(value)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for field in CARD_FIELDS:
        walk(message["view"].get(field))
    texts = list(message["legal_actions"])
    if message["last_move"]:
        texts.append(message["last_move"]["action"])
    for text in texts:
        if text.startswith(("offer", "pick")):
            found |= {int(number) for number in re.findall(r"\d+", text)}
    return found


@pytest.mark.skipif("pacal" not in game_names(), reason="pacal is not registered")
def test_pacal_never_sends_the_opponents_hand(
    seeded: Callable[[int], ServerThread], clients: list[Client]
) -> None:
    states, audiences = play_over_the_wire(seeded(5), clients, "pacal", {}, seed=5)
    assert len(states) > 20
    checked = 0
    for seat, messages in audiences.items():
        for message in messages:
            state = states[message["move_number"]]
            others = [p for p in range(2) if p != seat]
            hidden = set().union(*(state.view(p)["hand"] for p in others))
            own = set(state.view(seat)["hand"]) if seat is not None else set()
            shown = cards_in(message)
            assert not shown & hidden, f"seat {seat} was sent {shown & hidden}"
            assert own <= shown  # the search does see cards where they are
            checked += bool(hidden)
    assert checked > 20
