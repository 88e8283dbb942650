"""Named game options with defaults, validated with errors that list what is allowed."""

from __future__ import annotations

import numbers
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from pyramids.core.errors import (
    N_,
    KeyedWords,
    Number,
    OptionError,
    OptionList,
    OptionRef,
    PluralWords,
    Words,
)

#: `Option.legacy` of an option that games have always had.
NO_LEGACY: Any = object()


def _typed_bound(value: float) -> str:
    """A bound as people type it: 10000000, not 1e+07; 0.5 as it is."""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


@dataclass(frozen=True)
class _Phrasing:
    """How the values an option allows are said: in player words, or as typed keys."""

    either: str  # a switch
    kinds: Mapping[type, str]
    between: str
    at_least: str
    at_most: str
    bound: Callable[[float], Any]


_IN_WORDS = _Phrasing(
    N_("on or off"), {int: N_("a whole number"), float: N_("a number"), str: N_("text")},
    N_("{kind} from {low} to {high}"), N_("{kind}, at least {low}"),
    N_("{kind}, at most {high}"), Number)
_AS_TYPED = _Phrasing(
    N_("true or false"), {int: N_("an integer"), float: N_("a number"), str: N_("a string")},
    N_("{kind} >= {low} and <= {high}"), N_("{kind} >= {low}"), N_("{kind} <= {high}"),
    _typed_bound)


@dataclass(frozen=True)
class Option:
    """One named option of a game.

    `kind` is `int`, `float`, `bool` or `str`; `choices` limits a value to a set;
    `minimum`/`maximum` bound numbers. `doc` says what it means, and `ours` marks
    a decision of this project rather than of the published rules.

    `legacy` is for an option added after games were saved: the value that a
    saved game or record without this option meant (the rule as it was then),
    so that everything saved before replays exactly as it was played.
    """

    name: str
    default: Any
    kind: type
    doc: str
    choices: tuple[Any, ...] | None = None
    minimum: float | None = None
    maximum: float | None = None
    ours: bool = False
    legacy: Any = NO_LEGACY

    @property
    def has_legacy(self) -> bool:
        return self.legacy is not NO_LEGACY

    def allowed(self) -> str:
        """The values allowed, in English, as typed on the command line (`allowed_words`
        for players)."""
        return str(self.allowed_keys())

    def allowed_words(self) -> Words:
        """The values allowed, as player words the interfaces translate: "a whole number
        from 0 to 1,000,000", "on or off"."""
        return self._allowed_as(_IN_WORDS)

    def allowed_keys(self) -> Words:
        """The values allowed as someone typing `-o key=value` reads them: "an integer
        >= 0 and <= 1000000", "true or false"."""
        return self._allowed_as(_AS_TYPED)

    def _allowed_as(self, phrasing: _Phrasing) -> Words:
        if self.choices is not None:
            return self._one_of()
        if self.kind is bool:
            return Words(phrasing.either)
        kind = Words(phrasing.kinds.get(self.kind, N_("a value")))
        low = None if self.minimum is None else phrasing.bound(self.minimum)
        high = None if self.maximum is None else phrasing.bound(self.maximum)
        if low is not None and high is not None:
            return Words(phrasing.between, kind=kind, low=low, high=high)
        if low is not None:
            return Words(phrasing.at_least, kind=kind, low=low)
        if high is not None:
            return Words(phrasing.at_most, kind=kind, high=high)
        return kind

    def _one_of(self) -> Words:
        # The choices name themselves in words or as keys (`OptionRef`).
        return Words(N_("one of {choices}"), choices=OptionList(
            OptionRef(self.name, choice, bare=True) for choice in self.choices or ()))

    def _allowed(self) -> KeyedWords:
        """What an error says is allowed: in words for players, as keys for the command
        line."""
        return KeyedWords(self.allowed_words(), self.allowed_keys())

    def coerce(self, game: str, value: Any) -> Any:
        """Validate `value` (a Python value or the text a user typed) and return it typed."""
        given = OptionRef(self.name, value)
        try:
            typed = self._convert(value)
        except (TypeError, ValueError):
            raise OptionError(N_("{option} is not valid; allowed: {allowed}"),
                              option=given, allowed=self._allowed()) from None
        if typed is not value:
            given = OptionRef(self.name, typed)  # as the number it is (np.int64(0): 0)
        if self.choices is not None and typed not in self.choices:
            raise OptionError(N_("{option} is not valid; allowed: {allowed}"),
                              option=given, allowed=self._allowed())
        if self.minimum is not None and typed < self.minimum:
            raise OptionError(N_("{option} is too small; allowed: {allowed}"),
                              option=given, allowed=self._allowed())
        if self.maximum is not None and typed > self.maximum:
            raise OptionError(N_("{option} is too large; allowed: {allowed}"),
                              option=given, allowed=self._allowed())
        return typed

    def _convert(self, value: Any) -> Any:
        # Numbers of other types (NumPy's np.int64, np.float32, np.bool_: a schedule or
        # sweep of options made with NumPy) are the numbers they hold; they became text
        # in the error ('rounds_to_win="1" is not valid; allowed: an integer >= 1').
        if self.kind is bool:
            if isinstance(value, bool):
                return value
            if _is_bool(value):
                return bool(value)
            if isinstance(value, str) and value.strip().lower() in ("true", "yes", "on", "1"):
                return True
            if isinstance(value, str) and value.strip().lower() in ("false", "no", "off", "0"):
                return False
            raise ValueError(value)
        if self.kind is int:
            if isinstance(value, bool) or _is_bool(value):
                raise TypeError(value)
            if isinstance(value, numbers.Integral):
                return int(value)
            if isinstance(value, numbers.Real) and float(value).is_integer():
                return int(float(value))
            if isinstance(value, str):
                return int(value.strip())
            raise TypeError(value)
        if self.kind is float:
            if isinstance(value, bool) or _is_bool(value):
                raise TypeError(value)
            if isinstance(value, numbers.Real):
                return float(value)
            if isinstance(value, str):
                return float(value.strip())
            raise TypeError(value)
        if self.kind is str:
            if not isinstance(value, str):
                raise TypeError(value)
            return str(value)  # a str subclass (NumPy's np.str_) as a plain str
        raise TypeError(value)


def _is_bool(value: Any) -> bool:
    """A boolean of another library (NumPy's np.bool_), which is not a Python bool."""
    return type(value).__name__ in ("bool_", "bool") and hasattr(value, "dtype")


def resolve_options(
    game: str, specs: Iterable[Option], given: Mapping[str, Any]
) -> dict[str, Any]:
    """Defaults overlaid with `given`, each value validated; unknown names raise."""
    by_name = {spec.name: spec for spec in specs}
    unknown = sorted(set(given) - set(by_name))
    if unknown:
        raise OptionError(
            PluralWords("unknown option {names}; allowed options: {allowed}",
                        "unknown options {names}; allowed options: {allowed}",
                        len(unknown), names=", ".join(unknown),
                        allowed=allowed_options(by_name)))
    resolved = {name: spec.default for name, spec in by_name.items()}
    for name, value in given.items():
        resolved[name] = by_name[name].coerce(game, value)
    return resolved


def allowed_options(names: Iterable[str]) -> OptionList | Words:
    """The options a game takes, for a refusal of one it does not: in words for players,
    as keys for whoever typed one."""
    refs = OptionList(OptionRef(name) for name in sorted(names))
    return refs if refs.refs else Words(N_("none"))


def with_legacy(specs: Iterable[Option], saved: Mapping[str, Any]) -> dict[str, Any]:
    """Saved options, plus the `legacy` value of each option the save predates."""
    filled = dict(saved)
    for spec in specs:
        if spec.has_legacy and spec.name not in filled:
            filled[spec.name] = spec.legacy
    return filled


def check_players_agree(options: dict[str, Any], option: str, players: int) -> None:
    """`--players N` and `-o players=M` both given must say the same (the one did win
    over the other without a word)."""
    if option in options and str(options[option]).strip() != str(players):
        raise OptionError(N_("--players {players} and the option {option} disagree; "
                             "give one of them"), players=players,
                          option=OptionRef(option, options[option]))
