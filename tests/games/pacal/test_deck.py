"""The batched shuffle: a permutation, deterministic, and uniform."""

from __future__ import annotations

from collections import Counter
from itertools import permutations

from pyramids.core import Rng
from pyramids.games.pacal.deck import DECK, _batches, shuffled, shuffled_deck


def test_batches_cover_every_swap_and_fit_64_bits() -> None:
    for size in (2, 5, 21, 50):
        batches = _batches(size)
        radices = [r for _, group in batches for r in group]
        assert radices == list(range(size, 1, -1))
        for limit, group in batches:
            product = 1
            for radix in group:
                product *= radix
            assert product <= 1 << 64 and limit % product == 0 and limit > (1 << 64) - product


def test_a_shuffled_deck_is_a_seeded_permutation() -> None:
    first = shuffled_deck(Rng(9))
    assert sorted(first) == list(DECK) and first != list(DECK)
    assert shuffled_deck(Rng(9)) == first
    assert shuffled_deck(Rng(10)) != first


def test_every_order_of_four_is_equally_likely() -> None:
    rng = Rng(2024)
    counts = Counter(tuple(shuffled(rng, "abcd")) for _ in range(24_000))
    assert set(counts) == set(permutations("abcd"))
    # 1000 expected each; 5 standard deviations is about 156.
    assert all(840 <= n <= 1160 for n in counts.values()), counts
