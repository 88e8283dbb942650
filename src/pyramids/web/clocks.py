"""Turn clocks: the time each seat has to move, kept by the server. Pure, no I/O.

A room's time control (`TimeControl`) is one of:

- `none`: no clock (the default);
- `move`: every turn has the same `seconds` (e.g. 120: two minutes a move);
- `bank`: each seat has a bank of `seconds` for the whole game; the time a turn
  takes comes out of the mover's bank, and `increment` seconds are added after
  each of its turns (Fischer increment).

A turn is the run of actions one seat makes in a row: its clock starts when the
seat comes to move and stops when another seat (or nobody, at the end) is to move.
When a seat's time runs out, the room's `on_timeout` says what happens:
`bot`: the room's takeover agent makes that turn's moves for the seat, and the
clock goes on (a bank that ran out stays empty: later turns have only the
increment); `adjourn`: the clock stops and the game waits, however long, for the
late seat to move; its move starts the clock again for the next seat.

A ranked room's clock is shorter (`ranked_clock_problem`, checked when a room is
made: rooms stored before keep theirs), and its time-out is always `bot`. A seat
of a ranked room that lets its time run out on `RANKED_STALL_TIMEOUTS` turns in a
row forfeits the game (`TurnClock.stalled` counts them; only a move the seat
made itself sets its count back to 0: a bot's move for it does not).

Times are wall-clock seconds from a `Clock` the server gives (a fake one in
tests). The engines never read a clock. The deadline is absolute, so a restart of
the server gives nobody time back.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from pyramids.core.errors import N_, PyramidsError, Words

NONE = "none"
PER_MOVE = "move"
BANK = "bank"
KINDS = (NONE, PER_MOVE, BANK)
TIMEOUT_BOT = "bot"
TIMEOUT_ADJOURN = "adjourn"
ON_TIMEOUT = (TIMEOUT_BOT, TIMEOUT_ADJOURN)

MIN_SECONDS = 5.0
MAX_SECONDS = 7 * 86_400.0
MAX_INCREMENT = 3_600.0
# A ranked room's clock is shorter (`ranked_clock_problem`): it counts for ratings, and
# a losing player who stops moving has every one of their turns last the whole clock
# before the bot moves for them, so a long clock would let them hold a rated game up
# for hours. The longest the lobby offers fit: 5 minutes a move; a bank of 15 minutes
# plus 10 s a move.
RANKED_MAX_MOVE_SECONDS = 300.0
RANKED_MAX_BANK_SECONDS = 1_800.0
RANKED_MAX_INCREMENT = 30.0
# [ours] A ranked room's seat that lets its clock run out on this many turns in a row
# forfeits the game (a loss for it): a losing player who stops moving cannot stretch
# a rated game over hours, each of their turns lasting the whole clock. A move the seat
# makes itself starts the count again.
RANKED_STALL_TIMEOUTS = 3


class ClockError(PyramidsError, ValueError):
    """A time control the server refuses; the message says what is allowed."""


class Clock(Protocol):
    """Where the server reads the time: wall-clock seconds (fake in tests)."""

    def now(self) -> float: ...


class SystemClock:
    """The real wall clock."""

    def now(self) -> float:
        return time.time()


class FakeClock:
    """A clock that moves only when a test says so; `advance` tells the listeners
    (the server wakes its rooms), so a time-out needs no waiting."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self.time = start
        self.listeners: list[Callable[[], None]] = []

    def now(self) -> float:
        return self.time

    def advance(self, seconds: float) -> None:
        self.time += seconds
        for listener in list(self.listeners):
            listener()


@dataclass(frozen=True)
class TimeControl:
    kind: str = NONE
    seconds: float = 0.0
    increment: float = 0.0
    on_timeout: str = TIMEOUT_BOT

    @property
    def timed(self) -> bool:
        return self.kind != NONE

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "seconds": self.seconds, "increment": self.increment,
                "on_timeout": self.on_timeout}

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> TimeControl:
        """A time control from a client or a stored room, checked; None: no clock."""
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise ClockError(N_("a time control is an object: {example}"),
                             example='{"kind": "move", "seconds": 120, "on_timeout": "bot"}')
        unknown = sorted(set(data) - {"kind", "seconds", "increment", "on_timeout"})
        if unknown:
            raise ClockError(N_("unknown time control fields: {fields}; allowed: {allowed}"),
                             fields=", ".join(unknown)[:200],
                             allowed="kind, seconds, increment, on_timeout")
        kind = data.get("kind", NONE)
        if kind not in KINDS:
            raise ClockError(N_("unknown time control kind '{kind}'; allowed: {allowed}"),
                             kind=str(kind)[:64], allowed=", ".join(KINDS))
        on_timeout = data.get("on_timeout", TIMEOUT_BOT)
        if on_timeout not in ON_TIMEOUT:
            raise ClockError(N_("unknown on_timeout '{value}'; allowed: {allowed}"),
                             value=str(on_timeout)[:64], allowed=", ".join(ON_TIMEOUT))
        seconds = _number(data.get("seconds", 0.0), "seconds")
        increment = _number(data.get("increment", 0.0), "increment")
        if kind == NONE:
            return cls(on_timeout=on_timeout)
        if not MIN_SECONDS <= seconds <= MAX_SECONDS:
            raise ClockError(N_("a time control's seconds are from {least} to {most}, not "
                                "{seconds}"), least=f"{MIN_SECONDS:g}", most=f"{MAX_SECONDS:g}",
                             seconds=f"{seconds:g}")
        if kind == PER_MOVE and increment:
            raise ClockError(N_("an increment belongs to a bank ('kind': 'bank'), not to a "
                                "time per move"))
        if not 0 <= increment <= MAX_INCREMENT:
            raise ClockError(N_("an increment is from 0 to {most} seconds, not {increment}"),
                             most=f"{MAX_INCREMENT:g}", increment=f"{increment:g}")
        return cls(kind, seconds, increment, on_timeout)


def ranked_clock_bounds() -> dict[str, float]:
    """The longest clock a ranked room may have, as the lobby reads it (`/api/games`)."""
    return {"move_seconds": RANKED_MAX_MOVE_SECONDS, "bank_seconds": RANKED_MAX_BANK_SECONDS,
            "increment": RANKED_MAX_INCREMENT}


def ranked_clock_problem(control: TimeControl) -> Words | None:
    """Why `control` (already checked, timed) is too long for a ranked room; None when
    it fits. Rooms stored before the bounds keep their clock."""
    too_long = (control.seconds > RANKED_MAX_MOVE_SECONDS if control.kind == PER_MOVE
                else control.seconds > RANKED_MAX_BANK_SECONDS
                or control.increment > RANKED_MAX_INCREMENT)
    if not too_long:
        return None
    return Words(
        N_("a ranked game counts for ratings, so its turn clock must be short, so that a "
           "player who stops moving cannot hold it up for long: at most {move} s a move "
           "('kind': 'move'), or a bank of at most {bank} s plus at most {increment} s a "
           "move ('kind': 'bank'); this room asked for 'kind': '{kind}', 'seconds': "
           "{seconds}, 'increment': {given_increment}. Choose a shorter clock, or make the "
           "room unranked"),
        move=f"{RANKED_MAX_MOVE_SECONDS:g}", bank=f"{RANKED_MAX_BANK_SECONDS:g}",
        increment=f"{RANKED_MAX_INCREMENT:g}", kind=control.kind,
        seconds=f"{control.seconds:g}", given_increment=f"{control.increment:g}")


def _number(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) \
            or not math.isfinite(value):
        raise ClockError(N_("a time control's {name} is a number of seconds"), name=name)
    return float(value)


@dataclass
class TurnClock:
    """Where a room's clock stands: each seat's bank, whose turn is timed and since when."""

    control: TimeControl
    banks: list[float]
    seat: int | None = None
    started_at: float | None = None
    adjourned: bool = False
    # The timed seat ran out of time and its bot plays the rest of the turn.
    overtime: bool = False
    timeouts: list[int] = field(default_factory=list)
    # Each seat's time-outs in a row: the turns since its last move of its own that all
    # ran out of time (a ranked room's seat forfeits at `RANKED_STALL_TIMEOUTS`).
    stalled: list[int] = field(default_factory=list)
    # The move number this state was saved at (a restart checks it against the room).
    move_number: int = 0

    @classmethod
    def new(cls, control: TimeControl, seats: int) -> TurnClock:
        bank = control.seconds if control.kind == BANK else 0.0
        return cls(control, [bank] * seats, timeouts=[0] * seats, stalled=[0] * seats)

    def allowed(self, seat: int) -> float:
        """The seconds `seat` has for a turn that starts now."""
        if self.control.kind == BANK:
            return self.banks[seat]
        return self.control.seconds

    def deadline(self) -> float | None:
        """When the running turn times out (wall seconds), or None: no turn is timed."""
        if self.seat is None or self.started_at is None or self.adjourned or self.overtime:
            return None
        return self.started_at + self.allowed(self.seat)

    def overdue(self, now: float) -> bool:
        deadline = self.deadline()
        return deadline is not None and now >= deadline

    def start_turn(self, seat: int | None, now: float) -> None:
        """`seat` comes to move (None: nobody, the game is over)."""
        self.seat = seat
        self.started_at = None if seat is None else now
        self.adjourned = False
        self.overtime = False

    def end_turn(self, now: float) -> None:
        """The timed seat stops moving: a bank pays the time taken, then gets the increment."""
        if self.seat is None:
            return
        if self.control.kind == BANK:
            taken = 0.0 if self.started_at is None or self.overtime else max(
                0.0, now - self.started_at)
            left = max(0.0, self.banks[self.seat] - taken)
            self.banks[self.seat] = left + self.control.increment
        self.seat = None
        self.started_at = None

    def after_move(self, mover: int, next_seat: int | None, now: float,
                   own: bool = False) -> None:
        """A move by `mover` was applied; `next_seat` is to move (None: game over).
        `own`: the seat made it itself (not a bot for it), which ends its time-outs in
        a row.

        The turn goes on while the same seat keeps moving; an adjourned clock
        starts again with the late seat's move."""
        if own and 0 <= mover < len(self.stalled):
            self.stalled[mover] = 0
        if next_seat is not None and next_seat == self.seat and not self.adjourned:
            return
        if self.adjourned or self.seat is None:
            self.seat = mover
            self.started_at = now
        self.end_turn(now)
        self.start_turn(next_seat, now)

    def time_out(self, now: float) -> None:
        """The timed seat's time ran out: its bank is empty; `adjourn` stops the clock."""
        if self.seat is None:
            return
        self.timeouts[self.seat] += 1
        self.stalled[self.seat] += 1
        if self.control.kind == BANK:
            self.banks[self.seat] = 0.0
        if self.control.on_timeout == TIMEOUT_ADJOURN:
            self.adjourned = True
        else:
            # The bot plays the rest of this turn, untimed; the clock starts again
            # for the next seat.
            self.overtime = True

    def remaining(self, now: float) -> list[float]:
        """Each seat's time left now: the running turn counts down, the others wait."""
        times = []
        for seat in range(len(self.banks)):
            if seat == self.seat and (self.adjourned or self.overtime):
                times.append(0.0)
            elif seat == self.seat and self.started_at is not None:
                times.append(max(0.0, self.started_at + self.allowed(seat) - now))
            elif self.control.kind == BANK:
                times.append(self.banks[seat])
            else:
                times.append(self.control.seconds)
        return times

    def public(self, now: float) -> dict[str, Any]:
        """What every client is sent: the control, each seat's time left at `now`, the
        timed seat and its deadline (the page counts down from these)."""
        deadline = self.deadline()
        return {
            **self.control.to_dict(),
            "seat": self.seat,
            "deadline": deadline,
            "remaining": [round(value, 3) for value in self.remaining(now)],
            "adjourned": self.adjourned,
            "overtime": self.overtime,
            "timeouts": list(self.timeouts),
            "stalled": list(self.stalled),
            "server_time": now,
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "control": self.control.to_dict(), "banks": list(self.banks), "seat": self.seat,
            "started_at": self.started_at, "adjourned": self.adjourned,
            "overtime": self.overtime, "timeouts": list(self.timeouts),
            "stalled": list(self.stalled), "move_number": self.move_number,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TurnClock:
        return cls(
            control=TimeControl.from_dict(data["control"]),
            banks=[float(value) for value in data["banks"]],
            seat=data.get("seat"),
            started_at=data.get("started_at"),
            adjourned=bool(data.get("adjourned", False)),
            overtime=bool(data.get("overtime", False)),
            timeouts=[int(value) for value in data.get("timeouts", [])]
            or [0] * len(data["banks"]),
            # A clock stored before the count: nobody has timed out in a row yet.
            stalled=[int(value) for value in data.get("stalled", [])]
            or [0] * len(data["banks"]),
            move_number=int(data.get("move_number", 0)),
        )


__all__ = [
    "BANK", "KINDS", "NONE", "ON_TIMEOUT", "PER_MOVE", "TIMEOUT_ADJOURN", "TIMEOUT_BOT",
    "RANKED_MAX_BANK_SECONDS", "RANKED_MAX_INCREMENT", "RANKED_MAX_MOVE_SECONDS",
    "RANKED_STALL_TIMEOUTS",
    "Clock", "ClockError", "FakeClock", "SystemClock", "TimeControl", "TurnClock",
    "ranked_clock_bounds", "ranked_clock_problem",
]
