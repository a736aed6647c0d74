"""The exceptions and warnings of the firmware bridge.

One base, :class:`BridgeError`, which is also an ``OSError`` as pyserial's
``SerialException`` is, so that a caller who already handles I/O errors
handles the bridge's too. Subclasses also inherit the nearest builtin.
"""

from __future__ import annotations

__all__ = ["BridgeError", "FrameError", "PortError", "BridgeWarning"]


class BridgeError(OSError):
    """Base class of every firmware-bridge error."""


class FrameError(BridgeError, ValueError):
    """A frame is not well formed: bad COBS, bad CRC, wrong version, wrong length or unknown type."""

    def __init__(self, message: str, *, reason: str) -> None:
        super().__init__(message)
        self.reason = reason
        """A short key counted by the parser: ``"cobs"``, ``"crc"``, ``"version"``, ``"length"``,
        ``"type"``, ``"oversized"``."""

    def __str__(self) -> str:
        return str(self.args[0])


class PortError(BridgeError):
    """The serial port could not be opened or was lost; the message names the URL."""


class BridgeWarning(UserWarning):
    """A soft problem on the link: events dropped by a full ring, a sync that does not converge."""
