"""How a finished game is told to the people who played it.

Shared by the line-prompt player, `pyramids replay` and the terminal app. Seats
are counted from 1, as players count them.
"""

from __future__ import annotations

from pyramids.core import State


def seat_label(seat: int, seats: list[str]) -> str:
    """`seat 2 (greedy)`: a seat as a player reads it."""
    return f"seat {seat + 1} ({seats[seat]})"


def winners(state: State) -> list[int]:
    """The seats with the best return (every seat on a draw)."""
    returns = state.returns()
    best = max(returns)
    return [seat for seat, value in enumerate(returns) if value == best]


def result_lines(state: State, seats: list[str]) -> list[str]:
    returns = state.returns()
    lines = ["Game over."]
    for seat, value in enumerate(returns):
        lines.append(f"  {seat_label(seat, seats)}: {value:+g}")
    if len(returns) == 1:
        lines.append("  You won!" if returns[0] > 0 else "  Not this time.")
    else:
        top = winners(state)
        if len(top) == 1:
            lines.append(f"  Winner: {seat_label(top[0], seats)}")
        else:
            lines.append("  A draw.")
    return lines


def result_text(state: State, seats: list[str]) -> str:
    """The result in one line, for a status bar."""
    returns = state.returns()
    if len(returns) == 1:
        verdict = "won" if returns[0] > 0 else "lost"
        return f"Game over: {verdict} ({returns[0]:+g})."
    top = winners(state)
    scores = ", ".join(f"seat {seat + 1} {value:+g}" for seat, value in enumerate(returns))
    if len(top) == 1:
        return f"Game over: {seat_label(top[0], seats)} wins. {scores}"
    return f"Game over: a draw. {scores}"
