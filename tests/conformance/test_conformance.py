"""The conformance suite: every registered game and option variant obeys the API.

It runs `pyramids.testing.check_game`'s checks (the same function a plugin's
author runs) on each variant a manifest lists; a game joins by registering,
with no test code added here. `PYRAMIDS_CONFORMANCE_GAMES` (default 1000) sets
the number of random games a variant plays: every one must end, with legal
actions never empty before. The first `PYRAMIDS_CONFORMANCE_CHECKED` (default
200) are checked at every step.
"""

from __future__ import annotations

import json
import os

import pytest

from pyramids.core import GameManifest, game_manifest, game_names, load, registry
from pyramids.testing import ConformanceError, check_game, check_variant
from tests.toy_games import DrawGame, NimGame

GAMES = int(os.environ.get("PYRAMIDS_CONFORMANCE_GAMES", "1000"))
CHECKED_GAMES = int(os.environ.get("PYRAMIDS_CONFORMANCE_CHECKED", "200"))

VARIANTS = [
    pytest.param(name, options, id=f"{name}-{json.dumps(options, sort_keys=True)}")
    for name in game_names()
    for options in game_manifest(name).variants
]


@pytest.mark.parametrize(("name", "options"), VARIANTS)
def test_random_games_obey_the_api(name: str, options: dict) -> None:
    report = check_variant(load(name, **options), games=GAMES, checked=CHECKED_GAMES)
    assert report.games == GAMES
    assert report.checked_steps > 0


def test_one_player_games_reach_late_positions() -> None:
    # A uniformly random Mahjongg player passes after a few moves; steered by the
    # greedy policy, the checks see boards with most pairs taken.
    game = load("mahjongg", layout="giza-step-ramp")
    steered = check_variant(game, games=10, checked=2)
    unsteered = check_variant(game, games=10, checked=2, steer=0.0)
    assert steered.mean_length > 2 * unsteered.mean_length
    assert steered.mean_length >= 20


def test_check_game_runs_on_the_toy_games() -> None:
    for game in (NimGame(), DrawGame(), DrawGame(players=1)):
        report = check_game(game, games=30, checked=10)
        assert report.variants[0].games == 30


class ForgetfulNim(NimGame):
    """Nim whose saved state forgets whose turn it is: check_game must notice."""

    name = "toy-forgetful"

    def _state_from_dict(self, data: dict):
        return super()._state_from_dict({**data, "player": 0})


def test_check_game_names_the_broken_contract_and_the_deal() -> None:
    with pytest.raises(ConformanceError, match=r"toy-forgetful .* deal 0: to_json did not"):
        check_game(ForgetfulNim(), games=5, checked=5)


def test_check_game_takes_a_registered_manifest(monkeypatch: pytest.MonkeyPatch) -> None:
    manifest = GameManifest(name="toy-nim", factory=NimGame, summary="Nim",
                            variants=({}, {"stones": 3}))
    monkeypatch.setitem(registry._REGISTRY, manifest.name, manifest)
    report = check_game("toy-nim", games=5, checked=5)
    assert [v.options for v in report.variants] == [{"stones": 7}, {"stones": 3}]


class TeamNim(NimGame):
    """Nim that says every seat gets the same result (it gives +1 and -1)."""

    name = "toy-team-nim"

    def returns_kind(self) -> str:
        return "identical"


class ZeroSumNim(NimGame):
    name = "toy-zero-sum-nim"

    def returns_kind(self) -> str:
        return "zero-sum"


def test_check_game_holds_every_end_to_the_declared_returns_kind() -> None:
    """OpenSpiel gives `returns_kind()` as the utility type, which algorithms rely on."""
    check_game(ZeroSumNim(), games=10, checked=10)
    with pytest.raises(ConformanceError, match=r"returns \[.*\] differ between seats, but "
                                               r"returns_kind\(\) says identical"):
        check_game(TeamNim(), games=5, checked=5)
