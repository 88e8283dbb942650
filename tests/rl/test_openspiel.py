"""OpenSpiel: every game registered with pyspiel passes OpenSpiel's own random_sim_test."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra (open_spiel) is absent")
pytest.importorskip("gymnasium")

import pyramids  # noqa: E402
import pyramids.openspiel as po  # noqa: E402
from pyramids.core import game_names  # noqa: E402

SMALL = "giza-step-ramp"
CASES = [
    ("pacal", {"rounds_to_win": 1, "max_rounds": 2}),
    ("pacal-solo", {}),
    ("temple", {"players": 2, "max_rounds": 12}),
    ("mahjongg", {"layout": SMALL}),
    ("mahjongg", {"layout": SMALL, "players": 2}),
]


def test_every_registered_game_is_loadable_by_its_openspiel_name() -> None:
    assert {"pacal", "pacal-solo", "temple", "mahjongg"} <= set(po.SPIEL_NAMES)
    # A game registered after the import (a plugin loaded later, another test's toy
    # game) is registered with pyspiel on the next call.
    assert set(po.register_games()) == set(game_names())
    for name in game_names():
        game = pyspiel.load_game("pyramids_" + name.replace("-", "_"))
        assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
        assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC


@pytest.mark.parametrize(("name", "options"), CASES)
def test_openspiel_random_sim_test_with_serialization(name, options) -> None:
    game = pyspiel.load_game(po.short_name(name), options)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_utilities_are_declared_as_the_games_have_them() -> None:
    zero = pyspiel.GameType.Utility.ZERO_SUM
    assert pyspiel.load_game("pyramids_pacal").get_type().utility == zero
    assert pyspiel.load_game("pyramids_temple").get_type().utility == zero
    assert pyspiel.load_game("pyramids_mahjongg").get_type().utility != zero


_UTILITY = pyspiel.GameType.Utility
#: (game, parameters, the utility its returns make it, random games to play).
SETTINGS = [
    ("pacal", {"rounds_to_win": 1, "max_rounds": 2}, _UTILITY.ZERO_SUM, 12),
    ("pacal-solo", {}, _UTILITY.GENERAL_SUM, 10),
    ("temple", {"players": 2}, _UTILITY.ZERO_SUM, 6),
    ("temple", {"players": 3}, _UTILITY.ZERO_SUM, 6),
    ("temple", {"players": 5}, _UTILITY.ZERO_SUM, 4),
    ("mahjongg", {"layout": SMALL}, _UTILITY.GENERAL_SUM, 10),
    ("mahjongg", {"layout": SMALL, "mode": "time-attack", "clock": "turns"},
     _UTILITY.GENERAL_SUM, 6),
    # Competitive: +1 the winner, -1 the other (0 each on a full tie) at two seats;
    # at three or four, +1 each winner and -1 each other seat, summing to -1 or +1.
    ("mahjongg", {"layout": SMALL, "players": 2}, _UTILITY.ZERO_SUM, 20),
    ("mahjongg", {"layout": SMALL, "players": 3}, _UTILITY.GENERAL_SUM, 20),
    ("mahjongg", {"layout": SMALL, "players": 4}, _UTILITY.GENERAL_SUM, 20),
    # Co-op: the team's result for every seat.
    ("mahjongg", {"layout": SMALL, "players": 2, "mode": "coop"}, _UTILITY.IDENTICAL, 12),
    ("mahjongg", {"layout": SMALL, "players": 4, "mode": "coop"}, _UTILITY.IDENTICAL, 12),
]


@pytest.mark.parametrize(("name", "options", "utility", "games"), SETTINGS)
def test_each_setting_has_the_type_its_returns_have(name, options, utility, games) -> None:
    """get_type() is the instance's: two-player competitive Mahjongg is zero-sum and
    co-op identical, though the registered (default, one-player) type is general-sum.
    Over random games through pyspiel: zero-sum returns sum to 0 at every end,
    identical ones are the same for every seat, and a general-sum multi-player
    setting has games that are neither."""
    game = pyspiel.load_game(po.short_name(name), options)
    assert game.get_type().utility == utility
    assert game.get_type().short_name == po.short_name(name)
    rng = random.Random(7)
    sums, spreads = set(), set()
    for _ in range(games):
        state = game.new_initial_state()
        state.apply_action(rng.randrange(1000))
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        returns = state.returns()
        sums.add(round(sum(returns), 9))
        spreads.add(max(returns) - min(returns))
    if utility == _UTILITY.ZERO_SUM:
        assert sums == {0.0} and game.utility_sum() == 0.0
    elif utility == _UTILITY.IDENTICAL:
        assert spreads == {0.0}, (sums, spreads)
    elif game.num_players() > 1:
        assert sums - {0.0} and spreads - {0.0}, (sums, spreads)


def test_a_game_that_declares_no_returns_kind_is_probed(monkeypatch) -> None:
    """A plugin's game without `returns_kind` gets what random games show; a value
    that is not a kind is refused, naming the allowed ones."""
    temple = pyramids.load("temple", players=3)
    monkeypatch.setattr(type(temple), "returns_kind", lambda self: None)
    assert po.game.returns_kind(temple) == "zero-sum"
    mahjongg = pyramids.load("mahjongg", layout=SMALL, players=3, mode="coop")
    monkeypatch.setattr(type(mahjongg), "returns_kind", lambda self: None)
    assert po.game.returns_kind(mahjongg) == "identical"
    three = pyramids.load("mahjongg", layout=SMALL, players=3)
    assert po.game.returns_kind(three) == "general-sum"
    monkeypatch.setattr(type(temple), "returns_kind", lambda self: "zero sum")
    with pytest.raises(ValueError, match="'zero sum'; allowed: zero-sum, identical, general-sum"):
        po.game.returns_kind(temple)


def test_an_episode_replays_the_native_engine_move_for_move() -> None:
    game = pyspiel.load_game("pyramids_temple", {"players": 3})
    state = game.new_initial_state()
    state.apply_action(17)  # the deal: seed 17
    native = pyramids.load("temple", players=3).new_initial_state(17)
    rng = random.Random(4)
    while not state.is_terminal():
        assert state.current_player() == native.current_player
        assert state.legal_actions() == native.legal_actions()
        action = rng.choice(state.legal_actions())
        assert state.action_to_string(action) == native.action_to_string(action)
        state.apply_action(action)
        native.apply_action(action)
    assert state.returns() == native.returns()


def test_observations_come_from_the_view_and_info_states_remember() -> None:
    game = pyspiel.load_game("pyramids_pacal")
    state = game.new_initial_state()
    state.apply_action(3)
    native = pyramids.load("pacal").new_initial_state(3)
    from pyramids.rl.encoding import encoder_for

    assert list(state.observation_tensor(0)) == encoder_for(native.game).encode(native, 0).tolist()
    before = state.information_state_string(0)
    state.apply_action(state.legal_actions()[0])
    assert state.information_state_string(0) != before
    text = pyspiel.serialize_game_and_state(game, state)
    _, restored = pyspiel.deserialize_game_and_state(text)
    assert str(restored) == str(state)
    assert restored.information_state_string(1) == state.information_state_string(1)


@pytest.mark.parametrize(("name", "options"), [("pacal", {}), ("temple", {"players": 3})])
def test_a_determinized_state_has_the_information_state_of_the_seat_it_guesses_for(
        name, options) -> None:
    """`game.state_from_engine(state.resample_hidden(seat, rng))`, the openspiel-mcts
    agent's search root, raised IllegalActionError from information_state_string: it
    replayed the moves from a deal the state does not have. Now every guess for a seat
    gives that seat the same information state, move after move."""
    game = pyspiel.load_game(po.short_name(name), options)
    state = game.new_initial_state()
    state.apply_action(3)
    rng = random.Random(0)
    for _ in range(8):
        state.apply_action(rng.choice(state.legal_actions()))
    seat = state.current_player()
    engine = state.engine.state
    guesses = [game.state_from_engine(engine.resample_hidden(seat, random.Random(draw)))
               for draw in range(3)]
    assert len({guess.engine.state.to_json() for guess in guesses}) > 1
    for _ in range(3):
        assert len({guess.information_state_string(seat) for guess in guesses}) == 1
        if guesses[0].current_player() != seat:
            break
        action = rng.choice(guesses[0].legal_actions())  # the seat's own: legal in each
        for guess in guesses:
            guess.apply_action(action)
    for player in range(game.num_players()):
        assert guesses[0].information_state_string(player).startswith(f"p{player} seen:")


def test_game_options_are_parameters_and_bad_ones_say_what_is_allowed() -> None:
    game = pyspiel.load_game("pyramids_temple", {"players": 5})
    assert game.num_players() == 5
    with pytest.raises(Exception, match="players"):
        pyspiel.load_game("pyramids_temple", {"players": 9})


def test_the_openspiel_mcts_agent_plays_legal_seeded_moves() -> None:
    from pyramids.agents import make_agent

    state = pyramids.load("pacal", rounds_to_win=1, max_rounds=1).new_initial_state(5)
    before = state.to_json()
    first = make_agent("openspiel-mcts", seed=3, simulations=10).step(state)
    second = make_agent("openspiel-mcts", seed=3, simulations=10).step(state)
    assert first in state.legal_actions() and first == second
    assert state.to_json() == before  # it searched a copy


@pytest.mark.parametrize(("options", "english"), [
    ({"foo": 1}, "agent 'openspiel-mcts' has no option 'foo'; allowed options: rollouts, "
                 "simulations, uct_c"),
    ({"simulations": "abc"}, "openspiel-mcts: simulations must be a whole number of at "
                             "least 1, got 'abc'"),
    ({"rollouts": 0}, "openspiel-mcts: rollouts must be at least 1, got 0"),
    ({"uct_c": -1.0}, "openspiel-mcts: uct_c must be a number of at least 0, got -1.0"),
])
def test_a_bad_openspiel_mcts_setting_says_what_is_allowed(options, english) -> None:
    from pyramids.agents import make_agent
    from pyramids.core import OptionError

    with pytest.raises(OptionError) as caught:
        make_agent("openspiel-mcts", seed=1, **options)
    assert str(caught.value) == english


def test_the_command_line_arena_loads_openspiel_mcts_through_its_entry_point(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`pyramids arena` imports nothing of OpenSpiel: the agent comes from its entry point."""
    import json
    from importlib import metadata

    from typer.testing import CliRunner

    from pyramids.agents import base
    from pyramids.cli.main import app

    (entry,) = [e for e in metadata.entry_points(group=base.ENTRY_POINT_GROUP)
                if e.name == "openspiel-mcts"]
    monkeypatch.setitem(base._AGENTS, "openspiel-mcts", base.PluginAgentFactory(entry))
    args = ["arena", "pacal", "--agents", "openspiel-mcts:simulations=4,greedy", "-n", "2",
            "--seed", "5", "-o", "rounds_to_win=1", "--json"]
    first = CliRunner().invoke(app, args)
    assert first.exit_code == 0, first.output
    summary = json.loads(first.stdout)
    assert set(summary["agents"]) == {"openspiel-mcts:simulations=4", "greedy"}
    assert summary["agents"]["greedy"]["games"] == 2
    again = json.loads(CliRunner().invoke(app, args).stdout)
    for figures in (summary, again):
        figures.pop("seconds_per_move")
    assert again == summary  # seeded: the same games again


def test_a_chance_outcome_that_is_not_a_deal_is_refused() -> None:
    game = pyspiel.load_game(po.short_name("pacal"), {"deals": 100})
    state = game.new_initial_state()
    assert state.is_chance_node()
    for outcome in (100, 123456, -5):
        with pytest.raises(ValueError, match="outcomes are 0 to 99"):
            state.apply_action(outcome)
        assert state.is_chance_node()  # unchanged
    state.apply_action(99)
    assert not state.is_chance_node()


#: (game, parameters, the utility and the seats those parameters allow).
TYPES = [
    ("mahjongg", {}, _UTILITY.GENERAL_SUM, (1, 4)),
    ("mahjongg", {"players": 2}, _UTILITY.ZERO_SUM, (1, 4)),
    ("mahjongg", {"players": 3, "mode": "coop"}, _UTILITY.IDENTICAL, (2, 4)),
    ("mahjongg", {"mode": "time-attack", "clock": "turns"}, _UTILITY.GENERAL_SUM, (1, 1)),
    ("temple", {"players": 4}, _UTILITY.ZERO_SUM, (2, 5)),
    ("pacal", {}, _UTILITY.ZERO_SUM, (2, 2)),
    ("pacal-solo", {}, _UTILITY.GENERAL_SUM, (1, 1)),
]


@pytest.mark.parametrize(("name", "options", "utility", "seats"), TYPES)
def test_the_type_openspiel_reads_is_the_loaded_settings(name, options, utility, seats) -> None:
    """Every road to the game's type answers for the parameters it was loaded with: its
    `get_type()`, a state's `get_game()`, a pickled or deserialized game, a C++
    wrapper, and `game_type(name, params)`; its players range is the seats these
    options allow (time attack one, co-op two to four)."""
    import pickle

    params = {"layout": SMALL, **options} if name == "mahjongg" else options
    game = pyspiel.load_game(po.short_name(name), params)
    state = game.new_initial_state()
    state.apply_action(3)
    again, _ = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    wrapped = pyspiel.load_game(f"cached_tree(game={game})")
    for kind in (game.get_type(), state.get_game().get_type(), again.get_type(),
                 pickle.loads(pickle.dumps(game)).get_type(), wrapped.get_type(),
                 po.game_type(name, params), po.game_type(po.short_name(name), params)):
        assert kind.utility == utility
        assert (kind.min_num_players, kind.max_num_players) == seats
        assert kind.short_name in (po.short_name(name), "cached_tree")
        assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert seats[0] <= game.num_players() <= seats[1]
    assert (game.utility_sum() == 0.0) == (utility == _UTILITY.ZERO_SUM)


def test_the_registered_type_is_the_default_options_one() -> None:
    """What pyspiel cannot follow (docs/rl.md): one type registered per name, the
    default options' (Mahjongg's: general-sum for 1 to 4 seats), whatever a game is
    later loaded with; `game_type` gives the settings' own."""
    registered = {t.short_name: t for t in pyspiel.registered_games()}["pyramids_mahjongg"]
    assert registered.utility == _UTILITY.GENERAL_SUM
    assert (registered.min_num_players, registered.max_num_players) == (1, 4)
    coop = po.game_type("mahjongg", {"players": 2, "mode": "coop", "layout": SMALL})
    assert coop.utility == _UTILITY.IDENTICAL and coop.min_num_players == 2


def test_a_setting_with_a_narrower_type_passes_random_sim_test() -> None:
    game = pyspiel.load_game("pyramids_mahjongg", {"layout": SMALL, "mode": "time-attack",
                                                   "clock": "turns"})
    assert game.get_type().max_num_players == 1
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize(("name", "options"), [
    ("pyramids_mahjongg", {"layout": "giza-step-ramp", "players": 2}),
    ("pyramids_temple", {"players": 3}),
])
def test_a_clone_shares_the_game_and_plays_on_as_the_original(name, options) -> None:
    """OpenSpiel clones a Python state by deep-copying it, and the deepcopy copied the
    engine's game (Mahjongg's layout tables and solver caches: 3 to 20 ms a clone, 95%
    of an MCTSBot move) and rebuilt the engine through its saved form and a new game."""
    import copy

    game = pyspiel.load_game(name, options)
    state = game.new_initial_state()
    state.apply_action(4)
    rng = random.Random(4)
    for _ in range(6):
        state.apply_action(rng.choice(state.legal_actions()))
    clone = state.clone()
    engine, copied = state.engine.state, clone.engine.state
    assert copied is not engine and copied.game is engine.game
    assert clone.engine_game is state.engine_game
    assert copy.deepcopy(engine).game is engine.game  # the engine's own deepcopy too
    before = str(state)
    # The original through its exact saved form: the clone plays on as it would.
    _, replica = pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(game, state))
    while not clone.is_terminal():
        action = rng.choice(clone.legal_actions())
        clone.apply_action(action)
        replica.apply_action(action)
        assert str(replica) == str(clone)
        assert clone.information_state_string(0) == replica.information_state_string(0)
    assert replica.is_terminal() and clone.returns() == replica.returns()
    assert str(state) == before  # the original is untouched


@pytest.mark.parametrize(("name", "options"), [
    ("pyramids_pacal", {"rounds_to_win": 1}),
    ("pyramids_temple", {"players": 3}),
    ("pyramids_mahjongg", {"layout": "ramesseum", "players": 2}),
])
def test_resample_from_infostate_keeps_the_seats_information_state(name, options) -> None:
    """OpenSpiel's resample_from_infostate raised "ResampleFromInfostate() not
    implemented": a Python search over determinizations (IS-MCTS) could not ask for one."""
    game = pyspiel.load_game(name, options)
    state = game.new_initial_state()
    state.apply_action(2)
    rng = random.Random(2)
    for _ in range(7):
        state.apply_action(rng.choice(state.legal_actions()))
    seat = state.current_player()
    draws = iter([0.25, 0.5, 0.25])
    samples = [state.resample_from_infostate(seat, lambda: next(draws)) for _ in range(3)]
    assert str(samples[0]) == str(samples[2])  # the same numbers, the same world
    assert str(samples[0]) != str(samples[1])  # other numbers, another world
    # Redrawn: the other seats' hands and the pile, Mahjongg's face-down tiles.
    assert all(str(sample) != str(state) for sample in samples)
    for sample in samples:
        assert sample.information_state_string(seat) == state.information_state_string(seat)
        assert sample.observation_string(seat) == state.observation_string(seat)
        assert sample.legal_actions() == state.legal_actions()
        while not sample.is_terminal():  # a world the engine plays on to the end
            sample.apply_action(rng.choice(sample.legal_actions()))


def test_an_environment_with_openspiel_mcts_opponents_copies_and_plays_on_alike() -> None:
    """OpenSpiel's MCTSBot does not pickle: a Gymnasium environment with openspiel-mcts
    opponents could not be deep-copied or pickled (vector runners, checkpoints)."""
    import copy
    import pickle

    np = pytest.importorskip("numpy")
    from pyramids.rl import PyramidsGymEnv

    env = PyramidsGymEnv("temple", players=3, opponents="openspiel-mcts:simulations=5")
    _, info = env.reset(seed=3)
    _, _, _, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    copies = [copy.deepcopy(env), pickle.loads(pickle.dumps(env))]
    rng = random.Random(3)
    for _ in range(6):
        action = rng.choice(np.flatnonzero(info["action_mask"]).tolist())
        steps = [each.step(action) for each in (env, *copies)]
        for other in steps[1:]:
            assert np.array_equal(other[0], steps[0][0]) and other[1:4] == steps[0][1:4]
        info = steps[0][4]
        if steps[0][2]:
            break
    assert {each.state.to_json() for each in (env, *copies)} == {env.state.to_json()}
