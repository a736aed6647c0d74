"""The bridge protocol's messages and frames (layouts in ``docs/bridge-protocol.md``).

Glossary:

- *frame*: one message on the wire: ``version | type | seq | payload | crc``,
  COBS-encoded, with a ``0x00`` delimiter before and after it (the leading one
  ends whatever garbage or partial frame came before, so a frame that follows
  noise is never lost; the empty frame between two delimiters is ignored).
- *seq*: the sender's frame counter (16 bits, wraps), one per direction; the
  receiver uses it only to count frames lost on the wire.
- *event seq*: the number the board gave an input event (32 bits, from 0 at
  each boot); with the board id and boot id it names the event uniquely, so
  a re-sent event is recognised and dropped.
- *MCU time*: microseconds since the board booted, extended by the firmware
  past the 30-bit wrap of MicroPython's ``ticks_us`` into an unsigned 64-bit
  count, so the host never sees a wrap.

All integers are little-endian; the CRC (CRC-16/CCITT-FALSE, see
:mod:`firmware_bridge.crc`) is sent big-endian, most significant byte first,
after the bytes it covers.

>>> frame = encode_frame(Ack(next_event_seq=7), seq=1)
>>> frame
b'\\x00\\x04\\x01\\x07\\x01\\x02\\x07\\x01\\x01\\x01\\x03\\xeb\\xfc\\x00'
>>> decode_frame(frame[1:-1])
Ack(next_event_seq=7, resend=False)
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar

from firmware_bridge import cobs
from firmware_bridge.crc import crc16_ccitt_false
from firmware_bridge.errors import FrameError

__all__ = [
    "PROTOCOL_VERSION",
    "MAX_FRAME",
    "MAX_ENCODED_FRAME",
    "EDGE_ACTIVE",
    "EDGE_APPROXIMATE",
    "ALL_INPUTS",
    "Hello",
    "HelloRequest",
    "InputEdge",
    "Heartbeat",
    "SyncRequest",
    "SyncResponse",
    "Ack",
    "Configure",
    "Stop",
    "Message",
    "MESSAGE_TYPES",
    "encode_frame",
    "decode_frame",
    "FrameParser",
]

PROTOCOL_VERSION = 1
"""The version byte of every frame; a frame with another version is rejected."""
MAX_FRAME = 64
"""The largest decoded frame (header, payload and CRC) either side sends or accepts."""
MAX_ENCODED_FRAME = MAX_FRAME + MAX_FRAME // 254 + 1
"""The largest COBS-encoded frame; longer runs between delimiters are garbage."""
EDGE_ACTIVE = 0x01
"""Edge flag: the input became active (pressed, struck); clear for a release."""
EDGE_APPROXIMATE = 0x02
"""Edge flag: the edge happened while the line was locked out by the debounce, and its time is
the end of the lockout, not the edge itself (the error is up to the debounce time)."""
ALL_INPUTS = 0xFF
"""The input id of a :class:`Configure` message that applies to every input."""

_HEADER = struct.Struct("<BBH")
_CRC = struct.Struct(">H")


@dataclass(frozen=True, slots=True)
class Hello:
    """Board -> host, at boot and in answer to :class:`HelloRequest`: who the board is.

    After a Hello the board re-sends every event from ``oldest_unacked`` on.
    """

    TYPE: ClassVar[int] = 0x01
    LAYOUT: ClassVar[struct.Struct] = struct.Struct("<8sIIIBB")
    board_id: bytes
    """The RP2040's 8-byte unique id (flash chip id); stable across boots."""
    boot_id: int
    """A random 32-bit number drawn at each boot: events of different boots never merge."""
    next_event_seq: int
    """The seq the next input event will get (events so far)."""
    oldest_unacked: int
    """The seq of the oldest event the board keeps for re-sending."""
    inputs: int
    """How many inputs are wired (ids 0..inputs-1)."""
    firmware: str
    """The firmware version, e.g. ``"1.0.0"`` (at most 24 bytes of UTF-8)."""

    def payload(self) -> bytes:
        text = self.firmware.encode()
        return (
            self.LAYOUT.pack(self.board_id, self.boot_id, self.next_event_seq, self.oldest_unacked,
                             self.inputs, len(text))
            + text
        )

    @classmethod
    def from_payload(cls, data: bytes) -> Hello:
        board_id, boot_id, nxt, oldest, inputs, n = cls.LAYOUT.unpack_from(data)
        text = data[cls.LAYOUT.size :]
        if len(text) != n:
            raise FrameError(f"hello firmware string says {n} bytes, has {len(text)}", reason="length")
        try:
            firmware = text.decode()
        except UnicodeDecodeError as exc:
            raise FrameError(f"hello firmware string is not UTF-8: {text!r}", reason="length") from exc
        return cls(bytes(board_id), boot_id, nxt, oldest, inputs, firmware)

    @property
    def board_hex(self) -> str:
        """The board id as 16 hex digits, as ``kiosk bridge`` prints it."""
        return self.board_id.hex()


@dataclass(frozen=True, slots=True)
class HelloRequest:
    """Host -> board, on every (re)connect: asks for a :class:`Hello` and the re-send of unacked events."""

    TYPE: ClassVar[int] = 0x02
    LAYOUT: ClassVar[struct.Struct] = struct.Struct("<")

    def payload(self) -> bytes:
        return b""

    @classmethod
    def from_payload(cls, data: bytes) -> HelloRequest:
        return cls()


@dataclass(frozen=True, slots=True)
class InputEdge:
    """Board -> host: one debounced edge of one input, stamped in the interrupt handler."""

    TYPE: ClassVar[int] = 0x03
    LAYOUT: ClassVar[struct.Struct] = struct.Struct("<IBBQ")
    event_seq: int
    input: int
    """The input id, 0..15 (the position in the firmware's pin list, not the GPIO number)."""
    flags: int
    """:data:`EDGE_ACTIVE` and :data:`EDGE_APPROXIMATE` bits."""
    t_us: int
    """MCU time of the edge, microseconds since boot (64-bit, never wraps)."""

    def payload(self) -> bytes:
        return self.LAYOUT.pack(self.event_seq, self.input, self.flags, self.t_us)

    @classmethod
    def from_payload(cls, data: bytes) -> InputEdge:
        return cls(*cls.LAYOUT.unpack(data))

    @property
    def active(self) -> bool:
        """True for a press (or a strike of a pad), False for a release."""
        return bool(self.flags & EDGE_ACTIVE)

    @property
    def approximate(self) -> bool:
        return bool(self.flags & EDGE_APPROXIMATE)


@dataclass(frozen=True, slots=True)
class Heartbeat:
    """Board -> host, every half second: the board is alive, and how far its events go."""

    TYPE: ClassVar[int] = 0x04
    LAYOUT: ClassVar[struct.Struct] = struct.Struct("<QIII")
    t_us: int
    next_event_seq: int
    oldest_unacked: int
    dropped: int
    """Events lost since boot because the ring was full of unacknowledged events."""

    def payload(self) -> bytes:
        return self.LAYOUT.pack(self.t_us, self.next_event_seq, self.oldest_unacked, self.dropped)

    @classmethod
    def from_payload(cls, data: bytes) -> Heartbeat:
        return cls(*cls.LAYOUT.unpack(data))


@dataclass(frozen=True, slots=True)
class SyncRequest:
    """Host -> board: a clock-sync ping; ``token`` comes back in the :class:`SyncResponse`."""

    TYPE: ClassVar[int] = 0x05
    LAYOUT: ClassVar[struct.Struct] = struct.Struct("<I")
    token: int

    def payload(self) -> bytes:
        return self.LAYOUT.pack(self.token)

    @classmethod
    def from_payload(cls, data: bytes) -> SyncRequest:
        return cls(*cls.LAYOUT.unpack(data))


@dataclass(frozen=True, slots=True)
class SyncResponse:
    """Board -> host: the pong, with the MCU times the request was received and the answer sent."""

    TYPE: ClassVar[int] = 0x06
    LAYOUT: ClassVar[struct.Struct] = struct.Struct("<IQQ")
    token: int
    rx_us: int
    tx_us: int

    def payload(self) -> bytes:
        return self.LAYOUT.pack(self.token, self.rx_us, self.tx_us)

    @classmethod
    def from_payload(cls, data: bytes) -> SyncResponse:
        return cls(*cls.LAYOUT.unpack(data))


@dataclass(frozen=True, slots=True)
class Ack:
    """Host -> board: every event below ``next_event_seq`` arrived and may be forgotten.

    With ``resend`` set, the board also starts sending again from ``next_event_seq``
    (the host saw a gap: a frame was lost or corrupted on the wire).
    """

    TYPE: ClassVar[int] = 0x07
    LAYOUT: ClassVar[struct.Struct] = struct.Struct("<IB")
    next_event_seq: int
    resend: bool = False

    def payload(self) -> bytes:
        return self.LAYOUT.pack(self.next_event_seq, 1 if self.resend else 0)

    @classmethod
    def from_payload(cls, data: bytes) -> Ack:
        seq, flags = cls.LAYOUT.unpack(data)
        return cls(seq, bool(flags & 1))


@dataclass(frozen=True, slots=True)
class Configure:
    """Host -> board: sets the debounce lockout of one input (or :data:`ALL_INPUTS`)."""

    TYPE: ClassVar[int] = 0x08
    LAYOUT: ClassVar[struct.Struct] = struct.Struct("<BI")
    input: int
    debounce_us: int

    def payload(self) -> bytes:
        return self.LAYOUT.pack(self.input, self.debounce_us)

    @classmethod
    def from_payload(cls, data: bytes) -> Configure:
        return cls(*cls.LAYOUT.unpack(data))


@dataclass(frozen=True, slots=True)
class Stop:
    """Host -> board: stop the bridge and give the USB serial port back to the MicroPython REPL.

    The firmware turns Ctrl-C off (``0x03`` is data on this link), so ``mpremote``
    cannot interrupt it; send this first to update the firmware
    (``kiosk bridge --url PORT --stop-firmware``). A reset starts the bridge again.
    """

    TYPE: ClassVar[int] = 0x09
    LAYOUT: ClassVar[struct.Struct] = struct.Struct("<")

    def payload(self) -> bytes:
        return b""

    @classmethod
    def from_payload(cls, data: bytes) -> Stop:
        return cls()


Message = Hello | HelloRequest | InputEdge | Heartbeat | SyncRequest | SyncResponse | Ack | Configure | Stop
"""Any message of the protocol."""

MESSAGE_TYPES: dict[int, type[Message]] = {
    cls.TYPE: cls
    for cls in (Hello, HelloRequest, InputEdge, Heartbeat, SyncRequest, SyncResponse, Ack, Configure, Stop)
}
"""Message classes by type byte."""


def encode_frame(message: Message, seq: int) -> bytes:
    """Returns the wire bytes of ``message``: the COBS-encoded frame between two ``0x00`` delimiters."""
    body = _HEADER.pack(PROTOCOL_VERSION, message.TYPE, seq & 0xFFFF) + message.payload()
    body += _CRC.pack(crc16_ccitt_false(body))
    if len(body) > MAX_FRAME:
        raise FrameError(f"{type(message).__name__} frame of {len(body)} bytes exceeds {MAX_FRAME}",
                         reason="oversized")
    return b"\x00" + cobs.encode(body) + b"\x00"


def decode_body(body: bytes) -> tuple[int, Message]:
    """Checks and decodes one COBS-decoded frame; returns ``(seq, message)``.

    Raises :class:`~firmware_bridge.errors.FrameError` naming what is wrong.
    """
    if len(body) < _HEADER.size + _CRC.size:
        raise FrameError(f"frame of {len(body)} bytes is shorter than a header and CRC", reason="length")
    if len(body) > MAX_FRAME:
        raise FrameError(f"frame of {len(body)} bytes exceeds {MAX_FRAME}", reason="oversized")
    (crc,) = _CRC.unpack_from(body, len(body) - _CRC.size)
    covered = body[: -_CRC.size]
    if crc16_ccitt_false(covered) != crc:
        raise FrameError(f"CRC mismatch in frame {body.hex()}", reason="crc")
    version, type_, seq = _HEADER.unpack_from(covered)
    if version != PROTOCOL_VERSION:
        raise FrameError(f"protocol version {version}, expected {PROTOCOL_VERSION}", reason="version")
    cls = MESSAGE_TYPES.get(type_)
    if cls is None:
        raise FrameError(f"unknown message type 0x{type_:02x}", reason="type")
    payload = covered[_HEADER.size :]
    fixed = cls.LAYOUT.size
    if len(payload) < fixed or (cls is not Hello and len(payload) != fixed):
        raise FrameError(f"{cls.__name__} payload of {len(payload)} bytes, expected {fixed}", reason="length")
    return seq, cls.from_payload(payload)


def decode_frame(encoded: bytes) -> Message:
    """Decodes one COBS-encoded frame (without its delimiters) into a message.

    Raises :class:`~firmware_bridge.errors.FrameError` naming what is wrong.
    """
    return decode_body(cobs.decode(encoded))[1]


class FrameParser:
    """Bytes in, messages out: the pure half of the link, never touching a port.

    Feed it whatever the port returned, split anywhere; it returns the
    messages completed by those bytes. Garbage, truncated frames, bad CRCs,
    wrong versions and oversized runs are counted in :attr:`errors` by
    reason and skipped: the next ``0x00`` puts the parser back in step.

    >>> p = FrameParser()
    >>> wire = encode_frame(SyncRequest(token=9), seq=3)
    >>> p.data_received(b"junk" + wire[:4]), p.data_received(wire[4:])
    ([], [SyncRequest(token=9)])
    >>> p.errors
    {'cobs': 1}
    """

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._overflow = False
        self.errors: dict[str, int] = {}
        """Frames rejected so far, by :attr:`FrameError.reason`."""
        self.frames = 0
        """Frames decoded so far."""
        self.last_seq: int | None = None
        """The seq of the last frame decoded."""
        self.lost_frames = 0
        """Frames missing between consecutive seqs (lost on the wire or rejected)."""

    def data_received(self, data: bytes) -> list[Message]:
        """Returns the messages that ``data`` completes, in order."""
        return list(self.iter_messages(data))

    def iter_messages(self, data: bytes) -> Iterator[Message]:
        """Like :meth:`data_received`, as a generator."""
        start = 0
        while True:
            end = data.find(0, start)
            if end < 0:
                self._extend(data[start:])
                return
            self._extend(data[start:end])
            frame = bytes(self._buffer)
            overflow = self._overflow
            self._buffer.clear()
            self._overflow = False
            start = end + 1
            if overflow:
                self._count("oversized")
                continue
            if not frame:
                continue  # back-to-back delimiters: allowed, used to resynchronise
            try:
                seq, message = decode_body(cobs.decode(frame))
            except FrameError as exc:
                self._count(exc.reason)
                continue
            except (struct.error, ValueError):
                self._count("length")
                continue
            if self.last_seq is not None:
                self.lost_frames += (seq - self.last_seq - 1) & 0xFFFF
            self.last_seq = seq
            self.frames += 1
            yield message

    def reset(self) -> None:
        """Forgets a partial frame and the last seq (after a reconnect)."""
        self._buffer.clear()
        self._overflow = False
        self.last_seq = None

    def _extend(self, chunk: bytes) -> None:
        if self._overflow:
            return
        if len(self._buffer) + len(chunk) > MAX_ENCODED_FRAME:
            self._overflow = True
            self._buffer.clear()
            return
        self._buffer += chunk

    def _count(self, reason: str) -> None:
        self.errors[reason] = self.errors.get(reason, 0) + 1
