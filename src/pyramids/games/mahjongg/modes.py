"""The three modes: who may play them, how a game ends, and who wins.

Rules implemented (rules page, "Modes"):
- **Standard Expedition** (`standard`), 1 to 4 players: turns go round; a player
  may use favors, then removes one valid pair or passes. **[ours]** Option
  `turn_order=behind`: after a pair the player with the lowest score moves next
  (ties: the first of them in seat order after the player who moved, who comes
  last); after a pass the next seat moves (`next_player`). The game ends when the
  monument is cleared, when every player has passed in one full round
  **[ours]**, or at lockout (no valid pair and no token left with any player).
  Highest score wins; ties go to the capstone remover, then more vaults, then
  more deity pairs; players equal on all of these share the win.
- **Pharaoh's Time Attack** (`time-attack`), 1 player: as Standard, against a
  clock of `time_limit_seconds`; the caller reports the elapsed time with the
  action `clock S`, and the game ends when `S` reaches the limit.
- **Architect Co-op** (`coop`), 2 to 4 players: one shared token pool (2 per
  player), one team score. **[ours]** The team wins if every vault is unlocked
  when the game ends (with no vault on the layout: if the monument is cleared).

Returns **[ours]**: one player: +1 if the monument is cleared, else -1. Standard
with 2+ players: +1 for the winner(s), -1 for the others, 0 for everyone when all
tie on every criterion. Co-op: +1 for all when the team wins, else -1 for all.
"""

from __future__ import annotations

from typing import Any

from pyramids.core.api import GENERAL_SUM, IDENTICAL, ZERO_SUM
from pyramids.core.errors import N_, OptionRef, PluralWords, Words

STANDARD = "standard"
TIME_ATTACK = "time-attack"
COOP = "coop"
MODES = (STANDARD, TIME_ATTACK, COOP)

# Why a game ended.
CLEARED = "cleared"
ALL_PASSED = "all-passed"
LOCKOUT = "lockout"
TIME_UP = "time-up"
END_REASONS = (CLEARED, ALL_PASSED, LOCKOUT, TIME_UP)

PLAYER_RANGE = {STANDARD: (1, 4), TIME_ATTACK: (1, 1), COOP: (2, 4)}

# Who moves next (option `turn_order`).
TURNS_ROUND = "round"
TURNS_BEHIND = "behind"
TURN_ORDERS = (TURNS_ROUND, TURNS_BEHIND)


def players_problem(mode: str, players: int) -> Words | None:
    """Why `players` does not suit `mode` (player words), or None when it does."""
    low, high = PLAYER_RANGE[mode]
    if low <= players <= high:
        return None
    chosen = OptionRef("mode", mode, bare=True)
    seats = OptionRef("players", players, bare=True)
    if low == high:
        return PluralWords("{mode} is for exactly {count} player, not {players}",
                           "{mode} is for exactly {count} players, not {players}",
                           low, mode=chosen, players=seats)
    return Words(N_("{mode} is for {low} to {high} players, not {players}"),
                 mode=chosen, low=low, high=high, players=seats)


def turn_order_problem(mode: str, turn_order: str) -> Words | None:
    """Why `turn_order` does not suit `mode` (player words), or None when it does: only
    the Standard Expedition has scores to be behind in (Co-op keeps one for the team)."""
    if turn_order == TURNS_ROUND or mode == STANDARD:
        return None
    return Words(N_("{order} is for the Standard Expedition, not {mode}; allowed here: "
                    "{allowed}"),
                 order=OptionRef("turn_order", turn_order),
                 mode=OptionRef("mode", mode, bare=True),
                 allowed=OptionRef("turn_order", TURNS_ROUND, bare=True))


def ranked_options(options: dict[str, Any]) -> dict[str, Any]:
    """What a ranked Mahjongg game with these options takes whatever the player chose:
    at a table of the Standard Expedition the turn order 'behind' (see ranked_problem);
    {} elsewhere (alone, or in modes where the turn order is always the seats')."""
    if options.get("mode") == STANDARD and options.get("players", 1) >= 2:
        return {"turn_order": TURNS_BEHIND}
    return {}


def ranked_problem(options: dict[str, Any]) -> Words | None:
    """Why a Mahjongg game with these options cannot count for ratings: a table in seat
    order, where the first seat wins 62 to 92% of games between equal bots (the rules
    page's measurements); None where it may."""
    if all(options.get(name) == value for name, value in ranked_options(options).items()):
        return None
    return Words(N_("a ranked Mahjongg table needs {behind}: with {round} the first seat "
                    "wins most games between equal players. Choose {behind}, or make the room "
                    "unranked"),
                 behind=OptionRef("turn_order", TURNS_BEHIND),
                 round=OptionRef("turn_order", TURNS_ROUND, bare=True))


def next_player(turn_order: str, player: int, scores: list[int], matched: bool) -> int:
    """The seat that moves after `player` ended a turn (`matched`: by removing a pair).

    `round`: the next seat. `behind`: after a pair, the seat with the lowest score,
    the first of the equals in seat order after `player` (so `player` moves again
    only while strictly behind everyone); after a pass the next seat, so that a
    full round of passes still ends the game.
    """
    seats = len(scores)
    if turn_order == TURNS_ROUND or not matched:
        return (player + 1) % seats
    in_order = [(player + step) % seats for step in range(1, seats + 1)]
    return min(in_order, key=lambda seat: scores[seat])


def is_solo(mode: str, players: int) -> bool:
    """One-player modes have undo, hints and the unsolvable warning."""
    return players == 1 and mode != COOP


def shares_pool(mode: str) -> bool:
    """Co-op keeps one token pool and one score for the team."""
    return mode == COOP


def coop_won(vault_states: list[str], cleared: bool) -> bool:
    if not vault_states:
        return cleared
    return all(state == "unlocked" for state in vault_states)


def returns_kind(mode: str, players: int) -> str:
    """What `returns` gives every finished game of `mode` at `players` seats: co-op the
    same to all; standard at two seats +1/-1 or 0/0; one player +1 or -1, and three
    or four seats +1 to each winner and -1 to the others (summing to -1 or +1 with
    one or two winners), neither zero-sum nor identical."""
    if mode == COOP:
        return IDENTICAL
    if players == 2:
        return ZERO_SUM
    return GENERAL_SUM


def returns(
    mode: str,
    players: int,
    *,
    cleared: bool,
    winners: list[int],
    team_won: bool,
) -> list[float]:
    """The returns of a finished game (see the module docstring)."""
    if mode == COOP:
        return [1.0 if team_won else -1.0] * players
    if players == 1:
        return [1.0 if cleared else -1.0]
    if len(winners) == players:
        return [0.0] * players
    return [1.0 if seat in winners else -1.0 for seat in range(players)]
