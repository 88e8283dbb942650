"""Every list of an observation fits the slots its layout gives it: nothing is dropped.

A list's capacity is declared in the game's view type where the rules bound it
(`Annotated[list[X], Capacity(n)]`, `pyramids.core.views.Capacity`), and the
encoder gives it exactly that many slots. Before, capacities came from watching
12 random games, and a Mahjongg random game ends early (a pass ends a solo game):
`sight_pairs` got one slot on giza-step-ramp, `last_move.pairs`, `settled` and
`layers_emptied` one each, and a real observation lost items silently. These tests
play random, greedy and long games (solo Mahjongg with undo) of every game and
variant and check every list of every seat's view against its capacity, and encode
positions built to hold many sight pairs, settled tiles and finish pairs.
"""

from __future__ import annotations

import random
import typing
from typing import Annotated, Any, TypedDict

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

import pyramids  # noqa: E402
from pyramids.agents import make_agent  # noqa: E402
from pyramids.core import game_manifest  # noqa: E402
from pyramids.core.views import (  # noqa: E402
    PER_SEAT,
    Capacity,
    ViewTypeError,
    check_view,
    declared_capacity,
)
from pyramids.rl.encoding import Layout, encoder_for  # noqa: E402

SMALL = "giza-step-ramp"


def _lists(value: Any, path: str = "") -> typing.Iterator[tuple[str, list[Any]]]:
    """(generic path, list) for every list in a view (`pyramids[i][i]`, `tokens`)."""
    if isinstance(value, list):
        yield path, value
        for item in value:
            yield from _lists(item, path + "[i]")
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _lists(item, f"{path}.{key}" if path else str(key))


def _slots(layout: Layout, path: str) -> int:
    for name in (path, path + "<list>"):  # a union's list alternative is `tokens<list>`
        try:
            return layout.slots(name).capacity
        except KeyError:
            continue
    raise AssertionError(f"the layout has no list {path!r}")


def _overflows(layout: Layout, state: Any) -> list[str]:
    seats = [None, *range(state.num_players)] if hasattr(state, "num_players") else [None]
    found = []
    for seat in seats:
        for path, items in _lists(state.view(seat)):
            if len(items) > _slots(layout, path):
                found.append(f"seat {seat}: {path} holds {len(items)}, "
                             f"capacity {_slots(layout, path)}")
    return found


def _play(game: Any, seed: int, choose: Any, max_steps: int) -> typing.Iterator[Any]:
    state = game.new_initial_state(seed)
    yield state
    for _ in range(max_steps):
        if state.is_terminal():
            return
        state.apply_action(choose(state))
        yield state


#: (game, options, random games, greedy games).
CASES = [
    ("pacal", {}, 6, 2),
    ("pacal-solo", {}, 60, 10),
    ("temple", {"players": 2}, 6, 2),
    ("temple", {"players": 5, "swap_size": 5}, 3, 1),
    ("mahjongg", {"layout": SMALL}, 25, 4),
    ("mahjongg", {"layout": SMALL, "players": 2}, 10, 3),
    ("mahjongg", {"layout": SMALL, "players": 4}, 4, 2),
    ("mahjongg", {"layout": SMALL, "players": 3, "mode": "coop"}, 6, 2),
    ("mahjongg", {"layout": SMALL, "mode": "time-attack", "clock": "turns"}, 10, 3),
    ("mahjongg", {"layout": "ramesseum"}, 6, 2),  # face-down tiles, Tile Reveal
    ("mahjongg", {"layout": "valley-of-the-queens"}, 6, 2),  # three capstones that settle
]


@pytest.mark.parametrize(("name", "options", "random_games", "greedy_games"), CASES)
def test_no_list_of_a_played_game_outgrows_its_capacity(
        name: str, options: dict[str, Any], random_games: int, greedy_games: int) -> None:
    game = pyramids.load(name, **options)
    layout = encoder_for(game).layout
    rng = random.Random(5)
    greedy = make_agent("greedy", seed=5)
    positions = 0
    for seed in range(random_games + greedy_games):
        if seed < random_games:
            def choose(state: Any) -> int:
                return rng.choice(state.legal_actions())
        else:
            def choose(state: Any) -> int:
                return int(greedy.step(state))
        for state in _play(game, 300 + seed, choose, 2_000):
            assert not _overflows(layout, state), (seed, _overflows(layout, state))
            positions += 1
    assert positions > 50 * (random_games + greedy_games) // 10


def _long_solo_move(state: Any, rng: random.Random) -> int:
    """Anything but a pass while there is anything else (a pass ends a solo game):
    matches, undo, Ra Sight, hints, finish; so games run long and revisit boards."""
    legal = state.legal_actions()
    named = {state.action_to_string(action): action for action in legal}
    others = [action for text, action in named.items() if text != "pass"]
    favours = [named[text] for text in ("undo", "sight", "hint", "finish") if text in named]
    if favours and rng.random() < 0.3:
        return rng.choice(favours)
    return rng.choice(others or legal)


@pytest.mark.parametrize("layout_name", [SMALL, "ramesseum"])
def test_long_solo_mahjongg_games_with_undo_fit_their_lists(layout_name: str) -> None:
    game = pyramids.load("mahjongg", layout=layout_name)
    layout = encoder_for(game).layout
    rng = random.Random(9)
    longest = 0
    sights = 0
    for seed in range(6):
        steps = 0
        for state in _play(game, 40 + seed, lambda s: _long_solo_move(s, rng), 400):
            assert not _overflows(layout, state), (seed, _overflows(layout, state))
            steps += 1
            sights += "sight_pairs" in state.view(0)
        longest = max(longest, steps)
    assert longest > 100 and sights > 2, (longest, sights)


def _read_pairs(vector: Any, layout: Layout, path: str) -> list[list[int]]:
    outer, inner = layout.slots(path), layout.slots(path + "[i]")
    pairs = []
    for slot in range(int(vector[outer.length])):
        base = slot * outer.size
        count = int(vector[base + inner.length])
        pairs.append([int(vector[base + inner.first + k]) for k in range(count)])
    return pairs


def test_a_board_with_many_sight_pairs_is_encoded_whole() -> None:
    """Ra Sight on the first board of a deal: every valid pair in the vector, in order."""
    game = pyramids.load("mahjongg", layout=SMALL)
    encoder = encoder_for(game)
    best = None
    for seed in range(40):
        state = game.new_initial_state(seed)
        state.apply_action(state.string_to_action("sight"))
        pairs = state.view(0).get("sight_pairs", [])
        if best is None or len(pairs) > len(best[1]):
            best = (state, pairs)
    assert best is not None
    state, pairs = best
    assert len(pairs) >= 6  # the probe's layout had room for one
    for vector in (encoder.encode(state, 0), encoder.encode_from_view(state, 0)):
        assert _read_pairs(vector, encoder.layout, "sight_pairs") == pairs


def _capstones_then_finish(state: Any, greedy: Any) -> int:
    """Finish where it is legal (every tile left free: it takes them all), else a match
    that takes a capstone (its zone settles while the tiles under it are still face
    down), else the greedy bot's move."""
    moves = {state.action_to_string(action): action for action in state.legal_actions()}
    if "finish" in moves:
        return moves["finish"]
    capstones = set(state.game.capstone_ids)
    for text, action in moves.items():
        if text.startswith("match ") and capstones & {int(tile) for tile in text.split()[1:]}:
            return action
    return int(greedy.step(state))


def test_settled_tiles_and_finish_pairs_are_encoded_whole() -> None:
    """A capstone's removal turns up the face-down tiles of its zone (eight at once on
    valley-of-the-queens), and a finish takes every pair left: long lists in
    `last_move`, each kept whole in the vector (the probe's layout had one slot)."""
    game = pyramids.load("mahjongg", layout="valley-of-the-queens")
    encoder = encoder_for(game)
    greedy = make_agent("greedy", seed=3)
    most_pairs = most_settled = 0
    for seed in range(8):
        for state in _play(game, seed, lambda s: _capstones_then_finish(s, greedy), 400):
            move = state.view(0)["last_move"] or {}
            vector = encoder.encode(state, 0)
            assert np.array_equal(vector, encoder.encode_from_view(state, 0))
            if "pairs" in move:
                most_pairs = max(most_pairs, len(move["pairs"]))
                assert _read_pairs(vector, encoder.layout, "last_move.pairs") == move["pairs"]
            if move.get("settled"):
                most_settled = max(most_settled, len(move["settled"]))
                slots = encoder.layout.slots("last_move.settled")
                assert vector[slots.length] == len(move["settled"])
                assert list(vector[slots.first:slots.first + len(move["settled"])]) \
                    == move["settled"]
    assert most_pairs >= 8 and most_settled >= 8, (most_pairs, most_settled)


def _declared(kind: Any) -> typing.Iterator[tuple[str, Any]]:
    """(where, list type) for every list type inside a view type, and whether declared."""
    origin = typing.get_origin(kind)
    if isinstance(kind, type) and issubclass(kind, dict) and hasattr(kind, "__total__"):
        for key, hint in typing.get_type_hints(kind, include_extras=True).items():
            for where, found in _declared(hint):
                yield f"{kind.__name__}.{key}{where}", found
        return
    if origin is Annotated:
        inner = typing.get_args(kind)[0]
        if typing.get_origin(inner) is list:
            yield "", kind
            for where, found in _declared(typing.get_args(inner)[0]):
                yield "[]" + where, found
            return
        yield from _declared(inner)
        return
    if origin is list:
        yield "", kind
    for arg in typing.get_args(kind):
        yield from _declared(arg)


@pytest.mark.parametrize("name", ["pacal", "pacal-solo", "temple", "mahjongg"])
def test_every_list_of_a_built_in_view_declares_its_capacity(name: str) -> None:
    undeclared = [where for where, kind in _declared(game_manifest(name).view_type)
                  if declared_capacity(kind) is None]
    assert not undeclared


def test_a_capacity_that_is_not_a_whole_number_is_refused() -> None:
    with pytest.raises(ValueError, match="whole number of 0 or more, not -1"):
        Capacity(-1).of(None)
    with pytest.raises(ValueError, match="not 'two'"):
        Capacity(lambda game: "two").of(None)  # type: ignore[arg-type, return-value]
    assert Capacity(lambda game: game.num_players).of(pyramids.load("temple", players=3)) == 3


class Scores(TypedDict):
    scores: Annotated[list[int], PER_SEAT]


def test_the_conformance_check_refuses_a_list_past_its_declared_capacity() -> None:
    """`check_view` with the game (what `pyramids.testing` runs at every checked step)
    names the list and both numbers; without a game it checks the shape only."""
    temple = pyramids.load("temple", players=2)
    check_view({"scores": [1, 2]}, Scores, temple)
    check_view({"scores": [1, 2, 3]}, Scores)
    with pytest.raises(ViewTypeError, match=r"view.scores holds 3 items, more than its "
                                            r"declared capacity 2"):
        check_view({"scores": [1, 2, 3]}, Scores, temple)


def test_temples_counts_by_kind_have_a_slot_for_every_kind() -> None:
    """A count of cards by kind is `dict[CardKind, int]`: every kind gets a feature,
    not only the kinds the probe's random games showed (its `out_of_game` had no `L9`
    nor `J`, so such a count would have been dropped)."""
    game = pyramids.load("temple", players=3)
    encoder = encoder_for(game, fast=False)
    where = {row["path"]: row["offset"] for row in encoder.describe()}
    kinds = typing.get_args(typing.get_type_hints(
        game_manifest("temple").view_type, include_extras=True)["discard"])[0]
    kinds = typing.get_args(kinds)
    assert kinds[-1] == "J" and len(kinds) == 10
    for kind in kinds:
        for prefix in ("discard", "out_of_game", "hand", "known[0]", "known[2]"):
            assert f"{prefix}[{kind}]" in where, (prefix, kind)
    state = game.new_initial_state(3)
    view = state.view(0)
    view = {**view, "out_of_game": {"L9": 2, "J": 1}}
    vector = encoder.encode_view(view)
    assert vector[where["out_of_game[L9]"]] == 2.0
    assert vector[where["out_of_game[J]"]] == 1.0
