"""Every refusal of a game's options, as players read it (the lobby, the terminal app):
options in words, never the keys a request or `-o` carries; and as someone who typed
keys reads it (the command line), with the keys."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import pyramids
from pyramids.core import load
from pyramids.core.errors import OptionList, OptionRef, PyramidsError, Words
from pyramids.core.options import check_players_agree
from pyramids.games.mahjongg import modes
from pyramids.games.mahjongg.game import MahjonggGame
from pyramids.play.i18n import set_language, words_text
from pyramids.play.option_words import changed_options_words
from pyramids.web.app import check_room_options, refuse_file_options

SOURCE = Path(pyramids.__file__).parent


def _load(game: str, **options: Any) -> Callable[[], object]:
    return lambda: load(game, **options)


def _odd_board() -> object:
    # A layout built in code skips loading; three tiles cannot be paired.
    return MahjonggGame(layout_object=SimpleNamespace(size=3, name="triangle"))  # type: ignore[arg-type]


# Each refusal a player may meet, with the keys it must say to someone who typed them.
REFUSALS: list[tuple[str, Callable[[], object], str]] = [
    ("not a number", _load("pacal", rounds_to_win="many"), "rounds_to_win=many"),
    ("not a choice", _load("mahjongg", deal="fair"), "deal=fair is not valid; allowed: one "
                                                     "of solvable, random"),
    ("too small", _load("pacal", rounds_to_win=0), "rounds_to_win=0 is too small"),
    ("too large", _load("temple", players=9), "players=9 is too large"),
    ("unknown", _load("pacal", colour=1), "allowed options: direction, max_rounds, "
                                          "rounds_to_win, start_rule"),
    ("players twice", lambda: check_players_agree({"players": "3"}, "players", 4),
     "--players 4 and the option players=3 disagree"),
    ("pacal rounds", _load("pacal", max_rounds=2), "max_rounds=2 is below rounds_to_win=3"),
    ("temple deck", _load("temple", cards_per_level=1, jewels=0),
     "(9 × cards_per_level=1 + jewels=0)"),
    ("temple level", _load("temple", cards_per_level=4, jewels=0),
     "cards_per_level=4 and jewels=0 make at most 4"),
    ("mode players", _load("mahjongg", mode="coop", players=1),
     "mode=coop is for 2 to 4 players, not players=1"),
    ("mode one player", _load("mahjongg", mode="time-attack", players=2),
     "mode=time-attack is for exactly 1 player, not players=2"),
    ("turn order", _load("mahjongg", mode="coop", players=2, turn_order="behind"),
     "turn_order=behind is for the Standard Expedition, not mode=coop; allowed here: "
     "turn_order=round"),
    ("bank", _load("mahjongg", bank=3, players=2),
     "bank=3 cannot give start_tokens=2 to each of players=2"),
    ("board", _load("mahjongg", layout="atlantis"), "layout=atlantis: "),
    ("odd board", _odd_board, "layout=triangle has 3 tiles"),
    ("server unknown", lambda: check_room_options("pacal", {"size": 3}, False),
     "pacal: unknown option size; allowed options: direction, max_rounds"),
    ("server limit", lambda: check_room_options("pacal", {"max_rounds": 999}, False),
     "max_rounds=999 is over this server's limit"),
    ("server file", lambda: refuse_file_options({"layout": "/etc/passwd"}),
     "layout names a file"),
]


def refusal(make: Callable[[], object]) -> PyramidsError:
    with pytest.raises(PyramidsError) as caught:
        make()
    return caught.value


def option_refs(words: Words) -> list[OptionRef]:
    refs: list[OptionRef] = []
    for value in words.values.values():
        if isinstance(value, OptionRef):
            refs.append(value)
        elif isinstance(value, OptionList):
            refs.extend(value.refs)
        elif isinstance(value, Words):
            refs.extend(option_refs(value))
    return refs


def player_words(error: PyramidsError, lang: str) -> str:
    """The refusal in `lang`, a reason from below the options (a layout file's own
    problem) left out: it is not an option's refusal."""
    words = error.words
    if "problem" in words.values:
        words = Words(words.msgid, **{**words.values, "problem": "…"})
    return words_text(words, lang)


@pytest.mark.parametrize(("case", "make", "keys"), REFUSALS, ids=[c[0] for c in REFUSALS])
@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_refusal_names_options_in_words(case: str, make: Callable[[], object], keys: str,
                                          lang: str) -> None:
    error = refusal(make)
    refs = option_refs(error.words)
    assert refs, f"{case}: names no option as a reference"
    shown = player_words(error, lang)
    assert not re.search(r"\w=\w", shown), shown  # key=value
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", shown), shown  # an option's key
    assert not re.search(r"(?<!\w)'|'(?!\w)|\"", shown), shown  # a Python repr's quotes
    for ref in refs:
        if isinstance(ref.value, str) and ref.value in _choices(ref.name):
            # A choice's key (`behind`, `coop`, `time-attack`) never shows, its words do.
            assert not re.search(rf"(?<![\w-]){re.escape(ref.value)}(?![\w-])", shown), \
                (ref.value, shown)
    if lang == "ko":
        # Translated: the English words of the message are not left over.
        english = player_words(error, "en")
        assert shown != english
    # As keys (the command line), the keys typed.
    assert keys in words_text(error, keys=True)


def _choices(name: str) -> tuple[Any, ...]:
    for game in ("pacal", "temple", "mahjongg"):
        for spec in load(game).option_specs:
            if spec.name == name and spec.choices:
                return tuple(spec.choices)
    return ()


def test_the_ranked_table_refusal_says_the_turn_order_in_words() -> None:
    problem = modes.ranked_problem({"mode": "standard", "players": 2, "turn_order": "round"})
    assert problem is not None
    assert words_text(problem, "en") == (
        "a ranked Mahjongg table needs Turn order “Lowest score moves next”: with “In seat "
        "order” the first seat wins most games between equal players. Choose Turn order "
        "“Lowest score moves next”, or make the room unranked")
    assert "behind" not in words_text(problem, "ko") and "turn_order" not in words_text(
        problem, "ko")
    assert "Choose turn_order=behind" in words_text(problem, keys=True)


def _raise_sites() -> set[tuple[str, int]]:
    """Every `raise OptionError(...)` in the games and core, and every option refusal of
    the web server's own (`RoomError("bad_option", ...)` in web/app.py)."""
    sites = set()
    files = [*(SOURCE / "games").rglob("*.py"), *(SOURCE / "core").rglob("*.py"),
             SOURCE / "web" / "app.py"]
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.Raise) or not isinstance(node.exc, ast.Call):
                continue
            func, args = node.exc.func, node.exc.args
            name = func.id if isinstance(func, ast.Name) else None
            if name == "OptionError" or (
                    name == "RoomError" and args and isinstance(args[0], ast.Constant)
                    and args[0].value == "bad_option"):
                sites.add((str(path), node.lineno))
    return sites


def test_every_option_refusal_is_among_those_checked() -> None:
    """A new refusal of options is added to REFUSALS, and so checked for words."""
    reached = set()
    for _case, make, _keys in REFUSALS:
        error = refusal(make)
        tb = error.__traceback__
        while tb is not None and tb.tb_next is not None:
            tb = tb.tb_next
        assert tb is not None
        reached.add((tb.tb_frame.f_code.co_filename, tb.tb_lineno))
    missing = _raise_sites() - reached
    assert not missing, f"option refusals not in REFUSALS: {sorted(missing)}"


@pytest.mark.parametrize(("lang", "line"), [
    ("en", "Solver budget (positions): 20,000"),
    ("ko", "솔버 예산 (국면 수): 20,000"),
])
def test_changed_options_read_numbers_grouped(lang: str, line: str) -> None:
    # The "options: …" line groups a number as every number reads in the language.
    set_language(lang)
    try:
        words = changed_options_words(load("mahjongg", solver_nodes=20000))
    finally:
        set_language(None)
    assert any(line in word for word in words), words
    assert not any("20000" in word for word in words), words
