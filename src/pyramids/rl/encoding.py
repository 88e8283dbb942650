"""Flat observation vectors built from a game's declared view type (its `view_type` TypedDict).

The encoder reads only `state.view(player)` and `state.legal_actions()`, never
hidden state, and needs no per-game code: it walks the TypedDict the game's
manifest declares and gives every field a fixed run of float32 features.

- `bool`: one feature, 0 or 1.
- `int`, `float`: one feature, the raw value, clipped to +-2**24 (the `Box`
  bounds; float32 holds every integer in that range exactly).
- `Literal[...]`: a one-hot over the declared choices.
- `X | None`: a presence feature (1 when the value is there), then X's features
  (zeros when it is null). `NotRequired[X]`: X's features (zeros when missing).
- A union of several types (`int | list[int]`): a one-hot of which one the
  value is, then each alternative's features.
- `list[X]`: a length feature (the true length), then `capacity` slots of X,
  filled in order; slots past the end are zeros. The capacity is the one the view
  type declares (`Annotated[list[X], Capacity(n)]`, `pyramids.core.views`: a
  bound of the rules, so nothing is dropped); a list that declares none gets the
  game's *probe* (below), and items past that capacity are dropped.
- `dict[K, X]`: one run of X's features per key. Keys declared by a Literal
  (`dict[CardKind, int]`) are all its choices, in the declared order, and keys
  declared with `Annotated[dict[str, X], Keys(...)]` (`pyramids.core.views`;
  `Outcome.figures` names the game's `outcome_figures()`) are those, in that
  order: every key has a slot, seen or not, and a key that is absent encodes as
  zeros. Otherwise (`dict[str, X]`, which the conformance checks refuse) the keys
  are the ones the probe saw, sorted (a key never seen there is dropped).
- A nested TypedDict: its fields in declaration order.
- `str` (other than a Literal), `Any`: no features (names and labels; the
  numbers beside them carry the information).

The probe: a layout must have a fixed size, and a TypedDict says nothing of the
keys of a dict without declared keys nor, where no `Capacity` is declared, of
list lengths, so each (game,
options) pair is measured once by playing `PROBE_GAMES` uniformly random games
from seeds 0.. and looking at every seat's view after every action. An
undeclared list's capacity is the longest it was seen, plus a quarter for
headroom (random games can end early: declare capacities). The probe is
deterministic, so the layout of a game and its options is always the same;
`describe()` lists it feature by feature (docs/rl.md prints the layouts of the
built-in games).

Speed: a game's manifest may name its own writer (`observation_encoder`), which
fills the same vector from the state's fields. The built-in ones update a
`Canvas` (one seat's vector, kept by an environment from step to step) in
place, rewriting only what changed since the canvas last saw the game; the
environments call `Encoder.update` and hand out copies.
"""

from __future__ import annotations

import math
import random
import re
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Annotated, Any, Literal, NotRequired, Required, Union, get_args, get_origin

import numpy as np

from pyramids.core import Game, PyramidsError, State, game_manifest, load
from pyramids.core.views import declared_capacity, declared_keys
from pyramids.play.i18n import _, ngettext, words_text

PROBE_GAMES = 12
PROBE_MAX_ACTIONS = 600
HEADROOM = 1.25
VALUE_BOUND = float(2**24)


@dataclass(frozen=True)
class Feature:
    """One run of features: where it starts, how many, what they mean, and their bounds."""

    path: str
    offset: int
    size: int
    meaning: str
    low: float
    high: float


# -- the probe ---------------------------------------------------------------------


class _Measure:
    def __init__(self) -> None:
        self.lengths: dict[str, int] = {}
        self.keys: dict[str, set[str]] = {}

    def walk(self, value: Any, path: str) -> None:
        if isinstance(value, list):
            self.lengths[path] = max(self.lengths.get(path, 0), len(value))
            for item in value:
                self.walk(item, path + "[]")
        elif isinstance(value, dict):
            self.keys.setdefault(path, set()).update(str(key) for key in value)
            for key, item in value.items():
                self.walk(item, f"{path}.{key}")
                self.walk(item, path + "{}")


def probe(game: Game, games: int = PROBE_GAMES) -> _Measure:
    """List lengths and dict keys seen over `games` random games (deterministic)."""
    measure = _Measure()
    rng = random.Random(0)
    seats = list(range(game.num_players))
    for seed in range(games):
        state = game.new_initial_state(seed)
        for _move in range(PROBE_MAX_ACTIONS):
            for seat in seats:
                measure.walk(state.view(seat), "")
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
    return measure


# -- the layout --------------------------------------------------------------------

Writer = Callable[[Any, Any, int], None]


@dataclass(frozen=True)
class ListSlots:
    """Where a list's features are: its length feature, then `capacity` slots of `size`."""

    length: int
    first: int
    size: int
    capacity: int


def _capacity(seen: int) -> int:
    return max(1, math.ceil(seen * HEADROOM))


def _is_typed_dict(kind: Any) -> bool:
    return isinstance(kind, type) and issubclass(kind, dict) and hasattr(kind, "__total__")


class _Builder:
    def __init__(self, measure: _Measure, game: Game | None = None) -> None:
        self.measure = measure
        self.game = game
        self.features: list[Feature] = []
        self.size = 0
        self.lists: dict[str, ListSlots] = {}
        self.choices: dict[str, dict[Any, int]] = {}
        self.fields: dict[str, tuple[int, int, Writer]] = {}

    def add(self, path: str, size: int, meaning: str, low: float, high: float) -> int:
        offset = self.size
        if size:
            self.features.append(Feature(path, offset, size, meaning, low, high))
        self.size += size
        return offset

    def build(self, kind: Any, path: str, probe_path: str) -> tuple[int, Writer]:
        """The features of `kind` at `path`: (size, write(value, out, base))."""
        start = self.size
        writer = self._build(kind, path, probe_path)
        return self.size - start, writer

    def _build(self, kind: Any, path: str, probe_path: str) -> Writer:
        if _is_typed_dict(kind):
            return self._typed_dict(kind, path, probe_path)
        origin = get_origin(kind)
        if origin in (NotRequired, Required):
            # A key that may be missing: its features are zeros when it is (no flag).
            return self._build(get_args(kind)[0], path, probe_path)
        if origin is Annotated:
            declared = declared_capacity(kind)
            inner = get_args(kind)[0]
            if declared is not None and get_origin(inner) is list:
                (item,) = get_args(inner) or (Any,)
                if self.game is None:
                    raise ValueError(_("{path}: a declared capacity needs the game",
                                       path=path))
                return self._list(item, path, probe_path, declared.of(self.game))
            keys = declared_keys(kind)
            if keys is not None and get_origin(inner) is dict:
                if self.game is None:
                    raise ValueError(_("{path}: declared keys need the game", path=path))
                _key, item = get_args(inner) or (Any, Any)
                return self._dict(None, item, path, probe_path, keys.of(self.game))
            return self._build(inner, path, probe_path)
        if origin in (Union, types.UnionType):
            options = [option for option in get_args(kind) if option is not type(None)]
            if len(options) < len(get_args(kind)):
                inner = options[0] if len(options) == 1 else Union[tuple(options)]  # noqa: UP007
                return self._optional(inner, path, probe_path)
            return self._union(options, path, probe_path)
        if origin is Literal:
            return self._one_hot(list(get_args(kind)), path)
        if origin is list:
            (item,) = get_args(kind) or (Any,)
            return self._list(item, path, probe_path)
        if origin is dict:
            key, item = get_args(kind) or (Any, Any)
            return self._dict(key, item, path, probe_path)
        if kind is bool:
            offset = self.add(path, 1, "0 or 1", 0.0, 1.0)
            return lambda value, out, base: out.__setitem__(base + offset, 1.0 if value else 0.0)
        if kind in (int, float):
            # Clipped to the bounds once for the whole vector, in `encode_view`.
            offset = self.add(path, 1, "the value", -VALUE_BOUND, VALUE_BOUND)
            return lambda value, out, base: out.__setitem__(base + offset, value)
        return lambda value, out, base: None  # strings and untyped data: no features

    def _typed_dict(self, kind: Any, path: str, probe_path: str) -> Writer:
        hints = typing.get_type_hints(kind, include_extras=True)
        writers = []
        for key in hints:
            field_path = f"{path}.{key}" if path else key
            start = self.size
            writer = self._build(hints[key], field_path, f"{probe_path}.{key}")
            self.fields[field_path] = (start, self.size, writer)
            writers.append((key, writer))

        def write(value: Any, out: list[Any], base: int) -> None:
            for key, writer in writers:
                if key in value:
                    writer(value[key], out, base)

        return write

    def _optional(self, kind: Any, path: str, probe_path: str) -> Writer:
        flag = self.add(path + "?", 1, "1 when present (not null)", 0.0, 1.0)
        inner = self._build(kind, path, probe_path)

        def write(value: Any, out: list[Any], base: int) -> None:
            if value is not None:
                out[base + flag] = 1.0
                inner(value, out, base)

        return write

    def _union(self, options: list[Any], path: str, probe_path: str) -> Writer:
        # An alternative is named by its type (`list`), a declared capacity aside.
        bare = [get_args(option)[0] if get_origin(option) is Annotated else option
                for option in options]
        names = [getattr(option, "__name__", None) or repr(option) for option in bare]
        which = self.add(path + "#", len(options), "one-hot: " + " | ".join(names), 0.0, 1.0)
        writers = [self._build(option, f"{path}<{name}>", probe_path)
                   for option, name in zip(options, names, strict=True)]
        checks = [_matcher(option) for option in bare]

        def write(value: Any, out: list[Any], base: int) -> None:
            for index, (check, writer) in enumerate(zip(checks, writers, strict=True)):
                if check(value):
                    out[base + which + index] = 1.0
                    writer(value, out, base)
                    return

        return write

    def _one_hot(self, choices: list[Any], path: str) -> Writer:
        offset = self.add(path, len(choices), "one-hot: " + ", ".join(map(str, choices)), 0.0, 1.0)
        index = {choice: position for position, choice in enumerate(choices)}
        self.choices[path] = {choice: offset + position for choice, position in index.items()}
        return lambda value, out, base: out.__setitem__(base + offset + index[value], 1.0)

    def _list(self, item: Any, path: str, probe_path: str,
              declared: int | None = None) -> Writer:
        # The rules' bound where the view type declares one (`Capacity`), else what the
        # probe saw plus headroom. At least one slot, so that every list has a layout.
        if declared is not None:
            capacity = max(1, declared)
        else:
            capacity = _capacity(self.measure.lengths.get(probe_path, 0))
        length = self.add(path + ".len", 1, f"the list's length (slots below: {capacity})",
                          0.0, VALUE_BOUND)
        item_size, item_writer = self.build(item, f"{path}[i]", probe_path + "[]")
        first = self.size - item_size
        # The other slots repeat the first one's layout.
        self.size += item_size * (capacity - 1)
        if item_size:
            self._repeat(path, first, item_size, capacity)
        self.lists[path] = ListSlots(length, first, item_size, capacity)

        if item in (int, float) and item_size == 1:
            # A list of numbers is copied in one slice (clipped later with the rest).
            def write_numbers(value: Any, out: list[Any], base: int) -> None:
                out[base + length] = min(len(value), VALUE_BOUND)
                kept = value[:capacity]
                out[base + first:base + first + len(kept)] = kept

            return write_numbers

        def write(value: Any, out: list[Any], base: int) -> None:
            out[base + length] = min(len(value), VALUE_BOUND)
            for slot, element in enumerate(value[:capacity]):
                item_writer(element, out, base + slot * item_size)

        return write

    def _repeat(self, path: str, first: int, item_size: int, capacity: int) -> None:
        """Describe slot i of a list as the first slot's features shifted by i * item_size."""
        template = [f for f in self.features if first <= f.offset < first + item_size]
        prefix = f"{path}[i]"

        def named(feature: Feature, slot: int) -> str:
            return f"{path}[{slot}]" + feature.path[len(prefix):]

        for feature in template:
            self.features.remove(feature)
        for slot in range(capacity):
            for feature in template:
                self.features.append(Feature(named(feature, slot),
                                             feature.offset + slot * item_size, feature.size,
                                             feature.meaning, feature.low, feature.high))

    def _dict(self, key: Any, item: Any, path: str, probe_path: str,
              declared: tuple[str, ...] | None = None) -> Writer:
        # Keys declared by a Literal (`dict[CardKind, int]`) or by `Keys` (`declared`)
        # are every one, in the declared order, seen or not; other keys are the ones
        # the probe saw (the conformance checks refuse such a dict).
        if declared is not None:
            keys = list(declared)
        elif get_origin(key) is Literal:
            keys = [str(choice) for choice in get_args(key)]
        else:
            keys = sorted(self.measure.keys.get(probe_path, set()))
        writers = {key: self._build(item, f"{path}[{key}]", probe_path + "{}") for key in keys}

        def write(value: Any, out: list[Any], base: int) -> None:
            for key, element in value.items():
                writer = writers.get(str(key))
                if writer is not None:
                    writer(element, out, base)

        return write


def _matcher(kind: Any) -> Callable[[Any], bool]:
    origin = get_origin(kind) or kind
    if origin is Literal:
        choices = set(get_args(kind))
        return lambda value: value in choices
    if _is_typed_dict(kind):
        return lambda value: isinstance(value, dict)
    if origin is int:
        return lambda value: isinstance(value, int) and not isinstance(value, bool)
    if origin is float:
        return lambda value: isinstance(value, int | float) and not isinstance(value, bool)
    if isinstance(origin, type):
        return lambda value: isinstance(value, origin)
    return lambda value: True


class Layout:
    """Where each feature of the view-based layout is, for a game's own fast writer.

    Paths are the feature paths of `describe()` (`phase`, `viewer?`,
    `pyramids[0][3].len`); list paths name slots generically (`pyramids[i]`).
    A writer built on these offsets fills exactly the vector the view would give.
    """

    def __init__(self, builder: _Builder, size: int) -> None:
        self.size = size
        self._offsets = {feature.path: feature.offset for feature in builder.features}
        self._lists = builder.lists
        self._choices = builder.choices
        self._fields = builder.fields

    def offset(self, path: str) -> int:
        """The offset of the feature `path` (KeyError naming it when the layout has none)."""
        try:
            return self._offsets[path]
        except KeyError:
            raise KeyError(_("the observation layout has no feature {path}",
                             path=repr(path))) from None

    def has(self, path: str) -> bool:
        return path in self._offsets

    def choice(self, path: str, value: Any) -> int:
        """The offset of `value`'s entry in the one-hot `path`."""
        return self._choices[path][value]

    def choices(self, path: str) -> dict[Any, int]:
        return dict(self._choices[path])

    def slots(self, path: str) -> ListSlots:
        """The list at `path` (slots named generically: `pyramids[i]`)."""
        return self._lists[path]

    def span(self, path: str) -> tuple[int, int]:
        """The features [start, stop) of the view field `path` (`last_round`, `outcome`)."""
        start, stop, _kind = self._fields[path]
        return start, stop

    def write_field(self, path: str, value: Any, out: Any, base: int = 0) -> None:
        """Write the view field `path` holding `value` as the view-based encoder does."""
        self._fields[path][2](value, out, base)

    def template(self) -> np.ndarray:
        return np.zeros(self.size, dtype=np.float32)


#: A game's fast writer: the observation of `state` for `player`, or None where the
#: game leaves that position to the view-based encoder (say, the final one).
FastWriter = Callable[[State, int], "np.ndarray | None"]


class Canvas:
    """One seat's observation vector, kept from step to step and brought up to date in place.

    An environment holds one a seat. The game's writer (`CanvasWriter.update`)
    writes the features that may change, and rewrites a run that seldom changes
    (a pyramid, the hand, the board) only when its source differs from what it
    wrote there last, which it keeps in `memo`. An empty `memo` means nothing is
    known of the vector: the writer starts from its template and writes it all.
    `cells` is a memoryview of `array`: an item written through it costs a third
    of a NumPy item write.
    """

    __slots__ = ("array", "cells", "memo", "player")

    def __init__(self, size: int, player: int) -> None:
        self.player = player
        self.array = np.zeros(size, dtype=np.float32)
        self.cells = self.array.data
        self.memo: list[Any] = []

    def __getstate__(self) -> tuple[np.ndarray, int]:
        # A copy (pickle, deepcopy) keeps the vector but not the memo: the memo may
        # hold the very objects of the state it was written from (compared by
        # identity), and a memoryview does not pickle. The copy's next update writes
        # it all, giving the same vector.
        return self.array, self.player

    def __setstate__(self, saved: tuple[np.ndarray, int]) -> None:
        self.array, self.player = saved
        self.cells = self.array.data
        self.memo = []

    def forget(self) -> None:
        """Nothing written here is to be trusted any more (the next update writes it all)."""
        self.memo = []


class CanvasWriter:
    """A game's writer that updates a `Canvas` in place (what `observation_encoder` makes).

    `update(state, canvas)` brings `canvas.array` to the observation of `state`
    for `canvas.player` and returns True, or returns False for a position it
    leaves to the view-based encoder (the canvas is then forgotten). Calling the
    writer, `writer(state, player)`, encodes a position afresh (a new canvas)."""

    def __init__(self, size: int, update: Callable[[State, Canvas], bool]) -> None:
        self.size = size
        self.update = update

    def __call__(self, state: State, player: int) -> np.ndarray | None:
        if player is None:
            return None
        canvas = Canvas(self.size, player)
        return canvas.array if self.update(state, canvas) else None


def put_cells(cells: memoryview, slots: ListSlots, values: list[int], before: int) -> None:
    """A list of numbers into a canvas: its length, its values, and zeros over the rest of
    the `before` values a former list left there."""
    cells[slots.length] = len(values)
    at = slots.first
    if len(values) > slots.capacity:
        values = values[:slots.capacity]
    for value in values:
        cells[at] = value
        at += 1
    for rest in range(at, slots.first + min(before, slots.capacity)):
        cells[rest] = 0


class Encoder:
    """Encodes `view(player)` as a fixed-length float32 vector, and legal actions as a mask.

    Build one with `encoder_for(game)`; `size`, `features` (the documented
    layout), `low`/`high` (the `Box` bounds) and `num_actions` describe it.

    A game whose manifest names an `observation_encoder` companion (a function
    `(layout, game) -> writer`, the writer a `CanvasWriter` or a `FastWriter`)
    is encoded by that writer straight from the state's own fields; it must
    give, feature for feature, what `encode_view` gives for the seat's view
    (tests/rl/test_fast_encoders.py and test_canvas.py check thousands of
    positions), so it reads only what the view shows. `update` brings a kept
    `Canvas` up to date (what the environments call); `encode_from_view` always
    goes through the view.
    """

    def __init__(self, game: Game, view_type: type, measure: _Measure,
                 fast: Callable[[Layout, Game], FastWriter | CanvasWriter] | None = None
                 ) -> None:
        builder = _Builder(measure, game)
        self.size, self._write = builder.build(view_type, "", "")
        self.features = sorted(builder.features, key=lambda f: f.offset)
        self.low = np.zeros(self.size, dtype=np.float32)
        self.high = np.zeros(self.size, dtype=np.float32)
        for feature in self.features:
            self.low[feature.offset:feature.offset + feature.size] = feature.low
            self.high[feature.offset:feature.offset + feature.size] = feature.high
        self.num_actions = game.num_distinct_actions
        self.view_type = view_type
        self.layout = Layout(builder, self.size)
        self._fast = fast(self.layout, game) if fast is not None else None
        self._update = self._fast.update if isinstance(self._fast, CanvasWriter) else None
        self._no_actions = np.zeros(self.num_actions, dtype=np.int8)
        # (name, options, fast): how `encoder_for` made it, for pickling (set there).
        self.key: tuple[str, tuple[tuple[str, Any], ...], bool] | None = None

    def __reduce__(self) -> tuple[Any, ...]:
        # The layout's writers are closures, which do not pickle; an encoder is a pure
        # function of its game's name and options, so a copy (pickle, deepcopy) is the
        # process's own encoder for them (environments copy with it).
        if self.key is None:
            raise TypeError(_("only an encoder made by encoder_for() can be pickled or "
                              "copied"))
        return _cached_encoder, self.key

    @property
    def has_fast_writer(self) -> bool:
        return self._fast is not None

    def encode_view(self, view: dict[str, Any]) -> np.ndarray:
        # Writers fill a plain list (cheaper per item than a numpy array), which
        # becomes the vector, clipped to the Box bounds, in one step.
        out: list[Any] = [0.0] * self.size
        self._write(view, out, 0)
        vector = np.array(out, dtype=np.float32)
        return np.clip(vector, self.low, self.high, out=vector)

    def encode(self, state: State, player: int) -> np.ndarray:
        if self._fast is not None:
            vector = self._fast(state, player)
            if vector is not None:
                return vector
        return self.encode_view(state.view(player))

    def canvas(self, player: int) -> Canvas:
        """A vector for `player` to keep and bring up to date with `update`."""
        return Canvas(self.size, player)

    def update(self, state: State, canvas: Canvas) -> np.ndarray:
        """The observation of `state` for `canvas.player`, equal to `encode(state, player)`.

        With a game writer that updates in place, the canvas is brought up to date
        and its own array returned (valid until the next update: copy it to keep
        it); otherwise, or where the writer leaves the position to the view, a new
        vector."""
        fast = self._fast
        if fast is not None:
            update = self._update
            if update is not None:
                if update(state, canvas):
                    return canvas.array
                canvas.forget()
            else:
                vector = fast(state, canvas.player)
                if vector is not None:
                    return vector
        return self.encode_view(state.view(canvas.player))

    def encode_from_view(self, state: State, player: int) -> np.ndarray:
        """The documented view-based encoding (what the fast writers must equal)."""
        return self.encode_view(state.view(player))

    def action_mask(self, state: State, player: int,
                    legal: list[int] | None = None) -> np.ndarray:
        """1 for each legal action when `player` is to move, else all zeros.

        `legal`: the state's legal actions when the caller has them already."""
        if state.is_terminal() or state.current_player != player:
            return self._no_actions.copy()
        mask = self._no_actions.copy()
        if legal is None:
            legal = state.legal_actions()
        if len(legal) <= 8:
            for action in legal:  # a few item writes are cheaper than a fancy index
                mask[action] = 1
        else:
            mask[legal] = 1
        return mask

    def describe(self) -> list[dict[str, Any]]:
        """The layout: one row per run of features (offset, size, path, meaning, bounds)."""
        return [
            {"offset": f.offset, "size": f.size, "path": f.path, "meaning": f.meaning,
             "low": f.low, "high": f.high}
            for f in self.features
        ]


@lru_cache(maxsize=64)
def _cached_encoder(name: str, options_key: tuple[tuple[str, Any], ...],
                    fast: bool = True) -> Encoder:
    game = load(name, **dict(options_key))
    manifest = game_manifest(name)
    view_type = manifest.view_type
    if view_type is None:
        raise ValueError(_("game {game} declares no view_type in its manifest; the RL "
                           "encoders build the observation layout from it", game=repr(name)))
    writer = manifest.companion("observation_encoder") if fast else None
    encoder = Encoder(game, view_type, _probe_for(name, options_key), writer)
    encoder.key = (name, options_key, fast)
    return encoder


@lru_cache(maxsize=64)
def _probe_for(name: str, options_key: tuple[tuple[str, Any], ...]) -> _Measure:
    return probe(load(name, **dict(options_key)))


def encoder_for(game: Game | str, fast: bool = True, **options: Any) -> Encoder:
    """The encoder of `game` (its name and options), a loaded game or a registered
    game's name with `options` (as the environments take them); built once per process.

    `fast=False`: without the game's own writer (every observation through the view)."""
    game = as_game(game, options)
    return _cached_encoder(game.name, tuple(sorted(game.options.items())), fast)


def as_game(game: Game | str, options: dict[str, Any]) -> Game:
    """A loaded game as it is, or the registered game named `game` with `options`
    (checked by the game); options beside a loaded game are refused, since it has
    its own and they would be ignored."""
    if not isinstance(game, Game):
        return load(game, **options)
    if options:
        raise TypeError(_("options go with a game's name; {game} is loaded with its own "
                          "({own}), got {given}", game=game.name, own=game.options,
                          given=options))
    return game


class EpisodeGames:
    """The game of each episode: an environment's game, or that game with some of its
    options changed for one episode (`reset(options={"rounds_to_win": 1})`), provided
    the change keeps the environment's spaces (the same players, observation layout
    and bounds, and actions); one that would change them is refused, saying so."""

    def __init__(self, game: Game, encoder: Encoder) -> None:
        self.game, self.encoder = game, encoder
        self._made: dict[tuple[tuple[str, Any], ...], tuple[Game, Encoder]] = {}

    def get(self, changes: dict[str, Any]) -> tuple[Game, Encoder]:
        """The game and encoder of `changes` (option name -> value) over the game's own."""
        if not changes:  # the common case, every reset without options
            return self.game, self.encoder
        options = {**self.game.options, **changes}
        if options == self.game.options:
            return self.game, self.encoder
        try:
            key = tuple(sorted(options.items()))
            hash(key)
        except TypeError:
            key = ()
        made = self._made.get(key) if key else None
        if made is None:
            made = self._make(options, changes)
            if key:
                self._made[key] = made
        return made

    def _make(self, options: dict[str, Any], changes: dict[str, Any]) -> tuple[Game, Encoder]:
        base, encoder = self.game, self.encoder
        # The game's own words for a bad value (what is allowed); an OptionError is a
        # ValueError.
        game = load(base.name, **options)
        other = encoder_for(game)
        same = (game.num_players == base.num_players
                and other.num_actions == encoder.num_actions
                and other.size == encoder.size
                and [(f.path, f.offset, f.size) for f in other.features]
                == [(f.path, f.offset, f.size) for f in encoder.features]
                and np.array_equal(other.low, encoder.low)
                and np.array_equal(other.high, encoder.high))
        if not same:
            given = ", ".join(f"{name}={value!r}" for name, value in sorted(changes.items()))
            raise ValueError(ngettext(
                "reset options {given} would change the environment's spaces ({game} with "
                "them has {count} player, {size} observation features and {actions} "
                "actions; this environment has {players}, {own_size} and {own_actions}); "
                "make a new environment with them instead",
                "reset options {given} would change the environment's spaces ({game} with "
                "them has {count} players, {size} observation features and {actions} "
                "actions; this environment has {players}, {own_size} and {own_actions}); "
                "make a new environment with them instead",
                game.num_players, given=given, game=base.name, size=other.size,
                actions=other.num_actions, players=base.num_players, own_size=encoder.size,
                own_actions=encoder.num_actions))
        return game, other


def layout_markdown(game: Game | str, **options: Any) -> str:
    """The observation layout of `game` (a loaded game, or a name with `options`) as a
    Markdown table (docs/rl.md prints these)."""
    encoder = encoder_for(game, **options)
    rows = ["| offset | size | feature | meaning |", "|---:|---:|---|---|"]
    seen: set[str] = set()
    for feature in encoder.features:
        generic = _slot_pattern(feature.path)
        if generic in seen:
            continue  # list slots after the first repeat the first one's layout
        seen.add(generic)
        rows.append(f"| {feature.offset} | {feature.size} | `{generic}` | {feature.meaning} |")
    rows.append(f"\nTotal: {encoder.size} features; action mask: {encoder.num_actions} actions.")
    return "\n".join(rows)


def _slot_pattern(path: str) -> str:
    return re.sub(r"\[\d+\]", "[i]", path)


def as_action(action: Any) -> int:
    """An agent's action as an int: a whole number (NumPy's too, a 0-d array of one,
    or a float such as 236.0). 2.5 is not action 2 and "x" not a ValueError from
    int(): both are refused, saying what is allowed."""
    if type(action) is int:
        return action
    if isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_)):
        return int(action)
    # A 0-d array (`tensor.numpy()`, `np.argmax` kept as an array) is what it holds, as
    # Gymnasium's Discrete space takes it (`action_space.contains(np.array(3))`).
    if isinstance(action, np.ndarray) and action.shape == ():
        return as_action(action.item())
    # A whole number held as a float (236.0, some libraries' arrays) is that action.
    if isinstance(action, (float, np.floating)) and float(action).is_integer():
        return int(action)
    raise TypeError(_("an action is a whole number (an index of the action mask), not "
                      "{got}", got=repr(action)))


def as_seed(seed: Any) -> int:
    """An environment's reset seed as an int: a whole number of 0 or more (NumPy's
    too), as Gymnasium and PettingZoo take them; anything else is refused, saying what
    is allowed, before the game or NumPy would fail on it."""
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, (bool, np.bool_)):
        if seed >= 0:
            return int(seed)
        raise ValueError(_("a seed is a whole number of 0 or more, not {got}", got=seed))
    raise TypeError(_("a seed is a whole number of 0 or more (or None), not {got}",
                      got=repr(seed)))


def illegal_reason(state: Any, action: int | None) -> str:
    """Why `action` cannot be played in `state`, in the engine's words (what was wrong
    and what is allowed), for an environment's `info["reason"]`; the state is left as
    it was (the engine is asked on a copy)."""
    if action is None:
        return _("no action was given (None); give one whose action_mask entry is 1")
    try:
        state.clone().apply_action(action)
    except PyramidsError as error:  # the engine's refusal (IllegalActionError)
        return words_text(error)
    return _("action {action} is not allowed now; give one whose action_mask entry is 1",
             action=action)
