"""The move log: each move of a game told in player words, with what it caused.

A log entry is built for one *audience* (a seat, or None for a spectator) from
two of that audience's own views, the one before the move and the one after,
and the move's action string (which every seat may learn: action strings never
name hidden cards). Nothing else is read, so an entry can never tell a player
what their view does not show: another player's hidden cards stay hidden in
the log by construction, and a spectator's log holds only public facts.

Each game tells its moves with the `move_log` companion its manifest names,
a function `(action, actor, viewer, before, after) -> list[Words]`; a game without one
gets "seat 2: <action string>".

Lines are kept as `Words` (a catalogue message and its values) and put into a
language only when shown, so one log serves English and Korean readers. Write
new lines with `say("...", name=value)` and `say_n(singular, plural, count)`:
`scripts/update_catalogue.py` finds those messages like `_(...)`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from pyramids.core import GameRecord, State, companion_of
from pyramids.play.i18n import format_number, gettext, ngettext
from pyramids.play.results import SEAT_NAME_WORDS, agent_words

Audience = int | None
Describe = Callable[[str, int, "Audience", dict[str, Any], dict[str, Any]], list["Words"]]


@dataclass(frozen=True)
class Words:
    """A catalogue message with its values, put into a language by `text(lang)`.

    A value may itself be `Words` (a seat's label inside a sentence); `count`
    picks the plural form when `plural` is given. A seat's label (`seat_words`,
    `seat_title`) knows its seat: given `names` (seat -> a name, as a server knows
    them: a person's, a bot's level; see `table_names`), it reads as the name instead
    of "seat 2".
    """

    message: str
    values: tuple[tuple[str, Any], ...] = ()
    plural: str | None = None
    count: int = 0
    seat: int | None = None

    def text(self, lang: str | None = None,
             names: Mapping[int, str | Words] | None = None) -> str:
        if self.seat is not None and names and self.seat in names:
            name = names[self.seat]
            return name.text(lang) if isinstance(name, Words) else name
        values = {name: _value_text(value, lang, names) for name, value in self.values}
        if self.plural is not None:
            return ngettext(self.message, self.plural, self.count, lang=lang, **values)
        return gettext(self.message, lang=lang, **values)

    def __str__(self) -> str:
        return self.text()


def _value_text(value: Any, lang: str | None,
                names: Mapping[int, str | Words] | None) -> Any:
    """A value of a line as the reader reads it: words in their language, a number
    grouped as the language does ("Scores: you 4,900", as the board beside says it)."""
    if isinstance(value, Words | Listing):
        return value.text(lang, names)
    if isinstance(value, int) and not isinstance(value, bool):
        return format_number(value, lang)
    return value


@dataclass(frozen=True)
class Listing:
    """Several `Words` shown one after the other, with commas."""

    items: tuple[Words, ...]

    def text(self, lang: str | None = None,
             names: Mapping[int, str | Words] | None = None) -> str:
        return ", ".join(item.text(lang, names) for item in self.items)


def listing(items: Iterable[Words]) -> Listing:
    return Listing(tuple(items))


def say(message: str, **values: Any) -> Words:
    """A line to show later, in the reader's language."""
    return Words(message, tuple(sorted(values.items())))


def say_n(singular: str, plural: str, count: int, **values: Any) -> Words:
    """A line with a count (`{count}` is filled and picks the plural form)."""
    return Words(singular, tuple(sorted(values.items())), plural, count)


def distinct_names(people: Mapping[int, str],
                   look: Callable[[str], str] = str.casefold) -> dict[int, str | Words]:
    """People's names by seat, for `Words.text(names=...)`: a name two seats share
    (whatever its case; the server also takes names that look alike, by `look`) reads
    with its seat, "Bea (seat 2)", as the pages' last move tells them apart."""
    looks = [look(name) for name in people.values()]
    return {seat: name if looks.count(look(name)) == 1
            else say("{name} (seat {number})", name=name, number=seat + 1)
            for seat, name in people.items()}


def table_names(people: Mapping[int, str], bots: Mapping[int, str],
                look: Callable[[str], str] = str.casefold) -> dict[int, str | Words]:
    """Every named seat's name, by seat, for `Words.text(names=...)`, as the pages name
    them: people by their names (`distinct_names`), bots (`bots`: seat -> agent) by
    their level or rule, "Medium (bot)" (a setting by its agent's words alone,
    `agent_words`), and bots two seats hold that read alike with their seats,
    "Medium (bot, seat 3)". A seat in neither reads as "seat 2"."""
    names = distinct_names(people, look)
    # A setting reads as its agent's words ("mcts:iterations=5" as "MCTS tree search");
    # a plugin's agent keeps the name it was given.
    read = {seat: agent_words(agent) for seat, agent in bots.items()}
    held = list(read.values())
    for seat, words in read.items():
        bot: str | Words = Words(words) if words in SEAT_NAME_WORDS.values() else words
        names[seat] = (say("{bot} (bot, seat {number})", bot=bot, number=seat + 1)
                       if held.count(words) > 1 else say("{bot} (bot)", bot=bot))
    return names


def seat_words(seat: int, viewer: Audience) -> Words:
    """`you` for the reader's own seat, else `seat 2` (seats counted from 1), or the
    seat's name where the reader's names have it."""
    if viewer is not None and seat == viewer:
        return say("you")
    return Words("seat {number}", (("number", seat + 1),), seat=seat)


def seat_title(seat: int, viewer: Audience) -> Words:
    """As `seat_words`, at the start of a sentence."""
    if viewer is not None and seat == viewer:
        return say("You")
    return Words("Seat {number}", (("number", seat + 1),), seat=seat)


@dataclass(frozen=True)
class LogEntry:
    """One move as one audience reads it: its number (from 1), who moved, the lines."""

    number: int
    seat: int
    by_bot: bool
    lines: tuple[Words, ...]

    def as_json(self, lang: str | None = None,
                names: Mapping[int, str | Words] | None = None) -> dict[str, Any]:
        return {
            "number": self.number,
            "seat": self.seat,
            "by_bot": self.by_bot,
            "lines": [line.text(lang, names) for line in self.lines],
        }


def generic_describe(action: str, actor: int, viewer: Audience, before: dict[str, Any],
                     after: dict[str, Any]) -> list[Words]:
    """For a game without a `move_log` companion: the action string, which is public."""
    return [say("{seat}: {action}", seat=seat_title(actor, viewer), action=action)]


def describer(game: str) -> Describe:
    found = companion_of(game, "move_log")
    return found if found is not None else generic_describe


def audiences(state: State) -> list[Audience]:
    """Every seat, then the spectator (None)."""
    return [*range(state.game.num_players), None]


def audience_views(state: State) -> dict[Audience, dict[str, Any]]:
    return {audience: state.view(audience) for audience in audiences(state)}


def describe_for(describe: Describe, action: str, actor: int, viewer: Audience,
                 before: dict[str, Any], after: dict[str, Any]) -> tuple[Words, ...]:
    """The lines of one move for the audience whose views these are.

    A view shape the companion does not know yet still gets the action string."""
    try:
        return tuple(describe(action, actor, viewer, before, after))
    except (KeyError, TypeError, ValueError, IndexError):
        return tuple(generic_describe(action, actor, viewer, before, after))


@dataclass
class MoveLog:
    """A game's log, kept up to date move by move for the audiences someone reads.

    `record(state, actor, action, by_bot, apply)` keeps the move's raw record (who
    moved, the action string, by a bot), reads the followed audiences' views, lets
    `apply` make the move, reads them again and adds one entry per followed
    audience. The views after a move are kept as the next move's views before, so
    each move costs one view per followed audience.

    Followed audiences: every seat and the spectators (`follow=None`, the
    default), or only those in `follow` (a server follows the audiences with a
    socket connected). An audience left out falls behind; `catch_up` brings it up
    to date by replaying the raw moves from `start` (a copy of the game's first
    state), reading only that audience's views, so its entries are the same as if
    it had been followed all along.
    """

    game: str
    start: State | None = None
    entries: dict[Audience, list[LogEntry]] = field(default_factory=dict)
    # Every move so far: (seat, action string, by a bot).
    moves: list[tuple[int, str, bool]] = field(default_factory=list)
    # The view after the last move of each audience that is up to date (before any
    # move: none kept, they are read from the state).
    _views: dict[Audience, dict[str, Any]] = field(default_factory=dict)
    # Entries already put into words: (audience, language, names, number) -> JSON text.
    _texts: dict[tuple[Audience, str, tuple[tuple[int, str | Words], ...], int], str] = field(
        default_factory=dict)

    def record(self, state: State, actor: int, action: str, by_bot: bool,
               apply: Callable[[], Any], follow: Iterable[Audience] | None = None) -> None:
        followed = audiences(state) if follow is None else list(follow)
        before = {}
        for audience in followed:
            if not self.is_current(audience):
                self.catch_up(audience)
            kept = self._views.get(audience)
            before[audience] = kept if kept is not None else state.view(audience)
        apply()
        self.moves.append((actor, action, by_bot))
        number = len(self.moves)
        describe = describer(self.game)
        views = {}
        for audience in followed:
            after = state.view(audience)
            lines = describe_for(describe, action, actor, audience, before[audience], after)
            self.entries.setdefault(audience, []).append(LogEntry(number, actor, by_bot, lines))
            views[audience] = after
        self._views = views  # an audience not followed now is behind: its view is stale

    def is_current(self, audience: Audience) -> bool:
        """Whether the audience's entries are up to date with the moves (an audience
        left out of a move has one entry fewer)."""
        return len(self.entries.get(audience, ())) == len(self.moves)

    def forget_views(self) -> None:
        """Drop the views kept since the last move: the next move reads its views
        before again from the state. A server that has sent the position calls it, so
        that no view outlives its move: a kept view lives about as long as a young
        garbage collection takes to come round, and each one then cost the
        collector a walk of its few dozen lists."""
        self._views = {}

    def catch_up(self, audience: Audience) -> None:
        """Bring one audience's entries (and its latest view) up to date, replaying the
        moves from `start`: a client of an audience nobody followed has joined."""
        if self.is_current(audience):
            return
        if self.start is None:
            raise ValueError("this log has no start state to replay an audience from")
        have = self.entries.setdefault(audience, [])
        replay = self.start.clone()
        for _seat, text, _by_bot in self.moves[:len(have)]:
            replay.apply_action(replay.string_to_action(text))
        before = replay.view(audience)
        describe = describer(self.game)
        for number, (seat, text, by_bot) in enumerate(self.moves[len(have):], len(have) + 1):
            replay.apply_action(replay.string_to_action(text))
            after = replay.view(audience)
            lines = describe_for(describe, text, seat, audience, before, after)
            have.append(LogEntry(number, seat, by_bot, lines))
            before = after
        self._views[audience] = before

    def latest_view(self, audience: Audience) -> dict[str, Any] | None:
        """The audience's view after the last move logged (None before any, or when the
        audience is behind): whoever shows the position then need not build it again.
        Read it, never change it."""
        if not self.moves or not self.is_current(audience):
            return None
        return self._views.get(audience)

    def for_audience(self, audience: Audience, since: int = 0) -> list[LogEntry]:
        """The entries one audience may read (from move number `since + 1`)."""
        return self.entries.get(audience, [])[since:]

    def as_json(self, audience: Audience, lang: str, since: int = 0,
                names: Mapping[int, str | Words] | None = None) -> list[dict[str, Any]]:
        """`for_audience` in words (the seats in `names` by their names)."""
        return [entry.as_json(lang, names) for entry in self.for_audience(audience, since)]

    def as_json_text(self, audience: Audience, lang: str, since: int = 0,
                     names: Mapping[int, str | Words] | None = None) -> tuple[str, int]:
        """`as_json` as JSON text, each entry worded and encoded once per language and
        names (a server sends the same entries again to whoever joins); and how many
        entries."""
        named = tuple(sorted((names or {}).items()))
        texts = []
        for entry in self.for_audience(audience, since):
            key = (audience, lang, named, entry.number)
            text = self._texts.get(key)
            if text is None:
                text = self._texts[key] = json.dumps(entry.as_json(lang, names),
                                                     separators=(",", ":"))
            texts.append(text)
        return "[" + ",".join(texts) + "]", len(texts)

    def __len__(self) -> int:
        return len(self.moves)


def replay_log(state: State, moves: Iterable[tuple[int, str, bool]],
               follow: Iterable[Audience] | None = None) -> MoveLog:
    """The log of a game replayed from `state` (its start) through `moves`
    (seat, action string, by a bot); `state` is moved to the end. `follow`: the
    audiences to word (default: every seat and the spectators)."""
    log = MoveLog(state.game.name, start=state.clone())
    followed = None if follow is None else list(follow)
    for seat, text, by_bot in moves:
        action = state.string_to_action(text)
        log.record(state, seat, text, by_bot, partial(state.apply_action, action),
                   follow=followed)
    return log


def record_log(record: GameRecord, follow: Iterable[Audience] | None = None,
               states: list[State] | None = None) -> MoveLog:
    """The log of a game record, for `follow` (default: every audience; the record's
    seats are not stored, so the seat to move before each action is the actor).
    `states`: `record.replay()`, when the caller has it already."""
    if states is None:
        states = record.replay()
    moves = [(before.current_player, text, False)
             for before, text in zip(states, record.actions, strict=False)]
    return replay_log(states[0].clone(), moves, follow)


__all__ = [
    "Listing",
    "LogEntry",
    "MoveLog",
    "Words",
    "audience_views",
    "audiences",
    "describer",
    "generic_describe",
    "listing",
    "record_log",
    "replay_log",
    "say",
    "say_n",
    "seat_title",
    "seat_words",
    "table_names",
]
