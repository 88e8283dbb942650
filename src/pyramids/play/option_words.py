"""Game options as players read them: a short title for each option and words for its
choices ("Rounds to win", "Time Attack"), where the engines name them for code
(`rounds_to_win`, `time-attack`). The lobby and the terminal show these; the command
line keeps the names, which are what `-o key=value` takes.

Catalogue messages (`N_`): interfaces translate them when they show them. An option
or choice without words here (a plugin's) reads as its name with spaces.
"""

from __future__ import annotations

import json
import re
from typing import Any

from pyramids.core.errors import N_, OptionList, OptionRef
from pyramids.core.options import Option
from pyramids.play.i18n import _, format_number

OPTION_TITLES = {
    "direction": N_("Direction"),
    "rounds_to_win": N_("Rounds to win"),
    "max_rounds": N_("Most rounds"),
    "players": N_("Players"),
    "cards_per_level": N_("Cards of each level"),
    "jewels": N_("Jewel cards"),
    "start_treasure": N_("Starting treasure"),
    "start_hand": N_("Starting hand"),
    "swap_size": N_("Swap zone size"),
    "start_rule": N_("Who starts each round"),
    "layout": N_("Board"),
    "mode": N_("Mode"),
    "turn_order": N_("Turn order"),
    "deal": N_("Deal"),
    "pantheon_pairs": N_("Pantheon pairs"),
    "bank": N_("Tokens in the bank"),
    "start_tokens": N_("Starting tokens"),
    "capstone_bonus": N_("Capstone bonus"),
    "capstone_double_pairs": N_("Pairs a capstone doubles"),
    "vault_bonus": N_("Vault bonus"),
    "vault_tokens": N_("Tokens for a vault"),
    "token_end_bonus": N_("Bonus per token left"),
    "streak_step": N_("Streak step"),
    "streak_cap": N_("Longest streak counted"),
    "time_limit_seconds": N_("Time limit (seconds)"),
    "time_token_bonus_seconds": N_("Seconds per token left"),
    "clock": N_("Clock"),
    "turn_seconds": N_("Seconds a move takes"),
    "barque_space_seconds": N_("Seconds per barque space"),
    "speed_pair_seconds": N_("Quick pair within (seconds)"),
    "speed_pair_bonus": N_("Quick pair bonus"),
    "speed_layer_bonus": N_("Emptied layer bonus"),
    "sight_cost": N_("Ra Sight cost"),
    "shift_cost": N_("Anubis Shift cost"),
    "reshuffle_cost": N_("Sandstorm Reshuffle cost"),
    "reveal_favor": N_("Tile Reveal favor"),
    "reveal_cost": N_("Tile Reveal cost"),
    "structural_shifts": N_("Structural shifts"),
    "settle_reach": N_("Settling reach"),
    "undo_refunds_favors": N_("Undo gives favor tokens back"),
    "undo_keeps_peeks_paid": N_("No refund after showing tiles"),
    "finish_saves_vaults": N_("Finish opens vaults first"),
    "warn_unsolvable": N_("Warn when the board is lost"),
    "solver_nodes": N_("Solver budget (positions)"),
}

# Choice words by option, then value.
CHOICE_TITLES = {
    "direction": {"descending": N_("Descending"), "ascending": N_("Ascending (Jaguar)")},
    "start_rule": {
        "rotate": N_("In turn"), "lot": N_("By lot, then in turn"),
        "poorest": N_("The poorest player"), "leader_last": N_("The leader last"),
        "loser": N_("The loser of the last round"), "winner": N_("The winner of the last round"),
    },
    "mode": {"standard": N_("Standard Expedition"), "time-attack": N_("Pharaoh's Time Attack"),
             "coop": N_("Architect Co-op")},
    "turn_order": {"round": N_("In seat order"),
                   "behind": N_("Lowest score moves next")},
    "deal": {"solvable": N_("Solvable"), "random": N_("Random")},
    "clock": {"real": N_("Real time"), "turns": N_("Turns")},
    "layout": {"auto": N_("The mode's board")},
}


def _spaced(name: str) -> str:
    return name.replace("_", " ").replace("-", " ")


def option_title(name: str) -> str:
    """The option's title, a catalogue message (translate it where shown)."""
    return OPTION_TITLES.get(name) or _spaced(name).capitalize()


def choice_title(name: str, value: Any) -> str:
    """A choice of the option, a catalogue message (translate it where shown)."""
    return CHOICE_TITLES.get(name, {}).get(str(value)) or _spaced(str(value))


def doc_with_titles(spec: Option, lang: str | None = None) -> str:
    """The option's description in `lang`, its choices named as the lobby's list and the
    terminal's options screen name them: the description is the command line's too,
    where a choice is typed by its name, and it read "round (the next seat...) or
    behind (after a pair...)" over a list offering "In seat order" and "Lowest score
    moves next" (in Korean too: "round(규칙대로...)"). Where every choice's name opens
    its own explanation, "name (" or "name(", the names there become the titles; a
    description in plain words ("solvable (...) or random", "real time (...) or turns
    (...)") is left as it reads."""
    doc = _(spec.doc, lang=lang)
    if spec.kind is not str or not spec.choices:
        return doc
    openings = {value: re.compile(rf"(?<![\w-]){re.escape(str(value))}(?= ?\()")
                for value in spec.choices}
    if not all(opening.search(doc) for opening in openings.values()):
        return doc
    for value, opening in openings.items():
        doc = opening.sub(f"“{_(choice_title(spec.name, value), lang=lang)}”", doc)
    return doc


def option_text(ref: OptionRef | OptionList, lang: str | None = None) -> str:
    """An option named in a message (`pyramids.core.errors.OptionRef`) in words, in
    `lang`: "Turn order “Lowest score moves next”", "Most rounds (15)", the title alone
    for an option without a value, the value alone for a `bare` one; a list one after
    another."""
    if isinstance(ref, OptionList):
        return ", ".join(option_text(item, lang) for item in ref.refs)
    title = _(option_title(ref.name), lang=lang)
    if not ref.has_value:
        return title
    value = ref.value
    if isinstance(value, (bool, int, float)):
        # A number or on/off reads as it is; in brackets after the title, as a setting.
        shown = (_("on", lang=lang) if value else _("off", lang=lang)) \
            if isinstance(value, bool) else format_number(value, lang)
        return shown if ref.bare else _("{option} ({value})", lang=lang, option=title,
                                        value=shown)
    if not isinstance(value, str):  # what a client sent in JSON, as JSON writes it
        text = json.dumps(value, ensure_ascii=False, default=str)
    elif ref.literal:
        text = value
    else:
        text = _(choice_title(ref.name, value), lang=lang)
    shown = _("“{value}”", lang=lang, value=text)
    return shown if ref.bare else _("{option} {value}", lang=lang, option=title, value=shown)


def changed_options_words(game: Any, skip: tuple[str, ...] = ("players",)) -> list[str]:
    """The options of `game` that differ from their defaults, as players read them
    ("Turn order: Lowest score moves next"), translated; `skip` names those said
    elsewhere (the seats line counts the players)."""
    words = []
    for spec in game.option_specs:
        value = game.options[spec.name]
        if spec.name in skip or value == spec.default:
            continue
        if spec.name == getattr(game, "board_option", None):
            titles = {board["name"]: board.get("title") for board in game.boards()}
            shown = _(titles[value]) if titles.get(value) else str(value)
        elif spec.choices is not None:
            shown = _(choice_title(spec.name, value))
        elif spec.kind is bool:
            shown = _("on") if value else _("off")
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            shown = format_number(value)  # "20,000", as numbers read everywhere
        else:
            shown = str(value)
        words.append(_("{option}: {value}", option=_(option_title(spec.name)), value=shown))
    return words
