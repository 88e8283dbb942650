"""The statistics the arena reports: Wilson intervals and Elo ratings.

Win rates carry a 95% Wilson score interval (it stays inside [0, 1] and behaves
at 0 and 100%, unlike the normal approximation). Elo ratings are the maximum
likelihood Bradley-Terry strengths of the pairwise results, a draw counting as
half a win each way, put on the Elo scale (400 points = odds of 10 to 1) and
shifted so that the ratings average 1500.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

Z95 = 1.959963984540054
ELO_SCALE = 400.0 / math.log(10.0)
ELO_MEAN = 1500.0


def wilson_interval(successes: float, trials: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (draws may count as half successes)."""
    if trials <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= trials:
        raise ValueError(f"successes must lie in [0, {trials}], got {successes}")
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    # At no success (or every one) the bound is exactly 0 (or 1); rounding would
    # leave 1e-17 or 0.9999999999999999, and an error bar below zero.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return (low, high)


PairScores = Mapping[tuple[str, str], float]


def bradley_terry_elo(
    players: Sequence[str],
    scores: PairScores,
    prior_games: float = 0.0,
    iterations: int = 10_000,
    tolerance: float = 1e-10,
) -> dict[str, float]:
    """Elo ratings fitted by maximum likelihood to pairwise scores.

    `scores[(a, b)]` is what `a` scored against `b` (1 a win, 0.5 a draw, summed
    over their games); both orders must be given. `prior_games` adds that many
    virtual drawn games between every pair, which keeps ratings finite when an
    agent won or lost everything (0 gives the plain maximum likelihood fit).
    The fit is Hunter's minorize-maximize iteration; a player with no games, or
    one never beaten and never beating anyone, stays at the mean.
    """
    names = list(players)
    won: dict[str, float] = dict.fromkeys(names, 0.0)
    played: dict[tuple[str, str], float] = {}
    for a in names:
        for b in names:
            if a == b:
                continue
            sab = scores.get((a, b), 0.0)
            sba = scores.get((b, a), 0.0)
            games = sab + sba + prior_games
            if games <= 0:
                continue
            played[(a, b)] = games
            won[a] += sab + prior_games / 2
    strength: dict[str, float] = dict.fromkeys(names, 1.0)
    fitted = [n for n in names if won[n] > 0 and any(k[0] == n for k in played)]
    for n in names:
        if n not in fitted and any(k[0] == n for k in played):
            strength[n] = 0.0  # scored nothing: the fit sends it to zero strength
    for _ in range(iterations):
        change = 0.0
        updated = dict(strength)
        for a in fitted:
            denominator = sum(
                games / (strength[a] + strength[b])
                for (x, b), games in played.items()
                if x == a
            )
            updated[a] = won[a] / denominator
        # Fix the scale: geometric mean 1 over the fitted players.
        if fitted:
            log_mean = sum(math.log(updated[n]) for n in fitted) / len(fitted)
            for n in fitted:
                updated[n] /= math.exp(log_mean)
        for n in fitted:
            change = max(change, abs(math.log(updated[n]) - math.log(strength[n])))
        strength = updated
        if change < tolerance:
            break
    ratings = {}
    for n in names:
        if n in fitted:
            ratings[n] = ELO_SCALE * math.log(strength[n])
        elif any(k[0] == n for k in played):
            ratings[n] = -math.inf  # lost every game with no prior: no finite rating
        else:
            ratings[n] = 0.0
    finite = [r for r in ratings.values() if math.isfinite(r)]
    shift = ELO_MEAN - (sum(finite) / len(finite) if finite else 0.0)
    return {n: r + shift for n, r in ratings.items()}


def elo_expected(rating_a: float, rating_b: float) -> float:
    """The expected score of `a` against `b` on the Elo scale."""
    return 1.0 / (1.0 + 10 ** ((rating_b - rating_a) / 400.0))


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable with `df` >= 1 degrees of freedom (closed forms:
    exact for whole `df`, no SciPy needed)."""
    if df < 1:
        raise ValueError(f"a chi-square test has at least 1 degree of freedom, got {df}")
    if x <= 0:
        return 1.0
    half = x / 2
    if df % 2 == 0:
        term, total = 1.0, 1.0
        for k in range(1, df // 2):
            term *= half / k
            total += term
        return min(1.0, math.exp(-half) * total)
    total = math.erfc(math.sqrt(half))
    for k in range(1, (df - 1) // 2 + 1):
        total += math.exp(-half + (k - 0.5) * math.log(half) - math.lgamma(k + 0.5))
    return min(1.0, total)


def even_spread_test(counts: Sequence[float]) -> tuple[float, float]:
    """Pearson's chi-square statistic and p-value of "these counts are equal but for
    chance" (each expected at their mean); (0, 1) for fewer than two counts or none."""
    total = sum(counts)
    if len(counts) < 2 or total <= 0:
        return (0.0, 1.0)
    expected = total / len(counts)
    statistic = sum((c - expected) ** 2 / expected for c in counts)
    return statistic, chi2_sf(statistic, len(counts) - 1)


def sidak_z(alpha: float, tests: int) -> float:
    """The two-sided normal quantile that keeps the chance of any false alarm among
    `tests` independent intervals at `alpha` (Šidák's correction)."""
    from statistics import NormalDist

    per_test = 1 - (1 - alpha) ** (1 / max(1, tests))
    return NormalDist().inv_cdf(1 - per_test / 2)
