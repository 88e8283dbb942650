"""Accounts: name and password, session cookies, history and ratings of ranked games.

Players may still play by name without an account; an account is needed only for
ranked rooms. The rules this module keeps:

- A password is stored only as its argon2id hash (argon2-cffi); it is never
  logged and never sent back. Names are unique regardless of case.
- Logging in sets a session cookie (`pyramids_session`: a random secret; the
  database keeps its SHA-256), HttpOnly, SameSite=Lax, Secure when the page was
  served over https, for `SESSION_DAYS` days. A session acts only for its own
  account: nothing names an account except the cookie.
- CSRF: a request that changes something on the strength of the session cookie
  (logging in or out, registering, taking a seat) must carry the header
  `X-CSRF-Token` equal to the `pyramids_csrf` cookie (double submit: another site
  can neither read the cookie nor set the header), and an `Origin`, when sent,
  must be this server's. Otherwise: 403 `csrf`, nothing done.
- Limits: failed logins in `LOGIN_WINDOW_SECONDS` (then 429 with Retry-After):
  `LOGIN_ATTEMPTS` for a name from one address, `LOGIN_ATTEMPTS_PER_ADDRESS` from
  an address whatever the names, and `LOGIN_ATTEMPTS_PER_NAME` for a name from
  every address together, which does not shut out an address the account logged in
  from before: guessers are held back without anyone being able to lock a player out
  of their own account. Registrations per address per hour. Argon2 runs in a
  thread, never on the event loop.
- When a ranked game finishes, the ratings of its accounts are updated
  (`pyramids.web.ratings`), once, and the change is kept with the account's history.
- The operator (`/api/admin/accounts/{name}/mute`, `.../ban`) may mute an account's
  chat or ban it: a banned account's sessions end and stay dead (`session_account`
  reads none), and its login is refused once its password proves right.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import secrets
import unicodedata
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

import sqlalchemy as sa
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from fastapi import FastAPI, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.engine import Engine

from pyramids.core.errors import N_, Words
from pyramids.web.limits import Buckets, retry_after
from pyramids.web.names import name_look
from pyramids.web.ratings import (
    Matches,
    Rating,
    bot_rating,
    bot_ratings,
    closest_bot,
    forfeit_matches,
    place_matches,
    rate_matches,
    rate_table,
)
from pyramids.web.rooms import (
    ABORTED,
    AGENT,
    FINISHED,
    PERSON,
    Room,
    RoomError,
    Seat,
    clean_name,
    ended_public,
)
from pyramids.web.storage import as_utc, rooms_table, seats_table, stored_result

log = logging.getLogger("pyramids.web.accounts")

SESSION_COOKIE = "pyramids_session"
CSRF_COOKIE = "pyramids_csrf"
CSRF_HEADER = "x-csrf-token"
SESSION_DAYS = 30
MIN_PASSWORD = 8
MAX_PASSWORD = 256
MIN_NAME = 2
LOGIN_ATTEMPTS = 5
LOGIN_ATTEMPTS_PER_ADDRESS = 20
LOGIN_ATTEMPTS_PER_NAME = 50
LOGIN_WINDOW_SECONDS = 900.0
# Addresses remembered for each name as having logged in to it (the latest ones).
KNOWN_ADDRESSES_PER_NAME = 8
KNOWN_NAMES = 50_000
REGISTRATIONS_PER_HOUR = 5
HISTORY = 50
LEADERBOARD = 100

metadata = sa.MetaData()

accounts_table = sa.Table(
    "accounts", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("name_key", sa.String(64), nullable=False, unique=True),
    # What the name looks like (`names.name_look`): no two accounts' names look alike.
    sa.Column("name_look", sa.String(256), nullable=True, index=True),
    sa.Column("password_hash", sa.Text, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    # Revision 0010: the operator's sanctions (since when; None: none).
    sa.Column("chat_muted_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("banned_at", sa.DateTime(timezone=True), nullable=True),
)
sessions_table = sa.Table(
    "sessions", metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("account_id", sa.Integer, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
)
ratings_table = sa.Table(
    "ratings", metadata,
    sa.Column("account_id", sa.Integer, primary_key=True),
    sa.Column("game", sa.String(64), primary_key=True),
    sa.Column("rating", sa.Float, nullable=False),
    sa.Column("deviation", sa.Float, nullable=False),
    sa.Column("volatility", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
)
rated_games_table = sa.Table(
    "rated_games", metadata,
    sa.Column("room_id", sa.String(32), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("account_id", sa.Integer, nullable=False),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("score", sa.Float, nullable=False),
    sa.Column("rating_before", sa.Float, nullable=False),
    sa.Column("rating_after", sa.Float, nullable=False),
    sa.Column("deviation_after", sa.Float, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)


def _now() -> datetime:
    return datetime.now(UTC)


def session_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def name_key(name: str) -> str:
    return name.casefold()


# Alphabets whose letters look alike: a name mixing them can pass for another's
# ("Аnax" with a Cyrillic А beside "Anax").
LOOKALIKE_SCRIPTS = {"LATIN": N_("Latin"), "CYRILLIC": N_("Cyrillic"), "GREEK": N_("Greek")}


def name_problem(clean: str) -> Words | None:
    """Why a new name (an account's, or a guest's) could pass for someone or
    something else; None when it cannot. The pages mark seats with brackets
    ("(bot)", "(you)"), so a name has none; its letters come from one of the
    alphabets that look alike."""
    # Any bracket of any script ("（bot）", "[you]", "⁽bot⁾") and angle brackets: each
    # can pass for the pages' "(bot)" and "(you)".
    if any(unicodedata.category(char) in ("Ps", "Pe") or char in "<>" for char in clean):
        return Words(N_("a player name may not hold brackets: the pages mark seats with "
                        "them ('(bot)', '(you)'); choose another name"))
    plain = unicodedata.normalize("NFKC", clean)
    if plain != clean:
        # Full-width "Ａda" reads as "Ada" but is another name.
        return Words(N_("a player name is written in plain letters: '{name}' has "
                        "full-width or other look-alike forms; choose another name, such "
                        "as '{plain}'"),
                     name=clean, plain=plain)
    scripts = {unicodedata.name(char, "").split(" ")[0] for char in clean if char.isalpha()}
    mixed = sorted(scripts & set(LOOKALIKE_SCRIPTS))
    if len(mixed) > 1:
        return Words(N_("a player name may not mix {first} and {second} letters: some of "
                        "them look alike, so the name could pass for another; choose another "
                        "name, in one alphabet"), first=Words(LOOKALIKE_SCRIPTS[mixed[0]]),
                     second=Words(LOOKALIKE_SCRIPTS[mixed[1]]))
    if reads_as_a_seat(clean):
        # The move log names people by their names: "Seat 1 offered ..." or "You
        # offered ..." must mean what they say.
        return Words(N_("'{name}' reads as the pages' own words for a seat ('you', 'seat 2', "
                        "'spectator'); choose another name"), name=clean)
    return None


def reads_as_a_seat(name: str) -> bool:
    """Whether `name` reads as the words the move log and the pages use for a seat, in
    any of the languages: "you", "Seat 2", "spectator", "2번 자리"."""
    import re

    from pyramids.play.i18n import LANGUAGES, gettext

    plain = " ".join(name.split()).casefold()
    for lang in LANGUAGES:
        words = {gettext(word, lang=lang).casefold() for word in ("you", "You", "Spectator")}
        # The pages' mark of the reader's own seat: "(you)", Korean "(나)".
        words |= set(re.findall(r"\((.+?)\)", gettext("{name} (you)", lang=lang).casefold()))
        if plain in words:
            return True
        for template in ("seat {number}", "Seat {number}"):
            pattern = re.escape(gettext(template, lang=lang).casefold()).replace(
                re.escape("{number}"), r"\s*\d+\s*").replace(r"\ ", r"\s*")
            if re.fullmatch(pattern, plain):
                return True
    return False


def check_account_name(name: Any) -> str:
    clean = clean_name(name)
    if len(clean) < MIN_NAME:
        raise RoomError("bad_name", Words(N_("an account name has at least {least} characters"),
                                          least=MIN_NAME))
    problem = name_problem(clean)
    if problem is not None:
        raise RoomError("bad_name", problem)
    return clean


def check_password(password: Any) -> str:
    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise RoomError("bad_password", Words(N_("a password has {least} to {most} characters"),
                                              least=MIN_PASSWORD, most=MAX_PASSWORD))
    return password


class AccountStore:
    """The account tables (synchronous; the server calls it on its database thread)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def create(self, name: str, password_hash: str) -> int | str:
        """A new account's id; or, when the name is taken or looks like an account's
        name ("Веа" beside "Bea"), that account's name, and nothing is written."""
        with self.engine.begin() as connection:
            taken = self._named_like(connection, name)
            if taken is not None:
                return taken
            result = connection.execute(accounts_table.insert().values(
                name=name, name_key=name_key(name), name_look=name_look(name),
                password_hash=password_hash, created_at=_now()))
            key = result.inserted_primary_key
            assert key is not None  # an insert into a table with an integer key
            return int(key[0])

    def named_like(self, name: str) -> str | None:
        """The name of the account named `name` (any case) or with a name that looks like
        it; None when there is none."""
        with self.engine.connect() as connection:
            return self._named_like(connection, name)

    @staticmethod
    def _named_like(connection: sa.Connection, name: str) -> str | None:
        row = connection.execute(
            sa.select(accounts_table.c.name).where(accounts_table.c.name_key == name_key(name))
        ).first()
        if row is None:
            row = connection.execute(
                sa.select(accounts_table.c.name)
                .where(accounts_table.c.name_look == name_look(name)).limit(1)
            ).first()
        return None if row is None else str(row.name)

    def sanctions(self, account_id: int) -> tuple[bool, bool]:
        """(chat muted, banned) for the account; (False, False) for no such account."""
        with self.engine.connect() as connection:
            row = connection.execute(
                sa.select(accounts_table.c.chat_muted_at, accounts_table.c.banned_at)
                .where(accounts_table.c.id == account_id)
            ).first()
        return (False, False) if row is None else (row.chat_muted_at is not None,
                                                   row.banned_at is not None)

    def sanction(self, name: str, muted: bool | None = None,
                 banned: bool | None = None) -> tuple[int, str, bool, bool] | None:
        """The operator mutes or unmutes the chat of the account named `name` (any case),
        or bans it or lifts the ban; a ban ends every session of the account. (id, name,
        muted, banned) afterwards; None when there is no such account."""
        now = _now()
        with self.engine.begin() as connection:
            row = connection.execute(
                sa.select(accounts_table).where(accounts_table.c.name_key == name_key(name))
            ).first()
            if row is None:
                return None
            values: dict[str, Any] = {}
            if muted is not None and muted != (row.chat_muted_at is not None):
                values["chat_muted_at"] = now if muted else None
            if banned is not None and banned != (row.banned_at is not None):
                values["banned_at"] = now if banned else None
            if values:
                connection.execute(accounts_table.update()
                                   .where(accounts_table.c.id == row.id).values(**values))
            if banned:
                connection.execute(sa.delete(sessions_table)
                                   .where(sessions_table.c.account_id == row.id))
            final_muted = values.get("chat_muted_at", row.chat_muted_at) is not None
            final_banned = values.get("banned_at", row.banned_at) is not None
        return int(row.id), str(row.name), final_muted, final_banned

    def find(self, name: str) -> tuple[int, str, str] | None:
        """(id, name, password hash) of the account with this name, any case."""
        with self.engine.connect() as connection:
            row = connection.execute(
                sa.select(accounts_table).where(accounts_table.c.name_key == name_key(name))
            ).first()
        return None if row is None else (row.id, row.name, row.password_hash)

    def set_password_hash(self, account_id: int, password_hash: str) -> None:
        with self.engine.begin() as connection:
            connection.execute(accounts_table.update().where(accounts_table.c.id == account_id)
                               .values(password_hash=password_hash))

    def change_password(self, account_id: int, password_hash: str, keep_session: str) -> None:
        """A new password: every session of the account but `keep_session` (this
        device's) ends, so a login taken with the old password is out."""
        with self.engine.begin() as connection:
            connection.execute(accounts_table.update().where(accounts_table.c.id == account_id)
                               .values(password_hash=password_hash))
            connection.execute(sa.delete(sessions_table).where(
                sessions_table.c.account_id == account_id,
                sessions_table.c.token_hash != keep_session))

    def delete_account(self, account_id: int) -> None:
        """The account, its sessions, ratings and rating history go, in one transaction.
        Its seats in rooms stay (the other players' games are theirs too) but no longer
        name it: its history is nobody's, and its name is free to register."""
        with self.engine.begin() as connection:
            connection.execute(seats_table.update().where(seats_table.c.account_id == account_id)
                               .values(account_id=None))
            for table in (rated_games_table, ratings_table, sessions_table):
                connection.execute(sa.delete(table).where(table.c.account_id == account_id))
            connection.execute(sa.delete(accounts_table).where(accounts_table.c.id == account_id))

    def new_session(self, account_id: int, token_hash: str, days: float) -> None:
        now = _now()
        with self.engine.begin() as connection:
            connection.execute(sa.delete(sessions_table).where(sessions_table.c.expires_at < now))
            connection.execute(sessions_table.insert().values(
                token_hash=token_hash, account_id=account_id, created_at=now,
                expires_at=now + timedelta(days=days)))

    def session_account(self, token_hash: str) -> tuple[int, str] | None:
        """(id, name) of the live session's account, or None."""
        with self.engine.connect() as connection:
            row = connection.execute(
                sa.select(accounts_table.c.id, accounts_table.c.name,
                          sessions_table.c.expires_at)
                .join(accounts_table, accounts_table.c.id == sessions_table.c.account_id)
                .where(sessions_table.c.token_hash == token_hash,
                       accounts_table.c.banned_at.is_(None))
            ).first()
        if row is None or as_utc(row.expires_at) < _now():
            return None
        return int(row.id), str(row.name)

    def end_session(self, token_hash: str) -> None:
        with self.engine.begin() as connection:
            connection.execute(sa.delete(sessions_table)
                               .where(sessions_table.c.token_hash == token_hash))

    def ratings_of(self, account_id: int) -> dict[str, dict[str, Any]]:
        with self.engine.connect() as connection:
            rows = connection.execute(
                sa.select(ratings_table).where(ratings_table.c.account_id == account_id)
            ).all()
        return {
            row.game: {"rating": row.rating, "deviation": row.deviation,
                       "volatility": row.volatility, "games": row.games}
            for row in rows
        }

    def history(self, account_id: int, limit: int = HISTORY) -> list[dict[str, Any]]:
        """The account's finished (and aborted) games, newest first, with rating changes."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                sa.select(rooms_table.c.id, rooms_table.c.game, rooms_table.c.status,
                          rooms_table.c.result, rooms_table.c.updated_at, seats_table.c.seat,
                          rated_games_table.c.rating_before, rated_games_table.c.rating_after)
                .join(seats_table, seats_table.c.room_id == rooms_table.c.id)
                .outerjoin(rated_games_table, sa.and_(
                    rated_games_table.c.room_id == seats_table.c.room_id,
                    rated_games_table.c.seat == seats_table.c.seat))
                .where(seats_table.c.account_id == account_id,
                       rooms_table.c.status.in_((FINISHED, ABORTED)))
                .order_by(rooms_table.c.updated_at.desc()).limit(limit)
            ).all()
            # The players' names of games that ended in a forfeit, which the history
            # names ("won against Bo, away when the host ended it").
            forfeited = [row.id for row in rows if stored_result(row.result)[1] is not None]
            players: dict[str, list[str]] = {room: [] for room in forfeited}
            for seat in connection.execute(
                    sa.select(seats_table).where(seats_table.c.room_id.in_(forfeited))
                    .order_by(seats_table.c.seat)).all() if forfeited else ():
                players[seat.room_id].append(Seat(seat.seat, seat.kind, seat.name,
                                                  seat.agent).display_name())
        games = []
        for row in rows:
            result, ended = stored_result(row.result)
            returns = result.get("returns") if result else None
            games.append({
                "room": row.id, "game": row.game, "status": row.status, "seat": row.seat,
                "returns": returns,
                "ended": None if ended is None else ended_public(ended, players[row.id]),
                "players": players.get(row.id),
                "finished_at": as_utc(row.updated_at).isoformat(),
                "rating_before": row.rating_before, "rating_after": row.rating_after,
            })
        return games

    def leaderboard(self, game: str, limit: int = LEADERBOARD) -> list[dict[str, Any]]:
        with self.engine.connect() as connection:
            rows = connection.execute(
                sa.select(accounts_table.c.name, ratings_table.c.rating,
                          ratings_table.c.deviation, ratings_table.c.games)
                .join(accounts_table, accounts_table.c.id == ratings_table.c.account_id)
                .where(ratings_table.c.game == game)
                .order_by(ratings_table.c.rating.desc(), accounts_table.c.name)
                .limit(limit)
            ).all()
        return [{"name": row.name, "rating": row.rating, "deviation": row.deviation,
                 "games": row.games} for row in rows]

    def rate_game(self, room_id: str, game: str, seats: list[tuple[int, int | None, str | None]],
                  places: list[Any] | None, matches: Matches | None = None,
                  ) -> dict[int, tuple[float, float]]:
        """Update the ratings of one finished ranked game, once (a second call changes
        nothing). `seats`: (seat, account id or None, agent name or None); `places`: the
        finishing order (the game's `standings`), or `matches` instead: each pair's
        match, None where it is not rated (`forfeit_matches`: a seat with no match is
        not rated at all). Returns each rated seat's (rating before, after)."""
        by_places = matches is None
        if matches is None:
            if places is None:
                raise ValueError("rate a game by its places or by its matches")
            matches = place_matches(places)
        with self.engine.begin() as connection:
            done = connection.execute(
                sa.select(rated_games_table.c.seat).where(rated_games_table.c.room_id == room_id)
            ).first()
            if done is not None:
                return {}
            before: list[Rating] = []
            # Games played so far, for accounts that have a rating in this game.
            games_played: dict[int, int] = {}
            # An account deleted during the game is rated no more (as if gone).
            existing = {row.id for row in connection.execute(
                sa.select(accounts_table.c.id).where(accounts_table.c.id.in_(
                    [account for _, account, _ in seats if account is not None])))}
            seats = [(seat, account if account in existing else None, agent)
                     for seat, account, agent in seats]
            for _seat, account, agent in seats:
                if account is None:
                    before.append(bot_rating(game, agent))
                    continue
                row = connection.execute(
                    sa.select(ratings_table).where(ratings_table.c.account_id == account,
                                                   ratings_table.c.game == game)
                ).first()
                if row is None:
                    before.append(Rating())
                else:
                    before.append(Rating(row.rating, row.deviation, row.volatility))
                    games_played[account] = int(row.games)
            # A forfeit's seat with no match rated (of two both away) is not rated.
            rated = [account is not None and (by_places or any(
                score is not None for score in matches[seat])) for seat, account, _ in seats]
            after = (rate_table(before, places or [], rated) if by_places
                     else rate_matches(before, matches, rated))
            now = _now()
            changes: dict[int, tuple[float, float]] = {}
            for (seat, account, _agent), old, new, counts in zip(seats, before, after, rated,
                                                                 strict=True):
                if account is None or not counts:
                    continue
                values = {"rating": new.rating, "deviation": new.deviation,
                          "volatility": new.volatility,
                          "games": games_played.get(account, 0) + 1, "updated_at": now}
                if account in games_played:
                    connection.execute(ratings_table.update().where(
                        ratings_table.c.account_id == account, ratings_table.c.game == game
                    ).values(**values))
                else:
                    connection.execute(ratings_table.insert().values(
                        account_id=account, game=game, **values))
                # The share of the pairwise matches won (a draw half), for the history.
                scores = [score for score in matches[seat] if score is not None]
                score = sum(scores) / max(1, len(scores))
                connection.execute(rated_games_table.insert().values(
                    room_id=room_id, seat=seat, account_id=account, game=game, score=score,
                    rating_before=old.rating, rating_after=new.rating,
                    deviation_after=new.deviation, created_at=now))
                changes[seat] = (old.rating, new.rating)
            return changes


class Accounts:
    """The account service of one server: hashing off the event loop, limits, cookies."""

    def __init__(self, engine: Engine) -> None:
        self.store = AccountStore(engine)
        # argon2id with the library's defaults (RFC 9106's second recommendation).
        self.hasher = PasswordHasher()
        self._hash_pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="pyramids-hash")
        # A name's failures from one address: the guesser's own, which never lock the
        # owner out from another address.
        self.failed_by_name_and_address = Buckets(LOGIN_ATTEMPTS / LOGIN_WINDOW_SECONDS,
                                                  LOGIN_ATTEMPTS)
        self.failed_by_address = Buckets(LOGIN_ATTEMPTS_PER_ADDRESS / LOGIN_WINDOW_SECONDS,
                                         LOGIN_ATTEMPTS_PER_ADDRESS)
        # Guesses from many addresses; past it only addresses known to the name get in.
        self.failed_by_name = Buckets(LOGIN_ATTEMPTS_PER_NAME / LOGIN_WINDOW_SECONDS,
                                      LOGIN_ATTEMPTS_PER_NAME)
        self.known_addresses: dict[str, list[str]] = {}
        self.registrations = Buckets(REGISTRATIONS_PER_HOUR / 3600.0, REGISTRATIONS_PER_HOUR)
        # Checked against when a name is unknown, so that a wrong name costs the same time.
        self._dummy_hash = self.hasher.hash(secrets.token_hex(16))

    async def _in_thread(self, function: Any, *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self._hash_pool, function, *args)

    def _verify(self, password_hash: str, password: str) -> bool:
        try:
            return bool(self.hasher.verify(password_hash, password))
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    def close(self) -> None:
        self._hash_pool.shutdown(wait=False, cancel_futures=True)

    async def register(self, hub: Any, name: Any, password: Any, address: str) -> tuple[int, str]:
        clean = check_account_name(name)
        check_password(password)
        wait = self.registrations.take(address)
        if wait > 0:
            raise RoomError("rate_limited", Words(N_(
                "too many new accounts from your address: at most {most} an hour; try again "
                "in {seconds} s"), most=REGISTRATIONS_PER_HOUR, seconds=retry_after(wait)),
                429, retry_after=wait)
        password_hash = await self._in_thread(self.hasher.hash, password)
        account = await hub.run_db(self.store.create, clean, password_hash)
        if isinstance(account, str):
            if name_key(account) == name_key(clean):
                raise RoomError("name_taken", Words(N_(
                    "the name '{name}' already has an account; log in, or choose another "
                    "name"), name=clean), 409)
            raise looks_like_an_account(clean, account)
        log.info("account %d registered", account)
        self._remember_address(name_key(clean), address)
        return account, clean

    async def login(self, hub: Any, name: Any, password: Any, address: str) -> tuple[int, str]:
        if not isinstance(name, str) or not isinstance(password, str):
            raise RoomError("bad_login", Words(N_("a login is a name and a password")))
        key = name_key(" ".join(name.split()))
        counted = [
            (self.failed_by_name_and_address, f"{key}\n{address}", LOGIN_ATTEMPTS, N_(
                "too many failed logins for this name from your address: at most {most} in "
                "{minutes} minutes; try again in {seconds} s")),
            (self.failed_by_address, address, LOGIN_ATTEMPTS_PER_ADDRESS, N_(
                "too many failed logins from your address: at most {most} in {minutes} "
                "minutes, whatever the names; try again in {seconds} s")),
            (self.failed_by_name, key, LOGIN_ATTEMPTS_PER_NAME, N_(
                "too many failed logins for this name from many addresses: at most {most} "
                "in {minutes} minutes; an address this account has logged in from before "
                "is still let in, others may try again in {seconds} s")),
        ]
        known = address in self.known_addresses.get(key, ())
        for buckets, what, most, message in counted:
            bucket = buckets.buckets.get(what)
            wait = 0.0 if bucket is None else _refill(bucket)
            if wait > 0 and not (known and buckets is self.failed_by_name):
                raise RoomError("rate_limited", Words(
                    message, most=most, minutes=f"{LOGIN_WINDOW_SECONDS / 60:g}",
                    seconds=retry_after(wait)), 429, retry_after=wait)
        # Counted as failed until the password proves right: guesses sent at once would
        # otherwise all pass the check above before the first had failed.
        for buckets, what, _most, _message in counted:
            buckets.take(what)
        found = await hub.run_db(self.store.find, " ".join(name.split()))
        stored = found[2] if found is not None else self._dummy_hash
        ok = await self._in_thread(self._verify, stored, password[:MAX_PASSWORD + 1])
        if found is None or not ok:
            log.info("failed login")
            raise RoomError("bad_login", Words(N_("wrong name or password")), 403)
        for buckets, what, _most, _message in counted:
            buckets.give_back(what)
        account, clean, _ = found
        if (await hub.run_db(self.store.sanctions, account))[1]:
            # Said only to whoever knows the password: a guess learns nothing.
            log.info("account %d refused a login: banned", account)
            raise RoomError("banned", BANNED, 403)
        self._remember_address(key, address)
        if self.hasher.check_needs_rehash(stored):
            new_hash = await self._in_thread(self.hasher.hash, password)
            await hub.run_db(self.store.set_password_hash, account, new_hash)
        return account, clean

    async def confirm_password(self, hub: Any, account: tuple[int, str], password: Any,
                               address: str) -> None:
        """The account's own current password, before it is changed or the account
        deleted (a session cookie alone, left open on a shared computer, may not): checked
        and limited as a login of that name from this address."""
        try:
            found = await self.login(hub, account[1], password, address)
        except RoomError as error:
            if error.code != "bad_login":
                raise
            raise RoomError("wrong_password", Words(N_(
                "your current password is wrong; nothing was changed")), 403) from None
        if found[0] != account[0]:  # cannot happen: names are unique
            raise RoomError("wrong_password", Words(N_(
                "your current password is wrong; nothing was changed")), 403)

    async def change_password(self, hub: Any, account: tuple[int, str], password: Any,
                              new_password: Any, request: Request) -> None:
        check_password(new_password)
        await self.confirm_password(hub, account, password, _address(request))
        password_hash = await self._in_thread(self.hasher.hash, new_password)
        keep = session_hash(request.cookies.get(SESSION_COOKIE) or "")
        await hub.run_db(self.store.change_password, account[0], password_hash, keep)
        log.info("account %d changed its password", account[0])

    async def delete_account(self, hub: Any, account: tuple[int, str], password: Any,
                             request: Request) -> None:
        await self.confirm_password(hub, account, password, _address(request))
        await hub.run_db(self.store.delete_account, account[0])
        # Rooms in memory forget the account too (a ranked game in play rates it no more).
        for live in list(hub.rooms.values()):
            for seat in live.room.seats:
                if seat.account_id == account[0]:
                    seat.account_id = None
        self.known_addresses.pop(name_key(account[1]), None)
        log.info("account %d deleted", account[0])

    def _remember_address(self, key: str, address: str) -> None:
        addresses = self.known_addresses.pop(key, [])
        if address in addresses:
            addresses.remove(address)
        addresses = [*addresses[-(KNOWN_ADDRESSES_PER_NAME - 1):], address]
        if len(self.known_addresses) >= KNOWN_NAMES:  # the longest unseen name goes
            del self.known_addresses[next(iter(self.known_addresses))]
        self.known_addresses[key] = addresses

    async def start_session(self, hub: Any, account: int, request: Request,
                            response: Response) -> None:
        token = secrets.token_urlsafe(32)
        await hub.run_db(self.store.new_session, account, session_hash(token), SESSION_DAYS)
        response.set_cookie(
            SESSION_COOKIE, token, max_age=SESSION_DAYS * 86_400, httponly=True,
            samesite="lax", secure=request.url.scheme == "https", path="/",
        )

    async def account_of(self, hub: Any, request: Request) -> tuple[int, str] | None:
        """(id, name) of the request's session, or None (no cookie, or a dead one)."""
        token = request.cookies.get(SESSION_COOKIE)
        if not token or len(token) > 200:
            return None
        found: tuple[int, str] | None = await hub.run_db(
            self.store.session_account, session_hash(token)
        )
        return found

    async def rate_finished(self, hub: Any, room: Room) -> None:
        """A finished game's hook: a ranked room's accounts get their new ratings."""
        if not room.settings.ranked or room.practice or room.status != FINISHED:
            return
        result = room.result()
        if result is None:
            return
        await self._rate(hub, room, room.state.standings())

    async def rate_forfeit(self, hub: Any, room: Room, away: list[int]) -> None:
        """A ranked game that ended in a forfeit (`Hub.forfeit_hooks`): a seat out of
        time turn after turn, or seats away when the host ended it. Each of those seats
        loses its match to every seat still there; the seats still there did not play
        their game out among themselves, so no match between them is rated
        (`forfeit_matches`, [ours] in docs/server.md)."""
        if not room.settings.ranked or room.practice or room.status != ABORTED:
            return
        await self._rate(hub, room, None, forfeit_matches(len(room.seats), away))

    async def _rate(self, hub: Any, room: Room, places: list[Any] | None,
                    matches: Matches | None = None) -> None:
        seats = [
            (seat.index, seat.account_id if seat.kind == PERSON else None,
             seat.agent if seat.kind == AGENT else None)
            for seat in room.seats
        ]
        if not any(account is not None for _, account, _ in seats):
            return
        changes = await hub.run_db(self.store.rate_game, room.id, room.game_name, seats,
                                   places, matches)
        log.info("room %s rated: %d seats", room.id, len(changes))


BANNED = Words(N_("this account is banned from this server by its operator: it cannot log "
                  "in or play here"))


def _address(request: Request) -> str:
    return request.client.host if request.client is not None else ""


def _refill(bucket: Any) -> float:
    """Seconds until a bucket holds a token again (0: it does)."""
    now = bucket.clock()
    tokens = min(bucket.burst, bucket.tokens + (now - bucket.stamp) * bucket.rate)
    return 0.0 if tokens >= 1 else (1 - tokens) / bucket.rate


def check_csrf(request: Request) -> None:
    """Double submit: the `X-CSRF-Token` header equals the `pyramids_csrf` cookie, and an
    `Origin`, when the browser sends one, is this server's own."""
    origin = request.headers.get("origin")
    host = request.headers.get("host")
    if origin is not None and (host is None or urlsplit(origin).netloc.lower() != host.lower()):
        raise RoomError("csrf", Words(N_("this request came from another site's page; refused")),
                        403)
    cookie = request.cookies.get(CSRF_COOKIE) or ""
    header = request.headers.get(CSRF_HEADER) or ""
    if not cookie or not hmac.compare_digest(cookie.encode(), header.encode()):
        raise RoomError("csrf", Words(N_(
            "missing or wrong X-CSRF-Token header: send the value of the {cookie} cookie "
            "(GET /api/account sets it) with every request that uses your login"),
            cookie=CSRF_COOKIE), 403)


def ensure_csrf_cookie(request: Request, response: Response) -> str:
    token = request.cookies.get(CSRF_COOKIE)
    if not token or len(token) > 100:
        token = secrets.token_urlsafe(24)
        # Readable by this site's scripts (they copy it into the header); never HttpOnly.
        response.set_cookie(CSRF_COOKIE, token, max_age=SESSION_DAYS * 86_400,
                            samesite="strict", secure=request.url.scheme == "https", path="/")
    return token


async def seat_account(request: Request) -> tuple[int, str] | None:
    """The account a seat is taken for: the session's, after the CSRF check; None when
    the request carries no session cookie (a person playing by name)."""
    if not request.cookies.get(SESSION_COOKIE):
        return None
    check_csrf(request)
    accounts: Accounts = request.app.state.accounts
    found = await accounts.account_of(request.app.state.hub, request)
    if found is None:
        raise RoomError("not_logged_in", Words(N_(
            "your login has expired; log in again, or clear the site's cookies to play by "
            "name")), 401)
    return found


async def check_guest_name(request: Request, name: Any) -> None:
    """A person who plays by name, without an account, may not look like a bot or
    like someone else (`name_problem`), nor take an account's name (whose holder plays
    it logged in)."""
    clean = clean_name(name)
    problem = name_problem(clean)
    if problem is not None:
        raise RoomError("bad_name", problem)
    accounts: Accounts = request.app.state.accounts
    account = await request.app.state.hub.run_db(accounts.store.named_like, clean)
    if account is None:
        return
    if name_key(account) == name_key(clean):
        raise RoomError("name_taken", Words(N_(
            "'{name}' is the name of an account: log in to play under it, or choose another "
            "name"), name=clean), 409)
    raise looks_like_an_account(clean, account)


def looks_like_an_account(name: str, account: str) -> RoomError:
    return RoomError("name_taken", Words(N_(
        "'{name}' looks like '{account}', the name of an account, so one could pass for the "
        "other; choose another name"), name=name, account=account), 409)


class Credentials(BaseModel):
    # strict: "0" is not a seat number, "yes" not true (nothing a client sends is coerced)
    model_config = ConfigDict(extra="forbid", strict=True)

    name: str = Field(max_length=200)
    password: str = Field(max_length=1024)


class PasswordChange(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    password: str = Field(max_length=1024)
    new_password: str = Field(max_length=1024)


class PasswordConfirmation(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    password: str = Field(max_length=1024)


def mount_accounts(app: FastAPI, engine: Engine) -> Accounts:
    """The account API on `app`: /api/account..., /api/leaderboard/{game}."""
    from pyramids.web.app import ERRORS, ErrorAnswer  # the app module imports this one

    accounts = Accounts(engine)
    app.state.accounts = accounts
    errors: dict[int | str, dict[str, Any]] = {
        **ERRORS, 401: {"model": ErrorAnswer, "description": "the login has expired"},
    }

    client = _address

    async def logged_in(request: Request) -> tuple[int, str]:
        check_csrf(request)
        account = await accounts.account_of(request.app.state.hub, request)
        if account is None:
            raise RoomError("not_logged_in", Words(N_(
                "you are not logged in (or your login has expired); log in first")), 401)
        return account

    async def describe(hub: Any, account: tuple[int, str]) -> dict[str, Any]:
        ratings = await hub.run_db(accounts.store.ratings_of, account[0])
        for game, rating in ratings.items():
            rating["closest_bot"] = closest_bot(game, rating["rating"])
        history = await hub.run_db(accounts.store.history, account[0])
        return {"name": account[1], "ratings": ratings, "games": history}

    @app.get("/api/account", responses=errors)
    async def who_am_i(request: Request, response: Response) -> dict[str, Any]:
        ensure_csrf_cookie(request, response)
        hub = request.app.state.hub
        account = await accounts.account_of(hub, request)
        return {"account": None if account is None else await describe(hub, account)}

    @app.post("/api/account/register", status_code=201, responses=errors)
    async def register(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
        check_csrf(request)
        hub = request.app.state.hub
        account = await accounts.register(hub, body.name, body.password, client(request))
        await accounts.start_session(hub, account[0], request, response)
        return {"account": await describe(hub, account)}

    @app.post("/api/account/login", responses=errors)
    async def login(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
        check_csrf(request)
        hub = request.app.state.hub
        account = await accounts.login(hub, body.name, body.password, client(request))
        await accounts.start_session(hub, account[0], request, response)
        return {"account": await describe(hub, account)}

    @app.post("/api/account/logout", responses=errors)
    async def logout(request: Request, response: Response) -> dict[str, Any]:
        check_csrf(request)
        token = request.cookies.get(SESSION_COOKIE)
        if token:
            await request.app.state.hub.run_db(accounts.store.end_session, session_hash(token))
        response.delete_cookie(SESSION_COOKIE, path="/")
        return {"account": None}

    @app.post("/api/account/password", responses=errors)
    async def change_password(body: PasswordChange, request: Request) -> dict[str, Any]:
        account = await logged_in(request)
        hub = request.app.state.hub
        await accounts.change_password(hub, account, body.password, body.new_password, request)
        return {"account": await describe(hub, account)}

    @app.post("/api/account/delete", responses=errors)
    async def delete_account(body: PasswordConfirmation, request: Request,
                             response: Response) -> dict[str, Any]:
        account = await logged_in(request)
        await accounts.delete_account(request.app.state.hub, account, body.password, request)
        response.delete_cookie(SESSION_COOKIE, path="/")
        return {"account": None}

    @app.get("/api/leaderboard/{game}", responses=errors)
    async def leaderboard(game: str, request: Request) -> dict[str, Any]:
        from pyramids.core import UnknownGameError, game_manifest

        try:
            game_manifest(game)
        except UnknownGameError:
            raise RoomError("unknown_game", Words(N_("no game '{game}'; see GET /api/games"),
                                                  game=game[:64]), 404) from None
        players = await request.app.state.hub.run_db(accounts.store.leaderboard, game)
        bots = [
            {"agent": agent, "rating": rating.rating, "deviation": rating.deviation}
            for agent, rating in sorted(bot_ratings().get(game, {}).items(),
                                        key=lambda item: -item[1].rating)
        ]
        return {"game": game, "players": players, "bots": bots}

    return accounts


__all__ = ["Accounts", "AccountStore", "check_csrf", "mount_accounts", "seat_account"]
