"""Results files: a long run's finished games kept one JSON line a game, so that a run
stopped at any moment goes on where it was when the same command is given again.

`pyramids arena`, `simulate` and `balance` share this (`--results FILE`). The first
line is the run's header, `{KIND: SETTINGS}` where KIND is the command (`arena`,
`simulate`, `balance`) and SETTINGS what fixes its games (the game, its options, the
agents, the seed and, for an option that names a file, the file's resolved path and
the SHA-256 of its content); each later line is `{"game": RESULT}`, written and
flushed as the game finishes. Read back:

- a file for other settings, or of another command, is refused (naming both), so is
  a file whose games were played with another content of a file option, and so is
  a damaged line (with its number); the file is left as it was;
- an unfinished last line (no newline at its end, not JSON), left by a run stopped
  while writing, is dropped, said to `on_note` with its start, and cut from the end
  of the file: its game is played again, nothing before it is ever rewritten; a
  last line that is whole but lacks only its newline gets one.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, Generic, TypeVar

from pyramids.core import OptionError, RecordError, find_manifest
from pyramids.core.errors import N_, Words
from pyramids.core.files import os_reason
from pyramids.sim.backends import Backend, run_indexed

K = TypeVar("K", bound=Hashable)
R = TypeVar("R")
P = TypeVar("P")

#: The commands that write results files: each file's header is under one of these keys.
KINDS = ("arena", "simulate", "balance")

#: How much of a dropped line the note shows.
DROPPED_SHOWN = 40

# The words of a refusal, per command: the arena's have been said since it had files.
_OTHER_RUN = {
    "arena": N_("{path} holds the games of another arena ({theirs}); these settings are "
                "{ours}: give another results file"),
}
_OTHER_RUN_ANY = N_("{path} holds the games of another run of pyramids {command} ({theirs}); "
                    "these settings are {ours}: give another results file")
# Another command's file: "another arena", "another run of pyramids simulate" would say
# the file was this command's, of other settings.
_OTHER_COMMAND = N_("{path} holds the games of pyramids {kind} ({theirs}), not of pyramids "
                    "{command}; these settings are {ours}: give another results file")
_NOT_A_RESULT = {
    "arena": N_("{path}, line {line}: not an arena result written by pyramids arena "
                "--results; delete that line to play its game again, or give another "
                "results file"),
}
_NOT_A_RESULT_ANY = N_("{path}, line {line}: not a game result written by pyramids {command} "
                       "--results; delete that line to play its game again, or give another "
                       "results file")
_CANNOT_WRITE = N_("{path}: cannot write the results file: {reason}")


@dataclass(frozen=True)
class ResultsFormat(Generic[K, R]):
    """A results file's kind (the command that writes it), the header of this run's
    settings, and how a game line's data becomes (key, result): `decode` raises
    ValueError, KeyError, TypeError or AttributeError for data the command did not
    write."""

    kind: str
    header: dict[str, Any]
    decode: Callable[[Any], tuple[K, R]]

    def not_a_result(self, path: Path, line: int) -> RecordError:
        if self.kind in _NOT_A_RESULT:
            return RecordError(_NOT_A_RESULT[self.kind], path=str(path), line=line)
        return RecordError(_NOT_A_RESULT_ANY, path=str(path), line=line, command=self.kind)

    def other_run(self, path: Path, kind: str, theirs: Any) -> RecordError:
        # An option both runs set alike is left out of both (a simulate header holds
        # every option, the defaults too), unless the two would then read the same.
        same = _same_options(theirs, self.header)
        shown, ours = settings_text(theirs, same), settings_text(self.header, same)
        if shown == ours:
            shown, ours = settings_text(theirs), settings_text(self.header)
        fields = dict(path=str(path), theirs=shown, ours=ours)
        if kind != self.kind:
            return RecordError(_OTHER_COMMAND, kind=kind, command=self.kind, **fields)
        if self.kind in _OTHER_RUN:
            return RecordError(_OTHER_RUN[self.kind], **fields)
        return RecordError(_OTHER_RUN_ANY, command=self.kind, **fields)


def _same_options(one: Any, other: Any) -> set[str]:
    """The options two headers both set, to the same value."""
    try:
        mine, theirs = one.get("options") or {}, other.get("options") or {}
        return {name for name, value in mine.items()
                if name in theirs and theirs[name] == value}
    except (AttributeError, TypeError):
        return set()


def settings_text(header: Any, leave_out: Iterable[str] = ()) -> str:
    """A run's settings as typed: game, agents (or agent), seed and each option (`-o`;
    the number of players as `--players N`, the way it is given), so that two runs told
    apart by an option alone read differently; `leave_out`: options not to show."""
    try:
        left_out = set(leave_out)
        seats_option = _players_option(str(header["game"]))
        parts = [str(header["game"])]
        if "agents" in header:
            parts.append("--agents " + ",".join(
                str(entry[0]) if isinstance(entry, list) else str(entry)
                for entry in header["agents"]))
        if "agent" in header:
            parts.append(f"--agent {header['agent']}")
        parts.append(f"--seed {header['seed']}")
        given = {name: value for name, value in (header.get("options") or {}).items()
                 if name not in left_out}
        order = sorted(given.items(), key=lambda item: (item[0] != seats_option, item[0]))
        options = "".join(f" --players {value}" if name == seats_option
                          else f" -o {name}={value}" for name, value in order)
        return ", ".join(parts) + options
    except (KeyError, TypeError, IndexError, AttributeError):
        return "?"


def _players_option(game: str) -> str | None:
    """The option `--players` sets for `game` (None: none, or the game is not known)."""
    manifest = find_manifest(game)
    return None if manifest is None else manifest.players_option


def read_results_file(path: Path, form: ResultsFormat[K, R],
                      on_note: Callable[[Words], None] | None = None) -> dict[K, R]:
    """The games a results file holds for `form`'s run, by key; {} for a missing or
    empty file (see the module docstring for what is refused and what is dropped)."""
    if path.exists() and not path.is_file() and not path.is_dir():
        # A device or a pipe: /dev/full or /dev/zero would be read until memory ran out.
        raise RecordError(N_("{path} is not a file but a device or a pipe; a results file "
                             "keeps a run's games to go on from: give the path of a file"),
                          path=str(path))
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except OSError as error:
        raise RecordError(N_("{path}: cannot read the results file: {reason}"),
                          path=str(path), reason=os_reason(error)) from None
    except UnicodeDecodeError:
        raise form.not_a_result(path, 1) from None
    if not text:
        return {}
    header = form.header
    lines = text.split("\n")
    last = lines[-1]
    # The last line, when it lacks its newline and does not parse, was being written
    # when the run stopped. The first line so cut is dropped only when it begins this
    # run's own header (a file of notes is refused, never cut).
    unfinished = bool(last) and not _parses(last) and (
        len(lines) > 1 or header_line(form).startswith(last))
    if unfinished:
        lines[-1] = ""
    results: dict[K, R] = {}
    ours = json.loads(json.dumps(header))
    for number, line in enumerate(lines, start=1):
        if not line and (number > 1 or len(lines) == 1):
            continue
        try:
            data = json.loads(line)
            if number == 1:
                kind = next(iter(data)) if isinstance(data, dict) and len(data) == 1 else None
                if kind not in KINDS:
                    raise ValueError("no header")
                theirs = data[kind]
                if kind != form.kind or _without_files(theirs) != _without_files(ours):
                    raise form.other_run(path, str(kind), theirs)
                _check_option_files(path, theirs, ours)
                continue
            key, result = form.decode(data["game"])
        except RecordError:
            raise
        except (ValueError, KeyError, TypeError, AttributeError):
            raise form.not_a_result(path, number) from None
        results[key] = result
    if unfinished:
        # Only the unfinished line goes: the file is cut where that line began.
        kept = text[:text.rfind("\n") + 1]
        _cut(path, len(kept.encode("utf-8")))
        if on_note is not None:
            shown = last if len(last) <= DROPPED_SHOWN else last[:DROPPED_SHOWN] + "…"
            message = (N_("{path}, line {line}: dropped an unfinished line that a stopped "
                          "run was writing ({text}); its game is played again")
                       if len(lines) > 1 else
                       N_("{path}, line {line}: dropped an unfinished line that a stopped "
                          "run was writing ({text}); the file starts again"))
            on_note(Words(message, path=str(path), line=len(lines), text=shown))
    elif last:
        _append(path, "\n")
    return results


@contextmanager
def results_writer(path: Path, form: ResultsFormat[Any, Any], adding: bool = True
                   ) -> Iterator[Callable[[dict[str, Any]], None]]:
    """Open `path` to add games (its header first, where it is empty); yields
    `keep(data)`, which writes `{"game": data}` as one line, flushed at once.

    Not `adding` (the file holds every game asked for), the file is not opened: a
    finished run kept read-only gives its figures again."""
    if not adding:
        yield kept_already
        return
    try:
        # Unbuffered: a line that cannot be written (a full disk) fails where it is
        # written, and leaves nothing behind for closing the file to fail on again.
        stream = path.open("ab", buffering=0)
    except OSError as error:
        raise RecordError(_CANNOT_WRITE, path=str(path),
                          reason=os_reason(error)) from None
    with stream:
        if stream.tell() == 0:
            _write_line(path, stream, {form.kind: form.header})
        yield lambda data: _write_line(path, stream, {"game": data})


def kept_already(data: dict[str, Any]) -> None:
    """The `keep` of a results file that holds every game asked for: none is played."""
    raise RuntimeError("a game was played that its results file already holds")


def play_kept(
    work: Callable[[P, int], R],
    payload: P,
    games: int,
    done: Mapping[int, R],
    keep: Callable[[int, R], None],
    backend: Backend | None = None,
    on_done: Callable[[int], None] | None = None,
) -> list[R]:
    """Results 0..games-1 of `work(payload, i)`: those in `done` as they are, the others
    played on `backend` and each handed to `keep` as it arrives."""
    if on_done and done:
        on_done(len(done))
    missing = [index for index in range(games) if index not in done]
    played = run_indexed(work, payload, games, backend, on_done, missing, keep)
    every = dict(done)
    every.update(zip(missing, played, strict=True))
    return [every[index] for index in range(games)]


def check_results_apart(results: Path | None, written: Iterable[Path], option: str) -> None:
    """Before any game: refuse a results file that is also a file the command writes its
    figures to (`option`: --csv, --out), which would replace the games it keeps."""
    if results is None:
        return
    kept = results.resolve()
    for path in written:
        if path.resolve() == kept:
            raise OptionError(
                N_("--results {path} is also a file that {option} writes ({file}): the games "
                   "kept there would be written over; give the results file a name of its "
                   "own"), path=str(results), option=option, file=str(path))


def header_line(form: ResultsFormat[Any, Any]) -> str:
    """The first line of a results file for `form`, as `_write_line` writes it."""
    return json.dumps({form.kind: form.header}, sort_keys=True)


def numbers_only(values: Sequence[Any]) -> bool:
    """Are these all numbers (not booleans), as a results file's figures are?"""
    return all(isinstance(n, (int, float)) and not isinstance(n, bool) for n in values)


def _check_option_files(path: Path, theirs: dict[str, Any], ours: dict[str, Any]) -> None:
    """Refuse a results file whose games were played with another content of a file
    option than the file has now (the same content elsewhere is the same games)."""
    recorded = theirs.get("files") or {}
    for name, now in (ours.get("files") or {}).items():
        then = recorded.get(name) if isinstance(recorded, dict) else None
        value = (ours.get("options") or {}).get(name, "?")
        if not isinstance(then, dict) or "sha256" not in then:
            raise RecordError(
                N_("{path} does not record the content of {option}={value}, so whether its "
                   "games were played with that file as it is now cannot be checked (it was "
                   "written before results files recorded it): give another results file"),
                path=str(path), option=name, value=value)
        if then["sha256"] != now["sha256"]:
            raise RecordError(
                N_("{path} holds games played with {option}={value} as it was then ({then}, "
                   "SHA-256 {old}); that file has changed since (SHA-256 {new}), and the games "
                   "of two versions of it would be mixed in one table: put the file back as it "
                   "was, or give another results file"),
                path=str(path), option=name, value=value, then=str(then.get("path", "?")),
                old=str(then["sha256"])[:12], new=now["sha256"][:12])


def _without_files(header: Any) -> Any:
    """A header's settings, without the file contents that `_check_option_files` checks."""
    if not isinstance(header, dict):
        raise TypeError("not a results header")
    return {key: value for key, value in header.items() if key != "files"}


def _write_line(path: Path, stream: BinaryIO, data: dict[str, Any]) -> None:
    # One line a game, written at once: a run stopped at any moment loses at most the
    # games being played.
    line = (json.dumps(data, sort_keys=True) + "\n").encode("utf-8")
    try:
        written = 0
        while written < len(line):
            written += stream.write(line[written:])
    except OSError as error:
        raise RecordError(_CANNOT_WRITE, path=str(path),
                          reason=os_reason(error)) from None


def _cut(path: Path, size: int) -> None:
    try:
        os.truncate(path, size)
    except OSError as error:
        raise RecordError(_CANNOT_WRITE, path=str(path),
                          reason=os_reason(error)) from None


def _append(path: Path, text: str) -> None:
    try:
        with path.open("a", encoding="utf-8") as stream:
            stream.write(text)
    except OSError as error:
        raise RecordError(_CANNOT_WRITE, path=str(path),
                          reason=os_reason(error)) from None


def _parses(line: str) -> bool:
    try:
        json.loads(line)
    except ValueError:
        return False
    return True
