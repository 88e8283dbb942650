"""The garbage collector settings of a server process (pyramids.web.collector)."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator

import pytest

from pyramids.web.collector import YOUNG_THRESHOLD, settle_collector


@pytest.fixture
def collector() -> Iterator[None]:
    """Put the test process's collector back as it was."""
    threshold = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)


def test_a_server_in_another_programs_thread_leaves_its_collector_alone(collector: None) -> None:
    before = gc.get_threshold()
    done: list[bool] = []
    thread = threading.Thread(target=lambda: done.append(settle_collector()))
    thread.start()
    thread.join()
    assert done == [False]
    assert gc.get_threshold() == before


def test_a_serving_process_freezes_what_it_started_with_and_collects_young_less_often(
    collector: None,
) -> None:
    kept = [[n] for n in range(100)]  # alive at the start: frozen, never walked again
    assert settle_collector(force=True)
    assert gc.get_freeze_count() >= len(kept)
    assert gc.get_threshold()[0] == YOUNG_THRESHOLD
    # Cycles made afterwards are still collected.
    cycle: list[object] = []
    cycle.append(cycle)
    del cycle
    assert gc.collect() >= 1
