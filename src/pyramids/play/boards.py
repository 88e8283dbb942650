"""Boards a player picks from pictures, shareable game numbers and the daily deal.

A game offers boards when its Game class has `board_option` (the option that
names a board, e.g. a Mahjongg layout) and `boards()`, the shipped boards as
entries: `name`, `title`, `description`, `tier`, `tiles`, `layers`, `width`,
`height` (in half-tile cells), `positions` (`[x, y, z]` per tile; a tile covers
2 x 2 cells), `capstones`, `vaults`, `face_down` (tile numbers) and `figures`
(measured numbers, possibly none). The interfaces draw their choosers from these,
so a board added to a game appears in every chooser by itself.

Game numbers (rules decided here, [ours]):
- a game number is `<board>-<deal>`, e.g. `turtle-4821`: a shipped board's name and
  a deal number from 0 to 2**63 - 1 (digits only, no sign);
- the deal number is the seed of a one-player game on that board with the game's
  other options at their defaults, so the same number deals the same game in the
  terminal and in the browser, on any computer;
- a game started from a number the player chose is practice: it never counts on
  a server's tables (the player could pick an easy deal).

The daily deal: `daily_game_number(secret, game, day, boards)` is HMAC-SHA256 of
the game and the ISO date under the server's secret: the same for everyone on
that date, not predictable before it without the secret, and not choosable.
"""

from __future__ import annotations

import difflib
import hashlib
import hmac
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from functools import cache
from typing import Any

from pyramids.core import Game, load
from pyramids.core.errors import N_, PyramidsError

MAX_DEAL = 2**63 - 1
#: Deal numbers drawn for new games and daily deals: short enough to read out.
SHORT_DEAL = 999_999_999
GAME_NUMBER = re.compile(r"^(?P<board>[a-z0-9_][a-z0-9_-]*)-(?P<deal>[0-9]{1,19})$")


class BoardError(PyramidsError, ValueError):
    """An unknown board, or a game number that does not read; the message says why."""


@dataclass(frozen=True)
class GameNumber:
    """A board and a deal: what a game number names."""

    board: str
    deal: int

    def __str__(self) -> str:
        return f"{self.board}-{self.deal}"


def board_option(game: Game) -> str | None:
    """The option naming a board, when the game offers boards."""
    option = getattr(type(game), "board_option", None)
    return option if isinstance(option, str) and callable(getattr(game, "boards", None)) \
        else None


@cache
def _boards_of(game_name: str) -> tuple[dict[str, Any], ...]:
    game = load(game_name)
    if board_option(game) is None:
        return ()
    return tuple(game.boards())  # type: ignore[attr-defined]


def boards(game_name: str) -> list[dict[str, Any]]:
    """The boards `game_name` ships ([] when it offers none); unknown games raise."""
    return list(_boards_of(game_name))


def board_option_of(game_name: str) -> str | None:
    return board_option(load(game_name))


def board_names(game_name: str) -> list[str]:
    return [entry["name"] for entry in _boards_of(game_name)]


def find_board(game_name: str, name: Any) -> dict[str, Any]:
    """The entry of the shipped board `name`; anything else raises `BoardError`."""
    entries = _boards_of(game_name)
    if not entries:
        raise BoardError(N_("{game} has no boards to choose from"), game=game_name)
    for entry in entries:
        if entry["name"] == name:
            return entry
    shown = name if isinstance(name, str) and len(name) <= 60 else "?"
    names = [entry["name"] for entry in entries]
    close = difflib.get_close_matches(shown.lower(), names, n=3, cutoff=0.5)
    if close:
        raise BoardError(N_("unknown board '{name}'; did you mean {close}? ({count} boards are "
                            "shipped)"), name=shown, close=", ".join(close), count=len(names))
    raise BoardError(
        N_("unknown board '{name}': {count} boards are shipped, for example {allowed}"),
        name=shown, count=len(names), allowed=", ".join(names[:3]),
    )


def parse_game_number(game_name: str, text: Any) -> GameNumber:
    """A game number a person typed (`turtle-4821`), checked against the shipped boards."""
    if not isinstance(text, str):
        raise BoardError(N_("a game number is text like {example}"),
                         example=example_number(game_name))
    cleaned = text.strip().lower()
    match = GAME_NUMBER.match(cleaned)
    if match is None:
        raise BoardError(
            N_("'{text}' is not a game number: write a board's name, a dash and the deal "
               "number, like {example}"),
            text=text[:60], example=example_number(game_name),
        )
    deal = int(match["deal"])
    if deal > MAX_DEAL:
        raise BoardError(N_("the deal number of a game number is at most {most}"),
                         most=MAX_DEAL)
    board = find_board(game_name, match["board"])["name"]
    return GameNumber(board, deal)


def example_number(game_name: str) -> str:
    names = board_names(game_name)
    return f"{names[0] if names else 'board'}-4821"


def practice_options(game_name: str, number: GameNumber) -> dict[str, Any]:
    """The options a game number's game is played with: its board, the rest default."""
    option = board_option_of(game_name)
    if option is None:
        raise BoardError(N_("{game} has no boards to choose from"), game=game_name)
    return {option: number.board}


def game_number_of(game: Game, seed: Any) -> GameNumber | None:
    """The game number of a game (None when it has no board, a non-default option
    other than the board, or a seed that is not a deal number)."""
    option = board_option(game)
    if option is None or isinstance(seed, bool) or not isinstance(seed, int):
        return None
    if not 0 <= seed <= MAX_DEAL:
        return None
    board = str(game.options.get(option))
    names = [entry["name"] for entry in game.boards()]  # type: ignore[attr-defined]
    if board not in names:
        return None
    plain = type(game)(**{option: board})
    if plain.options != game.options:
        return None
    return GameNumber(board, seed)


def daily_game_number(
    secret: bytes, game_name: str, day: date, board_list: Sequence[str]
) -> GameNumber:
    """The day's deal: a board and a deal number from HMAC-SHA256(secret, game|day)."""
    if not board_list:
        raise BoardError(N_("{game} has no boards to choose from"), game=game_name)
    digest = hmac.new(secret, f"daily|{game_name}|{day.isoformat()}".encode(),
                      hashlib.sha256).digest()
    board = board_list[int.from_bytes(digest[:8], "big") % len(board_list)]
    deal = 1 + int.from_bytes(digest[8:16], "big") % SHORT_DEAL
    return GameNumber(board, deal)


def variant_text(game: Game) -> str:
    """The options that differ from the defaults, other than the board (`""` when none):
    best scores compare only games played by the same rules."""
    option = board_option(game)
    defaults = type(game)().options
    changed = {
        name: value for name, value in sorted(game.options.items())
        if name != option and defaults.get(name) != value
    }
    return " ".join(f"{name}={value}" for name, value in changed.items())


def text_preview(entry: dict[str, Any]) -> list[str]:
    """A board seen from above, one character per half-tile cell: the number of
    tiles stacked there (1-9), `C` where a capstone is on top, `.` where no tile is."""
    width, height = entry["width"], entry["height"]
    stack = [[0] * width for _ in range(height)]
    top = [[-1] * width for _ in range(height)]
    top_tile = [[-1] * width for _ in range(height)]
    for tile, (x, y, z) in enumerate(entry["positions"]):
        for row in (y, y + 1):
            for column in (x, x + 1):
                if 0 <= row < height and 0 <= column < width:
                    stack[row][column] += 1
                    if z > top[row][column]:
                        top[row][column] = z
                        top_tile[row][column] = tile
    capstones = set(entry["capstones"])
    lines = []
    for row in range(height):
        cells = []
        for column in range(width):
            count = stack[row][column]
            if not count:
                cells.append(".")
            elif top_tile[row][column] in capstones:
                cells.append("C")
            else:
                cells.append(str(min(count, 9)))
        lines.append("".join(cells).rstrip("."))
    return lines
