"""The reader's protocol logic against a scripted board: dedupe, gaps, acks, reboots, bad input."""

from __future__ import annotations

import queue
from collections.abc import Iterator

import pytest

from firmware_bridge.clocksync import ClockSync
from firmware_bridge.protocol import (
    Ack,
    Heartbeat,
    Hello,
    HelloRequest,
    InputEdge,
    SyncRequest,
    SyncResponse,
)
from firmware_bridge.reader import BridgeEvent, BridgeReader, LinkState
from tests.firmware_bridge.scripted_port import ScriptedPort

BOARD = bytes.fromhex("e6613897135c2a29")
HOST_NS = 10_000_000_000
MCU_US = 5_000_000  # the board's clock reads this at HOST_NS


def hello(boot: int = 7, nxt: int = 0, oldest: int = 0) -> Hello:
    return Hello(BOARD, boot, nxt, oldest, 16, "1.0.0")


def pong(request: SyncRequest) -> SyncResponse:
    return SyncResponse(request.token, MCU_US, MCU_US)


def edge(seq: int, t_us: int, active: bool = True, input_id: int = 3) -> InputEdge:
    return InputEdge(seq, input_id, 1 if active else 0, t_us)


@pytest.fixture
def port() -> ScriptedPort:
    p = ScriptedPort()
    p.expect(HelloRequest(), [hello()])
    p.expect(Ack(0))
    p.expect(SyncRequest, [pong])
    return p


@pytest.fixture
def reader(port: ScriptedPort) -> Iterator[tuple[BridgeReader, queue.SimpleQueue[BridgeEvent]]]:
    q: queue.SimpleQueue[BridgeEvent] = queue.SimpleQueue()
    r = BridgeReader("scripted://", on_event=q.put, clock=lambda: HOST_NS, sync=ClockSync(min_samples=1),
                     opener=lambda url: port)
    with r:
        assert r.wait_for(LinkState.CONNECTED, 5)
        yield r, q


def test_handshake_then_events_mapped_onto_the_host_clock(
    port: ScriptedPort, reader: tuple[BridgeReader, queue.SimpleQueue[BridgeEvent]]
) -> None:
    r, q = reader
    port.assert_done()
    port.feed(edge(0, MCU_US + 1_500))
    event = q.get(timeout=5)
    assert (event.board_id, event.boot_id, event.event_seq, event.input) == ("e6613897135c2a29", 7, 0, 3)
    assert event.t_ns == HOST_NS + 1_500_000
    assert event.t_err_ns >= 20_000
    assert port.wait_sent(lambda sent: Ack(1) in sent)
    assert r.health.firmware == "1.0.0"


def test_duplicates_are_dropped_and_counted(
    port: ScriptedPort, reader: tuple[BridgeReader, queue.SimpleQueue[BridgeEvent]]
) -> None:
    r, q = reader
    first, second = edge(0, MCU_US), edge(1, MCU_US + 10)
    port.feed(first, second, first, second, edge(2, MCU_US + 20))
    assert [q.get(timeout=5).event_seq for _ in range(3)] == [0, 1, 2]
    assert r.wait_until(lambda h: h.duplicates == 2 and h.events == 3, 5)
    with pytest.raises(queue.Empty):
        q.get(timeout=0.1)


def test_a_gap_asks_for_a_resend_and_keeps_order(
    port: ScriptedPort, reader: tuple[BridgeReader, queue.SimpleQueue[BridgeEvent]]
) -> None:
    r, q = reader
    port.expect(Ack(1, resend=True), [edge(1, MCU_US + 100), edge(2, MCU_US + 200)])
    port.feed(edge(0, MCU_US), edge(2, MCU_US + 200))  # 1 was lost on the wire
    assert [q.get(timeout=5).event_seq for _ in range(3)] == [0, 1, 2]
    assert r.wait_until(lambda h: h.gaps == 1, 5)
    port.assert_done()


def test_nothing_is_delivered_before_the_clock_is_mapped() -> None:
    port = ScriptedPort()
    port.expect(HelloRequest(), [hello(), edge(0, MCU_US + 7)])  # an event before any sync
    port.expect(Ack(0))
    port.expect(SyncRequest, [pong])
    q: queue.SimpleQueue[BridgeEvent] = queue.SimpleQueue()
    with BridgeReader("scripted://", on_event=q.put, clock=lambda: HOST_NS, sync=ClockSync(min_samples=1),
                      opener=lambda url: port) as r:
        event = q.get(timeout=5)
        assert event.t_ns == HOST_NS + 7_000
        assert r.health.state is LinkState.CONNECTED


def test_garbage_and_host_messages_on_the_line_are_skipped(
    port: ScriptedPort, reader: tuple[BridgeReader, queue.SimpleQueue[BridgeEvent]]
) -> None:
    r, q = reader
    port.feed(b"\xde\xad\xbe\xef", HelloRequest(), b"\x00\x01\x00", edge(0, MCU_US))
    assert q.get(timeout=5).event_seq == 0
    assert r.wait_until(lambda h: h.frame_errors >= 1, 5)


def test_heartbeat_reports_events_dropped_on_the_board(
    port: ScriptedPort, reader: tuple[BridgeReader, queue.SimpleQueue[BridgeEvent]]
) -> None:
    r, _ = reader
    port.feed(Heartbeat(MCU_US, 300, 44, 12))
    assert r.wait_until(lambda h: h.dropped_on_board == 12, 5)
    assert "12 dropped on board" in r.health.describe()


def test_a_reboot_resets_sequence_and_clock(
    port: ScriptedPort, reader: tuple[BridgeReader, queue.SimpleQueue[BridgeEvent]]
) -> None:
    r, q = reader
    port.feed(edge(0, MCU_US), edge(1, MCU_US + 5))
    assert [q.get(timeout=5).event_seq for _ in range(2)] == [0, 1]
    port.expect(Ack(0))
    port.expect(SyncRequest, [lambda req: SyncResponse(req.token, 100, 100)])
    port.feed(hello(boot=8), edge(0, 150))  # rebooted: seq 0 again, clock near zero
    event = q.get(timeout=5)
    assert (event.boot_id, event.event_seq, event.t_ns) == (8, 0, HOST_NS + 50_000)
    assert r.health.boot_id == 8



def test_after_a_reconnect_events_wait_for_the_hello_that_says_whose_they_are() -> None:
    first, second = ScriptedPort(), ScriptedPort()
    for port in (first, second):
        port.expect(HelloRequest(), [])
    first.feed(hello(boot=7))
    first.expect(Ack(0))
    first.expect(SyncRequest, [pong])
    ports = iter([first, second])
    q: queue.SimpleQueue[BridgeEvent] = queue.SimpleQueue()
    with BridgeReader("scripted://", on_event=q.put, clock=lambda: HOST_NS, sync=ClockSync(min_samples=1),
                      opener=lambda url: next(ports), retry_s=0.01) as r:
        first.feed(edge(0, MCU_US), edge(1, MCU_US + 1))
        assert [q.get(timeout=5).event_seq for _ in range(2)] == [0, 1]
        first.hang_up()
        assert r.wait_for(LinkState.LOST, 5)
        # The board rebooted while away: its event 2 comes before its hello.
        second.feed(edge(2, 150))
        second.expect(Ack(0))
        second.expect(SyncRequest, [lambda req: SyncResponse(req.token, 100, 100)])
        second.feed(hello(boot=8, nxt=3), edge(0, 110), edge(1, 120), edge(2, 150))
        events = [q.get(timeout=5) for _ in range(3)]
    assert [(e.boot_id, e.event_seq) for e in events] == [(8, 0), (8, 1), (8, 2)]
    assert events[2].t_ns == HOST_NS + 50_000
