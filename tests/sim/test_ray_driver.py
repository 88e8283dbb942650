"""`--backend ray` sends the games from a child process, so a cluster stopped mid-run
(`ray stop`) ends the command in words.

Ray ends the process that sends games with exit code 1, and no word, when the node
under it stops: `pyramids arena ... --backend ray` against a head stopped with
`ray stop` mid-run exited 1 with one Ray log line, and the words about the
--results file never came. The games now go out from a child (`_ray_driver`);
the command reads its results and says what happened.
"""

from __future__ import annotations

import os
import pickle
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from pyramids.core import OptionError, PyramidsError
from pyramids.sim import backends
from pyramids.sim.backends import make_backend, run_indexed


def _send(pipe: Any, *message: Any) -> None:
    pipe.send_bytes(pickle.dumps(message))


def sends_two_then_ray_ends_it(parent: int, pipe: Any, blob: bytes) -> None:
    # What Ray does to the process that sends games when its node stops: _exit(1).
    _send(pipe, backends._RESULTS, [0, 1], ["a", "b"])
    _send(pipe, backends._RESULTS, [2], ["c"])
    os._exit(1)


def sends_all_then_done(parent: int, pipe: Any, blob: bytes) -> None:
    for index in range(int(blob)):
        _send(pipe, backends._RESULTS, [index], [index * 10])
    _send(pipe, backends._DONE)


def cannot_join(parent: int, pipe: Any, blob: bytes) -> None:
    _send(pipe, backends._FAILED, OptionError("cannot join the Ray cluster at x (RAY_ADDRESS)"))


def sends_for_ever(parent: int, pipe: Any, blob: bytes) -> None:
    while True:
        _send(pipe, backends._RESULTS, [0], [0])


def drive(target: Callable[[int, Any, bytes], None], blob: bytes = b"") -> Iterator[Any]:
    return backends._from_driver(target, blob, pickle.loads)


def test_a_sender_ended_by_ray_is_told_in_words_after_the_results_it_sent() -> None:
    arrived = []
    with pytest.raises(PyramidsError) as caught:
        for chunk, results in drive(sends_two_then_ray_ends_it):
            arrived.append((chunk, results))
    assert arrived == [([0, 1], ["a", "b"]), ([2], ["c"])]
    assert str(caught.value) == (
        "the Ray cluster stopped running the games (Ray ended the process that sent them, "
        "exit code 1: the Ray node under it stopped, e.g. ray stop during the run); the games "
        "a --results file kept stay there: give the same command again, once the cluster is "
        "back, to go on from them")


def test_a_finished_sender_gives_every_result_and_no_error() -> None:
    assert list(drive(sends_all_then_done, b"5")) == [([i], [i * 10]) for i in range(5)]


def test_the_senders_own_error_is_raised_as_it_was() -> None:
    with pytest.raises(OptionError, match="cannot join the Ray cluster at x"):
        list(drive(cannot_join))


def test_a_reader_that_stops_early_ends_the_sender() -> None:
    before = set(_children())
    stream = drive(sends_for_ever)
    assert next(stream) == ([0], [0])
    stream.close()  # as a Ctrl-C, or a failing write of a result, would
    assert set(_children()) <= before


def _children() -> list[int]:
    import multiprocessing

    return [child.pid for child in multiprocessing.active_children() if child.pid]


def square_plus(offset: int, index: int) -> int:
    return index * index + offset


def test_ray_without_a_cluster_of_this_process_sends_from_a_child_and_leaves_ray(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The whole way: a local Ray instance, started and stopped by the child."""
    ray = pytest.importorskip("ray")
    if ray.is_initialized():
        pytest.skip("this process has joined Ray: its games go out from here")
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    arrived: dict[int, int] = {}
    chosen = [9, 2, 5]
    results = run_indexed(square_plus, 1, 10, make_backend("ray", 2), indices=chosen,
                          on_result=arrived.__setitem__)
    assert results == [82, 5, 26] and arrived == {9: 82, 2: 5, 5: 26}
    assert not ray.is_initialized()  # this process never joined
