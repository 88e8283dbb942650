"""The errors every game and interface raises.

Each message says what was wrong and what is allowed, so that a person at a
prompt, a client of the server and a test all get something they can act on.
"""

from __future__ import annotations


class PyramidsError(Exception):
    """Base of every error this package raises on purpose."""


class IllegalActionError(PyramidsError, ValueError):
    """An action that is not legal in the current state. The state is unchanged."""


class UnknownGameError(PyramidsError, ValueError):
    """A game name that is not registered."""


class OptionError(PyramidsError, ValueError):
    """An unknown option name or a bad option value."""


class RecordError(PyramidsError, ValueError):
    """A malformed saved state or game record."""


class LayoutError(PyramidsError, ValueError):
    """A malformed or unsound board layout."""
