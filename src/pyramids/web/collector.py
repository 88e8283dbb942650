"""Python's garbage collector tuned for a server process.

A full collection walks every object the collector tracks, and a server with
hundreds of rooms holds hundreds of thousands (the modules and the app, each
room's state, the views its move log keeps, the log's entries). With Python's
default settings, under the load of `benchmarks/server_load.py --games 500`, one
ran every 3-4 s (a move's coroutines and futures live long enough to be promoted
to the oldest generation), each holding the GIL for 0.2-0.9 s: every move in
flight waited for it, and that was most of the round trips' 95th percentile.

`settle_collector`, once the server has started: collects once, then freezes
everything alive (modules, the app: `gc.freeze`) out of the collector's walks,
and collects young objects every `YOUNG_THRESHOLD` allocations instead of 700,
so far fewer short-lived objects reach the oldest generation and full
collections are rare and shorter.
"""

from __future__ import annotations

import gc
import threading

# Young objects are collected every this many allocations (Python's default: 700).
YOUNG_THRESHOLD = 10_000


def settle_collector(force: bool = False) -> bool:
    """Tune the collector as above; whether it did. Only a server that owns its
    process does (`pyramids serve` runs the app in the main thread): a server in
    another program's thread (the tests') leaves that program's collector alone,
    unless `force`."""
    if not force and threading.current_thread() is not threading.main_thread():
        return False
    gc.collect()
    gc.freeze()
    _young, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, old)
    return True


__all__ = ["YOUNG_THRESHOLD", "settle_collector"]
