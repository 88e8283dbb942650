"""Solo Pacal: drawing, placing, winning and losing."""

from __future__ import annotations

import pytest

from pyramids.core import TERMINAL, IllegalActionError, Rng, load
from pyramids.games.pacal import PacalSoloGame, PacalSoloState

from .helpers import descending, fields, saved


def solo(spec: dict[int, list[int]], card: int, pile: list[int] | None = None) -> PacalSoloState:
    return PacalSoloState.from_position(PacalSoloGame(), fields(spec), card, pile)


def test_a_new_game_has_drawn_its_first_card() -> None:
    state = PacalSoloGame().new_initial_state(3)
    view = state.view(0)
    assert view["draws"] == 1 and view["pile_size"] == 39
    assert view["phase"] == "place" and view["result"] == "playing"
    assert view["legal_fields"] == list(range(1, 11))
    assert state.legal_actions() == list(range(10))
    assert isinstance(view["card"], int)
    body = saved(state)
    assert view["card"] not in body["bases"] + body["pile"]


def test_filling_the_tenth_field_wins_with_the_draw_count() -> None:
    state = solo(descending(45, 9), 20)
    assert state.view(0)["draws"] == 10
    assert state.legal_actions() == [8, 9]  # cover F9 (37) or fill F10
    state.apply_string("place F10")
    assert state.is_terminal() and state.current_player == TERMINAL
    assert state.returns() == [1.0]
    view = state.view(0)
    assert view["won"] and view["result"] == "won" and view["score"] == 10
    assert state.legal_actions() == []


def test_covering_costs_a_draw() -> None:
    state = solo(descending(45, 9), 20, pile=[10, 30])
    state.apply_string("place F9")  # cover 37 with 20
    view = state.view(0)
    assert view["card"] == 10 and view["draws"] == 11 and view["pyramid"][8] == [37, 20]
    state.apply_string("place F10")
    assert state.view(0)["score"] == 11


def test_a_drawn_card_with_no_field_loses() -> None:
    state = solo({1: [40, 48]}, 10, pile=[49, 1])
    assert state.view(0)["draws"] == 3
    state.apply_string("place F2")
    assert state.is_terminal() and state.returns() == [-1.0]
    view = state.view(0)
    assert view["result"] == "lost" and view["card"] == 49 and view["draws"] == 4
    assert view["score"] is None and view["legal_fields"] == []
    with pytest.raises(IllegalActionError, match="over"):
        state.apply_action(0)


def test_illegal_placement_says_why_and_changes_nothing() -> None:
    state = solo({1: [40], 4: [30], 8: [10]}, 35)
    before = state.to_json()
    message = "card 35 cannot go on F8: it needs a value below 30"
    with pytest.raises(IllegalActionError, match=message):
        state.apply_action(7)
    with pytest.raises(IllegalActionError):
        state.apply_action(10)
    assert state.to_json() == before
    assert state.legal_actions() == [0, 1, 2, 3]


def test_resample_keeps_the_view_and_redeals_the_pile() -> None:
    state = PacalSoloGame().new_initial_state(11)
    state.apply_action(state.legal_actions()[0])
    piles = set()
    for index in range(10):
        sampled = state.resample_hidden(0, Rng(index))
        assert sampled.view(0) == state.view(0)
        body = saved(sampled)
        piles.add(tuple(body["pile"]))
        assert sorted(body["pile"] + body["bases"]) == sorted(
            saved(state)["pile"] + saved(state)["bases"]
        )
    assert len(piles) == 10


def test_solo_options() -> None:
    assert load("pacal-solo", direction="ascending").new_initial_state(1).view(0)["layout"][9] == [
        3,
        0,
    ]
    with pytest.raises(Exception, match="unknown option"):
        load("pacal-solo", rounds_to_win=3)
