"""The shared saving machinery: codecs, the generated clone, loading with clear errors."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pyramids.core.errors import RecordError
from pyramids.core.rng import Rng
from pyramids.core.saving import (
    BOOL,
    JSON_OBJECT,
    RNG,
    SEED,
    Computed,
    Custom,
    Field,
    Int,
    Kept,
    ListOf,
    Malformed,
    OneOf,
    Optional,
    SavedState,
    Schema,
    TupleOf,
)

PHASES = ("setup", "play", "over")


def _strings(raw: Any) -> list[str]:
    if not isinstance(raw, list) or not all(isinstance(item, str) for item in raw):
        raise ValueError(f"{raw!r} is not a list of strings")
    return raw


def _range(state: Any, raw: Any) -> None:
    low, high = ListOf(Int(), length=2).load(raw, state)
    if low > high:
        raise Malformed(f"{low} is above {high}")
    state.low, state.high = low, high


class Toy(SavedState):
    """A small state using every kind of entry."""

    __slots__ = (
        "game", "seed", "rng", "phase", "limit", "score", "hands", "rows", "flags",
        "offer", "best", "note", "log", "low", "high", "tags",
    )

    saved = Schema(
        "toy state",
        Kept("game"),
        Kept("limit"),
        Field("seed", "seed", SEED),
        Field("rng", "rng", RNG),
        Field("phase", "phase", OneOf(PHASES, index=True)),
        Field("score", "score", Int(0, lambda state: state.limit)),
        Field("hands", "hands", ListOf(ListOf(Int(1, 9), sort=True), length=2)),
        Field("rows", "rows", ListOf(ListOf(Int(0)))),
        Field("flags", "flags", ListOf(BOOL, length=lambda state: 2)),
        Field("offer", "offer", Optional(TupleOf(Int(1, 9), 2))),
        Field("best", "best", Optional(ListOf(Int()))),
        Field("note", "note", Optional(JSON_OBJECT)),
        Field("log", "log", ListOf(Int(0, 99))),
        Computed("range", lambda state: [state.low, state.high], _range),
        Kept("low"),
        Kept("high"),
        Field("tags", "tags", Custom(lambda raw, state: set(_strings(raw)), sorted, set)),
    )


def new_toy(**changes: Any) -> Toy:
    toy = Toy.__new__(Toy)
    toy.game, toy.limit = "toy", 10
    values: dict[str, Any] = {
        "seed": "s", "rng": Rng(5), "phase": 1, "score": 3, "hands": [[1, 2], [5]],
        "rows": [[0, 4], []], "flags": [True, False], "offer": (2, 3), "best": None,
        "note": {"a": [1, [2]]}, "log": [1, 2], "low": 1, "high": 4, "tags": {"x", "y"},
    }
    values.update(changes)
    for name, value in values.items():
        setattr(toy, name, value)
    return toy


def load_toy(data: Any) -> Toy:
    toy = Toy.__new__(Toy)
    toy.game, toy.limit = "toy", 10
    Toy.saved.load(toy, data)
    return toy


def test_dump_load_round_trip_and_json_shape() -> None:
    toy = new_toy()
    data = toy._to_dict()
    assert data == {
        "seed": "s", "rng": Rng(5).state, "phase": "play", "score": 3,
        "hands": [[1, 2], [5]], "rows": [[0, 4], []], "flags": [True, False],
        "offer": [2, 3], "best": None, "note": {"a": [1, [2]]}, "log": [1, 2],
        "range": [1, 4], "tags": ["x", "y"],
    }
    back = load_toy(json.loads(json.dumps(data)))
    assert back._to_dict() == data
    assert back.offer == (2, 3) and back.phase == 1 and back.tags == {"x", "y"}
    assert back.rng.next_u64() == toy.rng.next_u64()


def test_a_dump_shares_nothing_mutable_with_the_state() -> None:
    toy = new_toy()
    data = toy._to_dict()
    data["hands"][0].append(9)
    data["note"]["a"][1].append(3)
    data["log"].append(7)
    assert toy.hands == [[1, 2], [5]] and toy.note == {"a": [1, [2]]} and toy.log == [1, 2]


def test_a_clone_is_equal_and_independent() -> None:
    toy = new_toy(best=[4, 5])
    twin = toy.clone()
    assert type(twin) is Toy and twin._to_dict() == toy._to_dict()
    twin.hands[1].append(7)
    twin.rows[0][0] = 9
    twin.flags[0] = False
    twin.best.append(1)
    twin.log.append(3)
    twin.tags.add("z")
    twin.rng.next_u64()
    assert toy._to_dict() == new_toy(best=[4, 5])._to_dict()
    # What the state only replaces is shared: no copying cost on the hot path.
    assert twin.note is toy.note and twin.offer is toy.offer and twin.game is toy.game


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("seed", 1.5, "seed: 1.5 is not an integer, a string or null"),
        ("seed", True, "seed: True is not an integer, a string or null"),
        ("rng", -1, r"rng: -1 is not a generator state \(an integer 0..2\*\*64-1\)"),
        ("rng", 2**64, "rng: 18446744073709551616 is not a generator state"),
        ("phase", "dance", "phase: 'dance' is not one of 'setup', 'play', 'over'"),
        ("score", 11, r"score: 11 is not an integer in 0..10"),
        ("score", "3", "score: '3' is not an integer in 0..10"),
        ("hands", [[1], [2], [3]], "hands: 3 entries where 2 are needed"),
        ("hands", [[1], [2, 10]], r"hands\[1\]\[1\]: 10 is not an integer in 1..9"),
        ("hands", [[1], 2], r"hands\[1\]: 2 is not a list"),
        ("rows", [[0], [-1]], r"rows\[1\]\[0\]: -1 is not an integer in 0.."),
        ("flags", [True, 0], r"flags\[1\]: 0 is not true or false"),
        ("offer", [1, 2, 3], "offer: 3 entries where 2 are needed"),
        ("best", [True], r"best\[0\]: True is not an integer in .."),
        ("note", [1], r"note: \[1\] is not an object"),
        ("log", {"a": 1}, "log: {'a': 1} is not a list"),
        ("range", [5, 1], "range: 5 is above 1"),
        ("range", [5], "range: 1 entries where 2 are needed"),
        ("tags", [1], r"tags: \[1\] is not a list of strings"),
    ],
)
def test_malformed_values_are_refused_naming_the_field(key: str, value: Any, message: str) -> None:
    data = new_toy()._to_dict()
    data[key] = value
    with pytest.raises(RecordError, match="^saved toy state: " + message):
        load_toy(data)


def test_missing_keys_and_non_objects_are_refused() -> None:
    data = new_toy()._to_dict()
    del data["log"]
    with pytest.raises(RecordError, match="saved toy state: 'log' is missing"):
        load_toy(data)
    with pytest.raises(RecordError, match="expected an object"):
        load_toy([1, 2])


def test_loading_sorts_where_asked() -> None:
    data = new_toy()._to_dict()
    data["hands"] = [[3, 1, 2], []]
    assert load_toy(data).hands == [[1, 2, 3], []]


def test_a_class_must_list_every_slot_once() -> None:
    with pytest.raises(TypeError, match="slots not listed: b; listed but no slot: c"):

        class Forgetful(SavedState):
            __slots__ = ("a", "b")
            saved = Schema("forgetful", Field("a", "a", Int()), Field("c", "c", Int()))

    with pytest.raises(TypeError, match="attribute listed twice: a"):
        Schema("twice", Field("a", "a", Int()), Kept("a"))
    with pytest.raises(TypeError, match="key listed twice: a"):
        Schema("twice", Field("a", "a", Int()), Field("a", "b", Int()))
    with pytest.raises(TypeError, match="not an attribute name"):
        Schema("odd", Kept("a.b"))


def test_rng_from_state_and_copy_resume_exactly() -> None:
    rng = Rng("resume")
    rng.next_u64()
    resumed, copy = Rng.from_state(rng.state), rng.copy()
    expected = [rng.next_u64() for _ in range(5)]
    assert [resumed.next_u64() for _ in range(5)] == expected
    assert [copy.next_u64() for _ in range(5)] == expected
    assert rng.copy() is not rng


@pytest.mark.parametrize("bad", [-1, 2**64, True, 1.0, "12", None])
def test_rng_from_state_refuses_what_is_no_state(bad: Any) -> None:
    with pytest.raises(ValueError, match="is not a generator state"):
        Rng.from_state(bad)


json_ints = st.integers(min_value=-(2**70), max_value=2**70)


@given(
    seed=st.one_of(st.none(), st.integers(), st.text(max_size=5)),
    rng=st.integers(min_value=0, max_value=2**64 - 1),
    phase=st.integers(min_value=0, max_value=2),
    score=st.integers(min_value=0, max_value=10),
    hands=st.lists(st.lists(st.integers(1, 9), max_size=6).map(sorted), min_size=2, max_size=2),
    rows=st.lists(st.lists(st.integers(0, 2**64), max_size=4), max_size=4),
    flags=st.lists(st.booleans(), min_size=2, max_size=2),
    offer=st.one_of(st.none(), st.tuples(st.integers(1, 9), st.integers(1, 9))),
    best=st.one_of(st.none(), st.lists(json_ints, max_size=4)),
    log=st.lists(st.integers(0, 99), max_size=10),
    bounds=st.lists(json_ints, min_size=2, max_size=2).map(sorted),
    tags=st.sets(st.text(max_size=3), max_size=3),
)
def test_any_state_round_trips_through_json_and_clone(**values: Any) -> None:
    low, high = values.pop("bounds")
    values["rng"] = Rng.from_state(values["rng"])
    toy = new_toy(low=low, high=high, **values)
    text = json.dumps(toy._to_dict(), sort_keys=True)
    assert json.dumps(load_toy(json.loads(text))._to_dict(), sort_keys=True) == text
    assert json.dumps(toy.clone()._to_dict(), sort_keys=True) == text
