"""Files written whole: the mode of an ordinary file, and nothing left behind on failure."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from pyramids.core.files import write_text_atomically


@pytest.fixture
def umask() -> Iterator[None]:
    previous = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(previous)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.usefixtures("umask")
def test_a_file_written_whole_has_an_ordinary_files_mode(tmp_path: Path) -> None:
    """A report in a shared folder must be readable by its other readers: mkstemp's
    0600 would hide it; the umask decides, as for any file a program writes."""
    target = tmp_path / "report.md"
    write_text_atomically(target, "# report\n")
    assert target.read_text() == "# report\n"
    assert mode(target) == 0o644
    os.umask(0o027)
    write_text_atomically(target, "# again\n")
    assert mode(target) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["report.md"]  # no temporary left


def test_a_failed_write_leaves_the_old_file(tmp_path: Path) -> None:
    target = tmp_path / "report.md"
    target.write_text("kept")
    with pytest.raises(TypeError):
        write_text_atomically(target, 42)  # type: ignore[arg-type]
    assert target.read_text() == "kept"
    assert [p.name for p in tmp_path.iterdir()] == ["report.md"]
