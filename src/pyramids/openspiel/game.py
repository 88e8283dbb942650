"""Every registered game as an OpenSpiel Python game, `pyramids_<game>` (dashes as underscores).

How the games map onto OpenSpiel:

- Chance is explicit and happens once: the first state is a chance node whose
  outcome `k` (uniform over `deals` outcomes, a game parameter, default 10000)
  is the seed of the deal, `new_initial_state(k)`. Everything random after it
  (draws, reshuffles) comes from the engine's seeded generator, so it is fixed
  by the deal and the actions, and a seed plus its actions replays exactly.
- The game's options are OpenSpiel game parameters with the same names and
  defaults (`pyspiel.load_game("pyramids_temple", {"players": 3})`).
- Imperfect information. The observation (tensor and string) is the seat's
  current `view(player)`: the tensor is the flat vector of
  `pyramids.rl.encoding`, the string the view as JSON. The information state is
  everything the seat has seen: its string is a digest of the seat's views after
  every action so far plus the current view (so it is perfect recall); its tensor
  is the current view's vector (a Markov summary, not perfect recall).
- Utility, per game instance (its options: mode, players): what the engine's
  `Game.returns_kind()` declares: zero-sum (Pacal, Temple, two-player
  competitive Mahjongg), identical (co-op Mahjongg: one result for the team), else
  general-sum (one-player games, Mahjongg at three or four seats). A game that
  declares nothing is probed: random games whose returns always sum to 0 make it
  zero-sum, always equal identical. Returns are in [-1, 1].
- The type per instance: a loaded game's `get_type()` (what OpenSpiel's
  algorithms read, and what a state's `get_game()`, a pickled or deserialized
  game, and C++ wrappers such as `cached_tree` answer) is the type of the
  options it was loaded with: their utility, and the seats these options allow
  (`min_num_players`..`max_num_players`: Mahjongg's time attack 1..1, co-op
  2..4). pyspiel registers one type per name, fixed at registration:
  `pyspiel.registered_games()` shows the default options' (Mahjongg's:
  general-sum, 1 to 4 seats), whatever a later `load_game` is given. Read the
  type from the loaded game, or `game_type(name, params)`.
- Saving: a state pickles its engine through `to_json`, so
  `pyspiel.serialize_game_and_state` round-trips it exactly.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from typing import Any

import numpy as np
import pyspiel

from pyramids.core import Game, GameManifest, OptionError, Rng, State, load, manifests
from pyramids.core.api import GENERAL_SUM, IDENTICAL, ZERO_SUM
from pyramids.rl.encoding import Encoder, encoder_for

DEFAULT_DEALS = 10_000
DEFAULT_MAX_GAME_LENGTH = 20_000
PROBE_GAMES = 8


_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)


def short_name(game: str) -> str:
    return "pyramids_" + game.replace("-", "_")


class _Engine:
    """Holds an engine state and pickles it as its exact saved form."""

    __slots__ = ("state",)

    def __init__(self, state: State) -> None:
        self.state = state

    def __reduce__(self) -> tuple[Any, ...]:
        game = self.state.game
        return (_restore, (game.name, game.options, self.state.to_json()))

    def __deepcopy__(self, memo: dict[int, Any]) -> _Engine:
        # OpenSpiel clones a Python state by deep-copying it: the engine's own clone is
        # the same state without the saved form's round trip (nor a new game from
        # load(), which cost Mahjongg 1.5 ms a clone).
        return _Engine(self.state.clone())


def _restore(name: str, options: dict[str, Any], text: str) -> _Engine:
    return _Engine(load(name, **options).state_from_json(text))


def _parameters(manifest: GameManifest) -> dict[str, Any]:
    game = manifest.factory()
    params: dict[str, Any] = dict(game.options)
    params["deals"] = DEFAULT_DEALS
    params["max_game_length"] = DEFAULT_MAX_GAME_LENGTH
    return params


_UTILITIES = {
    ZERO_SUM: pyspiel.GameType.Utility.ZERO_SUM,
    IDENTICAL: pyspiel.GameType.Utility.IDENTICAL,
    GENERAL_SUM: pyspiel.GameType.Utility.GENERAL_SUM,
}


def returns_kind(game: Game) -> str:
    """What `game` (with its options) declares of its returns; for a game that declares
    nothing, what `PROBE_GAMES` random games show: zero-sum when every game's returns
    sum to 0, identical when every seat got the same, else general-sum."""
    declared = game.returns_kind()
    if declared is not None:
        if declared not in _UTILITIES:
            raise ValueError(f"{game.name}: returns_kind() is {declared!r}; allowed: "
                             f"{', '.join(_UTILITIES)} or None")
        return declared
    if game.num_players < 2:
        return GENERAL_SUM
    rng = random.Random(0)
    zero_sum = identical = True
    for seed in range(PROBE_GAMES):
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        returns = state.returns()
        zero_sum = zero_sum and abs(sum(returns)) <= 1e-9
        identical = identical and len(set(returns)) == 1
    # A game whose every return was 0 is both: zero-sum is the stronger promise.
    return ZERO_SUM if zero_sum else IDENTICAL if identical else GENERAL_SUM


def players_range(manifest: GameManifest, options: dict[str, Any]) -> tuple[int, int]:
    """The fewest and the most seats a game with `options` (its other options: a mode)
    may be played with: the counts in the manifest's range that its factory accepts
    with these options (Mahjongg's time attack: 1 to 1, co-op: 2 to 4); the game's own
    count for a game without a players option."""
    low, high = manifest.players_range()
    option = manifest.players_option
    if option is None or low == high:
        return low, high
    allowed = []
    for count in range(low, high + 1):
        try:
            manifest.factory(**{**options, option: count})
        except (OptionError, ValueError):
            continue
        allowed.append(count)
    if not allowed:  # cannot happen for options a game was made with; keep the manifest's
        return low, high
    return min(allowed), max(allowed)


def _with_settings(game_type: pyspiel.GameType, utility: Any,
                   players: tuple[int, int]) -> pyspiel.GameType:
    """`game_type` with another utility and players range (an instance's own type)."""
    return pyspiel.GameType(
        short_name=game_type.short_name,
        long_name=game_type.long_name,
        dynamics=game_type.dynamics,
        chance_mode=game_type.chance_mode,
        information=game_type.information,
        utility=utility,
        reward_model=game_type.reward_model,
        max_num_players=players[1],
        min_num_players=players[0],
        provides_information_state_string=game_type.provides_information_state_string,
        provides_information_state_tensor=game_type.provides_information_state_tensor,
        provides_observation_string=game_type.provides_observation_string,
        provides_observation_tensor=game_type.provides_observation_tensor,
        parameter_specification=game_type.parameter_specification,
    )


def instance_type(registered: pyspiel.GameType, manifest: GameManifest,
                  game: Game) -> pyspiel.GameType:
    """The OpenSpiel type of `game` (a game with its options): `registered` (the default
    options') with this game's utility and players range; the rest (sequential,
    explicit chance, imperfect information, terminal rewards, what it provides) is
    the same for every setting."""
    utility = _UTILITIES[returns_kind(game)]
    players = players_range(manifest, game.options)
    if utility == registered.utility and players == (registered.min_num_players,
                                                     registered.max_num_players):
        return registered
    return _with_settings(registered, utility, players)


class PyramidsSpielGame(pyspiel.Game):
    """Base of the generated game classes (one per registered game)."""

    manifest: GameManifest
    game_type: pyspiel.GameType

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        defaults = _parameters(self.manifest)
        merged = {**defaults, **params}
        self.deals = int(merged.pop("deals"))
        if self.deals < 1:
            raise ValueError(f"deals must be at least 1, got {self.deals}")
        max_length = int(merged.pop("max_game_length"))
        self.engine_game: Game = self.manifest.factory(**merged)
        # The type of these settings: two-player competitive Mahjongg is zero-sum,
        # co-op identical and for 2 to 4 seats, time attack for one, while the
        # game's registered (default) type is general-sum for 1 to 4.
        game_type = instance_type(self.game_type, self.manifest, self.engine_game)
        zero_sum = game_type.utility == pyspiel.GameType.Utility.ZERO_SUM
        info = pyspiel.GameInfo(
            num_distinct_actions=self.engine_game.num_distinct_actions,
            max_chance_outcomes=self.deals,
            num_players=self.engine_game.num_players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if zero_sum else None,
            max_game_length=max_length,
        )
        super().__init__(game_type, info, {**defaults, **params})

    @property
    def encoder(self) -> Encoder:
        return encoder_for(self.engine_game)

    def new_initial_state(self) -> PyramidsSpielState:
        return PyramidsSpielState(self)

    def state_from_engine(self, engine: State) -> PyramidsSpielState:
        """A state past the deal, at the engine state `engine` (a copy is kept)."""
        state = PyramidsSpielState(self)
        state.engine = _Engine(engine.clone())
        state.origin = engine.to_json()
        state.origin_moves = len(engine.history())
        state._moved()
        return state

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> PyramidsObserver:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return PyramidsObserver(self, perfect_recall)


class PyramidsSpielState(pyspiel.State):
    """An OpenSpiel state over one engine state (None before the deal)."""

    def __init__(self, game: PyramidsSpielGame) -> None:
        super().__init__(game)
        # Kept apart from the pyspiel game, which does not pickle its Python attributes.
        self.engine_game = game.engine_game
        self.deals = game.deals
        self.engine: _Engine | None = None
        self.deal: int | None = None
        # A state set at an engine state (`state_from_engine`, a determinization) has
        # no deal to replay: what each seat has seen is counted from that state on.
        # Its saved form, a string, since a search clones states by pickling them.
        self.origin: str | None = None
        self.origin_moves = 0  # the moves played before it
        self.digests: dict[int, list[str]] = {}
        # OpenSpiel asks for the player to move three to five times a step (in
        # legal_actions and apply_action), each a call from C++ into Python: the
        # answer is kept, and set again after each action (`_moved`).
        self._player = _CHANCE

    def _moved(self) -> None:
        """Keep who moves now (after an action, or once an engine state is set)."""
        if self.engine is None:
            self._player = _CHANCE
        elif self.engine.state.is_terminal():
            self._player = _TERMINAL
        else:
            self._player = self.engine.state.current_player

    def current_player(self) -> int:
        return self._player

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal actions of `player` (default: the player to move), answered here
        for Python callers (OpenSpiel's own answer takes five calls from C++ into
        Python); the same list C++ algorithms get through `_legal_actions`."""
        if player is None:
            player = self._player
            if player == _CHANCE:
                return list(range(self.deals))
        return self._legal_actions(player)

    def _legal_actions(self, player: int) -> list[int]:
        if self.engine is None or self._player == _TERMINAL or self._player != player:
            return []
        return self.engine.state.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        deals = self.deals
        probability = 1.0 / deals
        return [(deal, probability) for deal in range(deals)]

    def _apply_action(self, action: int) -> None:
        if self.engine is None:
            if not 0 <= int(action) < self.deals:
                raise ValueError(f"chance outcome {action} is not a deal: the outcomes are "
                                 f"0 to {self.deals - 1} (the game's `deals`)")
            self.deal = int(action)
            self.engine = _Engine(self.engine_game.new_initial_state(self.deal))
        else:
            self.engine.state.apply_action(int(action))
        self._moved()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE or self.engine is None:
            return f"deal {action}"
        return self.engine.state.action_to_string(action)

    def is_terminal(self) -> bool:
        return self._player == _TERMINAL

    def returns(self) -> list[float]:
        if self.engine is None:
            return [0.0] * self.engine_game.num_players
        return [float(value) for value in self.engine.state.returns()]

    def resample_from_infostate(self, player_id: int,
                                probability_sampler: Any) -> PyramidsSpielState:
        """A state that `player_id` cannot tell from this one: what that seat cannot
        see redrawn (`resample_hidden`), from numbers drawn of `probability_sampler`
        (a callable giving floats in [0, 1), OpenSpiel's form), with the seat's
        information state unchanged, for a search over determinizations written in
        Python (it raised "ResampleFromInfostate() not implemented"). OpenSpiel's C++
        `ISMCTSBot` does not reach it: its bridge to Python games passes on no
        `ResampleFromInfostate` (docs/rl.md)."""
        player = int(player_id)
        if self.engine is None:
            return self.clone()  # before the deal nothing is known, and nothing dealt
        seed = int(float(probability_sampler()) * 2**53)
        engine = self.engine.state.resample_hidden(player, Rng(f"infostate:{seed}"))
        state = self.get_game().state_from_engine(engine)
        # What the seat has seen so far is the same: its digest goes on from here.
        state.digests[player] = [self.seen_digest(player)]
        return state

    def __str__(self) -> str:
        if self.engine is None:
            return "before the deal"
        return self.engine.state.to_json()

    # -- what a seat has seen -----------------------------------------------------

    def view(self, player: int) -> dict[str, Any] | None:
        return None if self.engine is None else self.engine.state.view(player)

    def seen_digest(self, player: int) -> str:
        """A digest of `player`'s views after every action so far (perfect recall),
        from the deal, or from the engine state a determinization was set at."""
        if self.engine is None:
            return ""
        moves = self.engine.state.history()[self.origin_moves:]
        log = self.digests.setdefault(player, [])
        if len(log) <= len(moves):
            replay = (self.engine_game.new_initial_state(self.deal) if self.origin is None
                      else self.engine_game.state_from_json(self.origin))
            done = max(len(log) - 1, 0)
            for action in moves[:done]:
                replay.apply_action(action)
            if not log:
                log.append(_digest("", replay.view(player)))
            for action in moves[done:]:
                replay.apply_action(action)
                log.append(_digest(log[-1], replay.view(player)))
        return log[len(moves)]


def _digest(previous: str, view: dict[str, Any]) -> str:
    text = previous + json.dumps(view, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


class PyramidsObserver:
    """OpenSpiel's observer interface: the view's vector, and the view (or its history) as text."""

    def __init__(self, game: PyramidsSpielGame, perfect_recall: bool) -> None:
        self.encoder = game.encoder
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(self.encoder.size, np.float32)
        self.dict = {"view": self.tensor}

    def set_from(self, state: PyramidsSpielState, player: int) -> None:
        if state.engine is None:
            self.tensor.fill(0.0)
        else:
            # The game's own writer: the same vector as the view's, without building the view.
            self.tensor[:] = self.encoder.encode(state.engine.state, player)

    def string_from(self, state: PyramidsSpielState, player: int) -> str:
        view = state.view(player)
        if view is None:
            return f"p{player} before the deal"
        text = json.dumps(view, sort_keys=True, separators=(",", ":"))
        if self.perfect_recall:
            return f"p{player} seen:{state.seen_digest(player)} now:{text}"
        return text


def _game_class(manifest: GameManifest) -> tuple[pyspiel.GameType, type[PyramidsSpielGame]]:
    # pyspiel registers one type per name, fixed here: the default options' utility,
    # and every count of seats the game has (`PyramidsSpielGame` gives each loaded
    # game its own, `instance_type`).
    low, high = manifest.players_range()
    utility = _UTILITIES[returns_kind(manifest.factory())]
    game_type = pyspiel.GameType(
        short_name=short_name(manifest.name),
        long_name=f"pyramids {manifest.display_title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(manifest),
    )
    class_name = "Spiel_" + re.sub(r"\W", "_", short_name(manifest.name))
    cls = type(class_name, (PyramidsSpielGame,),
               {"manifest": manifest, "game_type": game_type, "__module__": __name__})
    globals()[class_name] = cls  # pickling finds a class by its module and name
    return game_type, cls


def game_type(name: str, params: dict[str, Any] | None = None) -> pyspiel.GameType:
    """The OpenSpiel type of the game `name` (the pyramids name, `mahjongg`, or the
    OpenSpiel one, `pyramids_mahjongg`) with the parameters `params`: what the loaded
    game's `get_type()` answers. Unlike the type `pyspiel.registered_games()` lists
    (the default options', fixed at registration), its utility and players range are
    those of these parameters."""
    register_games()
    spiel_name = name if name.startswith("pyramids_") else short_name(name)
    loaded: pyspiel.GameType = pyspiel.load_game(spiel_name, dict(params or {})).get_type()
    return loaded


_REGISTERED: dict[str, str] = {}


def register_games() -> dict[str, str]:
    """Register every game with pyspiel (once); returns {pyramids name: OpenSpiel name}."""
    known = set(pyspiel.registered_names())
    for manifest in manifests():
        name = short_name(manifest.name)
        if manifest.name in _REGISTERED:
            continue
        if name not in known:
            game_type, cls = _game_class(manifest)
            pyspiel.register_game(game_type, cls)
        _REGISTERED[manifest.name] = name
    return dict(_REGISTERED)
