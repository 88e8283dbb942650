"""The errors every game and interface raises, and the words they carry for players.

Each message says what was wrong and what is allowed, so that a person at a
prompt, a client of the server and a test all get something they can act on.

Engines sit below the message catalogue (`pyramids.play.i18n`), so they cannot
translate; instead an error carries `Words`: a catalogue message id (the English
text, with `{name}` placeholders, marked with `N_` so that
`scripts/update_catalogue.py` extracts it) and the named values that fill it. A
value may itself be `Words` (a reason inside a refusal, a tile's name) and is
translated too; `PluralWords` choose a form by a count. `str(error)` is the
English text, for developers and logs; the interfaces show
`pyramids.play.i18n.words_text(error)` in the player's language.
Values are player words: seats counted from 1, cards and fields as printed,
never action numbers or reprs. A game option is named by an `OptionRef` (its key and
value), never written into the text: the interfaces say it in words, and the command
line, where the player typed keys, as the key.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any


def N_(message: str) -> str:
    """Mark `message` as a catalogue message id; the interfaces translate it, not here."""
    return message


class Words:
    """A message for a player, translated later: a message id and its `{name}` values."""

    __slots__ = ("msgid", "values")

    def __init__(self, msgid: str, /, **values: Any) -> None:
        self.msgid = msgid
        self.values = values

    def __str__(self) -> str:
        """The English text (values that are `Words` in English too)."""
        if not self.values:
            return self.msgid
        return self.msgid.format(**{name: str(value) for name, value in self.values.items()})

    def __repr__(self) -> str:
        values = "".join(f", {name}={value!r}" for name, value in self.values.items())
        return f"Words({self.msgid!r}{values})"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Words) and other.msgid == self.msgid
                and other.values == self.values)

    def __hash__(self) -> int:
        return hash((self.msgid, tuple(sorted(self.values))))


class PluralWords(Words):
    """Words whose form follows `count` ("1 unit", "2 units"); `{count}` is filled too.

    `scripts/update_catalogue.py` extracts the singular and plural as one message.
    """

    __slots__ = ("plural",)

    def __init__(self, singular: str, plural: str, count: int, /, **values: Any) -> None:
        super().__init__(singular, count=count, **values)
        self.plural = plural

    def __str__(self) -> str:
        text = self.msgid if self.values["count"] == 1 else self.plural
        return text.format(**{name: str(value) for name, value in self.values.items()})

    def __repr__(self) -> str:
        return f"Plural{super().__repr__()[:-1]}, plural={self.plural!r})"


#: `OptionRef.value` of a reference to an option alone, without a value.
NO_VALUE: Any = object()


def _typed(value: Any) -> str:
    """A value as `-o key=value` or JSON writes it: 600 (not 600.0), true, a text with
    spaces or nothing in double quotes."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        plain = value and not any(char.isspace() or char in "\"'" for char in value)
        return value if plain else json.dumps(value, ensure_ascii=False)
    return json.dumps(value, ensure_ascii=False, default=str)


class OptionRef:
    """A game option named in a message, with or without its value (a `Words` value).

    Engines name options by key (`turn_order`, `behind`), which players never read:
    the interfaces render a reference in words ("Turn order “Lowest score moves
    next”", `pyramids.play.option_words`), and for someone who typed keys (the command
    line, `str`) as the key they typed, `turn_order=behind`. `bare` leaves the option's
    title out of the words ("not “Architect Co-op”", still `mode=coop` as keys);
    `literal` shows a text value as it is, for a value that has no words of its own (a
    board's file name).
    """

    __slots__ = ("name", "value", "bare", "literal")

    def __init__(self, name: str, value: Any = NO_VALUE, /, *, bare: bool = False,
                 literal: bool = False) -> None:
        self.name = name
        self.value = value
        self.bare = bare
        self.literal = literal

    @property
    def has_value(self) -> bool:
        return self.value is not NO_VALUE

    def __str__(self) -> str:
        """The key, and `=value` as typed: what `-o` takes."""
        return f"{self.name}={_typed(self.value)}" if self.has_value else self.name

    def __repr__(self) -> str:
        value = f", {self.value!r}" if self.has_value else ""
        return f"OptionRef({self.name!r}{value})"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, OptionRef) and other.name == self.name
                and other.bare == self.bare and other.literal == self.literal
                and (other.value is self.value or other.value == self.value))

    def __hash__(self) -> int:
        return hash(self.name)

    def __reduce__(self) -> tuple[Any, ...]:
        # NO_VALUE is this process's own object: a reference without a value must come
        # back without one in another process (the server's workers).
        if self.has_value:
            return (_option_ref, (self.name, True, self.value, self.bare, self.literal))
        return (_option_ref, (self.name, False, None, self.bare, self.literal))


def _option_ref(name: str, has_value: bool, value: Any, bare: bool, literal: bool) -> OptionRef:
    return OptionRef(name, value if has_value else NO_VALUE, bare=bare, literal=literal)


class OptionList:
    """Option references said one after another ("Direction, Rounds to win"; as keys
    "direction, rounds_to_win"): the options or the choices a refusal allows."""

    __slots__ = ("refs",)

    def __init__(self, refs: Iterable[OptionRef]) -> None:
        self.refs = tuple(refs)

    def __str__(self) -> str:
        return ", ".join(str(ref) if not ref.has_value else _typed(ref.value)
                         for ref in self.refs)

    def __repr__(self) -> str:
        return f"OptionList({list(self.refs)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, OptionList) and other.refs == self.refs

    def __hash__(self) -> int:
        return hash(self.refs)


class Number:
    """A number in a message, grouped in the player's language ("1,000,000") where the
    interfaces say it in words, and as typed ("1000000") for someone who typed keys
    (`str`): 600 (not 600.0), 0.5 as it is."""

    __slots__ = ("value",)

    def __init__(self, value: float) -> None:
        self.value = value

    def __str__(self) -> str:
        return _typed(self.value)

    def __repr__(self) -> str:
        return f"Number({self.value!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Number) and other.value == self.value

    def __hash__(self) -> int:
        return hash(self.value)


class KeyedWords:
    """A value of a message said one way to players and another to someone who typed
    keys, as an `OptionRef` is: what an option allows reads "on or off" in words and
    "true or false" on the command line (`str`), where `true`/`false` are typed."""

    __slots__ = ("words", "keys")

    def __init__(self, words: Words, keys: Words) -> None:
        self.words = words
        self.keys = keys

    def __str__(self) -> str:
        return str(self.keys)

    def __repr__(self) -> str:
        return f"KeyedWords({self.words!r}, {self.keys!r})"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, KeyedWords) and other.words == self.words
                and other.keys == self.keys)

    def __hash__(self) -> int:
        return hash((self.words, self.keys))


def words_json(words: Words) -> dict[str, Any]:
    """`words` as JSON a page translates with its catalogue: the message id, the values
    (a value that is itself `Words` nested the same way) and, for a plural, its
    `plural` form and `count`."""
    values = {name: words_json(value) if isinstance(value, Words) else value
              for name, value in words.values.items()}
    data: dict[str, Any] = {"msgid": words.msgid, "values": values}
    if isinstance(words, PluralWords):
        data["plural"] = words.plural
        data["count"] = words.values["count"]
    return data


class PyramidsError(Exception):
    """Base of every error this package raises on purpose.

    `PyramidsError(N_("card {card} is not in your hand"), card=17)` or
    `PyramidsError(words)`; `error.words` is what a player reads, translated by
    the interface, and `str(error)` is its English text.
    """

    def __init__(self, message: str | Words = "", /, *args: Any, **values: Any) -> None:
        self.words = message if isinstance(message, Words) else Words(str(message), **values)
        super().__init__(str(self.words), *args)


class IllegalActionError(PyramidsError, ValueError):
    """An action that is not legal in the current state. The state is unchanged."""


class UnknownGameError(PyramidsError, ValueError):
    """A game name that is not registered."""


class OptionError(PyramidsError, ValueError):
    """An unknown option name or a bad option value."""


class RecordError(PyramidsError, ValueError):
    """A malformed saved state or game record."""


class LayoutError(PyramidsError, ValueError):
    """A malformed or unsound board layout."""
