"""Writing a file whole or not at all, with the permissions of an ordinary file.

`write_text_atomically` writes to a temporary file beside the target and renames
it over the target, so that a crash or a full disk never leaves half a file (a
report, a layout) where a whole one was. `tempfile.mkstemp` makes its file 0600
(private); the file is given the mode an ordinary `open(path, "w")` would give
(0666 less the umask: 0644 under the usual umask 022), so that the readers of a
shared folder can read what was written there.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def current_umask() -> int:
    """The process's umask (read by setting it and putting it back at once)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_text_atomically(target: Path, text: str) -> None:
    """Write `text` (UTF-8) to `target` through a temporary file renamed over it.

    Raises OSError (the temporary file removed) when the folder cannot be written."""
    folder = target.parent if str(target.parent) else Path(".")
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", dir=folder)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
            os.fchmod(stream.fileno(), 0o666 & ~current_umask())
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
