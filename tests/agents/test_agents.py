"""Every agent answers a legal action in every registered game and variant, never
changes the state it is shown, and replays exactly from its seed."""

from __future__ import annotations

import json
import time

import pytest

from pyramids.agents import agent_names, make_agent
from pyramids.core import OptionError, Rng, game_entry, game_names, load
from pyramids.sim.play import play_game

# Small budgets: these tests check legality and determinism, not strength.
AGENT_SETTINGS: dict[str, dict[str, object]] = {
    "random": {},
    "greedy": {},
    "mcts": {"iterations": 6, "rollout_depth": 3},
    "planner": {"rollouts": 3, "iterations": 6, "rollout_depth": 3, "node_limit": 2000},
    "determinized": {"samples": 2, "draws": 4, "node_limit": 500},
}
VARIANTS = [
    pytest.param(name, options, id=f"{name}-{json.dumps(options, sort_keys=True)}")
    for name in game_names()
    for options in game_entry(name).variants
]
QUERIES_PER_GAME = 12


def test_every_registered_agent_is_covered() -> None:
    from pyramids.agents import LEVELS
    from pyramids.agents.base import _AGENTS

    # The named levels are settings of these agents (tests/agents/test_levels.py).
    # Agents that other packages register (the OpenSpiel adapter's, once imported)
    # are tested where they live.
    own = {name for name in agent_names()
           if getattr(_AGENTS[name], "__module__", "").startswith("pyramids.agents")}
    assert own == set(AGENT_SETTINGS) | set(LEVELS)


@pytest.mark.parametrize(("game_name", "options"), VARIANTS)
def test_agents_answer_legal_actions_and_leave_the_state_alone(
    game_name: str, options: dict[str, object]
) -> None:
    game = load(game_name, **options)
    rng = Rng(f"legal:{game_name}:{json.dumps(options, sort_keys=True)}")
    agents = {name: make_agent(name, seed=7, **settings)
              for name, settings in AGENT_SETTINGS.items()}
    for _deal in range(2):
        state = game.new_initial_state(rng.randrange(1 << 30))
        queried = 0
        steps = 0
        while not state.is_terminal() and queried < QUERIES_PER_GAME and steps < 5000:
            legal = state.legal_actions()
            if rng.randrange(4) == 0:
                queried += 1
                before = state.to_json()
                for name, agent in agents.items():
                    action = agent.step(state)
                    assert action in legal, f"{name} chose illegal {action} in {game_name}"
                    assert state.to_json() == before, f"{name} changed the state it was shown"
            state.apply_action(legal[rng.randrange(len(legal))])
            steps += 1


def _play(game_name: str, agent: str, seed: int, **options: object) -> list[int]:
    game = load(game_name)
    seats = [make_agent(agent, seed=seed + seat, **options) for seat in range(game.num_players)]
    state = game.new_initial_state(seed)
    for _ in range(60):
        if state.is_terminal():
            break
        state.apply_action(seats[state.current_player].step(state))
    return state.history()


@pytest.mark.parametrize(
    ("game_name", "agent", "settings"),
    [
        ("pacal", "greedy", {}),
        ("pacal", "mcts", {"iterations": 10, "rollout_depth": 4}),
        ("pacal-solo", "planner", {"rollouts": 4}),
        ("temple", "greedy", {}),
        ("temple", "mcts", {"iterations": 8, "rollout_depth": 6}),
        ("temple", "mcts", {"iterations": 4}),
        ("temple", "mcts", {"iterations": 8, "rollout_depth": 6, "opponents": "search"}),
    ],
)
def test_agents_replay_from_their_seed(game_name: str, agent: str,
                                       settings: dict[str, object]) -> None:
    if game_name not in game_names():
        pytest.skip(f"{game_name} is not registered")
    first = _play(game_name, agent, 3, **settings)
    assert first == _play(game_name, agent, 3, **settings)
    assert len(first) > 0


@pytest.mark.parametrize("game_name", ["pacal", "temple"])
def test_mcts_time_budget_answers_in_time(game_name: str) -> None:
    game = load(game_name)
    state = game.new_initial_state(5)
    agent = make_agent("mcts", seed=1, time=0.2)
    started = time.perf_counter()
    action = agent.step(state)
    assert time.perf_counter() - started < 1.0
    assert action in state.legal_actions()


def test_mcts_rejects_bad_options() -> None:
    for bad in ({"rollout": "clever"}, {"iterations": 0}, {"time": -1.0},
                {"rollout_depth": "soon"}, {"widen": 0}, {"opponents": "greedy"}):
        with pytest.raises(ValueError):
            make_agent("mcts", **bad)  # type: ignore[arg-type]
    with pytest.raises(OptionError):
        make_agent("nobody")


def test_mcts_cpu_clock_counts_only_the_cpu_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """`clock=cpu`: the time budget is spent on this process's CPU seconds, not the
    wall clock's; a busy machine, which stretches the wall clock, does not cut the
    search short."""
    from pyramids.agents import mcts

    ticks = iter(0.25 * n for n in range(1000))

    def wall() -> float:
        raise AssertionError("clock=cpu read the wall clock")

    monkeypatch.setitem(mcts.CLOCKS, "wall", wall)
    monkeypatch.setitem(mcts.CLOCKS, "cpu", lambda: next(ticks))
    agent = make_agent("mcts", seed=1, time=1.0, clock="cpu")
    state = load("temple", players=2).new_initial_state(3)
    assert len(state.legal_actions()) > 1
    assert agent.step(state) in state.legal_actions()
    # Deadline 0 + 1.0: the clock reads 0.25, 0.5, 0.75 after the first three
    # iterations and 1.0 after the fourth.
    assert agent.last_iterations == 4  # type: ignore[attr-defined]
    # Plain `time` keeps the wall clock (what a person waiting for the move feels).
    assert mcts.MctsAgent(time=1.0).seconds is wall


def test_mcts_unknown_clock_is_refused_with_the_choices() -> None:
    from pyramids.agents.mcts import CLOCKS

    with pytest.raises(OptionError) as refused:
        make_agent("mcts", time=0.5, clock="gpu")
    message = str(refused.value)
    assert "clock" in message and "'gpu'" in message
    assert "wall" in message and "cpu" in message
    planner = make_agent("planner", clock="cpu", time=0.5)
    # The planner passes `mcts` options on, for the games it leaves to mcts.
    assert planner.fallback.seconds is CLOCKS["cpu"]  # type: ignore[attr-defined]


@pytest.mark.parametrize("opponents", ["rollout", "search"])
def test_mcts_opponent_model_decides_who_the_tree_searches(opponents: str) -> None:
    """With `opponents=rollout` the other seats play the rollout policy inside the
    tree (and only they, with rollouts cut at once); with `search` the tree
    chooses every seat's moves and never asks the policy."""
    from pyramids.agents.greedy import greedy_action
    from pyramids.agents.mcts import MctsAgent

    game = load("temple", players=4)
    state = game.new_initial_state(11)
    while len(state.legal_actions()) < 2 or state.current_player != 0:
        state.apply_action(greedy_action(state, Rng(1)))
    asked: list[int] = []

    def policy(world: object, rng: Rng) -> int:
        asked.append(world.current_player)  # type: ignore[attr-defined]
        return greedy_action(world, rng)  # type: ignore[arg-type]

    agent = MctsAgent(seed=2, iterations=30, rollout_depth=0, opponents=opponents)
    agent._policy = policy
    root = agent.search(state)
    assert sum(child.visits for child in root.children.values()) == 30
    if opponents == "rollout":
        assert asked and set(asked) <= {1, 2, 3}
    else:
        assert asked == []


def test_temple_mcts_models_greedy_opponents_and_plays_to_the_end_by_default() -> None:
    from pyramids.agents.mcts import MctsAgent

    agent = MctsAgent(seed=0, iterations=1)
    assert agent._models_opponents("temple")
    assert not agent._models_opponents("pacal")
    assert agent._evaluator("temple")[1] is None  # rollouts to the end
    assert not MctsAgent(opponents="search")._models_opponents("temple")


def test_greedy_falls_back_to_random_for_a_game_without_a_policy() -> None:
    from tests.toy_games import load_toy

    game = load_toy("toy-draw", players=2)
    final = play_game(game, [make_agent("greedy", seed=1), make_agent("greedy", seed=2)], 4)
    assert final.is_terminal()


def test_pacal_solo_planner_wins_more_than_random() -> None:
    # A small, fixed sample: random never completes a pyramid (it fills low
    # fields first), the planner often does.
    wins = {"random": 0, "planner": 0}
    for seed in range(8):
        for name in wins:
            agent = make_agent(name, seed=seed, rollouts=6) if name == "planner" else \
                make_agent(name, seed=seed)
            final = play_game(load("pacal-solo"), [agent], seed)
            wins[name] += final.returns()[0] > 0
    assert wins["planner"] > wins["random"]


def test_mahjongg_planner_follows_the_solver_to_a_cleared_board() -> None:
    game = load("mahjongg", layout="giza-step-ramp")  # deal=solvable by default
    for seed in (1, 2):
        planner = make_agent("planner", seed=seed)
        final = play_game(game, [planner], seed)
        assert final.returns() == [1.0]
        assert final.view(0)["tiles_left"] == 0


def test_mahjongg_planner_does_not_plan_with_hidden_faces() -> None:
    from pyramids.agents.mahjongg_planning import next_action

    state = load("mahjongg", layout="great-zenith", mode="time-attack").new_initial_state(3)
    assert any(t["face"] is None for t in state.view(0)["tiles"])
    planner = make_agent("planner", seed=1)
    assert next_action(planner, state) is None  # type: ignore[arg-type]
    assert planner.step(state) in state.legal_actions()


def test_pacal_solo_evaluation_counts_dead_values() -> None:
    from pyramids.agents.greedy.pacal import availability, dead_values, evaluate

    counts = availability(set(range(1, 51)) - {45, 40, 30, 44, 20})
    # Field 1 shows 45 over 40, field 2 shows 30 over 20: the 12 values to come
    # between 30 and 45 fit nowhere, nor do the 5 above 45 (field 1 is covered).
    pyramid = ([45, 30, 0, 0, 0, 0, 0, 0, 0, 0], [40, 20, 0, 0, 0, 0, 0, 0, 0, 0])
    assert dead_values(pyramid, counts) == 12 + 5
    open_top = ([45, 30, 0, 0, 0, 0, 0, 0, 0, 0], [0, 20, 0, 0, 0, 0, 0, 0, 0, 0])
    assert dead_values(open_top, counts) == 0
    # Only the solo evaluation charges for them.
    assert evaluate(pyramid, counts, True) < evaluate(open_top, counts, True) - 0.3
    assert evaluate(pyramid, counts) == pytest.approx(evaluate(open_top, counts) - 0.3)


def test_pacal_solo_planner_switches_from_greedy_only_when_clearly_better() -> None:
    from pyramids.agents.planner import LOST, _clearly_better, _outlook

    # 0 draws is a completion (the placed card filled the pyramid), not a loss.
    assert _outlook([0, LOST], drawn=9)[0] == 0.5
    greedy = [LOST] * 20 + [12] * 20
    assert _clearly_better([12] * 40, greedy)  # 20 orders to 0: z = 4.5
    assert not _clearly_better([12] * 2 + [LOST] * 18 + [12] * 20, greedy)  # 2 to 0
    assert not _clearly_better(list(greedy), greedy)


def test_temple_greedy_swap_gain_is_the_change_in_hand_value() -> None:
    """The swap rule scores a swap by the two kinds it changes (each kind's change
    worked out once a turn); on every swap of real games that must equal the whole
    hand's value after the swap minus before."""
    from pyramids.agents.greedy import greedy_action
    from pyramids.agents.greedy.temple import action_scores, hand_value

    checked = 0
    for players in (2, 4, 5):
        game = load("temple", players=players)
        for index in range(6):
            state = game.new_initial_state(500 + index)
            rng = Rng(index)
            while not state.is_terminal():
                if state.view(None)["phase"] == "swap":
                    view = state.view(state.current_player)
                    hand, level = view["hand"], view["level"]
                    for action, gain in action_scores(state).items():
                        words = state.action_to_string(action).split()
                        if words[1] == "pass":
                            assert gain == 0.0
                            continue
                        give, take = words[1].upper(), view["swap_zone"][int(words[2]) - 1]
                        after = dict(hand)
                        after[give] -= 1
                        after[take] = after.get(take, 0) + 1
                        change = hand_value(after, level) - hand_value(hand, level)
                        assert abs(gain - change) < 1e-9, (hand, give, take)
                        checked += 1
                state.apply_action(greedy_action(state, rng))
    assert checked > 2000


def test_temple_greedy_reads_every_action_string_once_and_rightly() -> None:
    """The rule reads each action's string once a game (`_moves_of`); what it reads
    must say the string back, for every action of several swap-zone sizes."""
    from pyramids.agents.greedy.temple import _moves_of

    for swap_size in (1, 2, 4):
        game = load("temple", players=3, swap_size=swap_size)
        moves = _moves_of(game.codec)
        assert len(moves) == game.num_distinct_actions
        for action, move in enumerate(moves):
            if move.verb == "swap":
                said = "swap pass" if move.given is None else f"swap {move.given} {move.slot + 1}"
            elif move.verb == "set":
                said = f"set {move.cards} {move.pairs}"
            else:
                said = move.verb
            assert said.lower() == game.codec.to_string(action).lower()
        assert {move.verb for move in moves} == {"swap", "summon", "pass", "set"}
    with pytest.raises(TypeError, match="Temple"):
        from pyramids.agents.greedy.temple import choose
        choose(load("pacal").new_initial_state(1), Rng(1))


def test_temple_greedy_plays_a_best_move_by_its_own_scores() -> None:
    """`action_scores` gives every legal move the score `choose` decides by, so the
    move greedy plays is always among the best scored (what `easy`'s slips rank),
    in every phase, at 2 to 5 players."""
    from pyramids.agents.greedy.temple import action_scores, choose

    phases: dict[str, int] = {}
    for players in (2, 3, 4, 5):
        game = load("temple", players=players)
        for seed in range(6):
            state = game.new_initial_state(seed)
            rng = Rng(f"temple-scores-{players}-{seed}")
            while not state.is_terminal():
                scores = action_scores(state)
                assert set(scores) == set(state.legal_actions())
                action = choose(state, rng)
                assert scores[action] >= max(scores.values()) - 1e-9
                phase = state.view(None)["phase"]
                phases[phase] = phases.get(phase, 0) + 1
                state.apply_action(action)
    assert {"swap", "summon", "set"} <= set(phases)


def test_temple_summoning_is_scored_by_the_units_expected() -> None:
    from pyramids.agents.greedy.temple import action_scores, my_units

    state = load("temple", players=3).new_initial_state(2)
    while state.view(None)["phase"] != "summon" or "summon" not in \
            state.legal_action_strings():
        state.apply_action(state.legal_actions()[0])
    me = state.current_player
    counts = state.counting_view()
    scores = {state.action_to_string(a): s for a, s in action_scores(state).items()}
    assert scores["pass"] == 0.0
    if my_units(counts.hand, counts.level, use_jewels=counts.level >= 3) == 0:
        assert scores["summon"] < 0  # nothing of its own to set: never summon
    elif counts.treasure[me] == 0:
        assert scores["summon"] >= 0.5  # free to summon
    else:
        assert scores["summon"] != 0.0


def test_temple_summon_margin_worked_by_hand() -> None:
    """Three seats, level 4, seat 1 to move with two level-4 cards and two jewels:
    its own 3 units; seat 2 holds 5 cards, one known level-4 card, and seat 3
    holds 4 unknown ones; of the 20 unseen cards 4 are level-4 cards and 2 jewels.
    Seat 2 is expected to set 1 + 4 x 4/20 cards and 4 x 2/20 jewels (half a unit
    a jewel): 2.0 units; seat 3 0.8 + 0.2 = 1.0. 3 + 2 + 1 = 6 units, 1 more than a
    level needs: summon, by 1 + 0.5 (the half unit that keeps a slip from a tie).
    Without the jewels (2 units of its own) and with seat 3's cards all known to
    be other kinds, the table is 1 short (2 + 2 + 0): pass, by 1 + 0.5, unless
    summoning is free (0 treasure: +0.5)."""
    from pyramids.agents.greedy.temple import _summon_margin, expected_other_units
    from pyramids.games.temple.state import CountingView

    def counts(**given: int) -> list[int]:
        kinds = {"L4": 3, "J": 9, "L5": 4}
        values = [0] * 10
        for name, n in given.items():
            values[kinds[name]] = n
        return values

    unseen = counts(L4=4, J=2, L5=14)
    table = CountingView(mover=0, level=4, hand=counts(L4=2, J=2), treasure=[3, 2, 2],
                         hand_sizes=[4, 5, 4], known=[counts(L4=2), counts(L4=1), counts()],
                         unseen=unseen)
    assert abs(expected_other_units(table) - 3.0) < 1e-9
    assert abs(_summon_margin(table) - 1.5) < 1e-9
    short = table._replace(hand=counts(L4=2), hand_sizes=[2, 5, 4],
                           known=[counts(L4=2), counts(L4=1), counts(L5=4)])
    assert abs(expected_other_units(short) - 2.0) < 1e-9
    assert abs(_summon_margin(short) - (-1.5)) < 1e-9
    assert abs(_summon_margin(short._replace(treasure=[0, 2, 2])) - 0.5) < 1e-9
    assert _summon_margin(table._replace(hand=counts(L5=2, J=1))) == -5.0  # nothing to set

def test_easy_in_temple_slips_to_a_plausible_swap_not_any_move() -> None:
    from pyramids.agents.greedy import GreedyAgent, greedy_action, scorer_for

    state = load("temple", players=4).new_initial_state(3)
    while state.view(None)["phase"] != "swap" or len(state.legal_actions()) < 8:
        state.apply_action(greedy_action(state, Rng(5)))
    scorer = scorer_for("temple")
    assert scorer is not None
    scores = scorer(state)
    best = greedy_action(state, Rng(0))
    ranked = sorted((a for a in scores if a != best), key=lambda a: (-scores[a], a))
    slips = {GreedyAgent(seed=s, mistakes=1.0).step(state) for s in range(40)}
    assert best not in slips and len(slips) > 1
    # One of the three next best moves (ties at the third score count too).
    third = scores[ranked[2]]
    assert all(scores[slip] >= third for slip in slips)
    assert any(scores[a] < third for a in ranked)  # moves a slip never makes


def test_mahjongg_greedy_behind_at_a_table_takes_a_pair_rather_than_pass() -> None:
    """A seat behind that passes lets the leader pass back and end the game (every seat
    passed in a round): greedy did so when each pair it could take stranded the last
    two of a kind, and lost games with 134 tiles on the board. Ahead, it may pass."""
    from pyramids.agents.greedy.mahjongg import action_scores, choose

    game = load("mahjongg", players=2)
    choices: dict[bool, list[str]] = {True: [], False: []}  # behind -> moves made
    for seed in range(16):
        state = game.new_initial_state(seed)
        rng = Rng(seed)
        while not state.is_terminal():
            names = {a: state.action_to_string(a) for a in state.legal_actions()}
            pairs = [a for a, name in names.items() if name.startswith("match ")]
            action = choose(state, rng)
            scores = action_scores(state)
            if pairs and max(scores[a] for a in pairs) < -20.0:  # below a plain pass
                seat = state.current_player
                points = state.view(seat)["scores"]
                behind = any(points[other] >= points[seat]
                             for other in range(2) if other != seat)
                choices[behind].append(names[action])
            state.apply_action(action)
    assert choices[True] and all(move.startswith("match ") for move in choices[True])
    assert choices[False] and all(move == "pass" for move in choices[False])


FAVORS = ("shift ", "reveal ", "reshuffle", "sight", "hint", "undo")


def _mahjongg_moves(level: str, seeds: range, **options: object
                    ) -> list[tuple[dict[int, float], list[int], int, str]]:
    """Every move of seeded Mahjongg games played by `level`: the greedy scores, the
    legal pairs, the move and its name."""
    from pyramids.agents.greedy.mahjongg import action_scores

    game = load("mahjongg", **options)
    moves = []
    for seed in seeds:
        state = game.new_initial_state(seed)
        agent = make_agent(level, seed=seed)
        while not state.is_terminal():
            scores = action_scores(state)
            pairs = [a for a in state.legal_actions()
                     if state.action_to_string(a).startswith("match ")]
            action = agent.step(state)
            moves.append((scores, pairs, action, state.action_to_string(action)))
            state.apply_action(action)
    return moves


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_mahjongg_slips_never_give_up_with_a_pair_on_the_board(level: str) -> None:
    """Alone one pass ends the game: easy and medium slipped to `pass` (and spent
    tokens on favors the rule scores as useless) with a pair legal, and lost boards
    a person would have played on. A slip goes to another pair."""
    moves = _mahjongg_moves(level, range(40), layout="giza-step-ramp")
    with_a_pair = [name for _, pairs, _, name in moves if pairs]
    assert len(with_a_pair) > 500
    assert all(name.startswith("match ") or name == "finish" for name in with_a_pair)


def test_mahjongg_easy_slips_at_its_rate_to_another_pair() -> None:
    """Where one pair scores best and another is legal, easy (`mistakes=0.5`) plays a
    worse pair about half the time, and never anything but a pair."""
    moves = _mahjongg_moves("easy", range(40), layout="giza-step-ramp")
    choices = []
    for scores, pairs, action, name in moves:
        top = max((scores[a] for a in pairs), default=None)
        if (len(pairs) >= 2 and top == max(scores.values())  # not `finish`
                and sum(1 for a in pairs if scores[a] == top) == 1):
            assert name.startswith("match ")
            choices.append(scores[action] < top)
    assert len(choices) > 400
    assert 0.4 < sum(choices) / len(choices) < 0.6


def test_mahjongg_slips_at_a_table_never_pass_or_spend_a_favor_with_a_pair() -> None:
    """At a table medium slipped to a pass or a favor some three times a game with a
    pair legal. A pass there is greedy's own choice only (ahead, when every pair
    strands the last two of a kind), never a slip."""
    moves = _mahjongg_moves("medium", range(8), players=2)
    with_a_pair = [(scores, action, name) for scores, pairs, action, name in moves if pairs]
    assert len(with_a_pair) > 300
    assert not any(name.startswith(FAVORS) for _, _, name in with_a_pair)
    assert all(scores[action] == max(scores.values())
               for scores, action, name in with_a_pair if name == "pass")


@pytest.mark.parametrize("game_name, options", [
    ("pacal", {"rounds_to_win": 1, "max_rounds": 1}), ("pacal-solo", {}),
    ("temple", {"players": 3})])
def test_slips_elsewhere_are_the_generic_rule(game_name: str, options: dict[str, object]
                                              ) -> None:
    """Only a game whose module narrows its slips (`slip_moves`: Mahjongg) slips
    otherwise: Pacal's and Temple's go, as before, to one of the three next best
    moves by the rule's scores, weighted 1, 1/2, 1/3."""
    from pyramids.agents.greedy import GreedyAgent, greedy_action, scorer_for, slip_filter

    assert slip_filter(game_name) is None
    scorer = scorer_for(game_name)
    assert scorer is not None

    def generic_slip(state: object, seed: int) -> int:
        rng = Rng(seed)
        rng.random()  # the draw that decides a slip
        best = greedy_action(state, rng)  # type: ignore[arg-type]
        scores = scorer(state)  # type: ignore[arg-type]
        ranked = sorted((a for a in state.legal_actions()  # type: ignore[attr-defined]
                         if a != best and scores.get(a, -1e18) > -1e17),
                        key=lambda a: (-scores.get(a, -1e18), a))[:3]
        if not ranked:
            return greedy_action(state, rng)  # type: ignore[arg-type]
        pick = rng.random() * sum(1.0 / (rank + 1) for rank in range(len(ranked)))
        for rank, action in enumerate(ranked):
            pick -= 1.0 / (rank + 1)
            if pick <= 0:
                return action
        return ranked[-1]

    state = load(game_name, **options).new_initial_state(5)
    compared = 0
    while not state.is_terminal() and compared < 40:
        if len(state.legal_actions()) > 1:
            seed = 100 + compared
            assert GreedyAgent(seed=seed, mistakes=1.0).step(state) == generic_slip(state, seed)
            compared += 1
        state.apply_action(greedy_action(state, Rng(compared)))
    assert compared >= 10
