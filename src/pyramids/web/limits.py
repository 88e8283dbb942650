"""What one server lets each client do: every limit in one place (`ServerLimits`).

A client is its network address. Limits are counted per address in each server
process's memory (a restart forgets them); only the bot rooms watched are counted
over every process of a cluster. Past a limit an HTTP request gets 429 with `Retry-After`
and a message naming the limit; a WebSocket message gets a `rate_limited` error
and a socket past the connection cap is closed with a reason. `pyramids serve
--help` and docs/server.md list them all.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field, fields
from typing import Any

from pyramids.core import find_manifest

# Options whose range the server narrows (the library allows more): the name, the
# server's largest value. The Mahjongg solver's node budget bounds the work one view
# may cost (about 50 µs a node).
SERVER_OPTION_MAXIMUM = {"solver_nodes": 20_000}


def game_option_maximum(game_name: str) -> dict[str, int]:
    """The ranges a game's manifest narrows on a server (`server_option_maximum`: Pacal's
    and Temple's rounds, so that every game fits in `ServerLimits.max_moves_per_room`)."""
    manifest = find_manifest(game_name)
    return dict(manifest.server_option_maximum) if manifest is not None else {}


def server_option_maximum(game_name: str, option_name: str) -> int | None:
    """The largest value this server allows for `option_name` in `game_name`, or None
    where it keeps the game's own range."""
    return game_option_maximum(game_name).get(option_name,
                                              SERVER_OPTION_MAXIMUM.get(option_name))


@dataclass(frozen=True)
class ServerLimits:
    """Every limit the server enforces; the defaults suit a public server."""

    # Rooms: waiting rooms one address may hold, and on the whole server.
    rooms_per_client: int = 10
    waiting_rooms: int = 1000
    # A waiting room nobody has touched (seats, start) or watched this long expires.
    waiting_room_idle_seconds: float = 3600.0
    # A playing room nobody has been connected to this long is adjourned: put away
    # from memory; it comes back, as it was, when someone opens it.
    adjourn_after_seconds: float = 600.0
    # A ranked game in play can be ended by its host only once a player has been away
    # this long (it counts for ratings: not an escape from a game going badly); the
    # players away that long forfeit it, the host too.
    ranked_end_away_seconds: float = 300.0
    # HTTP: requests per address (a burst of `http_burst`, refilled at this rate).
    http_per_second: float = 10.0
    http_burst: int = 60
    # Room creation per address per minute (on top of the HTTP rate).
    rooms_created_per_minute: int = 20
    # WebSockets: open sockets per address, messages per socket.
    sockets_per_client: int = 20
    # Rooms only bots play run while someone watches them: the ones not over that one
    # address may watch at once (else a few sockets keep many bot rooms thinking and
    # take the bot workers from everyone's games). In a cluster, counted over every
    # process (they tell each other: `pyramids.web.cluster`, `watching`).
    bot_rooms_watched_per_client: int = 4
    messages_per_second: float = 10.0
    message_burst: int = 30
    # JSON nesting deepest accepted, in request bodies and socket messages.
    max_json_depth: int = 16
    # Moves one room's game may hold. A game played as its rules go stays far below
    # (the longest shipped defaults take a few hundred); only moves that can repeat
    # without end (a one-player Mahjongg undo, then the pair again) come near it, and
    # every move costs the room memory, a stored row and time when the room is
    # restored or replayed. The move past it ends the game (aborted, no result).
    max_moves_per_room: int = 10_000
    # Slow clients (uvicorn): seconds an idle keep-alive connection is kept, and the
    # most connections served at once (past it: 503).
    keep_alive_seconds: float = 5.0
    max_connections: int = 2000
    # A connection must have sent a request's headers within this many seconds.
    header_seconds: float = 10.0
    # WebSocket Origins allowed besides the server's own address ("*": any).
    allowed_origins: tuple[str, ...] = ()

    @classmethod
    def relaxed(cls, **changes: Any) -> ServerLimits:
        """Limits loose enough for tests and benchmarks on one address."""
        loose: dict[str, Any] = {
            "rooms_per_client": 100_000, "waiting_rooms": 100_000,
            "http_per_second": 100_000.0, "http_burst": 100_000,
            "rooms_created_per_minute": 100_000, "sockets_per_client": 100_000,
            "bot_rooms_watched_per_client": 100_000,
            "messages_per_second": 100_000.0, "message_burst": 100_000,
            "max_connections": 100_000,
        }
        loose.update(changes)
        return cls(**loose)

    def describe(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


class TokenBucket:
    """`burst` tokens, refilled at `rate` a second; each event takes one."""

    __slots__ = ("rate", "burst", "tokens", "stamp", "clock")

    def __init__(self, rate: float, burst: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.clock = clock
        self.stamp = clock()

    def take(self) -> float:
        """0 when allowed; else the seconds until the next token."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return 0.0
        return (1 - self.tokens) / self.rate if self.rate > 0 else math.inf


class Buckets:
    """A token bucket per key (an address), the idle ones forgotten."""

    def __init__(self, rate: float, burst: float, most: int = 50_000) -> None:
        self.rate = rate
        self.burst = burst
        self.most = most
        self.buckets: dict[str, TokenBucket] = {}

    def take(self, key: str) -> float:
        bucket = self.buckets.get(key)
        if bucket is None:
            if len(self.buckets) >= self.most:
                self._forget_full()
            bucket = self.buckets[key] = TokenBucket(self.rate, self.burst)
        return bucket.take()

    def give_back(self, key: str) -> None:
        """Return the token `take` took for `key` (the event it counted did not happen)."""
        bucket = self.buckets.get(key)
        if bucket is not None:
            bucket.tokens = min(bucket.burst, bucket.tokens + 1)

    def _forget_full(self) -> None:
        now = time.monotonic()
        for key, bucket in list(self.buckets.items()):
            if bucket.tokens + (now - bucket.stamp) * bucket.rate >= bucket.burst:
                del self.buckets[key]
        while len(self.buckets) >= self.most:
            del self.buckets[next(iter(self.buckets))]


@dataclass
class _Turn:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    asking: int = 0  # the one whose turn it is and those waiting


class Turns:
    """Work for one key (an address) done one piece at a time, at most `waiting` more
    pieces waiting their turn; past that `full()` is raised and nothing waits. A key
    is kept only while it has work, so this holds no memory of idle clients."""

    def __init__(self, waiting: int, full: Callable[[], Exception]) -> None:
        self.waiting = waiting
        self.full = full
        self._turns: dict[str, _Turn] = {}

    @contextlib.asynccontextmanager
    async def turn(self, key: str) -> AsyncIterator[None]:
        turn = self._turns.setdefault(key, _Turn())
        if turn.asking > self.waiting:
            raise self.full()
        turn.asking += 1
        try:
            async with turn.lock:
                yield
        finally:
            turn.asking -= 1
            if not turn.asking:
                del self._turns[key]


def retry_after(seconds: float) -> str:
    return str(max(1, math.ceil(seconds)))


def json_too_deep(text: str | bytes, limit: int) -> bool:
    """Whether JSON text nests arrays/objects deeper than `limit` (strings skipped).

    Checked before parsing, so that deep input never reaches a recursive parser."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    depth = 0
    in_string = False
    escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False


def loads_limited(text: str, limit: int) -> Any:
    """`json.loads`, refusing (ValueError) nesting deeper than `limit`."""
    if json_too_deep(text, limit):
        raise ValueError(f"nested deeper than {limit} levels")
    return json.loads(text)


__all__ = [
    "SERVER_OPTION_MAXIMUM", "Buckets", "ServerLimits", "TokenBucket", "Turns",
    "game_option_maximum",
    "json_too_deep", "loads_limited", "retry_after", "server_option_maximum",
]
