"""Writing a file whole or not at all, with the permissions of an ordinary file.

`write_text_atomically` writes to a temporary file beside the target and renames
it over the target, so that a crash or a full disk never leaves half a file (a
report, a layout, a game record) where a whole one was. The content is flushed to
the disk (fsync) before the rename, and the rename after it where the system allows,
so that even a power cut leaves the old file or the new one, whole. The temporary
file has a name of its own (never a fixed `NAME.tmp` that could be a person's
file), and it is removed when the writing fails. `tempfile.mkstemp` makes its file 0600
(private); the file is given the mode an ordinary `open(path, "w")` would give
(0666 less the umask: 0644 under the usual umask 022), so that the readers of a
shared folder can read what was written there.

`files_as_read` is the other direction: a long run (an arena, a balance report)
reads the files its options name once, at its start, and every game it builds,
in this process or in a worker, reads that content (`file_as_read`), not the
file as it is by then; so a file edited during the run cannot mix two versions
of it in one run.
"""

from __future__ import annotations

import errno
import os
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from types import MappingProxyType

from pyramids.core.errors import N_, Words

# Path (as given, and resolved) -> the bytes a run read from it at its start.
_AS_READ: ContextVar[Mapping[str, bytes]] = ContextVar(
    "pyramids_files_as_read", default=MappingProxyType({})
)


def current_umask() -> int:
    """The process's umask (read by setting it and putting it back at once)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_text_atomically(target: Path, text: str) -> None:
    """Write `text` (UTF-8) to `target` through a temporary file renamed over it.

    Raises OSError (the temporary file removed, `target` as it was) when the folder
    cannot be written."""
    folder = target.parent if str(target.parent) else Path(".")
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", dir=folder)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
            os.fchmod(stream.fileno(), 0o666 & ~current_umask())
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    _sync_folder(folder)


# The reasons a person meets when a file cannot be read or written, in words the
# catalogue translates; any other reason is the system's own (in its language).
_OS_REASONS = {
    errno.ENOENT: N_("there is no such file or folder"),
    errno.ENOTDIR: N_("a part of the path is a file, not a folder"),
    errno.EISDIR: N_("it is a folder, not a file"),
    errno.EACCES: N_("permission denied"),
    errno.EPERM: N_("permission denied"),
    errno.EROFS: N_("the disk is read-only"),
    errno.ENOSPC: N_("the disk is full"),
    errno.ENAMETOOLONG: N_("the name is too long"),
}


def os_reason(error: OSError) -> Words | str:
    """Why a file could not be read or written, as words for a message's value."""
    msgid = _OS_REASONS.get(error.errno or 0)
    if msgid is not None:
        return Words(msgid)
    return error.strerror or str(error)


def probe_writable_folder(folder: Path) -> None:
    """Make a file in `folder` and remove it at once; raises OSError (a folder that is
    not there, is a file, or cannot be written) and changes nothing.

    Asking for permissions (os.access) would be wrong for root, a read-only disk or an
    access list; making a file of a name of its own is the one sure test of writing."""
    handle, probe = tempfile.mkstemp(prefix=".pyramids-probe-", dir=folder)
    os.close(handle)
    os.unlink(probe)


def _sync_folder(folder: Path) -> None:
    """Flush a folder's entries (the rename) to the disk, where the system can."""
    try:
        handle = os.open(folder, os.O_RDONLY)
    except OSError:
        return  # a folder cannot be opened everywhere (Windows): the rename stands
    try:
        os.fsync(handle)
    except OSError:
        pass  # some file systems refuse to sync a folder; the file itself is synced
    finally:
        os.close(handle)


def _keys(path: str | os.PathLike[str]) -> tuple[str, str]:
    """A path as given and resolved (a relative path given in a run's options is the same
    file to a worker that resolves it)."""
    text = os.fspath(path)
    return text, str(Path(text).resolve())


@contextmanager
def files_as_read(contents: Mapping[str, bytes]) -> Iterator[None]:
    """Within the block, `file_as_read(path)` gives these bytes for these paths (each
    path as given or resolved): the content a run read once, at its start."""
    pinned = dict(_AS_READ.get())
    for path, content in contents.items():
        for key in _keys(path):
            pinned[key] = content
    token = _AS_READ.set(MappingProxyType(pinned))
    try:
        yield
    finally:
        _AS_READ.reset(token)


def file_as_read(path: str | os.PathLike[str]) -> bytes | None:
    """The content `files_as_read` gives `path` now, or None: read the file itself."""
    pinned = _AS_READ.get()
    if not pinned:
        return None
    for key in _keys(path):
        if key in pinned:
            return pinned[key]
    return None
