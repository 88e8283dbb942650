"""The `determinized` Mahjongg agent (the hidden-face `expert`): it reads no hidden
face, plays legal moves, replays from its seed, and finds a forced pair."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest

from pyramids.agents import make_agent
from pyramids.agents.determinized import DeterminizedAgent, unseen_faces
from pyramids.agents.levels import level_setting
from pyramids.games.mahjongg import blueprints
from pyramids.games.mahjongg.game import MahjonggGame
from pyramids.games.mahjongg.layout import Layout, reading_order
from pyramids.games.mahjongg.state import MahjonggState
from pyramids.games.mahjongg.tiles import match_class, tile_set


def hidden_game(name: str) -> MahjonggGame:
    """A blueprint with every tile that has a tile on it face down."""
    layout = blueprints.load_layout(name)
    geometry = layout.geometry
    covered = frozenset(t for t in range(layout.size)
                        if not geometry.is_uncovered(t, geometry.all_mask))
    hidden = dataclasses.replace(layout, name=f"{name}-hidden", face_down=covered)
    return MahjonggGame(layout_object=hidden, layout=f"{name}-hidden")


def swapped_hidden(state: MahjonggState, seed: int) -> MahjonggState:
    """The same position with the face-down tiles' faces dealt otherwise."""
    twin = state.clone()
    hidden = [t for t in range(len(twin.faces)) if twin.face_down >> t & 1 and
              twin.present >> t & 1]
    faces = [twin.faces[t] for t in hidden]
    faces = faces[seed % len(faces):] + faces[:seed % len(faces)]  # a rotation
    for tile, face in zip(hidden, faces, strict=True):
        twin.faces[tile] = face
    twin._reset_caches()
    return twin


def play_some(state: MahjonggState, moves: int, seed: int) -> None:
    agent = make_agent("greedy", seed=seed)
    for _ in range(moves):
        state.apply_action(agent.step(state))


def test_expert_is_the_determinized_agent() -> None:
    assert level_setting("mahjongg", "expert").startswith("determinized")


@pytest.mark.parametrize("moves", [0, 12, 30])
def test_hidden_faces_do_not_change_the_move(moves: int) -> None:
    game = hidden_game("turtle")
    state = game.new_initial_state(7)
    play_some(state, moves, seed=7)
    assert state.face_down & state.present
    twin = swapped_hidden(state, seed=5)
    assert twin.faces != state.faces
    assert twin.view(0) == state.view(0)
    assert unseen_faces(twin) == unseen_faces(state)
    first, second = DeterminizedAgent(seed=3, samples=4), DeterminizedAgent(seed=3, samples=4)
    assert first.pair_scores(state) == second.pair_scores(twin)
    assert first.step(state) == second.step(twin)


def test_unseen_faces_are_the_hidden_ones() -> None:
    game = hidden_game("pharaohs-tomb")
    state = game.new_initial_state(2)
    play_some(state, 20, seed=2)
    hidden = [t for t in range(len(state.faces))
              if state.face_down >> t & 1 and state.present >> t & 1]
    assert unseen_faces(state) == sorted(state.faces[t] for t in hidden)


@pytest.mark.parametrize("fill", ["none", "built"])
def test_plays_legal_moves_and_replays_from_its_seed(fill: str) -> None:
    game = hidden_game("giza-step-ramp")
    histories = []
    for _ in range(2):
        state = game.new_initial_state(11)
        agent = make_agent("determinized", seed=5, samples=4, fill=fill)
        while not state.is_terminal():
            action = agent.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
        histories.append(state.history())
    assert histories[0] == histories[1]


# A forced pair. Six tiles on the board, two of them face down:
#
#   x:        0      4      8     12
#   layer 1:  B1     A3
#   layer 0:  [A4]   [B2]   A1    A2      ([ ] face down)
#
# A1, A2, A3 and the hidden A4 are one kind; B1 and the hidden B2 another. Taking
# A1 with A2 leaves A3 lying on B2 and B1 lying on A4: each one's partner under the
# other, lost. Any pair with A3 uncovers B2 (for B1), then A4 (for the last A): won.
# The player cannot tell the two hidden faces apart: they may be the other way round
# (A4 a B, B2 an A), and then B1 lies on its own partner and every pair loses. So
# whatever lies below, A1 with A2 never clears, a pair with A3 clears on every
# sample with A4 an A (about half of them). The layout's other 56 tiles lie
# free apart from these and are cleared first, so the deal holds the full set of a
# 62-tile layout (the only faces the agent may assume).
GADGET = {"A4": (0, 0, 0), "B1": (0, 0, 1), "B2": (4, 0, 0), "A3": (4, 0, 1),
          "A1": (8, 0, 0), "A2": (12, 0, 0)}
SIZE = 62


def forced_position(swap: bool) -> tuple[MahjonggState, dict[str, int]]:
    extras = [(4 * i, 8 + 4 * j, 0) for j in range(4) for i in range(14)]
    positions = sorted([*GADGET.values(), *extras], key=reading_order)
    layout = Layout("forced", tuple(positions),
                    face_down=frozenset({positions.index(GADGET["A4"]),
                                         positions.index(GADGET["B2"])}))
    game = MahjonggGame(layout_object=layout, layout="forced")
    by_class: dict[int, list[int]] = {}
    for face in tile_set(SIZE):
        by_class.setdefault(match_class(face), []).append(face)
    a_kind = next(k for k, faces in by_class.items() if len(faces) == 4)
    b_kind = next(k for k, faces in by_class.items() if len(faces) == 2)
    a_faces, b_faces = list(by_class.pop(a_kind)), list(by_class.pop(b_kind))
    named = {"A1": a_faces[0], "A2": a_faces[1], "A3": a_faces[2], "A4": a_faces[3],
             "B1": b_faces[0], "B2": b_faces[1]}
    if swap:
        named["A4"], named["B2"] = named["B2"], named["A4"]
    rest = [face for faces in by_class.values() for face in faces]
    faces = [0] * SIZE
    for name, position in GADGET.items():
        faces[positions.index(position)] = named[name]
    extra_ids = [positions.index(p) for p in extras]
    for tile, face in zip(extra_ids, rest, strict=True):
        faces[tile] = face
    assert Counter(faces) == Counter(tile_set(SIZE))
    state = game.state_with_faces(faces, seed=1)
    # Clear the 56 free tiles, a pair at a time (consecutive ones share a kind).
    for first, second in zip(extra_ids[::2], extra_ids[1::2], strict=True):
        state.apply_action(state.string_to_action(f"match {first} {second}"))
    ids = {name: positions.index(position) for name, position in GADGET.items()}
    return state, ids


@pytest.mark.parametrize("swap", [False, True])
def test_the_forced_pair_is_found(swap: bool) -> None:
    state, ids = forced_position(swap)
    assert len(state.view(0)["tiles"]) == 6
    names = {state.action_to_string(a): a for a in state.legal_actions()}
    wrong = names[f"match {ids['A1']} {ids['A2']}"]
    right = {names[f"match {min(ids['A3'], ids[x])} {max(ids['A3'], ids[x])}"]
             for x in ("A1", "A2")}
    agent = DeterminizedAgent(seed=0, samples=8)
    scores = agent.pair_scores(state)
    assert scores[wrong] < 0.5  # cleared on no sample
    assert all(scores[a] >= 1.0 for a in right)  # cleared on those with A4 an A
    assert DeterminizedAgent(seed=0, samples=8).step(state) in right
    twin, _ = forced_position(not swap)  # the same view, the hidden faces swapped
    assert DeterminizedAgent(seed=0, samples=8).pair_scores(twin) == scores


def test_rejects_a_sample_count_below_one() -> None:
    with pytest.raises(ValueError, match="samples"):
        DeterminizedAgent(samples=0)
