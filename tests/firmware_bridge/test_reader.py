"""The reader thread against the emulated board on a pty: events, order, unplug and replug."""

from __future__ import annotations

import queue
import time
from collections.abc import Iterator

import pytest

from firmware_bridge.emulator import BoardModel, EmulatedBoard
from firmware_bridge.errors import PortError
from firmware_bridge.reader import BridgeEvent, BridgeReader, LinkState, open_port

TIMEOUT = 10.0


@pytest.fixture
def board() -> Iterator[EmulatedBoard]:
    with EmulatedBoard(BoardModel(drift_ppm=50.0, jitter_us=1_000)) as b:
        yield b


def collect(q: queue.SimpleQueue[BridgeEvent], n: int) -> list[BridgeEvent]:
    return [q.get(timeout=TIMEOUT) for _ in range(n)]


def test_connects_syncs_and_reports_the_board(board: EmulatedBoard) -> None:
    q: queue.SimpleQueue[BridgeEvent] = queue.SimpleQueue()
    with BridgeReader(board.link, on_event=q.put) as reader:
        assert reader.wait_for(LinkState.CONNECTED, TIMEOUT)
        health = reader.health
    assert health.board_id == "e6613897135c2a29"
    assert health.firmware == "1.0.0-emulated"
    assert health.sync_samples >= 4
    assert "connected" in health.describe()


def test_press_and_release_arrive_once_with_mapped_times(board: EmulatedBoard) -> None:
    q: queue.SimpleQueue[BridgeEvent] = queue.SimpleQueue()
    with BridgeReader(board.link, on_event=q.put) as reader:
        assert reader.wait_for(LinkState.CONNECTED, TIMEOUT)
        t = board.press(5)
        board.release(5, at_ns=t + 40_000_000)
        press, release = collect(q, 2)
    assert (press.input, press.active, release.active) == (5, True, False)
    assert (press.event_seq, release.event_seq) == (0, 1)
    assert release.t_ns - press.t_ns == pytest.approx(40_000_000, abs=50_000)
    assert press.t_err_ns > 0
    # On a loaded machine the pty adds its own delays; the bound here is loose, the benchmark measures.
    assert abs(press.t_ns - t) < 5_000_000


def test_bounce_is_swallowed_by_the_lockout() -> None:
    model = BoardModel(bounce_edges=5, bounce_us=200, debounce_us=20_000)
    with EmulatedBoard(model) as bouncy:
        q: queue.SimpleQueue[BridgeEvent] = queue.SimpleQueue()
        with BridgeReader(bouncy.link, on_event=q.put) as reader:
            assert reader.wait_for(LinkState.CONNECTED, TIMEOUT)
            t = bouncy.press(0)
            bouncy.release(0, at_ns=t + 100_000_000)
            events = collect(q, 2)
            assert [e.active for e in events] == [True, False]
            assert reader.wait_until(lambda h: h.events == 2, TIMEOUT)


def test_events_100_us_apart_keep_their_order_under_1_ms_jitter(board: EmulatedBoard) -> None:
    q: queue.SimpleQueue[BridgeEvent] = queue.SimpleQueue()
    with BridgeReader(board.link, on_event=q.put) as reader:
        assert reader.wait_for(LinkState.CONNECTED, TIMEOUT)
        start = time.monotonic_ns() + 5_000_000
        for k in range(40):
            first, second = (0, 1) if k % 2 == 0 else (1, 0)
            t = start + k * 25_000_000
            board.press(first, at_ns=t)
            board.press(second, at_ns=t + 100_000)
        events = collect(q, 80)
    by_time = sorted(events, key=lambda e: e.t_ns)
    truth = {e.event_seq: e for e in board.truth}
    assert [e.event_seq for e in by_time] == sorted(truth)
    for a, b in zip(by_time[::2], by_time[1::2], strict=True):
        assert b.t_ns - a.t_ns == pytest.approx(100_000, abs=5_000)
        assert (a.input, b.input) == (truth[a.event_seq].input, truth[b.event_seq].input)


def test_unplug_and_replug_under_a_stream_loses_and_duplicates_nothing(board: EmulatedBoard) -> None:
    q: queue.SimpleQueue[BridgeEvent] = queue.SimpleQueue()
    with BridgeReader(board.link, on_event=q.put) as reader:
        assert reader.wait_for(LinkState.CONNECTED, TIMEOUT)
        now = time.monotonic_ns()
        for k in range(60):  # 2 ms apart, round the 16 inputs (each one every 32 ms, past its lockout)
            board.press(k % 16, at_ns=now + k * 2_000_000)
        first = collect(q, 10)
        board.unplug()  # mid-stream: frames in flight are lost
        assert reader.wait_for(LinkState.LOST, TIMEOUT)
        later = max(time.monotonic_ns(), now + 150_000_000)  # after the first batch's lockouts
        for k in range(60, 100):  # pressed while unplugged: kept on the board
            board.press(k % 16, at_ns=later + (k - 60) * 2_000_000)
        board.replug()
        replugged = time.monotonic_ns()
        assert reader.wait_until(lambda h: h.connects >= 2 and h.state is not LinkState.LOST, TIMEOUT)
        reconnect_s = (time.monotonic_ns() - replugged) / 1e9
        rest = collect(q, 90)
        assert reader.wait_until(lambda h: h.events == 100, TIMEOUT)
        with pytest.raises(queue.Empty):
            q.get(timeout=0.3)  # and nothing more: no duplicate slipped through
    assert len(board.truth) == 100
    seqs = [e.event_seq for e in first + rest]
    assert seqs == list(range(100))
    assert reconnect_s < 1.0


def test_garbage_on_the_line_is_counted_and_skipped(board: EmulatedBoard) -> None:
    q: queue.SimpleQueue[BridgeEvent] = queue.SimpleQueue()
    with BridgeReader(board.link, on_event=q.put) as reader:
        assert reader.wait_for(LinkState.CONNECTED, TIMEOUT)
        board.inject(b"\x00\x13\x37garbage\xff\xfe\x00\x02\x01\x00" + b"\x55" * 200)
        board.inject(b"\x00")
        board.press(2)
        (event,) = collect(q, 1)
        assert event.input == 2
        assert reader.wait_until(lambda h: h.frame_errors >= 2, TIMEOUT)


def test_missing_port_is_lost_with_the_url_then_connects_when_it_appears(tmp_path: object) -> None:
    link = f"{tmp_path}/usb-board-if00"
    q: queue.SimpleQueue[BridgeEvent] = queue.SimpleQueue()
    with BridgeReader(link, on_event=q.put) as reader:
        assert reader.wait_until(lambda h: h.state is LinkState.LOST and link in h.last_error, TIMEOUT)
        assert link in reader.health.describe()
        with EmulatedBoard(link=link):
            assert reader.wait_for(LinkState.CONNECTED, TIMEOUT)


def test_a_rebooted_board_starts_a_new_sequence() -> None:
    with EmulatedBoard(BoardModel(boot_id=1)) as first:
        link = first.link
        q: queue.SimpleQueue[BridgeEvent] = queue.SimpleQueue()
        with BridgeReader(link, on_event=q.put) as reader:
            assert reader.wait_for(LinkState.CONNECTED, TIMEOUT)
            first.press(0)
            (a,) = collect(q, 1)
            first.unplug()
            assert reader.wait_for(LinkState.LOST, TIMEOUT)
            with EmulatedBoard(BoardModel(boot_id=2), link=link) as second:
                assert reader.wait_until(lambda h: h.boot_id == 2 and h.state is LinkState.CONNECTED, TIMEOUT)
                second.press(0)
                (b,) = collect(q, 1)
    assert (a.boot_id, a.event_seq, b.boot_id, b.event_seq) == (1, 0, 2, 0)


def test_open_port_names_the_url_in_its_error() -> None:
    with pytest.raises(PortError, match="/nonexistent/tty"):
        open_port("/nonexistent/tty")
    port = open_port("loop://")
    port.close()


def test_a_lossy_line_still_delivers_every_event_once_and_in_order() -> None:
    with EmulatedBoard(BoardModel(frame_loss=0.15)) as lossy:
        q: queue.SimpleQueue[BridgeEvent] = queue.SimpleQueue()
        with BridgeReader(lossy.link, on_event=q.put) as reader:
            assert reader.wait_for(LinkState.CONNECTED, TIMEOUT)
            now = time.monotonic_ns()
            for k in range(40):
                lossy.press(k % 16, at_ns=now + k * 3_000_000)
            events = collect(q, 40)
            assert reader.wait_until(lambda h: h.gaps > 0, TIMEOUT)
    assert [e.event_seq for e in events] == list(range(40))


def test_a_silent_board_is_lost_and_comes_back(board: EmulatedBoard) -> None:
    q: queue.SimpleQueue[BridgeEvent] = queue.SimpleQueue()
    with BridgeReader(board.link, on_event=q.put, silence_s=0.6) as reader:
        assert reader.wait_for(LinkState.CONNECTED, TIMEOUT)
        board.muted = True
        board.press(1)
        assert reader.wait_until(lambda h: h.state is LinkState.LOST and "no data" in h.last_error, TIMEOUT)
        board.muted = False
        (event,) = collect(q, 1)
        assert reader.wait_for(LinkState.CONNECTED, TIMEOUT)
    assert (event.input, event.event_seq) == (1, 0)
