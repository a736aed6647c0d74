"""Consistent Overhead Byte Stuffing (Cheshire and Baker, 1999).

COBS rewrites a frame so that it contains no zero byte; a single ``0x00``
then marks the end of each frame on the wire, and a receiver that starts in
the middle of a stream (or after garbage) is back in step at the next zero.
The overhead is one byte per 254 bytes of data plus one.

>>> encode(b"\\x11\\x00\\x22")
b'\\x02\\x11\\x02"'
>>> decode(encode(b"\\x00\\x00"))
b'\\x00\\x00'
"""

from __future__ import annotations

from firmware_bridge.errors import FrameError

__all__ = ["encode", "decode"]


def encode(data: bytes) -> bytes:
    """Returns ``data`` COBS-encoded, without the trailing ``0x00`` delimiter."""
    out = bytearray()
    block = bytearray()
    for byte in data:
        if byte == 0:
            out.append(len(block) + 1)
            out += block
            block.clear()
            continue
        block.append(byte)
        if len(block) == 254:
            out.append(255)
            out += block
            block.clear()
    out.append(len(block) + 1)
    out += block
    return bytes(out)


def decode(data: bytes) -> bytes:
    """Decodes one COBS frame (without its delimiter).

    Raises :class:`~firmware_bridge.errors.FrameError` (reason ``"cobs"``) when
    ``data`` contains a zero or a block length runs past its end.

    >>> decode(b"\\x01\\x05")
    Traceback (most recent call last):
    ...
    firmware_bridge.errors.FrameError: COBS block of length 5 runs past the end of a 2-byte frame
    """
    out = bytearray()
    i = 0
    n = len(data)
    if n == 0:
        raise FrameError("empty COBS frame", reason="cobs")
    while i < n:
        code = data[i]
        if code == 0:
            raise FrameError(f"zero byte inside a COBS frame at offset {i}", reason="cobs")
        end = i + code
        if end > n:
            raise FrameError(f"COBS block of length {code} runs past the end of a {n}-byte frame",
                             reason="cobs")
        chunk = data[i + 1 : end]
        if 0 in chunk:
            where = i + 1 + chunk.index(0)
            raise FrameError(f"zero byte inside a COBS frame at offset {where}", reason="cobs")
        out += chunk
        i = end
        if code != 255 and i < n:
            out.append(0)
    return bytes(out)
