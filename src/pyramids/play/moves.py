"""Moves as people type them: parsing a typed move, listing the legal ones.

Shared by the line-prompt player and the terminal app.
"""

from __future__ import annotations

import itertools
import json

from pyramids.core import IllegalActionError, Rng, State
from pyramids.core.api import ILLEGAL_MOVE
from pyramids.core.errors import N_, Words
from pyramids.play.i18n import _, ngettext
from pyramids.play.render import terminal_width

#: A timed game's legal moves include `clock S`: the interface tells the engine the
#: whole seconds elapsed (engines never read the clock); a person never chooses one.
CLOCK_PREFIX = "clock "


def is_clock_move(text: str) -> bool:
    return text.startswith(CLOCK_PREFIX)


def clock_move(state: State, seconds: float) -> str | None:
    """The `clock S` move that tells a timed game `seconds` have gone by since it began,
    or None: not timed, or not a whole second more than the game already knows."""
    allowed = [int(text[len(CLOCK_PREFIX):]) for text in state.legal_action_strings()
               if is_clock_move(text)]
    if not allowed or int(seconds) < min(allowed):
        return None
    return f"{CLOCK_PREFIX}{min(int(seconds), max(allowed))}"


def playable_moves(state: State) -> list[str]:
    """The legal moves a person may choose, in order (a timed game's clock moves left out):
    the list whose numbers a person types."""
    return [text for text in state.legal_action_strings() if not is_clock_move(text)]


def format_moves(
    strings: list[str], width: int | None = None, numbers: list[int] | None = None
) -> str:
    """The legal moves with their numbers (from 1 unless given), packed into lines as wide
    as the terminal (its `COLUMNS`, else 80)."""
    if width is None:
        width = terminal_width()
    numbers = numbers or list(range(1, len(strings) + 1))
    items = [f"{number}) {text}" for number, text in zip(numbers, strings, strict=True)]
    column = max((len(item) for item in items), default=0) + 3
    per_line = max(1, (width + 3) // column)  # the last column needs no gap after it
    lines = []
    for start in range(0, len(items), per_line):
        lines.append("".join(item.ljust(column) for item in items[start : start + per_line]))
    return "\n".join(line.rstrip() for line in lines)


LONG_LIST = 40
#: How many moves of a summarized kind are shown, with their numbers.
EXAMPLES = 3


def listed_moves(strings: list[str], unlisted: frozenset[str]) -> list[str]:
    """The moves a person may pick by number: the playable ones less the kinds found on
    the board (`unlisted`, Mahjongg's pairs), which a number would give away."""
    return [text for text in strings if text.split(" ")[0] not in unlisted]


def unlisted_count_lines(strings: list[str], unlisted: frozenset[str]) -> list[str]:
    """How many moves of each unlisted kind there are, to be found on the board."""
    counts: dict[str, int] = {}
    for text in strings:
        kind = text.split(" ")[0]
        if kind in unlisted:
            counts[kind] = counts.get(kind, 0) + 1
    return [_on_the_board(kind, count) for kind, count in counts.items()]


def _on_the_board(kind: str, count: int) -> str:
    return ngettext("{count} '{kind}' move: find it on the board",
                    "{count} '{kind}' moves: find them on the board", count, kind=kind)


def summarized_moves(
    strings: list[str], unlisted: frozenset[str] = frozenset()
) -> tuple[str, list[int]]:
    """The legal moves as shown, and the numbers shown with them: all of them in a short
    list; in a long one, a kind of move with many entries is summarized by its count
    and its first few moves, each with its number, so that every number a person
    reads plays what it shows (and none plays a move never shown).

    `unlisted`: kinds of move the player finds on the board (Mahjongg's pairs): counted,
    not shown, since listing them would give every answer away."""
    if len(strings) <= LONG_LIST and not unlisted:
        return format_moves(strings), list(range(1, len(strings) + 1))
    # Numbers are those of the list without the unlisted kinds (`listed_moves`), which
    # is what a typed number means: a number must not play a pair nobody found.
    by_kind: dict[str, list[tuple[int, str]]] = {}
    numbered = itertools.count(1)
    for text in strings:
        kind = text.split(" ")[0]
        by_kind.setdefault(kind, []).append((0 if kind in unlisted else next(numbered), text))
    small_kinds = {kind for kind, moves in by_kind.items()
                   if (len(moves) <= LONG_LIST // 2 or len(strings) <= LONG_LIST)
                   and kind not in unlisted}
    shown = [move for kind, moves in by_kind.items() if kind in small_kinds for move in moves]
    shown.sort()
    numbers = [number for number, _text in shown]
    summaries = []
    for kind, moves in by_kind.items():
        if kind in unlisted:
            summaries.append(_on_the_board(kind, len(moves)))
        elif kind not in small_kinds:
            examples = moves[:EXAMPLES]
            numbers.extend(number for number, _text in examples)
            summaries.append(ngettext(
                "{count} '{kind}' move, for example {examples}",
                "{count} '{kind}' moves, for example {examples}", len(moves), kind=kind,
                examples=", ".join(f"{number}) {text}" for number, text in examples)))
    lines = []
    if shown:
        lines.append(
            format_moves([text for _number, text in shown],
                         numbers=[number for number, _text in shown])
        )
    lines.extend(summaries)
    lines.append(_("(type 'moves' to list every legal move with its number)"))
    return "\n".join(lines), sorted(numbers)


def number_ranges(numbers: list[int]) -> str:
    """`1-3, 7, 45-46`: sorted numbers as a person reads them."""
    runs: list[list[int]] = []
    for number in sorted(set(numbers)):
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    return ", ".join(str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}" for run in runs)


def parse_move(state: State, text: str) -> int:
    """The action `text` names: an action string, else the number of a listed move.

    Raises `IllegalActionError` saying what is allowed. An action string wins over
    a number, so a game whose action strings are numbers still reads them.
    """
    legal = state.legal_actions()
    try:
        return state.string_to_action(text)
    except IllegalActionError as parse_error:
        if text.isdigit():
            number = int(text)
            if 1 <= number <= len(legal):
                return legal[number - 1]
            raise IllegalActionError(
                N_("there is no move number {number}; the moves are numbered 1 to {last}"),
                number=number, last=len(legal)
            ) from None
        # A move named by its last words alone ("F2" for "place F2"), when only one fits.
        fitting = [action for action, string in zip(legal, state.legal_action_strings(),
                                                    strict=True)
                   if string.lower().endswith(" " + text.strip().lower())]
        if len(fitting) == 1 and text.strip():
            return fitting[0]
        # Words, not text: the interface shows them in its player's language.
        raise IllegalActionError(
            N_("{problem} (type 'moves' to list the legal moves, 'help' for commands)"),
            problem=parse_error
        ) from None


def labelled(strings: list[str], labels: dict[str, str]) -> list[str]:
    """Action strings as a person reads them: each word after the first that names a
    thing by number (`labels`, a game's `move_labels`) in its letters instead."""
    if not labels:
        return list(strings)
    return [" ".join([words[0], *(labels.get(word, word) for word in words[1:])])
            for words in (text.split(" ") for text in strings)]


def unlabelled(text: str, labels: dict[str, str]) -> str:
    """A move typed with letters (`match a b`) as its action string (`match 0 1`).

    Raises `IllegalActionError` for a word that is no thing's letters, before the
    game reads it (so its answer never names a thing by number)."""
    if not labels:
        return text
    words = text.split()
    numbers = {label: number for number, label in labels.items()}
    if words and words[0].lower() in numbers:
        # Only letters ("a b"): the move they end is found by its last words.
        return " ".join(numbers.get(word.lower(), word) for word in words)
    if len(words) < 2:
        return text
    for word in words[1:]:
        if word.lower() not in numbers:
            example = " ".join([words[0], *"abc"[:len(words) - 1]])
            raise IllegalActionError(
                N_("'{word}' is not the letters of a tile on the board: type the letters "
                   "shown under a tile's face, for example: {example}"),
                word=word, example=example)
    return " ".join([words[0], *(numbers[word.lower()] for word in words[1:])])


def gives_up(state: State, action: int) -> bool:
    """Whether `action` gives a one-player game up: it ends the game at once, not as a
    win, and by no chance (whatever the player cannot see), while another move plays on.

    Asked of the player's own view, filled in at random (`SAMPLES` ways), so the
    question never tells what is hidden."""
    if state.game.num_players != 1:
        return False

    def always_ends(move: int) -> bool:
        """The move ends the game, not won, and by no chance: the player's view after
        it is the same however the hidden rest is filled in (a card drawn next, which
        might fit or not, is chance: not asked)."""
        rng = Rng(f"gives-up:{move}")
        views = set()
        for _sample in range(SAMPLES):
            after = state.resample_hidden(0, rng)
            after.apply_action(move)
            if not after.is_terminal() or after.returns()[0] > 0:
                return False
            views.add(json.dumps(after.view(0), sort_keys=True))
        return len(views) == 1

    return always_ends(action) and any(
        not always_ends(other) for other in state.legal_actions() if other != action)


SAMPLES = 32


def reason_only(words: Words) -> Words:
    """Why a move is illegal, without the move's action string: the player made the
    move with a click or a key (Mahjongg's string names tiles by number, which players
    never read), so the reason in words is what they need."""
    why = words.values.get("why") if words.msgid == ILLEGAL_MOVE else None
    if why is None:
        return words
    return why if isinstance(why, Words) else Words(str(why))
