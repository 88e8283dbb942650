"""The end of the game: scores, winners and returns.

Rules implemented (rules page, "End of the game" and "Returns"):
- a player's score is their treasure plus 1 per jewel card in hand;
- the highest score wins; a tie goes to the player with more jewels, then is shared;
- returns are zero-sum: the winners share +1 (each +1/k for k winners), the
  others share -1 (each -1/(n - k)); when every player wins, everyone gets 0.
"""

from __future__ import annotations


def scores(treasure: list[int], jewels: list[int]) -> list[int]:
    return [points + gems for points, gems in zip(treasure, jewels, strict=True)]


def winners(treasure: list[int], jewels: list[int]) -> list[int]:
    """The seats that win: best score, then most jewels; more than one is a shared win."""
    keys = [(score, gems) for score, gems in zip(scores(treasure, jewels), jewels, strict=True)]
    best = max(keys)
    return [seat for seat, key in enumerate(keys) if key == best]


def returns_for(num_players: int, winning: list[int]) -> list[float]:
    k = len(winning)
    if k == num_players:
        return [0.0] * num_players
    won, lost = 1.0 / k, -1.0 / (num_players - k)
    return [won if seat in winning else lost for seat in range(num_players)]
