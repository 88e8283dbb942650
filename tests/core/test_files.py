"""Files written whole: the mode of an ordinary file, and nothing left behind on failure."""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from pyramids.core.errors import N_, RecordError
from pyramids.core.files import os_reason, write_text_atomically
from pyramids.play.i18n import words_text


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


@pytest.mark.parametrize(("number", "english", "korean"), [
    (errno.ENOENT, "there is no such file or folder", "그런 파일이나 폴더가 없습니다"),
    (errno.EACCES, "permission denied", "권한이 없습니다"),
    (errno.EROFS, "the disk is read-only", "디스크가 읽기 전용입니다"),
    (errno.ENOSPC, "the disk is full", "디스크가 가득 찼습니다"),
])
def test_why_a_file_failed_reads_in_the_readers_language(number: int, english: str,
                                                          korean: str) -> None:
    """The system's reason (its strerror, in English) was shown to Korean readers too."""
    error = OSError(number, os.strerror(number), "game.json")
    refusal = RecordError(N_("cannot read game record {path}: {problem}"), path="game.json",
                          problem=os_reason(error))
    assert str(refusal) == f"cannot read game record game.json: {english}"
    assert words_text(refusal, "ko") == f"게임 기록 game.json을(를) 읽을 수 없습니다: {korean}"


def test_a_reason_without_words_of_its_own_is_the_systems() -> None:
    error = OSError(errno.EBUSY, "Device or resource busy")
    assert os_reason(error) == "Device or resource busy"
    assert os_reason(OSError("no number")) == "no number"
