"""`mcts`: information-set Monte Carlo tree search (single-observer ISMCTS).

Each iteration deals a fresh determinization with `state.resample_hidden(me,
rng)` (so the agent never uses what it cannot see), walks one shared tree keyed
by actions with UCT, adds one node, plays a rollout (random, or the `greedy`
policy) and backs the returns up for every seat. Because the legal actions
differ between determinizations, a child's exploration term counts how often
it was *available* rather than its parent's visits (Cowling, Powley and
Whitehouse 2012). Returns are rescaled to [0, 1] with the smallest and
largest seen so far, so scores of any size work with one exploration constant.

Game knowledge, all optional and supplied by the game's greedy module
(`pyramids.agents.greedy.<game>`), working from views only:
- `rollout` (default `greedy`): the rollout policy, `greedy`, `random` or a
  policy the game's module names in `POLICIES` (Pacal: `sharp`);
- `widen` (`auto`: the module's `SEARCH_WIDTH`): at a node with more moves than
  that, search only the greedy rule's best ones (Pacal's 105 offers become 3);
  `all` searches every move; `guide` names the rule whose scores choose the
  root's moves (`greedy`, or a scorer the module names in `SCORERS`, Pacal:
  `sharp`; deeper nodes keep the greedy rule's, which is cheaper);
- `rollout_depth` (`auto`: the module's `ROLLOUT_DEPTH`, or to the end): a
  rollout stops after that many moves, or when the module's `rollout_stage`
  changes (Pacal: at the end of the round), and the module's `evaluate_state`
  estimates the returns there; `end` plays every rollout to the end;
- `opponents` (`auto`: the module's `OPPONENTS`, or `search`): `search` searches
  every seat's moves in the tree (each seat maximising its own return);
  `rollout` has the other seats play the rollout policy inside the tree as well,
  so the tree branches on the searching player's moves only and is as deep in
  them as the budget allows (Temple: the other seats are expected to play the
  greedy rule).

Budget: `iterations=N` is exact and, with a seed, deterministic; `time=S` stops
after S seconds of thinking (the agent reads the clock; engines never do). When
neither is given the agent thinks for `DEFAULT_TIME` seconds, which answers
within one second a move. `clock` says which seconds count: `wall` (the default,
what a person waiting for the move feels) or `cpu`, this process's own CPU time,
so that a busy machine does not shorten the search: the agent thinks as it would
on a free core (for measurements that share a machine with other work).
"""

from __future__ import annotations

import math
import time as clock
from collections.abc import Callable

from pyramids.agents.base import (
    finite_number,
    not_in_game,
    not_valid,
    number_between,
    whole_number,
)
from pyramids.core import Game, OptionError, Rng, State
from pyramids.core.errors import N_, Words

DEFAULT_TIME = 0.8
ROLLOUT_POLICIES = ("random", "greedy")
OPPONENT_MODELS = ("auto", "search", "rollout")
#: What `time` counts: the wall clock, or the CPU time of this process.
CLOCKS: dict[str, Callable[[], float]] = {"wall": clock.perf_counter, "cpu": clock.process_time}

Policy = Callable[[State, Rng], int]
Evaluator = Callable[[State], list[float]]
Scorer = Callable[[State], dict[int, float]]


class Node:
    __slots__ = ("children", "visits", "available", "totals", "allowed")

    def __init__(self, players: int) -> None:
        self.children: dict[int, Node] = {}
        self.allowed: set[int] | None = None
        self.visits = 0
        self.available = 0
        self.totals = [0.0] * players


class MctsAgent:
    name = "mcts"

    def __init__(
        self,
        seed: int | None = 0,
        iterations: int | None = None,
        time: float | None = None,
        rollout: str = "greedy",
        exploration: float = 0.7,
        rollout_depth: int | str | None = "auto",
        widen: int | str | None = "auto",
        opponents: str = "auto",
        guide: str = "greedy",
        clock: str = "wall",
    ) -> None:
        from pyramids.agents.greedy import known_policies, known_scorers

        rollouts = [*ROLLOUT_POLICIES, *sorted(known_policies() - set(ROLLOUT_POLICIES))]
        if rollout not in rollouts:
            raise not_valid("mcts", "rollout", rollout, rollouts)
        if iterations is not None:
            iterations = whole_number("mcts", "iterations", iterations, 1)
        if time is not None:
            seconds = finite_number(time)
            if seconds is None or seconds <= 0:
                raise OptionError(N_("mcts: time must be a positive number of seconds, "
                                     "got {time}"), time=repr(time))
        exploration = number_between("mcts", "exploration", exploration, 0)
        if rollout_depth == "end":
            rollout_depth = None
        if not (rollout_depth is None or rollout_depth == "auto"
                or (isinstance(rollout_depth, int) and not isinstance(rollout_depth, bool)
                    and rollout_depth >= 0)):
            raise not_valid("mcts", "rollout_depth", rollout_depth, Words(N_(
                "a whole number of at least 0, 'end' (play rollouts to the end) or 'auto' "
                "(the game's own depth)")))
        if not (widen is None or widen in ("auto", "all")
                or (isinstance(widen, int) and not isinstance(widen, bool) and widen >= 1)):
            raise not_valid("mcts", "widen", widen, Words(N_(
                "a whole number of at least 1 (search only that many of the greedy rule's "
                "best moves at each node), 'auto' or 'all'")))
        if opponents not in OPPONENT_MODELS:
            raise not_valid("mcts", "opponents", opponents, OPPONENT_MODELS)
        guides = ["greedy", *sorted(known_scorers())]
        if guide not in guides:
            raise not_valid("mcts", "guide", guide, guides)
        if clock not in CLOCKS:
            raise not_valid("mcts", "clock", clock, tuple(CLOCKS))
        self.rng = Rng(seed)
        self.iterations = iterations
        self.time = DEFAULT_TIME if iterations is None and time is None else time
        self.thinks_by_clock = self.time is not None
        self.seconds = CLOCKS[clock]
        self.rollout = rollout
        self.exploration = exploration
        self.rollout_depth: int | str | None = rollout_depth
        self.widen: int | str | None = None if widen == "all" else widen
        self.opponents = opponents
        self.guide = guide
        self._guides: dict[str, Scorer] = {}
        self._root: Node | None = None
        self._modelled: dict[str, bool] = {}
        self._scorers: dict[str, tuple[Scorer | None, int | None]] = {}
        # id(game) -> (the game, its unsearched action numbers); the game is kept so
        # that its id cannot be reused while the entry lives.
        self._unsearched_by_game: dict[int, tuple[Game, frozenset[int]]] = {}
        self.last_iterations = 0
        self._policy: Policy | None = None
        self._evaluators: dict[str, tuple[Evaluator | None, int | None]] = {}
        self._stages: dict[str, Callable[[State], object]] = {}

    def reseed(self, seed: int | None) -> None:
        """Play on as a new agent made with `seed`: a new generator, no tree kept. The
        caches of each game's scorers, evaluators and policies depend on the game
        only, and stay."""
        self.rng = Rng(seed)
        self._root = None
        self.last_iterations = 0

    def _rollout_policy(self, game_name: str = "") -> Policy:
        if self._policy is None:
            if self.rollout == "greedy":
                from pyramids.agents.greedy import greedy_action

                self._policy = greedy_action
            elif self.rollout == "random":
                self._policy = _random_action
            else:
                from pyramids.agents.greedy import named_policy

                policy = named_policy(game_name, self.rollout)
                if policy is None:
                    from pyramids.agents.greedy import game_policies

                    raise not_in_game("mcts", "rollout", self.rollout, game_name,
                                      [*ROLLOUT_POLICIES, *game_policies(game_name)])
                self._policy = policy
        return self._policy

    def step(self, state: State) -> int:
        legal = state.legal_actions()
        if not legal:
            raise ValueError("mcts: the game is over; there is no move to choose")
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        root = self.search(state)
        me = state.current_player
        # The most visited move; its mean return breaks ties, then the lowest action.
        return max(legal, key=lambda a: _visits_and_mean(root, a, me))

    def search(self, state: State) -> Node:
        """The search tree after the budget is spent (its root's children are the moves)."""
        me = state.current_player
        players = state.game.num_players
        root = Node(players)
        self._root = root
        bounds = [math.inf, -math.inf]
        deadline = None if self.time is None else self.seconds() + self.time
        done = 0
        while True:
            if self.iterations is not None and done >= self.iterations:
                break
            if deadline is not None and done > 0 and self.seconds() >= deadline:
                break
            self._iterate(state.resample_hidden(me, self.rng), root, players, bounds, me)
            done += 1
        self.last_iterations = done
        self._root = None  # the tree is the caller's; the agent does not keep it between moves
        return root

    def _iterate(self, world: State, root: Node, players: int, bounds: list[float],
                 me: int) -> None:
        node = root
        path = [root]
        modelled = self._models_opponents(world.game.name)
        policy = self._rollout_policy(world.game.name)
        while not world.is_terminal():
            mover = world.current_player
            if modelled and mover != me:
                world.apply_action(policy(world, self.rng))
                continue
            legal = self._candidates(node, world, world.legal_actions())
            untried = []
            for action in legal:
                child = node.children.get(action)
                if child is None:
                    untried.append(action)
                else:
                    child.available += 1
            if untried:
                action = untried[self.rng.randrange(len(untried))]
                child = Node(players)
                child.available = 1
                node.children[action] = child
                world.apply_action(action)
                path.append(child)
                break
            action = self._select(node, legal, mover, bounds)
            world.apply_action(action)
            node = node.children[action]
            path.append(node)
        outcome = self._play_out(world)
        low, high = min(outcome), max(outcome)
        bounds[0] = min(bounds[0], low)
        bounds[1] = max(bounds[1], high)
        for visited in path:
            visited.visits += 1
            totals = visited.totals
            for seat in range(players):
                totals[seat] += outcome[seat]

    def _models_opponents(self, game_name: str) -> bool:
        """Whether the other seats play the rollout policy inside the tree too."""
        if game_name not in self._modelled:
            choice = self.opponents
            if choice == "auto":
                from pyramids.agents.greedy import opponent_model

                choice = opponent_model(game_name) or "search"
            self._modelled[game_name] = choice == "rollout"
        return self._modelled[game_name]

    def _scorer(self, game_name: str) -> tuple[Scorer | None, int | None]:
        if game_name not in self._scorers:
            from pyramids.agents.greedy import game_scorers, scorer_for, search_width

            scorer = scorer_for(game_name)
            if self.guide != "greedy":
                guide = scorer_for(game_name, self.guide)
                if guide is None:
                    raise not_in_game("mcts", "guide", self.guide, game_name,
                                      ["greedy", *game_scorers(game_name)])
                self._guides[game_name] = guide
            width = search_width(game_name) if self.widen == "auto" else self.widen
            self._scorers[game_name] = (scorer, width if scorer is not None else None)  # type: ignore[assignment]
        return self._scorers[game_name]

    def _unsearched(self, world: State) -> frozenset[int]:
        """The action numbers of the game's `UNSEARCHED` moves, parsed once a game."""
        found = self._unsearched_by_game.get(id(world.game))
        if found is None:
            from pyramids.agents.greedy import unsearched_moves

            actions = set()
            for text in unsearched_moves(world.game.name):
                try:
                    actions.add(world.string_to_action(text))
                except ValueError:
                    continue  # not a move of this variant
            found = (world.game, frozenset(actions))
            # Only the game being played: a game object that came with a pickled state
            # (a server's bot process) is new at every move.
            self._unsearched_by_game = {id(world.game): found}
        return found[1]

    def _candidates(self, node: Node, world: State, legal: list[int]) -> list[int]:
        """The moves searched at a node: all, or the greedy rule's best `widen` ones.

        The set is chosen in the first determinization that reaches the node and
        grows whenever a later one offers none of its moves (another dealt hand).
        """
        unsearched = self._unsearched(world)
        if unsearched:
            searchable = [a for a in legal if a not in unsearched]
            legal = searchable or legal
        scorer, width = self._scorer(world.game.name)
        if scorer is None or width is None or len(legal) <= width:
            return legal
        if node.allowed is not None:
            kept = [a for a in legal if a in node.allowed]
            if kept:
                return kept
        guide = self._guides.get(world.game.name) if node is self._root else None
        scores = (guide or scorer)(world)
        ranked = sorted(legal, key=lambda a: (-scores.get(a, -math.inf), a))[:width]
        node.allowed = (node.allowed or set()) | set(ranked)
        return sorted(ranked)

    def _select(self, node: Node, legal: list[int], mover: int, bounds: list[float]) -> int:
        low, high = bounds
        span = high - low if high > low else 1.0
        best_action = legal[0]
        best_score = -math.inf
        for action in legal:
            child = node.children[action]
            mean = (child.totals[mover] / child.visits - low) / span
            score = mean + self.exploration * math.sqrt(math.log(child.available) / child.visits)
            if score > best_score:
                best_score = score
                best_action = action
        return best_action

    def _evaluator(self, game_name: str) -> tuple[Evaluator | None, int | None]:
        """The evaluator for cut rollouts and the depth of the cut (None: to the end)."""
        if game_name not in self._evaluators:
            from pyramids.agents.greedy import evaluator_for, stage_for

            evaluate, depth = evaluator_for(game_name)
            if self.rollout_depth != "auto":
                depth = self.rollout_depth  # type: ignore[assignment]
            else:
                stage = stage_for(game_name)
                if stage is not None:
                    self._stages[game_name] = stage
            self._evaluators[game_name] = (evaluate, depth)
        return self._evaluators[game_name]

    def _play_out(self, world: State) -> list[float]:
        policy = self._rollout_policy(world.game.name)
        evaluate, max_depth = self._evaluator(world.game.name)
        stage = self._stages.get(world.game.name)
        start = stage(world) if stage is not None and evaluate is not None else None
        depth = 0
        while not world.is_terminal():
            cut = max_depth is not None and depth >= max_depth
            if evaluate is not None and (cut or (stage is not None and stage(world) != start)):
                return evaluate(world)
            if cut:
                break
            world.apply_action(policy(world, self.rng))
            depth += 1
        return [float(r) for r in world.returns()]


def _visits_and_mean(root: Node, action: int, me: int) -> tuple[int, float]:
    child = root.children.get(action)
    if child is None or child.visits == 0:
        return (0, -math.inf)
    return (child.visits, child.totals[me] / child.visits)


def _random_action(state: State, rng: Rng) -> int:
    legal = state.legal_actions()
    return legal[rng.randrange(len(legal))]
