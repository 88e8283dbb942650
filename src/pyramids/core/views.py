"""Typed views: what `state.view(player)` returns, declared as a `TypedDict` per game.

A view stays a plain JSON-able dict (the server sends it as it is), but each
game declares its shape once, in its package's `views` module, and names it in
its manifest (`view_type`). `check_view` checks a view against that
declaration at run time: the conformance suite does it at every checked step,
so the documented shape and the real one cannot drift apart.

A list whose length the rules bound declares it, `Annotated[list[X], Capacity(n)]`
(or a function of the game: `PER_SEAT`, a board's tile count): fixed-size
encodings give it that many slots, and `check_view` with the game refuses a view
that holds more. A dict's keys are declared likewise: by a Literal key type
(`dict[CardKind, int]`), or where they depend on the game by
`Annotated[dict[str, X], Keys(...)]` (`Outcome.figures`: `OUTCOME_FIGURES`, the
game's `outcome_figures()`); encodings give every declared key a slot, and
`check_view` with the game refuses a key that is not declared, and a dict whose
keys are not declared at all.

Every view ends with the same block, `outcome`: None while the game is on, and
at the end an `Outcome`, so that interfaces, the arena and the balance tools
read who won, the scores and why the game ended from one place instead of
guessing from each game's own keys.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import (
    Annotated,
    Any,
    Literal,
    NotRequired,
    TypedDict,
    Union,
    get_args,
    get_origin,
)


@dataclass(frozen=True)
class Capacity:
    """The most items a list of a view can hold under the rules, declared with its type:
    `Annotated[list[int], Capacity(2)]`, or a function of the game (its options, its
    board, its players): `Annotated[list[int], Capacity(seats)]`.

    Fixed-size encodings (the RL observation vectors) give the list this many slots,
    so a declared capacity must be a true bound: no position of the game may show
    more. A list without one is sized by watching random games, which cannot promise
    that."""

    most: int | Callable[[Any], int]

    def of(self, game: Any) -> int:
        """The capacity for `game` (a whole number of 0 or more)."""
        most = self.most(game) if callable(self.most) else self.most
        if isinstance(most, bool) or not isinstance(most, int) or most < 0:
            raise ValueError(f"a list's capacity is a whole number of 0 or more, not {most!r}")
        return most


def seats(game: Any) -> int:
    """The capacity of a list with one item per seat (or one per winner)."""
    return int(game.num_players)


#: One item per seat at most.
PER_SEAT = Capacity(seats)


@dataclass(frozen=True)
class Keys:
    """The keys a dict of a view may hold, declared with its type where they are not a
    Literal: `Annotated[dict[str, float], Keys(("rounds", "built"))]`, or a function of
    the game (its options): `Annotated[dict[str, float], Keys(outcome_figures)]`.

    Fixed-size encodings (the RL observation vectors) give each declared key a slot,
    in the declared order, so every key the game can give has one; a dict may hold
    fewer (a missing key encodes as zeros). `check_view` with the game refuses a key
    outside the declaration."""

    names: tuple[str, ...] | Callable[[Any], Iterable[str]]

    def of(self, game: Any) -> tuple[str, ...]:
        """The declared keys for `game`, in order (distinct strings)."""
        names = tuple(self.names(game) if callable(self.names) else self.names)
        if any(not isinstance(name, str) for name in names) or len(set(names)) != len(names):
            raise ValueError(f"a dict's declared keys are distinct strings, not {names!r}")
        return names


def outcome_figures(game: Any) -> tuple[str, ...]:
    """The keys of `Outcome.figures` that `game` (with its options) may give: its
    `outcome_figures()` (none for a game that does not say)."""
    declared = getattr(game, "outcome_figures", None)
    return tuple(declared()) if callable(declared) else ()


#: The figures a game's outcome may hold: those its `Game.outcome_figures()` names.
OUTCOME_FIGURES = Keys(outcome_figures)


def declared_keys(kind: Any) -> Keys | None:
    """The `Keys` declared on `kind` (an `Annotated[dict[...], Keys(..)]`), if any."""
    if get_origin(kind) is Annotated:
        for extra in kind.__metadata__:
            if isinstance(extra, Keys):
                return extra
    return None


def declared_capacity(kind: Any) -> Capacity | None:
    """The `Capacity` declared on `kind` (an `Annotated[list[...], Capacity(..)]`), if any."""
    if get_origin(kind) is Annotated:
        for extra in kind.__metadata__:
            if isinstance(extra, Capacity):
                return extra
    return None


class Outcome(TypedDict):
    """How a finished game ended, the same for every game.

    - `winners`: the seats (from 0) that won; in a one-player game `[0]` for a
      win and `[]` for a loss; on a draw, every seat that shares the best result.
    - `scores`: one number per seat in the game's own unit (points, rounds
      won, treasure, draws used).
    - `reason`: why it ended, as a short fixed word (`pyramid-complete`,
      `round-cap`, `board-cleared`, ...), which interfaces put into words.
    - `capped`: True when a safety cap (a round limit) ended the game rather
      than the rules' own end: balance studies count these.
    - `figures`: the game's own end-of-game numbers (rounds played, cards drawn,
      levels built), for tools that report them. Their names are declared by the
      game (`Game.outcome_figures()`, per instance), so that every one has a slot
      in a fixed-size encoding; a figure it does not declare is refused by the
      conformance checks.
    """

    winners: Annotated[list[int], PER_SEAT]
    scores: Annotated[list[float], PER_SEAT]
    reason: str
    capped: bool
    figures: Annotated[dict[str, float], OUTCOME_FIGURES]


def make_outcome(winners: Iterable[int], scores: Iterable[float], reason: str,
                 capped: bool = False, figures: Mapping[str, float] | None = None) -> Outcome:
    return Outcome(
        winners=sorted(winners),
        scores=[float(score) for score in scores],
        reason=reason,
        capped=capped,
        figures={key: float(value) for key, value in (figures or {}).items()},
    )


class ViewTypeError(ValueError):
    """A view that does not match its declared type; the message gives the path."""


def check_view(view: Any, view_type: type, game: Any = None) -> None:
    """Raise `ViewTypeError` unless `view` matches the TypedDict `view_type` exactly.

    With `game`, every list with a declared `Capacity` must hold no more items than
    that capacity for the game (the conformance suite checks this at every step)."""
    _check(view, view_type, "view", game)


def check_outcome(outcome: Any, num_players: int, game: Any = None) -> None:
    """An `Outcome` with one score per seat and winners that are seats; with `game`,
    only figures the game declares (`Game.outcome_figures()`)."""
    _check(outcome, Outcome, "outcome", game)
    if len(outcome["scores"]) != num_players:
        raise ViewTypeError(f"outcome.scores has {len(outcome['scores'])} numbers, "
                            f"expected one per seat ({num_players})")
    bad = [seat for seat in outcome["winners"] if not 0 <= seat < num_players]
    if bad or len(set(outcome["winners"])) != len(outcome["winners"]):
        raise ViewTypeError(f"outcome.winners {outcome['winners']} are not distinct seats "
                            f"0..{num_players - 1}")


def _is_typed_dict(kind: Any) -> bool:
    return isinstance(kind, type) and issubclass(kind, dict) and hasattr(kind, "__total__")


def _check(value: Any, kind: Any, path: str, game: Any = None) -> None:
    if kind is Any:
        return
    if kind is None or kind is type(None):
        if value is not None:
            raise ViewTypeError(f"{path} is {value!r}, expected null")
        return
    if _is_typed_dict(kind):
        _check_typed_dict(value, kind, path, game)
        return
    origin = get_origin(kind)
    if origin is NotRequired:
        _check(value, get_args(kind)[0], path, game)
        return
    if origin is Annotated:
        inner = get_args(kind)[0]
        keys = declared_keys(kind)
        if keys is not None and get_origin(inner) is dict:
            _check_dict(value, inner, path, game, keys)
            return
        _check(value, inner, path, game)
        capacity = declared_capacity(kind)
        if game is not None and capacity is not None and isinstance(value, list):
            most = capacity.of(game)
            if len(value) > most:
                raise ViewTypeError(f"{path} holds {len(value)} items, more than its "
                                    f"declared capacity {most}")
        return
    if origin in (Union, types.UnionType):
        errors = []
        for option in get_args(kind):
            try:
                _check(value, option, path, game)
                return
            except ViewTypeError as error:
                errors.append(str(error))
        raise ViewTypeError(" or ".join(errors))
    if origin is Literal:
        if value not in get_args(kind):
            raise ViewTypeError(f"{path} is {value!r}, expected one of {list(get_args(kind))}")
        return
    if origin is list:
        if not isinstance(value, list):
            raise ViewTypeError(f"{path} is {type(value).__name__}, expected a list")
        (item,) = get_args(kind) or (Any,)
        for index, element in enumerate(value):
            _check(element, item, f"{path}[{index}]", game)
        return
    if origin is dict:
        _check_dict(value, kind, path, game, None)
        return
    if kind is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ViewTypeError(f"{path} is {value!r}, expected a number")
        return
    if kind is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ViewTypeError(f"{path} is {value!r}, expected an integer")
        return
    if kind in (str, bool):
        if not isinstance(value, kind):
            raise ViewTypeError(f"{path} is {value!r}, expected {kind.__name__}")
        return
    if kind in (list, dict):
        if not isinstance(value, kind):
            raise ViewTypeError(f"{path} is {type(value).__name__}, expected {kind.__name__}")
        return
    raise ViewTypeError(f"{path}: the declared type {kind!r} is not one a view may use")


def _check_dict(value: Any, kind: Any, path: str, game: Any, keys: Keys | None) -> None:
    """A dict of `kind`; with the game, only declared keys: `keys`, or a Literal key type."""
    if not isinstance(value, dict):
        raise ViewTypeError(f"{path} is {type(value).__name__}, expected an object")
    key_kind, item_kind = get_args(kind) or (Any, Any)
    if game is not None and value:
        if keys is not None:
            allowed = keys.of(game)
            extra = sorted(str(key) for key in value if key not in allowed)
            if extra:
                raise ViewTypeError(f"{path} has undeclared keys {', '.join(extra)}; "
                                    f"declared: {', '.join(allowed) or 'none'}")
        elif get_origin(key_kind) is not Literal:
            # No fixed slot for keys declared neither way (an encoding would drop them).
            raise ViewTypeError(f"{path}: the keys of a dict[{_name(key_kind)}, ...] are not "
                                f"declared (use a Literal key type or Annotated[..., Keys(...)])")
    for key, element in value.items():
        _check(key, key_kind, f"{path} key")
        _check(element, item_kind, f"{path}[{key!r}]", game)


def _name(kind: Any) -> str:
    return getattr(kind, "__name__", None) or repr(kind)


def _check_typed_dict(value: Any, kind: Any, path: str, game: Any = None) -> None:
    if not isinstance(value, dict):
        raise ViewTypeError(f"{path} is {type(value).__name__}, expected an object")
    hints = typing.get_type_hints(kind, include_extras=True)
    missing = [key for key in kind.__required_keys__ if key not in value]
    if missing:
        raise ViewTypeError(f"{path} lacks {', '.join(sorted(missing))}")
    extra = [key for key in value if key not in hints]
    if extra:
        raise ViewTypeError(f"{path} has undeclared keys {', '.join(sorted(map(str, extra)))} "
                            f"(declare them in {kind.__name__})")
    for key, element in value.items():
        _check(element, hints[key], f"{path}.{key}", game)


__all__ = ["OUTCOME_FIGURES", "PER_SEAT", "Capacity", "Keys", "Outcome", "ViewTypeError",
           "check_outcome", "check_view", "declared_capacity", "declared_keys", "make_outcome",
           "outcome_figures", "seats"]
