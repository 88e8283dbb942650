"""reset(options=...) and render_mode="human" in the PettingZoo and Gymnasium environments.

Reset's options were silently ignored (a researcher's `options={"seat": 1}` or
`{"rounds_to_win": 1}` did nothing), and render_mode="human" was refused."""

from __future__ import annotations

import warnings

import pytest

np = pytest.importorskip("numpy")
gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import pyramids  # noqa: E402
import pyramids.rl as rl  # noqa: E402
from pyramids.rl import PyramidsGymEnv  # noqa: E402


def _play_aec(env, seed: int, options=None, moves: int = 400) -> list[int]:
    """Random legal moves from the deal `seed`; each observation is checked against a
    fresh encoding of the episode's game (kept vectors must follow the game's switch)."""
    env.reset(seed=seed, options=options)
    rng = np.random.default_rng(seed)
    played = []
    for agent in env.agent_iter(moves):
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        seat = env.possible_agents.index(agent)
        fresh = rl.encoder_for(env.episode_game).encode_from_view(env.state_, seat)
        assert np.array_equal(observation["observation"], fresh)
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        played.append(action)
        env.step(action)
    return played


@pytest.mark.parametrize(("name", "options", "changes"), [
    ("pacal", {}, {"rounds_to_win": 1, "direction": "ascending"}),
    ("temple", {"players": 3}, {"jewels": 9, "max_rounds": 5}),
    ("mahjongg", {"layout": "giza-step-ramp", "players": 2}, {"deal": "random",
                                                               "start_tokens": 0}),
])
def test_game_options_given_to_reset_play_that_episode_with_them(name, options, changes):
    env = rl.env(name, **options)
    _play_aec(env, 3)  # the kept vectors hold the environment's own game first
    played = _play_aec(env, 5, changes)
    assert env.episode_game.options == {**env.game.options, **changes}
    native = pyramids.load(name, **{**options, **changes}).new_initial_state(5)
    for action in played:
        native.apply_action(action)
    assert native.to_json() == env.state_.to_json()
    # The next reset without options is the environment's own game again.
    _play_aec(env, 5)
    assert env.episode_game.options == env.game.options
    assert env.state_.to_json() == _replayed(name, options, 5, env)


def _replayed(name, options, seed, env):
    native = pyramids.load(name, **options).new_initial_state(seed)
    for move in env.state_.history():
        native.apply_action(native.action_from_string(move) if isinstance(move, str)
                            else move)
    return native.to_json()


@pytest.mark.parametrize(("name", "options", "changes", "words"), [
    ("temple", {"players": 4}, {"players": 3}, "3 players, 179 observation features"),
    ("mahjongg", {"layout": "giza-step-ramp"}, {"layout": "pharaohs-tomb"},
     "3033 observation features and 10590 actions"),
    ("pacal", {}, {"rounds_to_win": 0}, "allowed: an integer >= 1"),
])
def test_an_option_that_changes_the_spaces_or_is_bad_is_refused_and_the_game_kept(
        name, options, changes, words):
    for env in (rl.env(name, **options),
                PyramidsGymEnv(name, **options,
                               **({"opponents": "random"} if name != "mahjongg" else {}))):
        env.reset(seed=2)
        state = env.state_ if isinstance(env, rl.PyramidsAECEnv) else env.state
        before = state.to_json()
        with pytest.raises(ValueError, match="allowed|make a new environment") as caught:
            env.reset(seed=8, options=changes)
        assert words in str(caught.value)
        after = env.state_ if isinstance(env, rl.PyramidsAECEnv) else env.state
        assert after is state and state.to_json() == before and env.seed_ == 2


def test_pettingzoo_warns_of_keys_that_are_no_game_option_and_passes_api_test():
    env = rl.env("pacal")
    with pytest.warns(UserWarning, match=r"\['options'\] are not options of pacal.*"
                                         "allowed: direction, max_rounds"):
        env.reset(seed=0, options={"options": 1})
    assert env.episode_game.options == env.game.options
    with pytest.raises(TypeError, match="reset options are a dict"):
        env.reset(options=5)  # type: ignore[arg-type]
    from pettingzoo.test import api_test

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(rl.env("pacal"), num_cycles=50)


def test_gymnasium_reset_seat_sits_the_learner_there_for_that_episode():
    env = PyramidsGymEnv("temple", players=3, opponents="greedy")
    _, info = env.reset(seed=4, options={"seat": 2})
    assert info["seat"] == env.seat == 2 and env.opponents[2] is None
    assert env.state.current_player == 2 or env.state.is_terminal()
    first = env.state.to_json()
    # The same seed and seat replay it, whatever came between; without the option
    # the learner is back at the environment's seat.
    _, info = env.reset(seed=4)
    assert info["seat"] == 0 and env.opponents[0] is None and env.opponents[2] is not None
    env.reset(seed=4, options={"seat": 2})
    assert env.state.to_json() == first
    # A rotating learner is moved for that episode only.
    rotating = PyramidsGymEnv("pacal", opponents="random", seat="rotate")
    assert rotating.reset(seed=4, options={"seat": 1})[1]["seat"] == 1
    assert rotating.reset(seed=4)[1]["seat"] == 0


@pytest.mark.parametrize("options", [{"seat": 3}, {"seat": "rotate"}, {"seat": True},
                                     {"opponents": "hard"}, {"sead": 1}])
def test_gymnasium_refuses_what_reset_does_not_take_and_keeps_the_game(options):
    env = PyramidsGymEnv("temple", players=3, opponents="random")
    env.reset(seed=1)
    state, before = env.state, env.state.to_json()
    with pytest.raises(ValueError, match="allowed|seat number from 0 to 2"):
        env.reset(seed=6, options=options)
    assert env.state is state and state.to_json() == before and env.seat == 0


@pytest.mark.parametrize("make", [
    lambda: rl.env("pacal-solo", render_mode="human"),
    lambda: gymnasium.make("pyramids/pacal-solo-v0", render_mode="human").unwrapped,
])
def test_human_render_mode_prints_the_text_board_after_every_reset_and_move(make, capsys):
    env = make()
    assert "human" in env.metadata["render_modes"]
    gym = isinstance(env, PyramidsGymEnv)
    info = env.reset(seed=0)[1] if gym else env.reset(seed=0)
    shown = capsys.readouterr().out
    assert shown.startswith("Draws: 1") and shown.count("Card to place") == 1
    mask = info["action_mask"] if gym else env.observe("player_0")["action_mask"]
    env.step(int(np.flatnonzero(mask)[0]))
    shown = capsys.readouterr().out
    assert "Draws: 2" in shown and shown.count("Draws:") == 1
    assert env.render() is None  # printed, not returned
    assert capsys.readouterr().out == shown


def test_ansi_render_mode_returns_the_text_and_prints_nothing(capsys):
    for env in (rl.env("pacal-solo", render_mode="ansi"),
                PyramidsGymEnv("pacal-solo", render_mode="ansi")):
        env.reset(seed=0)
        text = env.render()
        assert isinstance(text, str) and text.startswith("Draws: 1")
    assert capsys.readouterr().out == ""


def test_a_deal_that_is_over_before_any_move_ends_the_episode_at_reset():
    """Mahjongg's deal=random with no favours can deal a board with no free pair: the
    env chose the last agent (current_player -1), not terminated, with no legal action,
    and a masked random policy had nothing to pick."""
    options = {"layout": "giza-step-ramp", "players": 2, "deal": "random",
               "start_tokens": 0}
    native = pyramids.load("mahjongg", **options).new_initial_state(5)
    assert native.is_terminal()
    env = rl.env("mahjongg", **options)
    env.reset(seed=5)
    assert env.agent_selection == "player_0"
    assert all(env.terminations.values())
    seen = []
    for agent in env.agent_iter():
        observation, reward, termination, _, _ = env.last()
        assert termination and not observation["action_mask"].any()
        seen.append((agent, reward))
        env.step(None)
    assert seen == [("player_0", native.returns()[0]), ("player_1", native.returns()[1])]


def test_each_environment_has_its_own_render_modes_list():
    """The list was shared: editing one environment's metadata changed every class's
    and what render_mode the environments accept."""
    env = rl.env("pacal")
    env.metadata["render_modes"].append("rgb_array")
    PyramidsGymEnv.metadata["render_modes"].append("rgb_array")
    try:
        assert rl.env("pacal").metadata["render_modes"] == ["ansi", "human"]
        assert rl.PyramidsAECEnv.metadata["render_modes"] == ["ansi", "human"]
        with pytest.raises(ValueError, match="render_mode 'rgb_array' is not supported"):
            rl.env("pacal", render_mode="rgb_array")
    finally:
        PyramidsGymEnv.metadata["render_modes"].remove("rgb_array")
