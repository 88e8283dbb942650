"""Every terminal-app test keeps its best scores in a folder of its own, never the user's."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def private_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "user-data"
    monkeypatch.setenv("XDG_DATA_HOME", str(folder))
    return folder
