"""The game API every engine implements, modelled on OpenSpiel's names.

A `Game` is a rules variant (a name plus validated options). It makes `State`s.
A `State` is one position: whose turn it is, which actions are legal, and how an
action changes it. Chance (shuffles, draws) comes from a seeded generator kept
inside the state, so a game, its options, its seed and its list of actions
replay a game exactly, and `to_json` saves everything, hidden parts included.

What a player may see is `view(player)`, modelled on boardgame.io's
`playerView`: a JSON-able dict with exactly that player's information
(`view(None)` is a spectator's), shaped as the game's manifest declares
(`view_type`, a TypedDict) and ending with the standard `outcome` block.
Interfaces send views, never states.

Conventions every engine follows:
- actions are ints in `range(game.num_distinct_actions)`; `legal_actions()` is
  sorted and empty exactly when the state is terminal;
- `current_player` is a seat number, or `TERMINAL` (-1) once the game is over;
- `apply_action` with an illegal action raises `IllegalActionError` saying
  which action and why, and leaves the state exactly as it was;
- `returns()` is one number per seat (for most games +1 win, -1 loss, 0 draw);
- action strings are public: every seat and spectator may learn each move as
  its string, so an action string never names a hidden card or face;
- engines never read the clock, the network or the terminal.
"""

from __future__ import annotations

import functools
import json
import numbers
from abc import ABC, abstractmethod
from collections.abc import MutableSequence
from typing import Any, ClassVar, Protocol

from pyramids.core.errors import N_, IllegalActionError, RecordError, Words
from pyramids.core.options import Option, resolve_options
from pyramids.core.views import Outcome, make_outcome

TERMINAL = -1
STATE_FORMAT = "pyramids-state"


#: What the returns of a game's finished games are (`Game.returns_kind`): they sum to 0
#: in every finished game, every seat gets the same, or neither is promised.
ZERO_SUM = "zero-sum"
IDENTICAL = "identical"
GENERAL_SUM = "general-sum"
RETURNS_KINDS = (ZERO_SUM, IDENTICAL, GENERAL_SUM)


class RandomSource(Protocol):
    """What `resample_hidden` needs: `pyramids.core.rng.Rng` or `random.Random`."""

    def randrange(self, n: int, /) -> int: ...

    def random(self) -> float: ...

    def shuffle(self, items: MutableSequence[Any], /) -> None: ...


class Game(ABC):
    """A game with its options resolved. Subclasses set `name` and `option_specs`."""

    name: ClassVar[str]
    option_specs: ClassVar[tuple[Option, ...]] = ()

    def __init__(self, **options: Any) -> None:
        self._options = resolve_options(self.name, self.option_specs, options)
        self._check_options()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        make = cls.__dict__.get("new_initial_state")
        if make is not None and not getattr(make, "takes_any_integer", False):
            cls.new_initial_state = _integer_seeds(make)  # type: ignore[method-assign]

    def _check_options(self) -> None:
        """Cross-option checks; raise `OptionError` with what is allowed."""
        return None

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        # A game is its options and what follows from them (tables, caches of pure
        # answers), never changed by play: `copy.deepcopy(state)` shares it, as
        # `state.clone()` does. Copying it made a Mahjongg state's deepcopy cost 3 to
        # 20 ms (its layout's tables and solver caches), and every clone of an
        # OpenSpiel state (MCTS clones one per simulation) is a deepcopy.
        return self

    @property
    def options(self) -> dict[str, Any]:
        return dict(self._options)

    def returns_kind(self) -> str | None:
        """What `returns()` of every finished game of these options is, for frameworks
        that classify games (OpenSpiel's utility type): `ZERO_SUM` (they sum to 0),
        `IDENTICAL` (every seat the same, a team game), `GENERAL_SUM`, or None when
        the game does not say (the OpenSpiel adapter then looks at random games).
        A game whose kind depends on its options (its mode, its players) answers
        per instance."""
        return None

    def outcome_figures(self) -> tuple[str, ...]:
        """The names of the figures this game's `outcome` may hold (`Outcome.figures`),
        in a fixed order: every one gets a slot in the RL observation vector (a figure
        a finished game leaves out encodes as 0), and the conformance checks refuse a
        figure not named here. A game whose figures depend on its options (its mode)
        answers per instance. None by default."""
        return ()

    @property
    @abstractmethod
    def num_players(self) -> int:
        """How many seats play (a property, not OpenSpiel's method)."""

    @property
    @abstractmethod
    def num_distinct_actions(self) -> int:
        """The size of the action space: every action number is below it."""

    @abstractmethod
    def new_initial_state(self, seed: int | str | None = None) -> State:
        """The first state of the deal `seed` (the same seed, the same deal; None: a
        fresh one from the operating system)."""

    @abstractmethod
    def _state_from_dict(self, data: dict[str, Any]) -> State:
        """Rebuild a state from the `state` part of `to_json` (validated by the caller)."""

    def state_from_json(self, text: str) -> State:
        """The state that `State.to_json` saved. A malformed text raises `RecordError`."""
        try:
            data = json.loads(text)
        except (TypeError, ValueError) as error:
            raise RecordError(N_("not a saved state: invalid JSON ({problem})"),
                              problem=str(error)) from None
        if not isinstance(data, dict) or data.get("format") != STATE_FORMAT:
            raise RecordError(N_("not a saved state: expected an object with format '{format}'"),
                              format=STATE_FORMAT)
        if data.get("game") != self.name:
            raise RecordError(N_("saved state is for game {saved}, not '{game}'"),
                              saved=repr(data.get("game")), game=self.name)
        saved_options = data.get("options")
        if isinstance(saved_options, dict):
            # A save from before an option existed loads into a game with any value of
            # it (the legacy rule or today's); every option it has must match.
            added = {spec.name for spec in self.option_specs if spec.has_legacy}
            missing = set(self._options) - set(saved_options)
            if missing <= added:
                saved_options = {**saved_options,
                                 **{name: self._options[name] for name in missing}}
        if saved_options != self._options:
            raise RecordError(N_("saved state has options {saved}, this game has {current}"),
                              saved=repr(data.get("options")), current=repr(self._options))
        body = data.get("state")
        if not isinstance(body, dict):
            raise RecordError(N_("not a saved state: missing the 'state' object"))
        try:
            return self._state_from_dict(body)
        except RecordError:
            raise
        except (KeyError, TypeError, ValueError, IndexError) as error:
            raise RecordError(N_("saved {game} state is malformed: {problem}"), game=self.name,
                              problem=repr(error)) from None

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._options!r})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Game) and other.name == self.name and other._options == self._options
        )

    def __hash__(self) -> int:
        return hash((self.name, json.dumps(self._options, sort_keys=True)))


#: How an illegal move is told: the move as a player would type it, then why.
ILLEGAL_MOVE = N_("the move '{move}' is illegal: {why}")


def _integer_seeds(make: Any) -> Any:
    """A game's `new_initial_state` that takes any whole number as a seed (NumPy's
    `int64` from a research loop), kept as a plain int so that the state saves as JSON."""

    @functools.wraps(make)
    def new_initial_state(self: Game, seed: int | str | None = None) -> State:
        if (type(seed) is not int and isinstance(seed, numbers.Integral)
                and not isinstance(seed, bool)):
            seed = int(seed)
        state: State = make(self, seed)
        return state

    new_initial_state.takes_any_integer = True  # type: ignore[attr-defined]
    return new_initial_state


def _checked_apply(apply: Any) -> Any:
    """A game's `apply_action` that first checks what it was given is an action at all:
    a whole number (NumPy's too), not "5", 5.0 or None (a TypeError from deep inside
    the rules), and says so when a number is outside the game's actions (the game's own
    refusal would name the phase: "you must offer two of your hand cards")."""

    @functools.wraps(apply)
    def apply_action(self: State, action: Any) -> None:
        if type(action) is not int:
            action = _as_action(action)
        try:
            apply(self, action)
        except IllegalActionError:
            last = self.game.num_distinct_actions - 1
            if not 0 <= action <= last:
                # The number itself is not echoed: a player never reads action numbers.
                raise IllegalActionError(
                    N_("that number is not an action of {game}: actions are the numbers 0 "
                       "to {last}"), game=self.game.name, last=last) from None
            raise

    apply_action.checks_its_action = True  # type: ignore[attr-defined]
    return apply_action


def _as_action(action: Any) -> int:
    if isinstance(action, numbers.Integral) and not isinstance(action, bool):
        return int(action)
    raise IllegalActionError(N_(
        "an action is a whole number from legal_actions(), not '{value}'; a move in words "
        "is read with string_to_action"), value=str(action)[:40])


class State(ABC):
    """One position of a game. See the module docstring for the contract."""

    game: Game
    seed: int | str | None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        apply = cls.__dict__.get("apply_action")
        if apply is not None and not getattr(apply, "checks_its_action", False):
            cls.apply_action = _checked_apply(apply)  # type: ignore[method-assign]

    @property
    @abstractmethod
    def current_player(self) -> int:
        """The seat to move, from 0 (a property, not OpenSpiel's method)."""

    @abstractmethod
    def legal_actions(self) -> list[int]:
        """The action numbers the seat to move may play now, sorted (empty at the end)."""

    @abstractmethod
    def apply_action(self, action: int) -> None:
        """Play `action` for the seat to move. An illegal one raises
        `IllegalActionError` saying what was wrong and what is allowed, and the state
        is left as it was."""

    @abstractmethod
    def action_to_string(self, action: int) -> str:
        """The action's text (`offer 12 30`, `match 3 17`), which `string_to_action`
        reads back; public, so it names no hidden card."""

    @abstractmethod
    def string_to_action(self, text: str) -> int:
        """Parse an action string; an unknown text raises `IllegalActionError`."""

    @abstractmethod
    def is_terminal(self) -> bool:
        """Whether the game is over."""

    @abstractmethod
    def returns(self) -> list[float]:
        """Each seat's return: 0 until the end, then the result (docs/adding-a-game.md
        and each game's rules page say what the numbers mean)."""

    def unavailable(self) -> dict[str, Words]:
        """Moves an interface offers as buttons that the player to move cannot make now,
        by action string, each with why (a button shown off said nothing). This
        default names none."""
        return {}

    def standings(self) -> list[Any]:
        """Each seat's place at the end, as keys to compare: a higher key finished
        higher, equal keys share a place (ratings read the finishing order from it).
        This default is `returns()`; a game whose returns leave the losers unordered
        (a winner takes all at a table of three or more) gives its own keys."""
        return list(self.returns())

    @abstractmethod
    def view(self, player: int | None) -> dict[str, Any]:
        """What `player` may see (None: a spectator), ending with `"outcome": self.outcome()`."""

    def outcome(self) -> Outcome | None:
        """The standard end-of-game block (`pyramids.core.views.Outcome`); None while playing.

        This default reads `returns()`: the seats with the best return win (in a
        one-player game, a positive return wins), and the returns are the scores.
        A game overrides it to give its own scores, reason and figures.
        """
        if not self.is_terminal():
            return None
        returns = self.returns()
        if len(returns) == 1:
            winners = [0] if returns[0] > 0 else []
        else:
            best = max(returns)
            winners = [seat for seat, value in enumerate(returns) if value == best]
        return make_outcome(winners, returns, reason="over")

    @abstractmethod
    def clone(self) -> State:
        """An independent copy: playing on it leaves this state as it is."""

    @abstractmethod
    def history(self) -> list[int]:
        """The actions played so far, in order (with the seed: the game, exactly)."""

    @abstractmethod
    def resample_hidden(self, player: int | None, rng: RandomSource) -> State:
        """A copy that agrees with all `player` sees, the hidden rest filled at random
        from `rng` (a `random.Random` or `pyramids.core.Rng`; not a NumPy generator)."""

    @abstractmethod
    def _to_dict(self) -> dict[str, Any]:
        """Everything needed to rebuild this state exactly, as JSON-able data."""

    def to_json(self) -> str:
        """The state as JSON text; `game.state_from_json` restores it exactly."""
        return json.dumps(
            {
                "format": STATE_FORMAT,
                "game": self.game.name,
                "options": self.game.options,
                "state": self._to_dict(),
            },
            sort_keys=True,
            separators=(",", ":"),
        )

    def apply_string(self, text: str) -> None:
        """Parse and apply an action string (a convenience for interfaces and tests)."""
        self.apply_action(self.string_to_action(text))

    def history_strings(self) -> list[str]:
        """The actions so far as action strings, replayable from the seed."""
        replay = self.game.new_initial_state(self.seed)
        strings = []
        for action in self.history():
            strings.append(replay.action_to_string(action))
            replay.apply_action(action)
        return strings

    def legal_action_strings(self) -> list[str]:
        return [self.action_to_string(a) for a in self.legal_actions()]

    def illegal(self, action: int, why: str | Words) -> IllegalActionError:
        """An `IllegalActionError` naming the action as a string when it has one.

        `why` is the reason in player words (`Words`, translated by the interfaces).
        """
        # Players read the move as they would type it, never its number.
        try:
            move = self.action_to_string(action)
        except Exception:  # an out-of-range number has no string: the reason says so
            return IllegalActionError(why if isinstance(why, Words) else Words(why))
        return IllegalActionError(ILLEGAL_MOVE, move=move, why=why)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and other.to_json() == self.to_json()

    __hash__ = None  # type: ignore[assignment]

    def __str__(self) -> str:
        return json.dumps(self.view(None), sort_keys=True)
