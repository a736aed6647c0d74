"""The Pico firmware, run unchanged on real MicroPython with fake pins, clock and USB."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest

from firmware_bridge.protocol import (
    EDGE_ACTIVE,
    EDGE_APPROXIMATE,
    Ack,
    Configure,
    Heartbeat,
    Hello,
    HelloRequest,
    InputEdge,
    Stop,
    SyncRequest,
    SyncResponse,
)
from tests.firmware_bridge.micropython_harness import FirmwareBoard, MicroPython

INPUTS = [(2, "switch"), (3, "switch"), (10, "pulse")]
TICKS_PERIOD = 1 << 30


@pytest.fixture
def mp() -> Iterator[MicroPython]:
    with MicroPython() as interpreter:
        yield interpreter


def boot(mp: MicroPython, **kw: int) -> FirmwareBoard:
    board = FirmwareBoard(mp, inputs=INPUTS, **kw)
    hello = board.received()
    assert isinstance(hello[0], Hello)
    return board


def edges(messages: Sequence[object]) -> list[InputEdge]:
    return [m for m in messages if isinstance(m, InputEdge)]


def test_runs_on_real_micropython(mp: MicroPython) -> None:
    assert "micropython" in mp.exec("import sys\nprint(sys.implementation.name)")


def test_hello_reports_version_board_and_boot_id(mp: MicroPython) -> None:
    board = FirmwareBoard(mp, inputs=INPUTS, boot_id=0xABCD)
    (hello,) = board.received()
    assert hello == Hello(
        board_id=bytes.fromhex("e6613897135c2a29"), boot_id=0xABCD, next_event_seq=0, oldest_unacked=0,
        inputs=3, firmware="1.0.0",
    )


def test_press_is_stamped_in_the_interrupt_with_the_edge_time(mp: MicroPython) -> None:
    board = boot(mp, start_us=5_000_000)
    board.advance(1234)
    board.drive(0, 0)
    board.advance(700)  # the main loop runs later; the stamp is the edge's
    board.poll()
    assert edges(board.received()) == [InputEdge(event_seq=0, input=0, flags=EDGE_ACTIVE, t_us=5_001_234)]
    assert board.irq_errors() == []


def test_interrupt_path_allocates_nothing(mp: MicroPython) -> None:
    board = boot(mp)
    for _ in range(20):
        board.drive(1, 0)
        board.advance(30_000)
        board.drive(1, 1)
        board.advance(30_000)
        board.drive(2, 0)
        board.drive(2, 1)
        board.advance(30_000)
    assert int(mp.exec("print(M.IRQ_CALLS[0])")) == 60
    assert board.irq_errors() == []


def test_a_deliberate_allocation_would_be_caught(mp: MicroPython) -> None:
    # The fake's heap lock is what makes the test above able to fail.
    mp.exec("import fake_machine as M\np = M.Pin(20, M.Pin.IN, M.Pin.PULL_UP)\n"
            "p.irq(handler=lambda pin: [pin], trigger=M.Pin.IRQ_FALLING, hard=True)\np.drive(0)")
    assert "allocated" in mp.exec("print(M.IRQ_ERRORS)")


def test_leading_edge_debounce_keeps_the_first_edge_and_ignores_bounce(mp: MicroPython) -> None:
    board = boot(mp, start_us=2_000_000, debounce_us=20_000)
    board.drive(0, 0)
    for _ in range(5):  # contact bounce for a millisecond
        board.advance(100)
        board.drive(0, 1)
        board.advance(100)
        board.drive(0, 0)
    board.advance(50_000)
    board.poll()
    board.drive(0, 1)
    board.advance(150)
    board.drive(0, 0)
    board.advance(150)
    board.drive(0, 1)
    board.advance(50_000)
    board.poll()
    got = edges(board.received())
    assert [(e.flags, e.t_us) for e in got] == [(EDGE_ACTIVE, 2_000_000), (0, 2_051_000)]
    assert board.irq_errors() == []


def test_tap_shorter_than_the_lockout_reports_the_release_approximately(mp: MicroPython) -> None:
    board = boot(mp, start_us=3_000_000, debounce_us=20_000)
    board.drive(0, 0)
    board.advance(5_000)
    board.drive(0, 1)  # released inside the lockout: ignored by the interrupt
    board.advance(25_000)
    board.poll()
    got = edges(board.received())
    assert [(e.flags, e.t_us) for e in got] == [(EDGE_ACTIVE, 3_000_000), (EDGE_APPROXIMATE, 3_020_000)]


def test_pulse_input_reports_strikes_only(mp: MicroPython) -> None:
    board = boot(mp, start_us=1_000_000)
    board.drive(2, 0)
    board.advance(3_000)
    board.drive(2, 1)
    board.advance(40_000)
    board.drive(2, 0)
    board.advance(40_000)
    board.drive(2, 1)
    board.poll()
    got = edges(board.received())
    assert [(e.input, e.flags, e.t_us) for e in got] == [
        (2, EDGE_ACTIVE, 1_000_000),
        (2, EDGE_ACTIVE, 1_043_000),
    ]


def test_configure_changes_the_lockout(mp: MicroPython) -> None:
    board = boot(mp, debounce_us=20_000)
    board.send(Configure(input=2, debounce_us=1_000))
    board.poll()
    board.drive(2, 0)
    board.advance(500)
    board.drive(2, 1)
    board.advance(1_000)
    board.drive(2, 0)  # 1.5 ms later: past the new 1 ms lockout
    board.poll()
    assert len(edges(board.received())) == 2


def test_ticks_wraparound_gives_continuous_64_bit_times(mp: MicroPython) -> None:
    start = TICKS_PERIOD - 3_000  # ticks_us wraps 3 ms after boot
    board = boot(mp, start_us=start)
    times = []
    for _ in range(4):
        board.drive(0, 0)
        board.advance(25_000)
        board.poll()
        board.drive(0, 1)
        board.advance(25_000)
        board.poll()
        times.append(start)
        start += 50_000
    got = edges(board.received())
    assert [e.t_us for e in got][::2] == times
    assert all(b.t_us - a.t_us == 25_000 for a, b in zip(got, got[1:], strict=False))
    assert got[-1].t_us > TICKS_PERIOD


def test_wraparound_over_many_periods_with_a_polling_main_loop(mp: MicroPython) -> None:
    board = boot(mp, start_us=0)
    for _ in range(5):
        board.advance(TICKS_PERIOD // 3)
        board.poll()
    board.drive(1, 0)
    board.poll()
    (edge,) = edges(board.received())
    assert edge.t_us == board.now_us() == 5 * (TICKS_PERIOD // 3)


def test_sync_request_is_answered_with_receive_and_send_times(mp: MicroPython) -> None:
    board = boot(mp, start_us=7_000_000)
    board.send(SyncRequest(token=42))
    board.poll()
    responses = [m for m in board.received() if isinstance(m, SyncResponse)]
    assert responses == [SyncResponse(token=42, rx_us=7_000_000, tx_us=7_000_000)]


def test_heartbeat_every_half_second_with_event_counts(mp: MicroPython) -> None:
    board = boot(mp, start_us=0)
    board.drive(0, 0)
    board.advance(500_000)
    board.poll()
    beats = [m for m in board.received() if isinstance(m, Heartbeat)]
    assert beats == [Heartbeat(t_us=500_000, next_event_seq=1, oldest_unacked=0, dropped=0)]


def test_unacknowledged_events_are_sent_again_after_a_reconnect(mp: MicroPython) -> None:
    board = boot(mp)
    for i in range(3):
        board.drive(0, i % 2)
        board.advance(30_000)
    board.poll()
    first = edges(board.received())
    assert [e.event_seq for e in first] == [0, 1, 2]
    board.send(Ack(next_event_seq=2))
    board.poll()
    assert edges(board.received()) == []
    board.send(HelloRequest())
    board.poll()
    again = board.received()
    assert isinstance(again[0], Hello) and again[0].oldest_unacked == 2
    assert edges(again) == first[2:]


def test_resend_request_after_a_gap_and_resend_after_silence(mp: MicroPython) -> None:
    board = boot(mp)
    for i in range(4):
        board.drive(0, i % 2)
        board.advance(30_000)
    board.poll()
    assert len(edges(board.received())) == 4
    board.send(Ack(next_event_seq=1, resend=True))
    board.poll()
    assert [e.event_seq for e in edges(board.received())] == [1, 2, 3]
    board.advance(600_000)  # no acknowledgement for longer than RESEND_MS
    board.poll()
    assert [e.event_seq for e in edges(board.received())] == [1, 2, 3]
    board.send(Ack(next_event_seq=4))
    board.advance(600_000)
    board.poll()
    assert edges(board.received()) == []


def test_full_ring_drops_new_events_and_counts_them(mp: MicroPython) -> None:
    board = boot(mp, debounce_us=10)
    for _ in range(130):  # 260 edges into a ring of 256, none acknowledged
        board.mp.exec("M.Pin.pins[2].drive(0)\nM.advance(20)\nM.Pin.pins[2].drive(1)\nM.advance(20)")
    board.advance(500_000)
    board.poll()
    got = board.received()
    assert len(edges(got)) == 256
    (beat,) = [m for m in got if isinstance(m, Heartbeat)]
    assert (beat.next_event_seq, beat.dropped) == (256, 4)


def test_garbage_and_bad_frames_from_the_host_are_skipped(mp: MicroPython) -> None:
    board = boot(mp)
    board.send_raw(b"\x13\x37\xff\x00" + b"\x05" * 100 + b"\x00")
    wire = bytearray(HelloRequest().payload())
    board.send_raw(bytes(wire) + b"\x02\x01\x00")
    board.send(SyncRequest(token=1))
    board.poll()
    assert [m for m in board.received() if isinstance(m, SyncResponse)][0].token == 1
    assert int(mp.exec("print(b.rx_errors)")) >= 2


def test_resend_timer_starts_when_an_event_is_sent_not_at_the_last_ack(mp: MicroPython) -> None:
    board = boot(mp)
    board.drive(0, 0)
    board.poll()
    board.send(Ack(next_event_seq=1))
    board.advance(2_000_000)  # a long quiet spell after the last acknowledgement
    board.poll()
    board.received()
    board.drive(0, 1)
    board.poll()
    board.advance(10_000)
    board.poll()
    assert [e.event_seq for e in edges(board.received())] == [1]


def test_stop_ends_the_main_loop_and_unhooks_the_inputs(mp: MicroPython) -> None:
    board = boot(mp)
    board.send(Stop())
    board.poll()
    assert mp.exec("print(b.running)").strip() == "False"
    board.drive(0, 0)
    board.advance(1_000_000)
    board.poll()
    assert board.received() == []  # no events, no heartbeats
    assert int(mp.exec("print(M.IRQ_CALLS[0])")) == 0
