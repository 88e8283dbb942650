"""OpenSpiel's ISMCTSBot on the pyramids games (`pyramids.openspiel.ismcts_bot`).

OpenSpiel's C++ `pyspiel.ISMCTSBot` killed the process on every pyramids game (it
calls back into Python without the lock, and its bridge passes no
ResampleFromInfostate on); `ismcts_bot` is OpenSpiel's Python ISMCTSBot with the
adapter's resampling, every random choice from one seed.
"""

from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel")

import pyramids.openspiel  # noqa: E402,F401  (registers the games)
from pyramids.core import OptionError  # noqa: E402
from pyramids.openspiel import PyramidsSpielState, ismcts_bot  # noqa: E402

GAMES = [
    ("pyramids_pacal", {"rounds_to_win": 1}),
    ("pyramids_temple", {"players": 3}),
    # Five face-down tiles: their faces are what a seat cannot see.
    ("pyramids_mahjongg", {"layout": "ramesseum", "players": 2}),
]


def play(name: str, options: dict, seed: int, deal: int = 4) -> tuple[list[int], list[float]]:
    """A whole game, every seat an ISMCTS bot made with `seed`; its moves and returns."""
    game = pyspiel.load_game(name, options)
    bots = [ismcts_bot(game, seed=seed + seat, simulations=6)
            for seat in range(game.num_players())]
    state = game.new_initial_state()
    state.apply_action(deal)
    moves = []
    while not state.is_terminal():
        action = int(bots[state.current_player()].step(state))
        assert action in state.legal_actions()
        moves.append(action)
        state.apply_action(action)
    return moves, state.returns()


@pytest.mark.parametrize(("name", "options"), GAMES, ids=lambda v: v if isinstance(v, str) else "")
def test_ismcts_plays_a_whole_game_and_each_world_keeps_what_the_seat_sees(
    name: str, options: dict, monkeypatch: pytest.MonkeyPatch
) -> None:
    worlds: list[tuple[PyramidsSpielState, int, PyramidsSpielState]] = []
    resample = PyramidsSpielState.resample_from_infostate

    def recorded(self, player_id, sampler):
        world = resample(self, player_id, sampler)
        worlds.append((self.clone(), int(player_id), world.clone()))
        return world

    monkeypatch.setattr(PyramidsSpielState, "resample_from_infostate", recorded)
    moves, returns = play(name, options, seed=1)
    assert moves and len(returns) == len(options.get("players", 2) * [0])
    assert worlds, "the bot searched no redrawn world"
    redrawn = 0
    for real, seat, world in worlds[::5]:
        assert world.current_player() == real.current_player() == seat
        assert world.view(seat) == real.view(seat)
        assert world.observation_string(seat) == real.observation_string(seat)
        assert world.information_state_string(seat) == real.information_state_string(seat)
        assert world.legal_actions() == real.legal_actions()
        redrawn += str(world) != str(real)
    # What the seat cannot see (other hands, the pile, face-down faces) is redrawn.
    assert redrawn > 0


# Temple at two seats here: a shorter game, the same search.
TWO_SEATS = [(name, {**options, "players": 2}) if name == "pyramids_temple" else (name, options)
             for name, options in GAMES]


@pytest.mark.parametrize(("name", "options"), TWO_SEATS,
                         ids=lambda v: v if isinstance(v, str) else "")
def test_the_same_seed_plays_the_same_game(name: str, options: dict) -> None:
    first = play(name, options, seed=7)
    assert play(name, options, seed=7) == first


def test_another_seed_searches_other_worlds() -> None:
    assert any(play(name, options, seed=7) != play(name, options, seed=8)
               for name, options in TWO_SEATS)


@pytest.mark.parametrize(("settings", "english"), [
    ({"simulations": 0}, "ismcts: simulations must be at least 1, got 0"),
    ({"rollouts": "many"}, "ismcts: rollouts must be a whole number of at least 1, got 'many'"),
    ({"uct_c": -2}, "ismcts: uct_c must be a number of at least 0, got -2"),
    ({"max_world_samples": 0}, "ismcts: max_world_samples must be at least 1, got 0"),
    ({"seed": -1}, "ismcts: seed must be at least 0, got -1"),
    ({"final_policy": "best"}, "ismcts: final_policy='best' is not valid; allowed: "
                               "max-visit-count, normalized-visit-count, max-value"),
])
def test_a_bad_setting_says_what_is_allowed(settings: dict, english: str) -> None:
    game = pyspiel.load_game("pyramids_pacal")
    with pytest.raises(OptionError) as caught:
        ismcts_bot(game, **settings)
    assert str(caught.value) == english


def test_a_game_that_is_not_a_pyramids_game_is_refused_when_the_bot_is_made() -> None:
    with pytest.raises(OptionError) as caught:
        ismcts_bot(pyspiel.load_game("kuhn_poker"))
    assert str(caught.value) == (
        "ismcts: it searches the pyramids games loaded through OpenSpiel "
        "(pyspiel.load_game('pyramids_<game>') after importing pyramids.openspiel), not "
        "'kuhn_poker'; use OpenSpiel's own ISMCTSBot for other games")


def test_every_final_policy_and_a_fixed_number_of_worlds_play_legal_moves() -> None:
    game = pyspiel.load_game("pyramids_temple", {"players": 2})
    state = game.new_initial_state()
    state.apply_action(2)
    for policy in ("max-visit-count", "normalized-visit-count", "max-value"):
        bot = ismcts_bot(game, seed=3, simulations=8, max_world_samples=2,
                         final_policy=policy)
        assert int(bot.step(state)) in state.legal_actions()
