"""Gymnasium environments of the multi-player games: one learner against built-in agents.

The learner's observations and masks are its seat's alone, the opponents move between
its steps, a seed replays a whole episode (the opponents' moves included), and what is
wrong in `opponents` or `seat` is refused saying what is allowed.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

np = pytest.importorskip("numpy")
gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from pyramids.rl import PyramidsGymEnv  # noqa: E402  (registers the ids)
from pyramids.rl.encoding import encoder_for  # noqa: E402

SMALL = "giza-step-ramp"
#: The common set-ups (Mahjongg on a small layout, to keep the tests quick).
SETUPS = [
    pytest.param("pacal", {"opponents": "hard"}, id="pacal-vs-hard"),
    pytest.param("temple", {"players": 4, "opponents": "greedy"}, id="temple4-vs-greedy"),
    pytest.param("mahjongg", {"players": 2, "layout": SMALL, "opponents": "hard"},
                 id="mahjongg2-vs-hard"),
]


def _episode(env: Any, seed: int | None, rng: random.Random) -> dict[str, Any]:
    """One episode of random masked learner actions: what the learner saw and got, and
    every move played (the opponents' too)."""
    observation, info = env.reset(seed=seed)
    seen = [observation.tolist()]
    masks = [info["action_mask"].tolist()]
    rewards = []
    done = False
    while not done:
        action = rng.choice(np.flatnonzero(info["action_mask"]).tolist())
        observation, reward, terminated, truncated, info = env.step(action)
        seen.append(observation.tolist())
        masks.append(info["action_mask"].tolist())
        rewards.append(reward)
        done = terminated or truncated
    return {"seat": env.unwrapped.seat, "observations": seen, "masks": masks,
            "rewards": rewards, "history": env.unwrapped.state.history()}


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(("name", "options"), SETUPS[:2])
def test_gymnasium_check_env(name: str, options: dict[str, Any]) -> None:
    env = gymnasium.make(f"pyramids/{name}-v0", **options)
    check_env(env.unwrapped)


@pytest.mark.parametrize("seat", [0, 1, "rotate"])
def test_a_seed_replays_the_whole_episode_opponents_included(seat: Any) -> None:
    # `easy` slips at random: its moves depend on its own seed, which the reset sets.
    env = gymnasium.make("pyramids/temple-v0", players=3, opponents=["easy", "random"],
                         seat=seat)
    first = _episode(env, 11, random.Random(0))
    _episode(env, 12, random.Random(0))  # the opponents' generators move on
    again = _episode(env, 11, random.Random(0))
    fresh = _episode(gymnasium.make("pyramids/temple-v0", players=3,
                                    opponents=["easy", "random"], seat=seat),
                     11, random.Random(0))
    assert first == again == fresh
    other = _episode(env, 13, random.Random(0))
    assert other["history"] != first["history"]


def test_the_opponents_moves_follow_their_own_seeds() -> None:
    # Pacal against `easy`: the same learner moves on the same deal, and the opponent's
    # slips come from the episode's seed, not from the episodes played before.
    env = gymnasium.make("pyramids/pacal-v0", opponents="easy")
    runs = []
    for warmup in range(3):
        for seed in range(warmup):
            _episode(env, 100 + seed, random.Random(seed))
        runs.append(_episode(env, 5, random.Random(1)))
    assert runs[0] == runs[1] == runs[2]


@pytest.mark.parametrize(("name", "options"), [
    pytest.param("pacal", {"opponents": "hard", "seat": 1}, id="pacal-seat1"),
    pytest.param("temple", {"players": 4, "opponents": "greedy", "seat": "rotate"},
                 id="temple4-rotate"),
    pytest.param("temple", {"players": 3, "opponents": ["random", "easy"], "seat": 2},
                 id="temple3-seat2"),
    pytest.param("mahjongg", {"players": 2, "layout": SMALL, "opponents": "hard",
                              "seat": "rotate"}, id="mahjongg2-rotate"),
])
def test_every_observation_and_reward_is_the_learners_seat(name: str,
                                                            options: dict[str, Any]) -> None:
    env = gymnasium.make(f"pyramids/{name}-v0", **options).unwrapped
    encoder = encoder_for(env.game)
    rng = random.Random(7)
    for seed in range(12):
        observation, info = env.reset(seed=seed)
        seat = env.seat
        assert info["seat"] == seat
        assert env.opponents[seat] is None
        assert all(agent is not None for other, agent in enumerate(env.opponents)
                   if other != seat)
        done = False
        while True:
            state = env.state
            # The learner is to move whenever a step returns (or the game is over), and
            # what it sees is its seat's encoding of the engine's state, its mask the
            # engine's legal actions.
            assert state.is_terminal() or state.current_player == seat
            assert np.array_equal(observation, encoder.encode(state, seat))
            assert observation in env.observation_space
            if state.is_terminal():
                assert not info["action_mask"].any()
            else:
                assert np.flatnonzero(info["action_mask"]).tolist() == state.legal_actions()
            if done:
                break
            action = rng.choice(np.flatnonzero(info["action_mask"]).tolist())
            observation, reward, terminated, truncated, info = env.step(action)
            done = terminated or truncated
            assert not truncated
            if not terminated:
                assert reward == 0.0
        assert state.is_terminal() and reward == state.returns()[seat]
        # The episode is the engine's own game from the seed: the moves replay it.
        native = env.game.new_initial_state(seed)
        for move in state.history():
            native.apply_action(move)
        assert native.returns() == state.returns()


def test_rotate_seats_go_round_the_table_and_each_episode_replays_from_its_seed() -> None:
    env = gymnasium.make("pyramids/temple-v0", players=4, opponents="greedy",
                         seat="rotate").unwrapped
    assert [env.reset(seed=seed)[1]["seat"] for seed in range(8)] == [0, 1, 2, 3] * 2
    env.reset(seed=6)
    seats, seeds = [], []
    for _ in range(6):  # unseeded resets go on round the table
        _, info = env.reset()
        seats.append(info["seat"])
        seeds.append(env.seed_)
    assert seats == [3, 0, 1, 2, 3, 0]
    assert len(set(seeds)) == 6
    # An unseeded episode replays from its seed (env.seed_), its seat included.
    episode = _episode(env, None, random.Random(4))
    seed = env.seed_
    assert _episode(env, seed, random.Random(4)) == episode


def test_opponents_sit_in_turn_order_from_the_learners_left() -> None:
    env = gymnasium.make("pyramids/temple-v0", players=4,
                         opponents=["random", "greedy", "hard"], seat=1).unwrapped
    env.reset(seed=0)
    assert [agent and agent.name for agent in env.opponents] == \
        ["hard", None, "random", "greedy"]
    rotating = gymnasium.make("pyramids/temple-v0", players=4,
                              opponents=["random", "greedy", "hard"], seat="rotate").unwrapped
    rotating.reset(seed=3)
    assert [agent and agent.name for agent in rotating.opponents] == \
        ["random", "greedy", "hard", None]


def test_the_learners_observation_does_not_show_the_others_hidden_cards() -> None:
    # The state refilled at random where the learner cannot see (the others' hands, the
    # decks) encodes as the same observation: nothing hidden leaks into it.
    for name, options in [("pacal", {}), ("temple", {"players": 4}),
                          ("mahjongg", {"players": 2})]:
        env = PyramidsGymEnv(name, opponents="greedy", seat="rotate", **options)
        encoder = encoder_for(env.game)
        rng = random.Random(2)
        changed = 0
        for seed in range(4):
            _, info = env.reset(seed=seed)
            for _ in range(6):
                state, seat = env.state, env.seat
                for draw in range(3):
                    other = state.resample_hidden(seat, random.Random(draw))
                    changed += other.to_json() != state.to_json()
                    assert np.array_equal(encoder.encode(other, seat),
                                          encoder.encode(state, seat)), (name, seed)
                action = rng.choice(np.flatnonzero(info["action_mask"]).tolist())
                _, _, terminated, _, info = env.step(action)
                if terminated:
                    break
        assert changed  # the check compared states that differ in what is hidden


def test_render_draws_the_learners_view_and_nothing_the_learner_cannot_see() -> None:
    """render() drew the spectator's view: no seat's hand, the learner's own neither."""
    for name, options in [("pacal", {}), ("temple", {"players": 3})]:
        env = PyramidsGymEnv(name, opponents="random", seat="rotate", render_mode="ansi",
                             **options)
        for seed in range(3):
            env.reset(seed=seed)
            text = env.render()
            assert f"seat {env.seat + 1} (you)" in text.lower() and "Your hand: " in text
            real = env.state
            for draw in range(3):  # the others' hidden cards refilled: the same picture
                env.state = real.resample_hidden(env.seat, random.Random(draw))
                assert env.render() == text, (name, seed)
            env.state = real


def test_a_multi_player_game_needs_opponents() -> None:
    for name, options in [("pacal", {}), ("temple", {}), ("mahjongg", {"players": 2})]:
        with pytest.raises(ValueError, match=r"give opponents=.*level \(easy, medium, hard, "
                                             r"expert\).*pyramids\.rl\.env"):
            gymnasium.make(f"pyramids/{name}-v0", **options)


def test_the_refusals_count_the_other_seats_in_words(monkeypatch: pytest.MonkeyPatch) -> None:
    """One other seat is "the other seat", never "the other 1 seat(s)"; more are counted
    in the plural; Korean says it in its own words (the catalogue's ngettext)."""
    from pyramids.play import i18n

    with pytest.raises(ValueError) as one:
        PyramidsGymEnv("pacal")
    assert "give opponents=, 1 agent for the other seat: a level" in str(one.value)
    with pytest.raises(ValueError) as three:
        PyramidsGymEnv("temple", players=4)
    assert "the agents that play the other 3 seats: a level" in str(three.value)
    with pytest.raises(ValueError) as listed:
        PyramidsGymEnv("pacal", opponents=["hard", "hard"])
    assert "one setting for the other seat, or a list of 1; got a list of 2" \
        in str(listed.value)
    for text in (one, three, listed):
        assert "seat(s)" not in str(text.value)
    monkeypatch.setattr(i18n, "_chosen", "ko")
    with pytest.raises(ValueError) as korean:
        PyramidsGymEnv("temple", players=4, opponents=["hard"])
    assert "다른 자리 3개" in str(korean.value) and "seat" not in str(korean.value)


def test_a_one_player_game_refuses_opponents() -> None:
    with pytest.raises(ValueError, match="1 player, so there is no seat for opponents"):
        gymnasium.make("pyramids/pacal-solo-v0", opponents="hard")
    with pytest.raises(ValueError, match="no seat for opponents"):
        PyramidsGymEnv("mahjongg", layout=SMALL, opponents=["hard"])
    # Alone, the learner's seat is 0 whichever way it is asked for.
    assert PyramidsGymEnv("pacal-solo", seat="rotate").reset(seed=3)[1]["seat"] == 0


@pytest.mark.parametrize(("options", "error", "words"), [
    ({"opponents": "nobody"}, ValueError,
     r"opponent 'nobody': unknown agent 'nobody'; allowed agents: .*greedy.*hard"),
    ({"opponents": "mcts:iterations=0"}, ValueError, r"opponent 'mcts:iterations=0': mcts"),
    ({"opponents": "mcts:speed=3"}, ValueError, r"agent 'mcts' has no option 'speed'"),
    ({"opponents": ["hard", "hard"]}, ValueError,
     r"one setting for all 3 other seats, or a list of 3 .*got a list of 2"),
    ({"opponents": ["hard"] * 4}, ValueError, r"a list of 3 .*got a list of 4"),
    ({"opponents": 3}, TypeError, r"opponents is a level .*got 3"),
    ({"opponents": ["hard", None, "greedy"]}, TypeError, r"each opponent is .*got None"),
    ({"opponents": "mcts"}, ValueError,
     r"opponent 'mcts' thinks by the clock.*mcts:iterations=200"),
    # Plain planner leaves Temple to plain mcts, by the clock: it was taken as replayable.
    ({"opponents": "planner"}, ValueError,
     r"opponent 'planner' thinks by the clock in temple.*planner:iterations=200"),
    ({"opponents": "hard", "seat": 4}, ValueError,
     r"seat is a seat number from 0 to 3 or 'rotate' .*got 4"),
    ({"opponents": "hard", "seat": "left"}, ValueError, r"or 'rotate'.*got 'left'"),
    ({"opponents": "hard", "seat": True}, ValueError, r"got True"),
])
def test_bad_opponents_or_seat_are_refused_saying_what_is_allowed(options, error,
                                                                   words) -> None:
    with pytest.raises(error, match=words):
        PyramidsGymEnv("temple", players=4, **options)


def test_an_illegal_learner_action_ends_the_episode_before_the_opponents_move() -> None:
    env = gymnasium.make("pyramids/pacal-v0", opponents="hard", seat=1).unwrapped
    _, info = env.reset(seed=4)
    played = env.state.history()
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and reward == -1.0 and info["illegal_action"] and info["reason"]
    assert env.state.history() == played
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(illegal)


def test_a_vector_env_of_learners_against_bots() -> None:
    envs = gymnasium.make_vec("pyramids/pacal-v0", num_envs=3, vectorization_mode="sync",
                              opponents="hard", seat="rotate")
    _, infos = envs.reset(seed=5)
    assert infos["seat"].tolist() == [1, 0, 1]  # seeds 5, 6, 7
    rng = np.random.default_rng(0)
    for _ in range(30):
        actions = [int(rng.choice(np.flatnonzero(mask))) if mask.any() else 0
                   for mask in infos["action_mask"]]
        _, rewards, _, _, infos = envs.step(actions)
        assert set(rewards.tolist()) <= {-1.0, 0.0, 1.0}
    envs.close()


def test_planner_opponents_think_by_the_clock_only_where_mcts_plays_for_them() -> None:
    """Plain planner plays Pacal and Mahjongg alone itself (a seed replays it) and leaves
    Temple and Mahjongg at a table to plain mcts, whose 0.8 s a move depends on the
    machine: there the environment refused nothing, and episodes did not replay."""
    import pyramids
    from pyramids.agents import make_agent_from_setting, thinks_by_clock

    planner = make_agent_from_setting("planner")
    budgeted = make_agent_from_setting("planner:iterations=5")
    tables = {("pacal", 2): False, ("pacal-solo", 1): False, ("temple", 3): True,
              ("mahjongg", 1): False, ("mahjongg", 2): True}
    for (name, players), by_clock in tables.items():
        game = pyramids.load(name, **({"players": players} if name in ("temple", "mahjongg")
                                      else {}))
        assert thinks_by_clock(planner, game) is by_clock, name
        assert not thinks_by_clock(budgeted, game)
    assert thinks_by_clock(planner)  # not told the game: as for the games mcts plays
    PyramidsGymEnv("pacal", opponents="planner")  # planned: taken
    with pytest.raises(ValueError, match="thinks by the clock in mahjongg"):
        PyramidsGymEnv("mahjongg", layout="giza-step-ramp", players=2, opponents="planner")
    env = PyramidsGymEnv("temple", players=3, opponents="planner:iterations=5")
    runs = []
    for _ in range(2):
        _, info = env.reset(seed=2)
        for _ in range(4):
            _, _, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
            if done:
                break
        runs.append(env.state.history())
    assert runs[0] == runs[1]
