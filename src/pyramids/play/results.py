"""How a finished game is told to the people who played it.

Shared by the line-prompt player, `pyramids replay` and the terminal app. Seats
are counted from 1, as players count them; every line comes from the message
catalogue (`pyramids.play.i18n`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from pyramids.core import State
from pyramids.core.api import IDENTICAL
from pyramids.core.errors import N_
from pyramids.play.i18n import _

#: Seat names players read in words: a person at the keyboard, the difficulty
#: levels and the built-in agents (the browser names bots with the same messages,
#: `agentLabel` in web/static/common.js; tests/web/test_bot_names.py keeps the two alike).
SEAT_NAME_WORDS = {
    "human": N_("human"),
    "easy": N_("Easy"),
    "medium": N_("Medium"),
    "hard": N_("Hard"),
    "expert": N_("Expert"),
    "random": N_("Random moves"),
    "greedy": N_("Greedy rule"),
    "mcts": N_("MCTS tree search"),
    "planner": N_("Planner (sampled deals)"),
    "determinized": N_("Mahjongg solver on sampled faces"),
    "openspiel-mcts": N_("OpenSpiel's tree search"),
    "openspiel-ismcts": N_("OpenSpiel's information-set search"),
}


#: An agent setting, `mcts:iterations=50:rollout=greedy`: the agent, then key=value options.
SETTING = re.compile(r"([\w-]+)(?::\w+=[^:]*)+")


def agent_words(agent: str) -> str:
    """The words a seat's bot is named by, a catalogue message for `human`, the levels
    and the built-in agents (translate it with `seat_name`): an agent setting by its
    agent alone, `mcts:iterations=50` as "MCTS tree search" (its options are the
    agent's internals, not a name); a plugin's agent by the name its author gave it."""
    setting = SETTING.fullmatch(agent)
    name = setting.group(1) if setting else agent  # a name with a colon stays whole
    return SEAT_NAME_WORDS.get(name, name)


def seat_name(name: str) -> str:
    """A seat's player in the reader's language: `human`, the levels and the built-in
    agents in words, an agent setting by its agent's (`agent_words`); a plugin's agent
    by its name."""
    words = agent_words(name)
    return _(words) if words in SEAT_NAME_WORDS.values() else words


def seat_label(seat: int, seats: list[str], names: Mapping[int, str] | None = None,
               watching: bool = False) -> str:
    """`seat 2 (Hard)`: a seat as a player reads it; the one person at a table of bots
    is `seat 1 (you)` (`(human)` says nothing to them). `names`, the move log's names
    translated (`Session.log_names`), name a bot as the log does: `Hard (bot)`. For
    one `watching` (a replay) a person's seat is `seat 1`, as the log names it there."""
    if seats[seat] == "human" and watching:
        return _("seat {number}", number=seat + 1)
    if seats[seat] == "human" and seats.count("human") == 1:
        return _("seat {number} (you)", number=seat + 1)
    if names and seats[seat] != "human" and seat in names:
        return names[seat]
    return _("seat {number} ({name})", number=seat + 1, name=seat_name(seats[seat]))


def seats_label(seats: list[str], names: Mapping[int, str] | None = None,
                watching: bool = False) -> str:
    """Every seat as `seat_label` reads it, runs of seats the same bot holds taken
    together: `seat 1 (you), seats 2–4 (Expert)` (a title bar has little room). With
    `names` (as `seat_label`'s), bots read as the move log names them: `seat 1 (you),
    Expert (bot, seats 2–4)`; `watching`, people as `seat_label`'s."""
    parts: list[str] = []
    start = 0
    while start < len(seats):
        end = start
        if seats[start] != "human":
            # Seats whose bots read alike ("mcts:iterations=5" beside "mcts") go together.
            while end + 1 < len(seats) and seats[end + 1] != "human" \
                    and seat_name(seats[end + 1]) == seat_name(seats[start]):
                end += 1
        if end == start:
            parts.append(seat_label(start, seats, names, watching))
        elif names:
            parts.append(_("{bot} (bot, seats {first}–{last})", bot=seat_name(seats[start]),
                           first=start + 1, last=end + 1))
        else:
            parts.append(_("seats {first}–{last} ({name})", first=start + 1, last=end + 1,
                           name=seat_name(seats[start])))
        start = end + 1
    return ", ".join(parts)


def winners(state: State) -> list[int]:
    """The seats with the best return (every seat on a draw)."""
    returns = state.returns()
    best = max(returns)
    return [seat for seat, value in enumerate(returns) if value == best]


def plays_as_a_team(state: State) -> bool:
    """Every seat plays for one result (Mahjongg's Co-op): the seats' returns are alike
    whether the team wins or loses, which is no draw."""
    return len(state.returns()) > 1 and state.game.returns_kind() == IDENTICAL


def outcome_word(state: State, seat: int) -> str:
    """What the game's end means for `seat`, in words: the returns are the engine's
    (+1, -0.5, ...), which a player does not read."""
    returns = state.returns()
    if len(returns) == 1 or plays_as_a_team(state):
        return _("won") if returns[0] > 0 else _("lost")
    top = winners(state)
    if len(top) == len(returns):
        return _("a draw")
    if seat not in top:
        return _("lost")
    return _("won") if len(top) == 1 else _("shares the win")


def result_lines(state: State, seats: list[str]) -> list[str]:
    """`Game over.`, then each seat and what the end means for it, then the winner.
    The game's own scores come before these, in the move log's words."""
    returns = state.returns()
    lines = [_("Game over.")]
    for seat in range(len(returns)):
        lines.append(f"  {seat_label(seat, seats)}: {outcome_word(state, seat)}")
    if len(returns) == 1:
        lines.append("  " + (_("You won!") if returns[0] > 0 else _("Not this time.")))
    elif plays_as_a_team(state):
        lines.append("  " + (_("The team won.") if returns[0] > 0 else _("The team lost.")))
    else:
        top = winners(state)
        if len(top) == 1:
            lines.append("  " + _("Winner: {seat}", seat=seat_label(top[0], seats)))
        elif len(top) == len(returns):
            lines.append("  " + _("A draw."))
        else:
            lines.append("  " + _("Winners: {seats}", seats=", ".join(
                seat_label(seat, seats) for seat in top)))
    return lines


def result_text(state: State, seats: list[str],
                names: Mapping[int, str] | None = None) -> str:
    """The result in one line, for a status bar (`names` as `seat_label` takes them)."""
    returns = state.returns()
    if len(returns) == 1:
        return _("Game over: won.") if returns[0] > 0 else _("Game over: lost.")
    if plays_as_a_team(state):
        return (_("Game over: the team won.") if returns[0] > 0
                else _("Game over: the team lost."))
    top = winners(state)
    if len(top) == 1:
        return _("Game over: {seat} wins.", seat=seat_label(top[0], seats, names))
    if len(top) == len(returns):
        return _("Game over: a draw.")
    return _("Game over: {seats} share the win.",
             seats=", ".join(seat_label(seat, seats, names) for seat in top))
