"""Rooms and seats: who may do what, and what each client may see. Pure, no I/O.

A `Room` holds one game: its options, its secret seed, its seats and the state.
Seats are open, held by a person (who proves it with a secret seat token) or
given to a named agent. The server checks every action here: the token names a
seat, it is that seat's turn, and the action string is legal. Nothing else moves
a game.

What a client is sent is built here too, so that the rule "a seat gets only
`view(seat)`, a spectator only `view(None)`" lives in one place: `message_for`.
The seed never leaves a room before the game is over (seed plus actions would
reveal every hidden card), and neither do records of unfinished games. Every room
shows a commitment to its seed from the start (`commitment`: SHA-256 of a secret
salt and the seed); when the game ends the seed and salt are revealed, so anyone
can check that the deal was fixed before the first move (`verify_commitment`).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from pyramids.core import (
    GameRecord,
    IllegalActionError,
    PyramidsError,
    State,
    find_manifest,
    load,
)
from pyramids.core.errors import N_, PluralWords, Words, words_json
from pyramids.play.i18n import LANGUAGES
from pyramids.play.moves import reason_only
from pyramids.play.render import render_view
from pyramids.web.names import name_look

WAITING = "waiting"
PLAYING = "playing"
FINISHED = "finished"
ABORTED = "aborted"  # over, without a result: its host ended it (or `Room.ended` says who)
EXPIRED = "expired"  # a waiting room nobody touched for too long; archived
OVER = (FINISHED, ABORTED, EXPIRED)

OPEN = "open"
PERSON = "person"
AGENT = "agent"

# A room's status as a player reads it in a refusal (the codes stay English in the API).
STATUS_WORDS = {
    WAITING: N_("waiting"),
    PLAYING: N_("playing"),
    FINISHED: N_("finished"),
    ABORTED: N_("aborted"),
    EXPIRED: N_("expired"),
}


# Why an aborted game ended, when it is more than its host ending it.
ENDED_TIMEOUTS = "timeouts"  # a ranked seat let its clock run out turn after turn
ENDED_AWAY = "away"  # the host ended a ranked game while these seats were away
ENDED_OPERATOR = "operator"  # the server's operator closed the room
ENDED_MOVE_LIMIT = "move_limit"  # the game reached `max_moves_per_room` (`moves`)


def _seat_number(value: Any, seats: int) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < seats:
        return None
    return value


def ended_words(ended: dict[str, Any], names: list[str]) -> Words | None:
    """How a game ended (`Room.ended`) as words every player reads, with how it is
    rated (`forfeit_matches`: each forfeiting seat loses to every seat still there, no
    other match counts); None: unknown."""
    if ended.get("reason") == ENDED_TIMEOUTS:
        seat = _seat_number(ended.get("seat"), len(names))
        if seat is None:
            return None
        if len(names) == 2:
            return Words(N_("{name} (seat {seat}) let the clock run out on {count} turns in a "
                            "row, so they forfeit this ranked game: it counts as a loss for "
                            "them and a win for everyone else at the table"),
                         name=names[seat], seat=seat + 1, count=ended.get("timeouts", 0))
        return Words(N_("{name} (seat {seat}) let the clock run out on {count} turns in a row, "
                        "so they forfeit this ranked game: it counts as their loss to each "
                        "other player, and no other match of this game is rated"),
                     name=names[seat], seat=seat + 1, count=ended.get("timeouts", 0))
    if ended.get("reason") == ENDED_AWAY:
        found = ended.get("seats")
        if not isinstance(found, list) or not found:
            return None
        numbers = [_seat_number(value, len(names)) for value in found]
        away = sorted({seat for seat in numbers if seat is not None})
        if len(away) != len(found):  # a seat unknown, or named twice
            return None
        if len(away) == len(names):
            return Words(N_("The host ended this ranked game while every player was away: "
                            "nobody still there won it, so it is not rated"))
        if len(names) == 2:
            [seat] = away
            return Words(N_("The host ended this ranked game while {name} (seat {seat}) was "
                            "away, so they forfeit it: it counts as a loss for them and a win "
                            "for {winner}"),
                         name=names[seat], seat=seat + 1, winner=names[1 - seat])
        return PluralWords(
            "The host ended this ranked game while {names} (seat {seats}) was away, so they "
            "forfeit it: it counts as their loss to each player still there, and no other "
            "match of this game is rated",
            "The host ended this ranked game while {names} (seats {seats}) were away, so "
            "they forfeit it: it counts as a loss for each of them to every player still "
            "there, and no other match of this game is rated",
            len(away), names=", ".join(names[seat] for seat in away),
            seats=", ".join(str(seat + 1) for seat in away))
    if ended.get("reason") == ENDED_OPERATOR:
        return Words(N_("The server's operator closed this game: it ended without a result, "
                        "and nobody is rated"))
    if ended.get("reason") == ENDED_MOVE_LIMIT:
        moves = ended.get("moves")
        if isinstance(moves, bool) or not isinstance(moves, int) or moves < 0:
            return None
        return Words(N_("This game reached {moves} moves, the most a room on this server may "
                        "hold, so it ended without a result, and nobody is rated"),
                     moves=f"{moves:,}")
    return None


def ended_public(ended: dict[str, Any] | None, names: list[str]) -> dict[str, Any] | None:
    """`ended` with its words (`ended_words`) as JSON a page translates; None stays None."""
    if ended is None:
        return None
    words = ended_words(ended, names)
    return {**ended, "words": None if words is None else words_json(words)}


def status_words(status: str) -> Words:
    """`status` ("aborted") as words a player reads, in their language."""
    return Words(STATUS_WORDS.get(status, status))


MAX_NAME_LENGTH = 40
MAX_TAKEOVER_SECONDS = 86_400.0



def plain_text(game: str, view: dict[str, Any], lang: str | None = None) -> str | None:
    """The view as the game's `text_renderer` draws it for `play --plain`, in `lang`
    (None: the server's), for the page of a game with no browser renderer of its own
    (a plugin's): it shows that instead of the raw view's fields. None where the game
    has a renderer, or no drawing."""
    manifest = find_manifest(game)
    if manifest is None or manifest.web_renderer is not None or not manifest.text_renderer:
        return None
    return render_view(game, view, lang)

class RoomError(PyramidsError):
    """A request a room refuses. `code` is stable for clients, `status` is the HTTP status."""

    def __init__(
        self, code: str, message: str | Words, status: int = 400,
        retry_after: float | None = None
    ) -> None:
        # An engine's words travel on, so each client reads them in its own language.
        super().__init__(message)
        self.code = code
        self.message = str(message)
        self.status = status
        self.retry_after = retry_after  # seconds, for status 429


def shown_value(value: Any) -> str:
    """A value a client sent, as a refusal shows it: text as it is (at most 64
    characters), anything else as JSON would write it."""
    if isinstance(value, str):
        return value[:64]
    try:
        return json.dumps(value)[:64]
    except (TypeError, ValueError):
        return type(value).__name__


def new_token() -> str:
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    # surrogatepass: any string a client sends hashes (and simply matches no token).
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def token_matches(token: str | None, token_hash: str) -> bool:
    """`token` is the one whose hash is `token_hash` (compared in constant time)."""
    return token is not None and token != "" and hmac.compare_digest(hash_token(token),
                                                                     token_hash)


def new_room_id() -> str:
    return secrets.token_urlsafe(6)


def new_seed() -> int:
    return secrets.randbits(62)


def new_salt() -> str:
    return secrets.token_hex(16)


def seed_text(seed: int | str | None) -> str:
    """The seed as the commitment hashes it: its JSON text."""
    return json.dumps(seed)


def commitment_of(seed: int | str | None, salt: str) -> str:
    """SHA-256 (hex) of `salt:seed-as-JSON`: shown at the start, checkable at the end."""
    return hashlib.sha256(f"{salt}:{seed_text(seed)}".encode()).hexdigest()


def verify_commitment(commitment: str, seed: int | str | None, salt: str) -> bool:
    """Whether `seed` and `salt` are what `commitment` promised."""
    return hmac.compare_digest(commitment_of(seed, salt), commitment)


def is_sealed(sealed_until: datetime | None, now: datetime | None = None) -> bool:
    """Whether a room's deal is still secret after its game is over: the daily deal,
    which everyone plays that day, stays sealed until the day is over (`sealed_until`)."""
    if sealed_until is None:
        return False
    return (now or datetime.now(UTC)) < sealed_until


def fairness_info(
    seed: int | str | None, salt: str | None, practice: bool, status: str,
    sealed_until: datetime | None = None,
) -> dict[str, Any]:
    """The commitment to the seed; once the game is over, the seed and salt that open it
    (a sealed deal: once `sealed_until` has passed, `sealed_until` said until then).

    A practice room (a one-player room whose creator chose the seed) is unranked."""
    info: dict[str, Any] = {
        "commitment": None if salt is None else commitment_of(seed, salt),
        "practice": practice,
        "server_dealt": not practice,  # the server drew the seed (ratings: settings.ranked)
    }
    if is_sealed(sealed_until):
        assert sealed_until is not None
        info["sealed_until"] = sealed_until.isoformat()
    elif status in (FINISHED, ABORTED):
        # `seed_text` is what the commitment hashes, to the digit: a browser reads a
        # 62-bit `seed` as a float and would check (and show) other digits.
        info.update(seed=seed, seed_text=seed_text(seed), salt=salt)
    return info


def sealed_error(sealed_until: datetime) -> RoomError:
    return RoomError(
        "sealed",
        Words(N_("this is the daily deal, which everyone plays today: its record and seed are "
                 "shown when the day is over, from {time} UTC"),
              time=sealed_until.strftime("%Y-%m-%d %H:%M")),
        409,
    )


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate
        return False
    return True


MAX_SEED_TEXT = 100
MAX_SEED_INT = 2**63 - 1


def check_practice_seed(seed: Any) -> int | str:
    """A seed a client chose for a practice room: an integer or short text."""
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise RoomError("bad_seed", Words(N_("a seed is an integer or a text")))
    if isinstance(seed, int) and not -MAX_SEED_INT <= seed <= MAX_SEED_INT:
        raise RoomError("bad_seed", Words(N_("a seed is an integer from {least} to {most}"),
                                          least=-MAX_SEED_INT, most=MAX_SEED_INT))
    if isinstance(seed, str) and (len(seed) > MAX_SEED_TEXT or not _encodable(seed)):
        raise RoomError("bad_seed", Words(N_("a seed text has at most {most} characters "
                                             "of valid Unicode"), most=MAX_SEED_TEXT))
    return seed


def clean_name(name: Any) -> str:
    if not isinstance(name, str) or not name.strip():
        raise RoomError("bad_name", Words(N_("a player name is a non-empty string")))
    name = " ".join(name.split())
    if not name.isprintable() or not _encodable(name):
        raise RoomError("bad_name", Words(N_("a player name is printable text (letters, "
                                             "digits, spaces and punctuation)")))
    if len(name) > MAX_NAME_LENGTH:
        raise RoomError("bad_name", Words(N_("a player name has at most {most} characters"),
                                          most=MAX_NAME_LENGTH))
    return name


def check_manager_token(token: str | None, host_token_hash: str,
                        seat_token_hashes: Iterable[str]) -> None:
    """`token` is the host's or a seat's, by their hashes (also for a room that is
    only read from its rows, not replayed); else RoomError 403."""
    if not token:
        raise RoomError("missing_token",
                        Words(N_("this needs the room's host token or a seat token")), 403)
    digest = hash_token(token)
    if not any(hmac.compare_digest(digest, known)
               for known in (host_token_hash, *seat_token_hashes)):
        raise RoomError("bad_token", Words(N_("that token is neither this room's host token "
                                              "nor one of its seat tokens")), 403)


@dataclass
class Seat:
    index: int
    kind: str = OPEN
    name: str | None = None
    agent: str | None = None
    token_hash: str | None = None
    # The account holding this seat (a person who took it logged in), or None.
    account_id: int | None = None

    def display_name(self) -> str:
        if self.kind == AGENT:
            return f"{self.agent} (bot)"
        if self.kind == PERSON and self.name:
            return self.name
        return f"seat {self.index + 1}"  # seats count from 1 where people read them

    def public(self) -> dict[str, Any]:
        public: dict[str, Any] = {"seat": self.index, "kind": self.kind,
                                  "name": self.display_name()}
        if self.kind == PERSON and self.name:
            # Pages tell apart seats whose names look alike ("Bea" and Cyrillic "Веа").
            public["look"] = name_look(self.name)
        if self.kind == AGENT:
            public["agent"] = self.agent  # pages name the bot in the reader's language
        if self.account_id is not None:
            public["account"] = True  # the name is an account's, checked by its password
        return public


@dataclass
class RoomSettings:
    """Options of the room itself (not of the game)."""

    bot_takeover_seconds: float | None = None
    takeover_agent: str = "random"
    bot_delay_seconds: float = 0.0
    # Results count for the players' ratings (server-owned deals, accounts only).
    ranked: bool = False
    # The turn clock (`pyramids.web.clocks.TimeControl.to_dict()`); None: no clock.
    time_control: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "bot_takeover_seconds": self.bot_takeover_seconds,
            "takeover_agent": self.takeover_agent,
            "bot_delay_seconds": self.bot_delay_seconds,
            "ranked": self.ranked,
            "time_control": self.time_control,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RoomSettings:
        # Rooms stored before ranked play and clocks read as unranked, without a clock.
        return cls(
            bot_takeover_seconds=data.get("bot_takeover_seconds"),
            takeover_agent=data.get("takeover_agent", "random"),
            bot_delay_seconds=data.get("bot_delay_seconds", 0.0),
            ranked=bool(data.get("ranked", False)),
            time_control=data.get("time_control"),
        )


@dataclass
class LastMove:
    seat: int
    action: str
    by_bot: bool

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "action": self.action, "by_bot": self.by_bot}


@dataclass
class Room:
    id: str
    game_name: str
    options: dict[str, Any]
    seed: int | str | None
    host_token_hash: str
    settings: RoomSettings
    seats: list[Seat]
    state: State
    status: str = WAITING
    actions: list[str] = field(default_factory=list)
    last_move: LastMove | None = None
    # The commitment's secret salt (None: a room stored before commitments existed).
    salt: str | None = None
    # A one-player room whose seed its creator chose: unranked, for practice.
    practice: bool = False
    # Not listed in the lobby: only people with its address find it.
    unlisted: bool = False
    # The daily deal: its seed and record are kept secret until then, even once its
    # game is over, since everyone plays the same deal that day (`is_sealed`).
    sealed_until: datetime | None = None
    # How an aborted game ended when that is more than its host ending it: a ranked
    # seat's forfeit on time, `{"reason": "timeouts", "seat": 0, "timeouts": 3}`, a
    # ranked game its host ended over seats away, `{"reason": "away", "seats": [1, 2]}`,
    # the server's operator closing it, `{"reason": "operator"}`, or the game reaching
    # the most moves a room holds, `{"reason": "move_limit", "moves": 10000}`
    # (stored with the status, as `{"ended": ...}` in the result column).
    ended: dict[str, Any] | None = None

    # -- making and rebuilding ------------------------------------------------

    @classmethod
    def create(
        cls,
        room_id: str,
        game_name: str,
        options: dict[str, Any],
        seed: int | str | None,
        host_token_hash: str,
        settings: RoomSettings,
        salt: str | None = None,
        practice: bool = False,
        unlisted: bool = False,
        sealed_until: datetime | None = None,
    ) -> Room:
        """A new room; an unknown game or a bad option raises with what is allowed."""
        game = load(game_name, **options)
        state = game.new_initial_state(seed)
        seats = [Seat(index) for index in range(game.num_players)]
        return cls(
            id=room_id,
            game_name=game_name,
            options=game.options,
            seed=seed,
            host_token_hash=host_token_hash,
            settings=settings,
            seats=seats,
            state=state,
            salt=salt,
            practice=practice,
            unlisted=unlisted,
            sealed_until=sealed_until,
        )

    @classmethod
    def restore(
        cls,
        room_id: str,
        game_name: str,
        options: dict[str, Any],
        seed: int | str | None,
        host_token_hash: str,
        settings: RoomSettings,
        seats: list[Seat],
        status: str,
        actions: list[tuple[int, str, bool]],
        salt: str | None = None,
        practice: bool = False,
        unlisted: bool = False,
        sealed_until: datetime | None = None,
        ended: dict[str, Any] | None = None,
    ) -> Room:
        """The room replayed from its seed and stored actions (seat, action string, by_bot)."""
        room = cls.create(room_id, game_name, options, seed, host_token_hash, settings,
                          salt, practice, unlisted, sealed_until)
        if len(seats) != len(room.seats):
            raise RoomError(
                "corrupt_room",
                Words(N_("room {room}: stored {stored} seats, the game has {seats}"),
                      room=room_id, stored=len(seats), seats=len(room.seats)),
            )
        room.seats = seats
        room.status = status
        room.ended = ended if status == ABORTED else None
        for number, (seat, text, by_bot) in enumerate(actions, start=1):
            try:
                if room.state.current_player != seat:
                    raise IllegalActionError(N_("stored for seat {seat}, but it is not its turn"),
                                             seat=seat + 1)
                room.state.apply_action(room.state.string_to_action(text))
            except IllegalActionError as error:
                raise RoomError(
                    "corrupt_room",
                    Words(N_("room {room}: stored action {number} ('{move}'): {problem}"),
                          room=room_id, number=number, move=text, problem=error),
                ) from None
            room.actions.append(text)
            room.last_move = LastMove(seat, text, by_bot)
        if room.state.is_terminal() and room.status not in OVER:
            room.status = FINISHED
        return room

    # -- seats ----------------------------------------------------------------

    def is_host(self, token: str | None) -> bool:
        return token_matches(token, self.host_token_hash)

    def seat_of(self, token: str | None) -> int | None:
        """The seat this token holds, or None."""
        if not token:
            return None
        digest = hash_token(token)
        for seat in self.seats:
            if seat.token_hash is not None and hmac.compare_digest(digest, seat.token_hash):
                return seat.index
        return None

    def check_manager(self, token: str | None) -> None:
        """The host and every seated person may fill seats with agents and start."""
        check_manager_token(token, self.host_token_hash,
                            [seat.token_hash for seat in self.seats if seat.token_hash])

    def check_host(self, token: str | None) -> None:
        """Only the host fills seats with bots, starts, kicks and aborts."""
        if not token:
            raise RoomError("missing_token", Words(N_("this needs the room's host token")), 403)
        if not self.is_host(token):
            raise RoomError("not_host", Words(N_("only the host of this room may do that; "
                                                 "that token is not its host token")), 403)

    def _seat_number(self, seat: Any) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int) or not (
            0 <= seat < len(self.seats)
        ):
            # The words count seats from 1, as a person reads them; `seat` counts from 0.
            if isinstance(seat, int) and not isinstance(seat, bool):
                raise RoomError("bad_seat", Words(N_(
                    "there is no seat {seat}; this room's seats are 1 to {last}"),
                    seat=shown_value(seat + 1), last=len(self.seats)))
            raise RoomError("bad_seat", Words(N_(
                "'{seat}' is not a seat; this room's seats are 1 to {last}"),
                seat=shown_value(seat), last=len(self.seats)))
        return seat

    def _waiting(self, doing: Words) -> None:
        """Refuse `doing` (words: "take a seat") unless the room still waits to start."""
        if self.status == WAITING:
            return
        if self.status in (ABORTED, EXPIRED):
            raise RoomError("room_closed", Words(N_("room {room} is {status}; cannot {doing}"),
                                                 room=self.id, status=status_words(self.status),
                                                 doing=doing), 409)
        raise RoomError("already_started",
                        Words(N_("room {room} has already started; cannot {doing} now"),
                              room=self.id, doing=doing), 409)

    def leave(self, token: str | None) -> Seat:
        """A seated person gives their seat back before the game starts."""
        index = self.seat_of(token)
        if index is None:
            raise RoomError("bad_token", Words(N_("that token holds no seat in this room")), 403)
        self._waiting(Words(N_("leave a seat")))
        seat = self.seats[index]
        seat.kind, seat.name, seat.agent, seat.token_hash = OPEN, None, None, None
        seat.account_id = None
        return seat

    def kick(self, token: str | None, seat: Any) -> Seat:
        """The host opens a taken seat again (a person or a bot) before the start."""
        self.check_host(token)
        self._waiting(Words(N_("free a seat")))
        index = self._seat_number(seat)
        entry = self.seats[index]
        if entry.kind == OPEN:
            raise RoomError("seat_open", Words(N_("seat {seat} is already open"), seat=index + 1),
                            409)
        entry.kind, entry.name, entry.agent, entry.token_hash = OPEN, None, None, None
        entry.account_id = None
        return entry

    def abort(self, token: str | None) -> None:
        """The host ends the room: waiting or playing, it is over without a result."""
        self.check_host(token)
        if self.status in OVER:
            raise RoomError("game_over", Words(N_("room {room} is already over ({status})"),
                                               room=self.id, status=status_words(self.status)),
                            409)
        self.status = ABORTED

    def _free_seat(self, seat: int | None) -> Seat:
        self._waiting(Words(N_("take a seat")))
        if seat is None:
            for candidate in self.seats:
                if candidate.kind == OPEN:
                    return candidate
            raise RoomError("room_full", Words(N_("room {room} is full: all {seats} seats are "
                                                  "taken"), room=self.id, seats=len(self.seats)),
                            409)
        seat = self._seat_number(seat)
        if self.seats[seat].kind != OPEN:
            raise RoomError("seat_taken", Words(N_("seat {seat} of room {room} is already taken"),
                                                seat=seat + 1, room=self.id), 409)
        return self.seats[seat]

    def take_seat(
        self, name: Any, seat: int | None = None, account: tuple[int, str] | None = None
    ) -> tuple[Seat, str]:
        """Seat a person; returns the seat and its secret token (only its hash is kept).

        `account` (id, name): a logged-in person sits under their account's name. A
        ranked room seats only accounts, each at most once."""
        clean = clean_name(account[1] if account is not None else name)
        if self.settings.ranked:
            if account is None:
                raise RoomError("account_required", Words(N_(
                    "this room is ranked: its results count for ratings, so only players "
                    "logged in to an account may take its seats; log in, or join an unranked "
                    "room")), 403)
            if any(other.account_id == account[0] for other in self.seats):
                raise RoomError("already_seated", Words(N_(
                    "your account already holds a seat in this ranked room; one account "
                    "plays one seat")), 409)
        chosen = self._free_seat(seat)
        token = new_token()
        chosen.kind, chosen.name, chosen.agent = PERSON, clean, None
        chosen.token_hash = hash_token(token)
        chosen.account_id = None if account is None else account[0]
        return chosen, token

    def claim_seat(self, seat: Any, account_id: int) -> tuple[Seat, str, str | None]:
        """The account that holds a seat plays it on this device: the seat gets a new
        secret token (returned with the seat and the old token's hash); the old token
        holds nothing any more. `seat` None: the one seat this account holds here.

        Only a seat taken logged in to that same account may be claimed: a seat taken
        by name (no account) is its token's alone, and nobody claims another's seat."""
        if self.status in OVER:
            raise RoomError("game_over", Words(N_(
                "room {room} is over ({status}); there is no seat to play on this device"),
                room=self.id, status=status_words(self.status)), 409)
        if seat is None:
            held = [entry.index for entry in self.seats
                    if entry.kind == PERSON and entry.account_id == account_id]
            if not held:
                raise RoomError("not_your_seat", Words(N_(
                    "your account holds no seat in room {room}; take an open seat, or watch"),
                    room=self.id), 403)
            if len(held) > 1:
                raise RoomError("which_seat", Words(N_(
                    "your account holds seats {seats} in room {room}; say which one to play "
                    "on this device"), seats=", ".join(str(index + 1) for index in held),
                    room=self.id))
            seat = held[0]
        entry = self.seats[self._seat_number(seat)]
        if entry.kind != PERSON:
            raise RoomError("not_your_seat", Words(N_(
                "seat {seat} of room {room} is not held by a player; only a seat your account "
                "holds can be played on another device"), seat=entry.index + 1, room=self.id),
                403)
        if entry.account_id is None:
            raise RoomError("guest_seat", Words(N_(
                "seat {seat} was taken without an account, so only the browser that took it "
                "can play it; a seat can move to another device only when it was taken "
                "logged in"), seat=entry.index + 1), 403)
        if entry.account_id != account_id:
            raise RoomError("not_your_seat", Words(N_(
                "seat {seat} of room {room} is held by another player's account; you can "
                "play only a seat your own account holds"), seat=entry.index + 1,
                room=self.id), 403)
        token = new_token()
        old = entry.token_hash
        entry.token_hash = hash_token(token)
        return entry, token, old

    def give_to_agent(self, seat: int, agent: str, known_agents: list[str]) -> Seat:
        if agent not in known_agents:
            raise RoomError(
                "unknown_agent",
                Words(N_("unknown agent '{name}'; allowed agents: {allowed}"),
                      name=shown_value(agent), allowed=", ".join(known_agents)),
            )
        chosen = self._free_seat(seat)
        chosen.kind, chosen.agent, chosen.name, chosen.token_hash = AGENT, agent, None, None
        chosen.account_id = None
        return chosen

    def start(self) -> None:
        self._waiting(Words(N_("start")))
        empty = [seat.index for seat in self.seats if seat.kind == OPEN]
        if empty:
            raise RoomError(
                "seats_open",
                PluralWords("room {room} cannot start: seat {seats} is still open; take it or "
                            "give it to an agent",
                            "room {room} cannot start: seats {seats} are still open; take them "
                            "or give them to agents",
                            len(empty), room=self.id,
                            seats=", ".join(str(index + 1) for index in empty)),
                409,
            )
        self.status = FINISHED if self.state.is_terminal() else PLAYING

    # -- moves ----------------------------------------------------------------

    def check_action(self, seat: int | None, text: Any) -> int:
        """The action `text` means for `seat`, or a RoomError saying why it is refused.

        Nothing changes: the caller stores the action before applying it.
        """
        if seat is None:
            raise RoomError("spectator", Words(N_("spectators cannot move")))
        if self.status == WAITING:
            raise RoomError("not_started", Words(N_("the game has not started yet")))
        if self.status in OVER:
            raise RoomError("game_over", Words(N_("the game is over ({status})"),
                                               status=status_words(self.status)))
        if not isinstance(text, str) or not text.strip():
            raise RoomError("bad_action", Words(N_("an action is a non-empty action string")))
        player = self.state.current_player
        if player != seat:
            raise RoomError("not_your_turn", Words(N_("it is not your turn; it is seat {seat}'s "
                                                      "turn"), seat=player + 1))
        try:
            action = self.state.string_to_action(text)
        except IllegalActionError as error:
            raise RoomError("illegal_action", error.words) from None
        if action not in self.state.legal_actions():
            # The engine says why; trying the move on a copy leaves the room untouched.
            try:
                self.state.clone().apply_action(action)
            except IllegalActionError as error:
                raise RoomError("illegal_action", reason_only(error.words)) from None
            raise RoomError("illegal_action", Words(N_("'{move}' is not legal now"), move=text))
        return action

    def apply(self, seat: int, action: int, by_bot: bool = False) -> str:
        """Apply an action `check_action` accepted (and the caller stored); its string."""
        text = self.state.action_to_string(action)
        self.state.apply_action(action)
        self.actions.append(text)
        self.last_move = LastMove(seat, text, by_bot)
        if self.state.is_terminal():
            self.status = FINISHED
        return text

    def result(self) -> dict[str, Any] | None:
        if self.status != FINISHED:
            return None
        return {"returns": self.state.returns()}

    @property
    def commitment(self) -> str | None:
        return None if self.salt is None else commitment_of(self.seed, self.salt)

    def fairness(self) -> dict[str, Any]:
        return fairness_info(self.seed, self.salt, self.practice, self.status,
                             self.sealed_until)

    # -- what clients see -----------------------------------------------------

    def summary(self) -> dict[str, Any]:
        """What anyone may know about the room (no seed, no tokens, no hidden state)."""
        return {
            "id": self.id,
            "game": self.game_name,
            "options": self.options,
            "status": self.status,
            "seats": [seat.public() for seat in self.seats],
            "open_seats": [seat.index for seat in self.seats if seat.kind == OPEN],
            "move_number": len(self.actions),
            "bot_takeover_seconds": self.settings.bot_takeover_seconds,
            "takeover_agent": self.settings.takeover_agent,
            "bot_delay_seconds": self.settings.bot_delay_seconds,
            "ranked": self.settings.ranked,
            "time_control": self.settings.time_control,
            "result": self.result(),
            "ended": self.ended_public(),
            "unlisted": self.unlisted,
            "fairness": self.fairness(),
        }

    def ended_public(self) -> dict[str, Any] | None:
        """How the game ended, for every client (None: as its status says), with the
        words the page shows (`ended_words`)."""
        return ended_public(self.ended, [seat.display_name() for seat in self.seats])

    def message_for(self, seat: int | None, connected: dict[int, bool],
                    view: dict[str, Any] | None = None) -> dict[str, Any]:
        """The state message for one seat (or a spectator, `None`): only its own view
        (`view`: that view already built for this position, by the move log)."""
        started = self.status != WAITING
        player = self.state.current_player if self.status == PLAYING else None
        your_turn = seat is not None and player == seat
        seats = []
        for entry in self.seats:
            public = entry.public()
            public["connected"] = entry.kind == AGENT or connected.get(entry.index, False)
            seats.append(public)
        shown = (view if view is not None else self.state.view(seat)) if started else None
        message = {
            "type": "state",
            "room": self.id,
            "game": self.game_name,
            "seat": seat,
            "status": self.status,
            "move_number": len(self.actions),
            "seats": seats,
            "current_player": player,
            "your_turn": your_turn,
            "view": shown,
            "legal_actions": self.state.legal_action_strings() if your_turn else [],
            # Why each button the page shows off is off: Words the page translates.
            "unavailable": {action: words_json(why) for action, why
                            in self.state.unavailable().items()} if your_turn else {},
            "last_move": self.last_move.to_dict() if self.last_move else None,
            "result": self.result(),
            "ended": self.ended_public(),
            "fairness": self.fairness(),
        }
        if shown is not None:
            text = plain_text(self.game_name, shown)
            if text is not None:
                # Each page shows the drawing in its own language (`texts`); `text` is
                # the server's, for a client that reads no language.
                message["text"] = text
                message["texts"] = {code: plain_text(self.game_name, shown, code)
                                    for code in LANGUAGES}
        return message

    def record(self) -> GameRecord:
        """The game record, only once the game is over (it holds the seed), and a sealed
        deal only once its seal is lifted."""
        if self.status not in (FINISHED, ABORTED):
            raise RoomError(
                "not_finished",
                Words(N_("room {room} is not finished; its record is available when the game "
                         "is over"), room=self.id),
                409,
            )
        if is_sealed(self.sealed_until):
            assert self.sealed_until is not None
            raise sealed_error(self.sealed_until)
        return GameRecord(
            game=self.game_name,
            options=self.options,
            seed=self.seed,
            actions=list(self.actions),
            players=[seat.display_name() for seat in self.seats],
            result=self.result(),
        )
