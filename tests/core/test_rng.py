from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pyramids.core.rng import Rng, seed_to_int


def test_same_seed_same_sequence_and_state_resumes() -> None:
    a, b = Rng(12345), Rng(12345)
    assert [a.next_u64() for _ in range(5)] == [b.next_u64() for _ in range(5)]
    resumed = Rng(0)
    resumed.state = a.state
    assert [a.randrange(50) for _ in range(20)] == [resumed.randrange(50) for _ in range(20)]


def test_string_seeds_are_stable_and_distinct() -> None:
    assert seed_to_int("temple") == seed_to_int("temple")
    assert seed_to_int("temple") != seed_to_int("pacal")
    with pytest.raises(TypeError):
        seed_to_int(True)  # type: ignore[arg-type]


@given(st.integers(min_value=0, max_value=2**64 - 1), st.integers(min_value=1, max_value=1000))
def test_randrange_stays_in_bounds(seed: int, n: int) -> None:
    rng = Rng(seed)
    assert all(0 <= rng.randrange(n) < n for _ in range(20))


@given(st.integers(min_value=0, max_value=2**32), st.lists(st.integers(), max_size=60))
def test_shuffle_is_a_permutation(seed: int, items: list[int]) -> None:
    shuffled = list(items)
    Rng(seed).shuffle(shuffled)
    assert sorted(shuffled) == sorted(items)


def test_shuffle_is_roughly_uniform() -> None:
    rng = Rng(7)
    counts: Counter[tuple[int, ...]] = Counter()
    for _ in range(6000):
        items = [0, 1, 2]
        rng.shuffle(items)
        counts[tuple(items)] += 1
    assert len(counts) == 6
    assert all(800 < c < 1200 for c in counts.values()), counts


def test_bad_bounds_raise() -> None:
    with pytest.raises(ValueError):
        Rng(1).randrange(0)
    with pytest.raises(IndexError):
        Rng(1).choice([])
