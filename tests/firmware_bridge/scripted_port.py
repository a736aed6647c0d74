"""A scripted fake board for reader tests, modelled on python-chess's ``MockTransport``.

``expect(request, responses)`` says what the host must send next and what the
"board" answers; ``assert_done()`` checks every expectation was met. It is a
port object (``read``, ``write``, ``in_waiting``, ``close``) that
:class:`~firmware_bridge.reader.BridgeReader` receives from its ``opener``.
Reads wait on a condition with a short timeout, as a serial port's do.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

import serial

from firmware_bridge.protocol import FrameParser, Message, encode_frame

__all__ = ["ScriptedPort"]

Response = Message | bytes | Callable[[Any], Message]


class ScriptedPort:
    """The board's side of the link, following a script of expected host messages."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._rx = bytearray()
        self._script: deque[tuple[Message | type, Sequence[Response]]] = deque()
        self._parser = FrameParser()
        self._seq = 0
        self.sent: list[Message] = []
        """Every message the host wrote, in order."""
        self.unexpected: list[Message] = []
        self.closed = False
        self.hung_up = False

    def hang_up(self) -> None:
        """The cable is pulled: the next read raises, as pyserial's does."""
        with self._cond:
            self.hung_up = True
            self._cond.notify_all()

    def expect(self, request: Message | type, responses: Sequence[Response] = ()) -> None:
        """The host's next message of interest must equal ``request`` (or be of that type);
        then the board sends ``responses`` (messages, raw bytes, or functions of the request)."""
        with self._cond:
            self._script.append((request, responses))

    def feed(self, *items: Message | bytes) -> None:
        """The board sends something unprompted."""
        with self._cond:
            for item in items:
                self._push(item)
            self._cond.notify_all()

    def wait_sent(self, predicate: Callable[[list[Message]], bool], timeout: float = 5.0) -> bool:
        with self._cond:
            return self._cond.wait_for(lambda: predicate(self.sent), timeout)

    def assert_done(self) -> None:
        with self._cond:
            assert not self._script, f"expected but not sent: {[r for r, _ in self._script]}"

    # -- the port interface -------------------------------------------------------------
    @property
    def in_waiting(self) -> int:
        with self._cond:
            return len(self._rx)

    def read(self, size: int = 1) -> bytes:
        with self._cond:
            self._cond.wait_for(lambda: self._rx or self.closed or self.hung_up, timeout=0.01)
            if self.hung_up:
                raise serial.SerialException("device disconnected")
            data = bytes(self._rx[:size])
            del self._rx[:size]
            return data

    def write(self, data: bytes) -> int:
        with self._cond:
            for message in self._parser.data_received(data):
                self.sent.append(message)
                self._match(message)
            self._cond.notify_all()
        return len(data)

    def close(self) -> None:
        with self._cond:
            self.closed = True
            self._cond.notify_all()

    # -- helpers ------------------------------------------------------------------------------
    def _match(self, message: Message) -> None:
        if not self._script:
            self.unexpected.append(message)
            return
        request, responses = self._script[0]
        matches = isinstance(message, request) if isinstance(request, type) else message == request
        if not matches:
            self.unexpected.append(message)
            return
        self._script.popleft()
        for response in responses:
            self._push(response(message) if callable(response) else response)

    def _push(self, item: Message | bytes) -> None:
        if isinstance(item, bytes | bytearray):
            self._rx += item
        else:
            self._rx += encode_frame(item, self._seq)
            self._seq += 1
