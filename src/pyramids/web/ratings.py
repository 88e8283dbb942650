"""Player ratings: Glicko-2, and how a finished ranked game becomes rated matches.

Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013): a rating `r`, a
rating deviation `RD` (how unsure the rating is) and a volatility `sigma`. Every
ranked game is its own rating period: the player's rating is updated against
every opponent of that game at once, from everyone's ratings before the game.
A new player starts at 1500, RD 350, volatility 0.06; the system constant tau is
0.5. Pure functions, no I/O.

Games of more than two players (Temple of Inscriptions) use the pairwise
extension: every pair of players at the table is a match decided by the finishing
order (the game's `standings`: the higher place wins, an equal place draws; Temple
orders its losers by score too), so a player who finished
second of four has won two matches and lost one in that period. Bots have fixed
ratings on the same scale (`bot_ratings`, measured by `benchmarks/bot_ratings.py`):
a person's match against a bot counts for the person, the bot's rating never moves.

A ranked game that ends in a forfeit (`forfeit_matches`: a seat that let its clock run
out turn after turn, or seats away when the host ended the game) is not a finishing
order: each forfeiting seat lost its match to every seat still there, and no other
pair played theirs out, so only those matches are rated ([ours], docs/server.md).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

GLICKO_SCALE = 173.7178
DEFAULT_RATING = 1500.0
DEFAULT_DEVIATION = 350.0
DEFAULT_VOLATILITY = 0.06
TAU = 0.5
CONVERGENCE = 1e-6
# A deviation never shrinks below this: a rating must stay able to move.
MIN_DEVIATION = 30.0
MAX_DEVIATION = DEFAULT_DEVIATION


@dataclass(frozen=True)
class Rating:
    """A Glicko-2 rating on the Glicko scale (1500 a new player)."""

    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    volatility: float = DEFAULT_VOLATILITY

    def to_dict(self) -> dict[str, float]:
        return {"rating": self.rating, "deviation": self.deviation,
                "volatility": self.volatility}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rating:
        return cls(float(data["rating"]), float(data["deviation"]),
                   float(data.get("volatility", DEFAULT_VOLATILITY)))


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected_score(player: Rating, opponent: Rating) -> float:
    """The chance `player` beats `opponent` (a draw counting half), by Glicko-2."""
    return _expected(
        (player.rating - DEFAULT_RATING) / GLICKO_SCALE,
        (opponent.rating - DEFAULT_RATING) / GLICKO_SCALE,
        opponent.deviation / GLICKO_SCALE,
    )


def _new_volatility(sigma: float, phi: float, variance: float, delta: float, tau: float) -> float:
    """Step 5 of Glickman's paper: the Illinois algorithm for the new volatility."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        top = ex * (delta * delta - phi * phi - variance - ex)
        bottom = 2.0 * (phi * phi + variance + ex) ** 2
        return top / bottom - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + variance:
        big_b = math.log(delta * delta - phi * phi - variance)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > CONVERGENCE:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def update(
    player: Rating, games: Sequence[tuple[Rating, float]], tau: float = TAU,
    clamp: bool = False,
) -> Rating:
    """The player's rating after one rating period of `games` (opponent, score 1/0.5/0).

    No games: only the deviation grows (step 6). `clamp` keeps the deviation within
    [MIN_DEVIATION, MAX_DEVIATION], as the server does; Glickman's example has none.
    """
    mu = (player.rating - DEFAULT_RATING) / GLICKO_SCALE
    phi = player.deviation / GLICKO_SCALE
    sigma = player.volatility
    if not games:
        grown = math.sqrt(phi * phi + sigma * sigma) * GLICKO_SCALE
        return Rating(player.rating, _clamped(grown) if clamp else grown, sigma)
    for _, score in games:
        if score not in (0.0, 0.5, 1.0):
            raise ValueError(f"a match score is 1 (won), 0.5 (drawn) or 0 (lost), not {score!r}")
    inverse_variance = 0.0
    improvement = 0.0
    for opponent, score in games:
        mu_j = (opponent.rating - DEFAULT_RATING) / GLICKO_SCALE
        phi_j = opponent.deviation / GLICKO_SCALE
        expected = _expected(mu, mu_j, phi_j)
        g = _g(phi_j)
        inverse_variance += g * g * expected * (1.0 - expected)
        improvement += g * (score - expected)
    variance = 1.0 / inverse_variance
    delta = variance * improvement
    sigma_new = _new_volatility(sigma, phi, variance, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / variance)
    mu_new = mu + phi_new * phi_new * improvement
    deviation = phi_new * GLICKO_SCALE
    return Rating(
        mu_new * GLICKO_SCALE + DEFAULT_RATING,
        _clamped(deviation) if clamp else deviation,
        sigma_new,
    )


def _clamped(deviation: float) -> float:
    return min(MAX_DEVIATION, max(MIN_DEVIATION, deviation))


def pair_score(mine: Any, theirs: Any) -> float:
    """A pair's match by finishing order: the higher place wins, equal places draw
    (places are the game's `standings` keys: numbers, or tuples of tie-breaks)."""
    if mine > theirs:
        return 1.0
    if mine < theirs:
        return 0.0
    return 0.5


# One seat's score against each other seat (1 won, 0.5 drawn, 0 lost), or None where
# that pair's match was not played out and is not rated; a seat's own entry is None.
Matches = Sequence[Sequence[float | None]]


def place_matches(places: Sequence[Any]) -> list[list[float | None]]:
    """Every pair's match by finishing order (`pair_score` of the game's `standings`)."""
    return [[None if other == seat else pair_score(places[seat], places[other])
             for other in range(len(places))] for seat in range(len(places))]


def forfeit_matches(seats: int, forfeits: Sequence[int]) -> list[list[float | None]]:
    """The matches of a game that ended in a forfeit: each seat in `forfeits` lost to
    every seat not in it; a pair of seats still there, or of seats that both
    forfeited, left their game unfinished, and that match is not rated."""
    out = set(forfeits)
    return [[(0.0 if seat in out else 1.0) if (seat in out) != (other in out) else None
             for other in range(seats)] for seat in range(seats)]


def rate_table(
    ratings: Sequence[Rating], places: Sequence[Any], rated: Sequence[bool]
) -> list[Rating]:
    """Everyone's rating after one ranked game: each seat against every other seat
    (pairwise by finishing order, `places`: the game's `standings`), from the ratings
    before the game. Seats not `rated` (bots) keep their rating but still count as
    opponents."""
    if not len(ratings) == len(places) == len(rated):
        raise ValueError("one rating, one place and one flag a seat")
    after = []
    for seat, before in enumerate(ratings):
        if not rated[seat]:
            after.append(before)
            continue
        games = [
            (ratings[other], pair_score(places[seat], places[other]))
            for other in range(len(ratings)) if other != seat
        ]
        after.append(update(before, games, clamp=True))
    return after


def rate_matches(
    ratings: Sequence[Rating], matches: Matches, rated: Sequence[bool]
) -> list[Rating]:
    """Everyone's rating after one ranked game of pairwise `matches` (`place_matches`,
    `forfeit_matches`), from the ratings before the game: each seat is updated against
    the seats it has a match with, all at once. A seat not `rated` (a bot), or with no
    match at all, keeps its rating (not even its deviation grows: it played nothing)."""
    if not len(ratings) == len(matches) == len(rated) or any(
            len(row) != len(ratings) for row in matches):
        raise ValueError("one rating, one row of matches and one flag a seat")
    after = []
    for seat, before in enumerate(ratings):
        games = [(ratings[other], score) for other, score in enumerate(matches[seat])
                 if other != seat and score is not None]
        after.append(update(before, games, clamp=True) if rated[seat] and games else before)
    return after


@cache
def bot_ratings() -> dict[str, dict[str, Rating]]:
    """The bots' fixed ratings by game and agent (bot_ratings.json beside this module)."""
    text = (resources.files("pyramids.web") / "bot_ratings.json").read_text("utf-8")
    data = json.loads(text)
    return {
        game: {agent: Rating.from_dict(value) for agent, value in agents.items()}
        for game, agents in data["games"].items()
    }


def bot_rating(game: str, agent: str | None) -> Rating:
    """A bot's rating in `game`; a bot never measured counts as a new player."""
    return bot_ratings().get(game, {}).get(agent or "", Rating())


def closest_bot(game: str, rating: float) -> str | None:
    """The measured bot whose rating is nearest `rating` ("about as strong as hard")."""
    bots = bot_ratings().get(game, {})
    if not bots:
        return None
    return min(bots, key=lambda name: (abs(bots[name].rating - rating), name))


__all__ = [
    "DEFAULT_DEVIATION", "DEFAULT_RATING", "DEFAULT_VOLATILITY", "Rating", "bot_rating",
    "bot_ratings", "closest_bot", "expected_score", "forfeit_matches", "pair_score",
    "place_matches", "rate_matches", "rate_table", "update",
]
