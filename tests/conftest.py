"""Fixtures for every test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pyramids.play.i18n import set_language


@pytest.fixture(autouse=True)
def _language_from_the_environment() -> Iterator[None]:
    # `--lang` sets the process language; one test's choice must not leak into the next.
    yield
    set_language(None)
