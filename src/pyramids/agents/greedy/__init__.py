"""`greedy`: a one-move-deep heuristic player per game, from the strategy notes.

Each game has its own module (here for the built-in games; anywhere for a
plugin, named by its manifest) with `choose(state, rng) -> action`, working
from `state.view(player)` and `state.legal_actions()` only (plus trying an
action on a clone of the state, which shows nothing hidden). `greedy_action`
picks the module by the game's name; a game without one is played at random.
Ties between equally good actions are broken with the agent's own seeded
generator, so a seed replays a game exactly.
"""

from __future__ import annotations

from collections.abc import Callable

from pyramids.agents.base import not_in_game, not_valid, number_between
from pyramids.core import Rng, State, companion_of

Policy = Callable[[State, Rng], int]

_policies: dict[str, Policy] = {}


def policy_for(game_name: str) -> Policy | None:
    """The greedy policy for a game, or None when it has none."""
    if game_name not in _policies:
        module = _module_for(game_name)
        if module is None:
            return None  # no policy (yet): play at random
        _policies[game_name] = module.choose  # type: ignore[attr-defined]
    return _policies[game_name]


def _module_for(game_name: str) -> object | None:
    module: object | None = companion_of(game_name, "greedy_policy")
    return module


def evaluator_for(game_name: str) -> tuple[Callable[[State], list[float]] | None, int | None]:
    """A game's position evaluator for search, and the rollout depth it suits (or Nones)."""
    module = _module_for(game_name)
    if game_name not in getattr(module, "SEARCH_GAMES", ()):
        return None, None
    evaluate = getattr(module, "evaluate_state", None)
    depth = getattr(module, "ROLLOUT_DEPTH", None)
    return evaluate, depth if evaluate is not None else None


def scorer_for(game_name: str, policy: str = "greedy"
               ) -> Callable[[State], dict[int, float]] | None:
    """A game's `action_scores(state)`: each legal action's greedy score (or None);
    for another `policy`, the scorer its module names in `SCORERS`."""
    module = _module_for(game_name)
    if policy != "greedy":
        scorer: Callable[[State], dict[int, float]] | None = (
            getattr(module, "SCORERS", None) or {}).get(policy)
        return scorer
    return getattr(module, "action_scores", None)


def search_width(game_name: str) -> int | None:
    """How many of the greedy rule's best moves a search should consider (None: all)."""
    return getattr(_module_for(game_name), "SEARCH_WIDTH", None)


def slip_filter(game_name: str
                ) -> Callable[[State, dict[int, float]], list[int]] | None:
    """A game's `slip_moves(state, scores)`: of the legal moves, those a slip may go to
    (a plausible mistake, not one a person would not make); None: any move its
    greedy rule scores."""
    found: Callable[[State, dict[int, float]], list[int]] | None = getattr(
        _module_for(game_name), "slip_moves", None)
    return found


def unsearched_moves(game_name: str) -> frozenset[str]:
    """Moves (by their action string) a search never tries: `UNSEARCHED` in the game's module."""
    return frozenset(getattr(_module_for(game_name), "UNSEARCHED", ()))


def opponent_model(game_name: str) -> str | None:
    """How a search should model the other seats (`OPPONENTS`: "rollout" or "search")."""
    module = _module_for(game_name)
    if game_name not in getattr(module, "SEARCH_GAMES", ()):
        return None
    return getattr(module, "OPPONENTS", None)


def stage_for(game_name: str) -> Callable[[State], object] | None:
    """A game's `rollout_stage(state)`: rollouts stop and evaluate when it changes."""
    module = _module_for(game_name)
    if game_name not in getattr(module, "SEARCH_GAMES", ()):
        return None
    return getattr(module, "rollout_stage", None)


def random_action(state: State, rng: Rng) -> int:
    legal = state.legal_actions()
    return legal[rng.randrange(len(legal))]


def greedy_action(state: State, rng: Rng) -> int:
    """The greedy move for the player to move (random for a game with no policy)."""
    policy = policy_for(state.game.name)
    if policy is None:
        return random_action(state, rng)
    return policy(state, rng)


MISTAKE_CHOICES = 3  # a mistake plays one of the next best moves, not any move


def named_policy(game_name: str, policy: str) -> Policy | None:
    """A game's other policy by name (the module's `POLICIES`), None when it has none."""
    policies = getattr(_module_for(game_name), "POLICIES", None) or {}
    found: Policy | None = policies.get(policy)
    return found


def _module_names(game_name: str, attribute: str) -> set[str]:
    """The names a game's module lists in `attribute` (`POLICIES`, `SCORERS`, ...)."""
    return set(getattr(_module_for(game_name), attribute, None) or ())


def _names_in_any_game(attribute: str) -> set[str]:
    """The names some registered game's module lists in `attribute`."""
    from pyramids.core import game_names

    names: set[str] = set()
    for game_name in game_names():
        names |= _module_names(game_name, attribute)
    return names


def slow_policies() -> set[str]:
    """The policies some registered game's module marks as searching (`SLOW_POLICIES`):
    a move takes milliseconds, too long for a server's event loop."""
    return _names_in_any_game("SLOW_POLICIES")


def known_policies() -> set[str]:
    """Every policy name some registered game's module names in `POLICIES`."""
    return {"greedy"} | _names_in_any_game("POLICIES")


def game_policies(game_name: str) -> list[str]:
    """The policies a game's module names in `POLICIES`, besides `greedy`, sorted."""
    return sorted(_module_names(game_name, "POLICIES") - {"greedy"})


def game_scorers(game_name: str) -> list[str]:
    """The scorers a game's module names in `SCORERS`, sorted (for `mcts:guide`)."""
    return sorted(_module_names(game_name, "SCORERS"))


def known_scorers() -> set[str]:
    """Every scorer name some registered game's module names in `SCORERS`."""
    return _names_in_any_game("SCORERS")


class GreedyAgent:
    """The greedy rule; options:

    - `policy`: another policy the game's module names in `POLICIES` (Pacal:
      `sharp`, Pacal solo: `lookahead`); `greedy` (the default) is the module's `choose`;
    - `mistakes`: the chance of a human-like slip each move: one of the
      `MISTAKE_CHOICES` next best moves by the rule's own scores (a plausible
      move, not a random one), or any other move where the game's rule gives no
      scores. A game's module may narrow the moves a slip considers
      (`slip_moves(state, scores)`: Mahjongg never slips to a pass or to a move
      its rule treats as unthinkable).
    """

    name = "greedy"

    def __init__(self, seed: int | None = 0, mistakes: float = 0.0,
                 policy: str = "greedy") -> None:
        self.mistakes = number_between("greedy", "mistakes", mistakes, 0, 1)
        if policy not in known_policies():
            raise not_valid("greedy", "policy", policy, sorted(known_policies()))
        self.rng = Rng(seed)
        self.policy = policy
        #: No search: where the game's engine is quick (`GameManifest.quick_engine`), a
        #: step costs about as much as a few moves, so a server may make it on its event
        #: loop instead of handing it to a thread (pyramids.web.bots). A policy that
        #: searches (a module's `SLOW_POLICIES`) is not quick.
        self.quick = policy not in slow_policies()

    def reseed(self, seed: int | None) -> None:
        """Play on as a new greedy agent made with `seed` (its ties and slips)."""
        self.rng = Rng(seed)

    def step(self, state: State) -> int:
        if self.mistakes and self.rng.random() < self.mistakes:
            slip = self._slip(state)
            if slip is not None:
                return slip
        if self.policy != "greedy":
            chosen = named_policy(state.game.name, self.policy)
            if chosen is None:
                raise not_in_game("greedy", "policy", self.policy, state.game.name,
                                  ["greedy", *game_policies(state.game.name)])
            return chosen(state, self.rng)
        return greedy_action(state, self.rng)

    def _slip(self, state: State) -> int | None:
        legal = state.legal_actions()
        if len(legal) < 2:
            return None
        best = greedy_action(state, self.rng)
        scorer = scorer_for(state.game.name)
        if scorer is None:
            others = [a for a in legal if a != best]
            return others[self.rng.randrange(len(others))]
        scores = scorer(state)
        worth = slip_filter(state.game.name)
        candidates = legal if worth is None else worth(state, scores)
        ranked = sorted((a for a in candidates if a != best and scores.get(a, -1e18) > -1e17),
                        key=lambda a: (-scores.get(a, -1e18), a))[:MISTAKE_CHOICES]
        if not ranked:
            return None
        # The second best move most often, then the third, ...
        weights = [1.0 / (rank + 1) for rank in range(len(ranked))]
        pick = self.rng.random() * sum(weights)
        for action, weight in zip(ranked, weights, strict=True):
            pick -= weight
            if pick <= 0:
                return action
        return ranked[-1]


def best_by(actions: list[int], score: Callable[[int], float], rng: Rng) -> int:
    """The action with the highest score; ties broken at random with `rng`."""
    scored = [(score(action), action) for action in actions]
    top = max(value for value, _ in scored)
    if top == -float("inf"):
        best = [action for _, action in scored]  # all hopeless: any will do
    else:
        best = [action for value, action in scored if value >= top - 1e-9]
    return best[rng.randrange(len(best))]
