"""CRC-16/CCITT-FALSE, the frame check of the bridge protocol.

Parameters (in the Rocksoft/Williams model the CRC catalogue uses): width 16,
polynomial ``0x1021``, initial value ``0xFFFF``, input and output not
reflected, final XOR ``0x0000``; check value (CRC of ``b"123456789"``)
``0x29B1``. The firmware computes the same function bit by bit.

>>> hex(crc16_ccitt_false(b"123456789"))
'0x29b1'
"""

from __future__ import annotations

__all__ = ["crc16_ccitt_false"]


def _make_table() -> tuple[int, ...]:
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return tuple(table)


_TABLE = _make_table()


def crc16_ccitt_false(data: bytes, crc: int = 0xFFFF) -> int:
    """Returns the CRC-16/CCITT-FALSE of ``data`` (pass ``crc`` to continue a running CRC)."""
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ _TABLE[((crc >> 8) ^ byte) & 0xFF]
    return crc
