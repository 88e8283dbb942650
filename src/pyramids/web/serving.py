"""Running the app under uvicorn, with a deadline for slow clients.

uvicorn closes idle keep-alive connections, but a connection that sends no
request, or sends its headers a byte at a time (slowloris), is held for ever.
`HeaderDeadlineProtocol` closes a connection whose request headers are not all
in within `header_seconds` of the connection (or of the previous response).
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol


def header_deadline_protocol(header_seconds: float) -> type[HttpToolsProtocol]:
    """An HTTP protocol class for `uvicorn.run(http=...)` with this header deadline."""

    class HeaderDeadlineProtocol(HttpToolsProtocol):
        _deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()

        def _arm(self) -> None:
            self._disarm()
            self._deadline = self.loop.call_later(header_seconds, self._too_slow)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _too_slow(self) -> None:
            self._deadline = None
            if not self.transport.is_closing():
                self.transport.close()

        def on_headers_complete(self) -> None:
            self._disarm()
            super().on_headers_complete()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()  # the next request's headers are due in time too

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def handle_websocket_upgrade(self) -> Any:
            self._disarm()
            return super().handle_websocket_upgrade()

    return HeaderDeadlineProtocol


__all__ = ["header_deadline_protocol"]
