"""Dict keys of the views are declared, not probed: `Outcome.figures` names the game's
`outcome_figures()`, so every figure has a slot in the observation vector even where
the probe's random games never finished, and the conformance checks refuse a figure
(or any dict key) that is not declared."""

from __future__ import annotations

import random
from typing import Annotated, Any, TypedDict

import pytest

pytest.importorskip("numpy")

import pyramids  # noqa: E402
from pyramids.core import State, game_manifest  # noqa: E402
from pyramids.core.views import (  # noqa: E402
    Keys,
    Outcome,
    ViewTypeError,
    check_outcome,
    check_view,
    make_outcome,
)
from pyramids.rl.encoding import Encoder, _Measure, encoder_for  # noqa: E402
from pyramids.testing import ConformanceError, check_variant  # noqa: E402

SMALL = "giza-step-ramp"
#: (game, options, the figures it declares, in order).
SETTINGS = [
    ("pacal", {"rounds_to_win": 1, "max_rounds": 2}, ("rounds",)),
    ("pacal-solo", {}, ("draws", "spread")),
    ("temple", {"players": 3}, ("built", "rounds")),
    ("mahjongg", {"layout": SMALL}, ("cleared", "tiles_left")),
    ("mahjongg", {"layout": SMALL, "players": 2, "mode": "coop"}, ("cleared", "tiles_left")),
    ("mahjongg", {"layout": SMALL, "mode": "time-attack", "clock": "turns"},
     ("cleared", "tiles_left", "time_left")),
]


def _finished(name: str, options: dict[str, Any], seed: int = 3) -> State:
    state = pyramids.load(name, **options).new_initial_state(seed)
    rng = random.Random(seed)
    for _ in range(20_000):
        if state.is_terminal():
            return state
        state.apply_action(rng.choice(state.legal_actions()))
    raise AssertionError(f"{name} {options}: no end in 20,000 random moves")


@pytest.mark.parametrize(("name", "options", "figures"), SETTINGS)
def test_every_declared_figure_has_a_slot_without_a_probe(name, options, figures) -> None:
    """An encoder built from a probe that saw nothing (no random game finished, as
    happens when games outlast the probe) still has one slot per declared figure, in
    the declared order, and a finished game's figures land in them."""
    game = pyramids.load(name, **options)
    assert game.outcome_figures() == figures
    view_type = game_manifest(name).view_type
    assert view_type is not None
    blind = Encoder(game, view_type, _Measure())
    where = {f.path: f.offset for f in blind.features}
    slots = [path for path in where if path.startswith("outcome.figures[")]
    assert slots == [f"outcome.figures[{key}]" for key in figures]
    state = _finished(name, options)
    outcome = state.outcome()
    assert outcome is not None and set(outcome["figures"]) <= set(figures)
    vector = blind.encode_from_view(state, 0)
    for key, value in outcome["figures"].items():
        assert vector[where[f"outcome.figures[{key}]"]] == pytest.approx(value)
    # The probed encoder (the one the environments use) has the same slots.
    probed = [f.path for f in encoder_for(game, fast=False).features
              if f.path.startswith("outcome.figures[")]
    assert probed == slots


def test_a_figure_the_game_does_not_declare_is_refused() -> None:
    game = pyramids.load("temple", players=2)
    good = make_outcome([0], [1.0, -1.0], "over", figures={"rounds": 3, "built": 2})
    check_outcome(good, 2, game)
    bad = make_outcome([0], [1.0, -1.0], "over", figures={"rounds": 3, "turns": 40})
    check_outcome(bad, 2)  # without the game: the shape only
    with pytest.raises(ViewTypeError, match=r"outcome.figures has undeclared keys turns; "
                                            r"declared: built, rounds"):
        check_outcome(bad, 2, game)


class Counts(TypedDict):
    counts: dict[str, int]


class Named(TypedDict):
    counts: Annotated[dict[str, int], Keys(("a", "b"))]
    outcome: Outcome | None


def test_a_dict_with_undeclared_keys_is_refused_with_the_game() -> None:
    """A `dict[str, X]` declares no keys: with the game (the conformance check) a
    non-empty one is refused, since an encoding has no fixed slot for its keys;
    declared `Keys` are checked one by one."""
    game = pyramids.load("temple", players=2)
    check_view({"counts": {"x": 1}}, Counts)
    check_view({"counts": {}}, Counts, game)
    with pytest.raises(ViewTypeError, match=r"view.counts: the keys of a dict\[str, ...\] "
                                            r"are not declared"):
        check_view({"counts": {"x": 1}}, Counts, game)
    check_view({"counts": {"b": 1}, "outcome": None}, Named, game)
    with pytest.raises(ViewTypeError, match="view.counts has undeclared keys c; declared: a, b"):
        check_view({"counts": {"a": 1, "c": 2}, "outcome": None}, Named, game)
    with pytest.raises(ViewTypeError, match="view.counts.'a'. is 'one'"):
        check_view({"counts": {"a": "one"}, "outcome": None}, Named, game)


def test_declared_keys_must_be_distinct_strings() -> None:
    with pytest.raises(ValueError, match="distinct strings"):
        Keys(("a", "a")).of(None)
    assert Keys(lambda game: ["x", "y"]).of(None) == ("x", "y")


def test_the_conformance_suite_refuses_a_game_whose_figures_are_undeclared(
        monkeypatch) -> None:
    """A game that gives a figure its `outcome_figures()` does not name fails
    `pyramids.testing.check_variant`, naming the figure."""
    game = pyramids.load("pacal-solo")
    monkeypatch.setattr(type(game), "outcome_figures", lambda self: ("draws",))
    with pytest.raises(ConformanceError, match="undeclared keys spread"):
        check_variant(game, games=2, checked=2)
