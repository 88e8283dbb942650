"""One field list per state class drives its `clone`, its `_to_dict` and its loading.

Every engine must copy its state exactly (search bots clone thousands of times
a move), save all of it, hidden parts included, and refuse a malformed save
with a message naming the field and what is allowed. Written by hand, those
three walk the same attributes three times and drift apart; here a state lists
each attribute once, with a codec that knows how to copy, write and read it.

The pattern::

    from pyramids.core.saving import (
        RNG, SEED, Field, Int, Kept, ListOf, Optional, Schema, SavedState,
    )

    class MyState(SavedState, State):
        __slots__ = ("game", "seed", "_rng", "_round", "_scores", "_winner", "_history")

        saved = Schema(
            "my-game state",
            Kept("game"),                                  # copied, not saved
            Field("seed", "seed", SEED),
            Field("rng", "_rng", RNG),
            Field("round", "_round", Int(1, lambda state: state.game.options["rounds"])),
            Field("scores", "_scores", ListOf(Int(0), length=2)),
            Field("winner", "_winner", Optional(Int(0, 1))),
            Field("history", "_history", ListOf(Int(0, NUM_ACTIONS - 1))),
        )

        @classmethod
        def from_dict(cls, game, data):
            state = cls.__new__(cls)
            state.game = game            # what the save does not hold, first
            cls.saved.load(state, data)  # every field, checked, in the order listed
            state.check_consistent()     # what only the game knows (cards add up, ...)
            return state

`SavedState` then supplies `clone` and `_to_dict`; the game still writes
`resample_hidden` (starting from `self.clone()`) and `from_dict` as above.

- `Field(key, attribute, codec)`: saved under `key`, loaded and cloned.
- `Kept(attribute, codec=SHARED)`: cloned only: the game, values taken from
  the options, or attributes that a `Computed` entry saves.
- `Computed(key, dump, load)`: one saved key that is not one attribute
  (`dump(state)` gives the JSON value, `load(state, raw)` sets the attributes
  and raises ValueError); its attributes are also listed as `Kept`.
- Codecs: `Int(low, high)`, `BOOL`, `SEED`, `RNG`, `OneOf(values, index=)`,
  `ListOf(item, length=, sort=)`, `TupleOf(item, length)`, `Optional(codec)`,
  `JSON_OBJECT`, or `Custom(load, dump, copy)` for anything else. A bound or a
  length may be a function of the state being loaded: entries load in the
  order listed, so it may use the attributes above it. A codec's `load(raw,
  state)` raises `Malformed(what was wrong and what is allowed)`; lists add
  the index.

A class that declares `__slots__` must list every slot (`SavedState` refuses
the class otherwise), so a new attribute cannot be forgotten by `clone` or the
save.

Errors: `Schema.load` raises `RecordError` (a ValueError), "saved <name>:
<key>[<index>]: <what was wrong and what is allowed>", e.g. "saved pacal
state: hands[1][3]: 51 is not an integer in 1..50".

Speed: `clone` is generated once per class as straight-line code, as
`dataclasses` does for `__init__`: a loop of `getattr`/`setattr` over the
fields measured 2.5 times slower than the hand-written clones it replaces.
`dump` is generated the same way (Mahjongg's undo snapshot is a dump, taken on
every move).
A fixed `length` (one entry per seat in a two-player game) unrolls the copy.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cached_property
from typing import Any, ClassVar, Self

from pyramids.core.errors import RecordError
from pyramids.core.rng import Rng

Bound = int | Callable[[Any], int] | None
_UNROLL_LIMIT = 4


def _resolve(bound: Bound, state: Any) -> int | None:
    return bound(state) if callable(bound) else bound


class Malformed(ValueError):
    """A saved value a codec refuses: what is wrong and what is allowed. `path`
    (`[2][0]`) is where inside the field; `Schema.load` adds the key in front."""

    def __init__(self, message: str, path: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.path = path

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


class Codec:
    """How one kind of value is copied, written to JSON and read back.

    The base class is an immutable JSON value: shared by clones, saved as is.
    """

    __slots__ = ()

    def load(self, raw: Any, state: Any) -> Any:
        """The value for `raw` from a save; `Malformed` (a ValueError) when malformed."""
        raise NotImplementedError

    def dump(self, value: Any) -> Any:
        return value

    def copy_source(self, source: str, names: dict[str, Any], depth: int) -> str:
        """A Python expression copying the value of the expression `source` (for
        the generated clone; put any function it calls into `names`)."""
        return source

    def dump_source(self, source: str, names: dict[str, Any]) -> str:
        """A Python expression giving the JSON value of the expression `source` (for
        the generated dump; put any function it calls into `names`)."""
        if self.plain:
            return source
        name = f"dump{len(names)}"
        names[name] = self.dump
        return f"{name}({source})"

    @property
    def shared(self) -> bool:
        """Whether clones may share the value (it is never changed in place)."""
        return self.copy_source("x", {}, 0) == "x"

    @property
    def plain(self) -> bool:
        """Shared and saved as it is: a list of such values copies with `list()`."""
        return self.shared and type(self).dump is Codec.dump


class Int(Codec):
    """An integer in `low..high` (either bound may depend on the state; None: unbounded)."""

    __slots__ = ("low", "high")

    def __init__(self, low: Bound = None, high: Bound = None) -> None:
        self.low = low
        self.high = high

    def load(self, raw: Any, state: Any) -> int:
        low, high = _resolve(self.low, state), _resolve(self.high, state)
        if not _in_range(raw, low, high):
            raise self._refusal(raw, low, high)
        return raw

    def load_all(self, raw: list[Any], state: Any) -> list[int]:
        """Every entry of `raw` checked, the bounds resolved once (lists of cards are long)."""
        low, high = _resolve(self.low, state), _resolve(self.high, state)
        for index, value in enumerate(raw):
            if not _in_range(value, low, high):
                error = self._refusal(value, low, high)
                error.path = f"[{index}]"
                raise error
        return list(raw)

    @staticmethod
    def _refusal(raw: Any, low: int | None, high: int | None) -> Malformed:
        allowed = f"{'' if low is None else low}..{'' if high is None else high}"
        return Malformed(f"{raw!r} is not an integer in {allowed}")


def _in_range(value: Any, low: int | None, high: int | None) -> bool:
    # `type(...) is int` also refuses bools, which JSON keeps apart from numbers.
    return (
        type(value) is int
        and (low is None or value >= low)
        and (high is None or value <= high)
    )


class _Bool(Codec):
    __slots__ = ()

    def load(self, raw: Any, state: Any) -> bool:
        if not isinstance(raw, bool):
            raise Malformed(f"{raw!r} is not true or false")
        return raw


class _Seed(Codec):
    """The user's seed as given: an integer, a string or null."""

    __slots__ = ()

    def load(self, raw: Any, state: Any) -> int | str | None:
        if raw is not None and (isinstance(raw, bool) or not isinstance(raw, (int, str))):
            raise Malformed(f"{raw!r} is not an integer, a string or null")
        return raw


class _Rng(Codec):
    """The state's chance generator, saved as its 64-bit state."""

    __slots__ = ()

    def load(self, raw: Any, state: Any) -> Rng:
        try:
            return Rng.from_state(raw)
        except ValueError as error:
            raise Malformed(str(error)) from None

    def dump(self, value: Rng) -> int:
        return value.state

    def dump_source(self, source: str, names: dict[str, Any]) -> str:
        return f"{source}.state"

    def copy_source(self, source: str, names: dict[str, Any], depth: int) -> str:
        return f"{source}.copy()"


class _JsonObject(Codec):
    """A JSON object the state only ever replaces, never changes in place (so
    clones share it); saved as a deep copy so that a caller cannot change it."""

    __slots__ = ()

    def load(self, raw: Any, state: Any) -> dict[str, Any]:
        if not isinstance(raw, dict):
            raise Malformed(f"{raw!r} is not an object")
        return raw

    def dump(self, value: Any) -> Any:
        return _deep_copy_json(value)


def _deep_copy_json(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _deep_copy_json(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_deep_copy_json(item) for item in value]
    return value


BOOL: Codec = _Bool()
SEED: Codec = _Seed()
RNG: Codec = _Rng()
JSON_OBJECT: Codec = _JsonObject()
SHARED: Codec = Codec()
"""For `Kept` attributes: clones share the value (the game, an option)."""


class OneOf(Codec):
    """One of `values`; with `index`, the attribute holds its position in `values`
    (a phase number saved as its name)."""

    __slots__ = ("values", "index")

    def __init__(self, values: Sequence[Any], *, index: bool = False) -> None:
        self.values = tuple(values)
        self.index = index

    def load(self, raw: Any, state: Any) -> Any:
        for position, value in enumerate(self.values):
            if type(raw) is type(value) and raw == value:
                return position if self.index else value
        allowed = ", ".join(repr(value) for value in self.values)
        raise Malformed(f"{raw!r} is not one of {allowed}")

    def dump(self, value: Any) -> Any:
        return self.values[value] if self.index else value

    @property
    def plain(self) -> bool:
        return not self.index


class ListOf(Codec):
    """A list of `item`s; `length` (an int, or a function of the state) is the
    number of entries it must have; `sort` puts a loaded list in ascending order."""

    __slots__ = ("item", "length", "sort")

    def __init__(self, item: Codec, *, length: Bound = None, sort: bool = False) -> None:
        self.item = item
        self.length = length
        self.sort = sort

    def load(self, raw: Any, state: Any) -> list[Any]:
        if not isinstance(raw, list):
            raise Malformed(f"{raw!r} is not a list")
        length = _resolve(self.length, state)
        if length is not None and len(raw) != length:
            raise Malformed(f"{len(raw)} entries where {length} are needed")
        item = self.item
        if isinstance(item, Int):
            values = item.load_all(raw, state)
        else:
            values = []
            for index, value in enumerate(raw):
                try:
                    values.append(item.load(value, state))
                except Malformed as error:
                    error.path = f"[{index}]{error.path}"
                    raise
        if self.sort:
            values.sort()
        return values

    def dump(self, value: Any) -> list[Any]:
        if self.item.plain:
            return list(value)
        dump = self.item.dump
        return [dump(entry) for entry in value]

    def dump_source(self, source: str, names: dict[str, Any]) -> str:
        return f"list({source})" if self.item.plain else super().dump_source(source, names)

    def copy_source(self, source: str, names: dict[str, Any], depth: int) -> str:
        item = self.item
        if item.shared:
            return f"{source}[:]"
        length = self.length
        if isinstance(length, int) and length <= _UNROLL_LIMIT:
            copies = [item.copy_source(f"{source}[{i}]", names, depth + 1) for i in range(length)]
            return "[" + ", ".join(copies) + "]"
        entry = f"entry{depth}"
        return f"[{item.copy_source(entry, names, depth + 1)} for {entry} in {source}]"


class TupleOf(Codec):
    """A fixed-length tuple of immutable `item`s, saved as a list."""

    __slots__ = ("item", "length")

    def __init__(self, item: Codec, length: int) -> None:
        if not item.shared:
            raise TypeError("TupleOf holds immutable items only")
        self.item = item
        self.length = length

    def load(self, raw: Any, state: Any) -> tuple[Any, ...]:
        return tuple(ListOf(self.item, length=self.length).load(raw, state))

    def dump(self, value: Any) -> list[Any]:
        return [self.item.dump(entry) for entry in value]


class Optional(Codec):
    """`codec`'s value or None (saved as null)."""

    __slots__ = ("codec",)

    def __init__(self, codec: Codec) -> None:
        self.codec = codec

    def load(self, raw: Any, state: Any) -> Any:
        return None if raw is None else self.codec.load(raw, state)

    def dump(self, value: Any) -> Any:
        return None if value is None else self.codec.dump(value)

    def copy_source(self, source: str, names: dict[str, Any], depth: int) -> str:
        inner = self.codec.copy_source(source, names, depth)
        return inner if inner == source else f"(None if {source} is None else {inner})"

    @property
    def plain(self) -> bool:
        return self.codec.plain


class Custom(Codec):
    """A codec from functions: `load(raw, state)` (raising ValueError when `raw`
    is malformed), `dump(value)` and `copy(value)` (None: clones share the value)."""

    __slots__ = ("_load", "_dump", "_copy")

    def __init__(
        self,
        load: Callable[[Any, Any], Any],
        dump: Callable[[Any], Any] | None = None,
        copy: Callable[[Any], Any] | None = None,
    ) -> None:
        self._load = load
        self._dump = dump
        self._copy = copy

    def load(self, raw: Any, state: Any) -> Any:
        return self._load(raw, state)

    def dump(self, value: Any) -> Any:
        return value if self._dump is None else self._dump(value)

    def copy_source(self, source: str, names: dict[str, Any], depth: int) -> str:
        if self._copy is None:
            return source
        name = f"copy{len(names)}"
        names[name] = self._copy
        return f"{name}({source})"

    @property
    def plain(self) -> bool:
        return self._dump is None and self._copy is None


class Field:
    """An attribute saved under `key`, loaded and cloned with `codec`."""

    __slots__ = ("key", "attribute", "codec")

    def __init__(self, key: str, attribute: str, codec: Codec) -> None:
        self.key = key
        self.attribute = attribute
        self.codec = codec


class Kept:
    """An attribute that clones copy with `codec` (default: share it) but the save
    does not hold as such: the game, an option, or what a `Computed` entry saves."""

    __slots__ = ("attribute", "codec")

    def __init__(self, attribute: str, codec: Codec = SHARED) -> None:
        self.attribute = attribute
        self.codec = codec


class Computed:
    """A saved key that is not one attribute: `dump(state)` gives its JSON value,
    `load(state, raw)` sets the attributes (raising ValueError when `raw` is
    malformed). List those attributes as `Kept` so that clones copy them."""

    __slots__ = ("key", "dump", "load")

    def __init__(
        self,
        key: str,
        dump: Callable[[Any], Any],
        load: Callable[[Any, Any], None],
    ) -> None:
        self.key = key
        self.dump = dump
        self.load = load


Entry = Field | Kept | Computed


class Schema:
    """A state class's attributes, each listed once (see the module docstring)."""

    def __init__(self, name: str, *entries: Entry) -> None:
        self.name = name
        self.entries = entries
        attributes = [e.attribute for e in entries if not isinstance(e, Computed)]
        keys = [e.key for e in entries if not isinstance(e, Kept)]
        for label, names in (("attribute", attributes), ("key", keys)):
            repeated = sorted({n for n in names if names.count(n) > 1})
            if repeated:
                raise TypeError(f"{name}: {label} listed twice: {', '.join(repeated)}")
        for attribute in attributes:
            if not attribute.isidentifier():
                raise TypeError(f"{name}: {attribute!r} is not an attribute name")
        self.attributes = frozenset(attributes)

    def make_clone(self, cls: type) -> Callable[[Any], Any]:
        """`cls.clone`, written out once as straight-line code (see the module docstring)."""
        names: dict[str, Any] = {"cls": cls, "new": object.__new__}
        lines = ["def clone(self):", "    other = new(cls)"]
        for entry in self.entries:
            if isinstance(entry, Computed):
                continue
            source = f"self.{entry.attribute}"
            lines.append(f"    other.{entry.attribute} = "
                         f"{entry.codec.copy_source(source, names, 0)}")
        lines.append("    return other")
        exec("\n".join(lines), names)  # noqa: S102 - the source is built from checked names
        clone: Callable[[Any], Any] = names["clone"]
        clone.__qualname__ = f"{cls.__qualname__}.clone"
        clone.__doc__ = f"An independent copy of this {self.name} (generated from its Schema)."
        return clone

    def dump(self, state: Any) -> dict[str, Any]:
        """Every saved key's JSON value, copied so that the caller may change it."""
        return self._dump(state)

    @cached_property
    def _dump(self) -> Callable[[Any], dict[str, Any]]:
        """`dump`, written out once as straight-line code like `make_clone` (an undo
        snapshot is a dump, taken on every move)."""
        names: dict[str, Any] = {}
        items = []
        for entry in self.entries:
            if isinstance(entry, Computed):
                name = f"computed{len(names)}"
                names[name] = entry.dump
                items.append(f"{entry.key!r}: {name}(self)")
            elif isinstance(entry, Field):
                value = entry.codec.dump_source(f"self.{entry.attribute}", names)
                items.append(f"{entry.key!r}: {value}")
        source = "def dump(self):\n    return {" + ", ".join(items) + "}"
        exec(source, names)  # noqa: S102 - the source is built from checked names
        dump: Callable[[Any], dict[str, Any]] = names["dump"]
        return dump

    def load(self, state: Any, data: Any) -> None:
        """Set every saved attribute of `state` from `data`, checked, in the order
        listed. Raises `RecordError` naming the key and what is allowed."""
        try:
            self.load_object(state, data)
        except Malformed as error:
            where = f"{error.path[1:]}: " if error.path else ""
            raise RecordError(f"saved {self.name}: {where}{error.message}") from None

    def load_object(self, state: Any, data: Any) -> None:
        """`load` for a schema saved inside another's key (a `Computed` loader, or a
        list of snapshots): raises `Malformed` whose path (`.core.faces[3]`) names
        the key, so that the outer schema's message reads `core.faces[3]: ...`."""
        if not isinstance(data, dict):
            raise Malformed(f"expected an object, got {data!r}")
        for entry in self.entries:
            if isinstance(entry, Kept):
                continue
            key = entry.key
            if key not in data:
                raise Malformed(f"{key!r} is missing")
            try:
                if isinstance(entry, Field):
                    setattr(state, entry.attribute, entry.codec.load(data[key], state))
                else:
                    entry.load(state, data[key])
            except Malformed as error:
                error.path = f".{key}{error.path}"
                raise
            except ValueError as error:
                raise Malformed(str(error), f".{key}") from None
            except (TypeError, IndexError, KeyError) as error:
                raise Malformed(repr(error), f".{key}") from None

    def kept(self) -> tuple[Kept, ...]:
        """This schema's saved attributes as `Kept` entries with their codecs, for an
        outer schema that saves them under one key (`Computed(key, dump, load_object)`)."""
        return tuple(Kept(e.attribute, e.codec) for e in self.entries if isinstance(e, Field))


def _declared_slots(cls: type) -> set[str]:
    """The slots `cls` and its bases declare (a base without `__slots__` adds none)."""
    slots: set[str] = set()
    for klass in cls.__mro__:
        declared = klass.__dict__.get("__slots__", ())
        slots.update((declared,) if isinstance(declared, str) else declared)
    return slots - {"__weakref__", "__dict__"}


class SavedState:
    """A mixin (put it before `State`): `clone` and `_to_dict` from the class's `saved`."""

    __slots__ = ()
    saved: ClassVar[Schema]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        schema = cls.__dict__.get("saved")
        if schema is None:
            return
        slots = _declared_slots(cls)
        if slots and slots != schema.attributes:
            missing = ", ".join(sorted(slots - schema.attributes)) or "none"
            unknown = ", ".join(sorted(schema.attributes - slots)) or "none"
            raise TypeError(
                f"{cls.__name__}.saved must list every slot once; "
                f"slots not listed: {missing}; listed but no slot: {unknown}"
            )
        # Set after the class body so that it is this class's own code, not a lookup.
        cls.clone = schema.make_clone(cls)  # type: ignore[method-assign]

    def clone(self) -> Self:
        raise TypeError(f"{type(self).__name__} has no `saved` Schema to clone from")

    def _to_dict(self) -> dict[str, Any]:
        return self.saved.dump(self)
