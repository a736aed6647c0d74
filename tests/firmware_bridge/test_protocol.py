"""The frame format and the pure parser: round trips, split frames, and fuzzing with garbage."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge import cobs
from firmware_bridge.crc import crc16_ccitt_false
from firmware_bridge.errors import BridgeError, FrameError
from firmware_bridge.protocol import (
    MAX_FRAME,
    Ack,
    Configure,
    FrameParser,
    Heartbeat,
    Hello,
    HelloRequest,
    InputEdge,
    Message,
    Stop,
    SyncRequest,
    SyncResponse,
    decode_frame,
    encode_frame,
)

u32 = st.integers(0, 2**32 - 1)
u64 = st.integers(0, 2**64 - 1)
messages: st.SearchStrategy[Message] = st.one_of(
    st.builds(Hello, st.binary(min_size=8, max_size=8), u32, u32, u32, st.integers(0, 16),
              st.text(max_size=8).filter(lambda s: len(s.encode()) <= 24)),
    st.just(HelloRequest()),
    st.builds(InputEdge, u32, st.integers(0, 255), st.integers(0, 255), u64),
    st.builds(Heartbeat, u64, u32, u32, u32),
    st.builds(SyncRequest, u32),
    st.builds(SyncResponse, u32, u64, u64),
    st.builds(Ack, u32, st.booleans()),
    st.builds(Configure, st.integers(0, 255), u32),
    st.just(Stop()),
)


def test_crc_is_ccitt_false() -> None:
    assert crc16_ccitt_false(b"123456789") == 0x29B1
    assert crc16_ccitt_false(b"") == 0xFFFF


@given(st.binary(max_size=600))
def test_cobs_round_trip_has_no_zero(data: bytes) -> None:
    encoded = cobs.encode(data)
    assert 0 not in encoded
    assert cobs.decode(encoded) == data


@given(messages, st.integers(0, 0xFFFF))
def test_every_message_round_trips(message: Message, seq: int) -> None:
    wire = encode_frame(message, seq)
    assert wire[0] == wire[-1] == 0 and 0 not in wire[1:-1]
    assert decode_frame(wire[1:-1]) == message


@given(st.lists(messages, min_size=1, max_size=8), st.data())
def test_frames_split_anywhere_decode_in_order(batch: list[Message], data: st.DataObject) -> None:
    wire = b"".join(encode_frame(m, i) for i, m in enumerate(batch))
    cuts = sorted(data.draw(st.lists(st.integers(0, len(wire)), max_size=10)))
    parser = FrameParser()
    got: list[Message] = []
    for a, b in zip([0, *cuts], [*cuts, len(wire)], strict=True):
        got += parser.data_received(wire[a:b])
    assert got == batch
    assert parser.errors == {} and parser.lost_frames == 0


@settings(max_examples=300)
@given(st.binary(max_size=400), st.lists(messages, min_size=1, max_size=4), st.integers(1, 64))
def test_garbage_never_raises_and_valid_frames_after_it_decode(
    garbage: bytes, batch: list[Message], chunk: int
) -> None:
    # No delimiter after the garbage: the frames' own leading 0x00 ends it.
    wire = garbage + b"".join(encode_frame(m, i) for i, m in enumerate(batch))
    parser = FrameParser()
    got: list[Message] = []
    for i in range(0, len(wire), chunk):
        got += parser.data_received(wire[i : i + chunk])
    # The garbage may happen to hold valid frames; what follows it always decodes.
    assert got[len(got) - len(batch) :] == batch


def test_random_garbage_soak() -> None:
    rng = random.Random(1)
    parser = FrameParser()
    expected: list[Message] = []
    got: list[Message] = []
    for i in range(2000):
        noise = bytes(rng.getrandbits(8) for _ in range(rng.randrange(0, 80)))
        message = InputEdge(i, i % 16, 1, rng.getrandbits(64))
        expected.append(message)
        got += [m for m in parser.data_received(noise + encode_frame(message, i))
                if isinstance(m, InputEdge) and m.event_seq == i and m == message]
    assert got == expected
    assert sum(parser.errors.values()) > 1000


def corrupt(wire: bytes, index: int) -> bytes:
    body = bytearray(cobs.decode(wire[1:-1]))
    body[index] ^= 0x40
    return b"\x00" + cobs.encode(bytes(body)) + b"\x00"


@pytest.mark.parametrize(
    ("wire", "reason"),
    [
        (corrupt(encode_frame(SyncRequest(5), 1), 4), "crc"),
        (b"\x05\x01\x00", "cobs"),
        (b"\x01\x01\x01\x00", "length"),
        (b"\x7f" * 300 + b"\x00", "oversized"),
    ],
)
def test_bad_frames_are_counted_by_reason(wire: bytes, reason: str) -> None:
    parser = FrameParser()
    assert parser.data_received(wire + encode_frame(Ack(3), 2)) == [Ack(3)]
    assert parser.errors == {reason: 1}


def _raw_frame(version: int, type_: int, payload: bytes) -> bytes:
    body = bytes([version, type_, 0, 0]) + payload
    body += crc16_ccitt_false(body).to_bytes(2, "big")
    return b"\x00" + cobs.encode(body) + b"\x00"


@pytest.mark.parametrize(
    ("wire", "reason"),
    [
        (_raw_frame(2, SyncRequest.TYPE, b"\x01\x00\x00\x00"), "version"),
        (_raw_frame(1, 0x55, b""), "type"),
        (_raw_frame(1, SyncRequest.TYPE, b"\x01\x00\x00"), "length"),
        (_raw_frame(1, Hello.TYPE, bytes(22) + b"\xff"), "length"),
        (_raw_frame(1, Hello.TYPE, bytes(21) + b"\x01\xff"), "length"),
        (_raw_frame(1, InputEdge.TYPE, bytes(MAX_FRAME)), "oversized"),
    ],
)
def test_well_framed_but_wrong_messages_are_rejected(wire: bytes, reason: str) -> None:
    with pytest.raises(FrameError) as info:
        decode_frame(wire[1:-1])
    assert info.value.reason == reason
    parser = FrameParser()
    assert parser.data_received(wire) == []
    assert parser.errors == {reason: 1}


def test_frame_error_is_a_bridge_error_and_an_oserror() -> None:
    with pytest.raises(BridgeError):
        decode_frame(b"\x05\x01")
    assert issubclass(FrameError, OSError) and issubclass(FrameError, ValueError)


def test_lost_frames_are_counted_from_seq_gaps() -> None:
    parser = FrameParser()
    parser.data_received(encode_frame(Ack(1), 10) + encode_frame(Ack(2), 13) + encode_frame(Ack(3), 0))
    assert parser.lost_frames == 2 + (0 - 13 - 1) % 65536
