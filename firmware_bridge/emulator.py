"""An emulated board: the firmware's behaviour in a host thread, behind a pseudo-terminal.

It speaks the bridge protocol exactly as ``firmware/pico_bridge.py`` does
(hello, input events from a ring with acknowledgement and re-sending,
heartbeats, sync responses, lockout debounce), over a pty whose slave side
the host opens by path like a real ``/dev/ttyACM0``. What a real board adds is
configurable: its clock's offset and drift, the USB latency and its jitter,
and switch bounce. An unplug closes the pty; a replug makes a new one and
points the same stable link (like ``/dev/serial/by-id/...``) at it.

Glossary: *truth* is the host monotonic time at which an edge really
happened; tests and benchmarks compare the host's mapped time with it.

The emulator is for tests, benchmarks and running the kiosk without the
hardware (``kiosk bridge --emulate``); it never opens a real port.
"""

from __future__ import annotations

import heapq
import os
import random
import select
import tempfile
import threading
import time
import tty
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from firmware_bridge import protocol as p
from firmware_bridge.clocksync import ClockSync, SyncSample
from firmware_bridge.errors import BridgeError

__all__ = ["BoardModel", "TruthEdge", "EmulatedBoard", "simulate_clock_sync"]

TICKS_PERIOD = 1 << 30


@dataclass(frozen=True, slots=True)
class BoardModel:
    """What makes an emulated board imperfect, in the units a datasheet would use."""

    offset_us: int = 123_456_789
    """Board time at host monotonic time 0."""
    drift_ppm: float = 50.0
    """How much faster the board's crystal runs than the host clock."""
    latency_us: int = 1_000
    """Mean one-way USB latency."""
    jitter_us: int = 1_000
    """Each one-way latency is uniform in latency ± jitter."""
    bounce_edges: int = 0
    """Extra edges after each press and release (contact bounce)."""
    bounce_us: int = 150
    """Spacing of the bounce edges."""
    debounce_us: int = 20_000
    """The firmware's lockout after an accepted edge."""
    turnaround_us: int = 40
    """Time the board takes to answer a sync request."""
    frame_loss: float = 0.0
    """Probability that a frame the board sends is lost or corrupted on the way."""
    inputs: int = 16
    board_id: bytes = bytes.fromhex("e6613897135c2a29")
    boot_id: int = 0x5EED0001
    firmware: str = "1.0.0-emulated"
    heartbeat_s: float = 0.5
    resend_s: float = 0.5
    ring_size: int = 256

    def mcu_us(self, host_ns: int) -> int:
        """The board's clock reading at host monotonic time ``host_ns``."""
        return self.offset_us + int(host_ns * (1 + self.drift_ppm * 1e-6)) // 1000

    def one_way_ns(self, rng: random.Random) -> int:
        return max(0, int((self.latency_us + rng.uniform(-self.jitter_us, self.jitter_us)) * 1000))


@dataclass(frozen=True, slots=True)
class TruthEdge:
    """An event the emulated board recorded, with when it really happened."""

    event_seq: int
    input: int
    active: bool
    host_ns: int
    mcu_us: int


@dataclass(order=True)
class _Pending:
    due_ns: int
    order: int
    data: bytes = field(compare=False)


class EmulatedBoard:
    """A board on a pty, run by a thread; use as a context manager or call :meth:`start`/:meth:`stop`.

    ``link`` is the stable path the host opens (a symlink to the current pty);
    by default one in a fresh temporary folder.
    """

    def __init__(self, model: BoardModel | None = None, *, rng: random.Random | None = None,
                 clock: Callable[[], int] = time.monotonic_ns,
                 link: str | os.PathLike[str] | None = None) -> None:
        self.model = model or BoardModel()
        self.rng = rng or random.Random(1)
        self.clock = clock
        self._tmp: tempfile.TemporaryDirectory[str] | None = None
        if link is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="emulated-board-")
            link = Path(self._tmp.name) / "usb-Raspberry_Pi_Pico_E6613897135C2A29-if00"
        self.link = str(link)
        self.truth: list[TruthEdge] = []
        """Every event recorded, by seq."""
        self.dropped = 0
        self.host_frames = 0
        """Frames received from the host."""
        self._lock = threading.RLock()
        self._master: int | None = None
        self._slave: int | None = None
        self._wake_r, self._wake_w = os.pipe()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._events: list[tuple[int, int, int]] = []   # (input, flags, mcu_us) by seq
        self._tail = 0
        self._sent = 0
        self._last_progress_ns = 0
        self._tx_seq = 0
        self._order = 0
        self._out: list[_Pending] = []
        self._last_due = 0
        self._parser = p.FrameParser()
        self._locked_until = [0] * self.model.inputs
        self._state = [False] * self.model.inputs
        self._next_heartbeat = 0
        self._plugged = False
        self.muted = False
        """While True the board sends nothing (hung firmware, USB still enumerated)."""

    # -- life cycle ---------------------------------------------------------------------
    def start(self) -> str:
        """Plugs the board in and starts its thread; returns the path to open."""
        now = self.clock()
        self._last_progress_ns = now
        self._next_heartbeat = now + int(self.model.heartbeat_s * 1e9)
        self.replug()
        self._thread = threading.Thread(target=self._run, name="emulated-board", daemon=True)
        self._thread.start()
        return self.link

    def stop(self) -> None:
        self._stop.set()
        self._wake()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self.unplug()
        os.close(self._wake_r)
        os.close(self._wake_w)
        if self._tmp is not None:
            self._tmp.cleanup()

    def __enter__(self) -> EmulatedBoard:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def unplug(self) -> None:
        """Pulls the USB cable: the host's port hangs up, frames in flight are lost."""
        with self._lock:
            self._plugged = False
            self._out.clear()
            for fd in (self._master, self._slave):
                if fd is not None:
                    os.close(fd)
            self._master = self._slave = None
            try:
                os.unlink(self.link)
            except FileNotFoundError:
                pass
        self._wake()

    def replug(self) -> None:
        """Plugs the cable back in: a new pty behind the same link; the board sends a hello."""
        with self._lock:
            if self._plugged:
                return
            master, slave = os.openpty()
            tty.setraw(slave)
            os.set_blocking(master, False)
            tmp = self.link + ".new"
            try:
                os.unlink(tmp)
            except FileNotFoundError:
                pass
            os.symlink(os.ttyname(slave), tmp)
            os.replace(tmp, self.link)
            self._master, self._slave = master, slave
            self._parser.reset()
            self._plugged = True
            self._queue(self._hello(), self.clock())
        self._wake()

    def inject(self, data: bytes) -> None:
        """Writes raw bytes to the host, as electrical noise or a confused board would."""
        with self._lock:
            self._order += 1
            due = max(self.clock(), self._last_due)
            self._last_due = due
            heapq.heappush(self._out, _Pending(due, self._order, data))
        self._wake()

    @property
    def plugged(self) -> bool:
        return self._plugged

    # -- inputs -------------------------------------------------------------------------
    def press(self, input_id: int, *, at_ns: int | None = None) -> int:
        """Presses a switch (or strikes a pad) at host time ``at_ns`` (now by default); returns it."""
        return self._edge(input_id, True, at_ns)

    def release(self, input_id: int, *, at_ns: int | None = None) -> int:
        return self._edge(input_id, False, at_ns)

    def _edge(self, input_id: int, active: bool, at_ns: int | None) -> int:
        if not 0 <= input_id < self.model.inputs:
            raise BridgeError(f"input {input_id} is not wired (the board has {self.model.inputs})")
        t = self.clock() if at_ns is None else at_ns
        m = self.model
        with self._lock:
            # Bounce: the line chatters after the real edge; the lockout swallows it.
            times = [t + k * m.bounce_us * 1000 for k in range(m.bounce_edges + 1)]
            for k, edge_ns in enumerate(times):
                level = active if k % 2 == 0 else not active
                if edge_ns < self._locked_until[input_id]:
                    continue
                self._locked_until[input_id] = edge_ns + m.debounce_us * 1000
                if level == self._state[input_id] and k > 0:
                    continue
                self._state[input_id] = level
                self._record(input_id, level, edge_ns)
        self._wake()
        return t

    def _record(self, input_id: int, active: bool, host_ns: int) -> None:
        seq = len(self._events)
        if seq - self._tail >= self.model.ring_size:
            self.dropped += 1
            return
        mcu = self.model.mcu_us(host_ns)
        self._events.append((input_id, p.EDGE_ACTIVE if active else 0, mcu))
        self.truth.append(TruthEdge(seq, input_id, active, host_ns, mcu))

    # -- the board's main loop -------------------------------------------------------------
    def _wake(self) -> None:
        try:
            os.write(self._wake_w, b"!")
        except OSError:
            pass

    def _run(self) -> None:
        while not self._stop.is_set():
            now = self.clock()
            with self._lock:
                self._tick(now)
                timeout_ns = self._next_heartbeat - now
                if self._out:
                    timeout_ns = min(timeout_ns, self._out[0].due_ns - now)
                fds = [self._wake_r] + ([self._master] if self._master is not None else [])
            try:
                ready, _, _ = select.select(fds, [], [], max(0.0, timeout_ns / 1e9))
            except OSError:
                # The cable was pulled (unplug closed the port) while the board waited on it: look
                # again with the descriptors as they are now.
                continue
            if self._wake_r in ready:
                os.read(self._wake_r, 4096)
            with self._lock:
                master = self._master
                if master is not None and master in ready:
                    try:
                        data = os.read(master, 4096)
                    except OSError:
                        data = b""
                    if data:
                        self._received(data, self.clock())

    def _tick(self, now: int) -> None:
        m = self.model
        if self._sent > self._tail and now - self._last_progress_ns >= m.resend_s * 1e9:
            self._sent = self._tail
            self._last_progress_ns = now
        if self._sent <= self._tail < len(self._events):
            self._last_progress_ns = now  # nothing was outstanding: the resend timer starts now
        while self._sent < len(self._events):
            seq = max(self._sent, self._tail)
            if seq >= len(self._events):
                break
            input_id, flags, mcu = self._events[seq]
            # An event cannot leave before it happened (a press scheduled in the future).
            happened = self.truth[seq].host_ns
            self._queue(p.InputEdge(seq, input_id, flags, mcu), max(now, happened))
            self._sent = seq + 1
        if now >= self._next_heartbeat:
            self._next_heartbeat = now + int(m.heartbeat_s * 1e9)
            hb = p.Heartbeat(m.mcu_us(now), len(self._events), self._tail, self.dropped)
            self._queue(hb, now)
        while self._out and self._out[0].due_ns <= now:
            item = heapq.heappop(self._out)
            if self.muted or (m.frame_loss and self.rng.random() < m.frame_loss):
                continue
            if self._master is not None:
                try:
                    os.write(self._master, item.data)
                except (BlockingIOError, OSError):
                    pass  # a full or gone pipe loses the frame; unacked events come again

    def _queue(self, message: p.Message, sent_ns: int) -> None:
        """Sends a frame that leaves the board at ``sent_ns``; it reaches the host one latency later."""
        if not self._plugged:
            return
        data = p.encode_frame(message, self._tx_seq)
        self._tx_seq = (self._tx_seq + 1) & 0xFFFF
        due = max(sent_ns + self.model.one_way_ns(self.rng), self._last_due)  # USB keeps order
        self._last_due = due
        self._order += 1
        heapq.heappush(self._out, _Pending(due, self._order, data))

    def _hello(self) -> p.Hello:
        m = self.model
        return p.Hello(m.board_id, m.boot_id, len(self._events), self._tail, m.inputs, m.firmware)

    def _received(self, data: bytes, now: int) -> None:
        m = self.model
        for message in self._parser.iter_messages(data):
            self.host_frames += 1
            # The pty handed the bytes over at once; the board sees them one USB latency later.
            arrived = now + m.one_way_ns(self.rng)
            if isinstance(message, p.HelloRequest):
                self._queue(self._hello(), now)
                self._sent = self._tail
                self._last_progress_ns = now
            elif isinstance(message, p.SyncRequest):
                answered = arrived + m.turnaround_us * 1000
                response = p.SyncResponse(message.token, m.mcu_us(arrived), m.mcu_us(answered))
                self._queue(response, max(now, answered))
            elif isinstance(message, p.Ack):
                seq = min(message.next_event_seq, len(self._events))
                if seq > self._tail:
                    self._tail = seq
                    self._last_progress_ns = now
                self._sent = max(self._sent, self._tail)
                if message.resend and self._tail <= seq < self._sent:
                    self._sent = seq
            elif isinstance(message, p.Configure):
                pass  # the emulator's lockout is its model's debounce_us


def simulate_clock_sync(
    model: BoardModel,
    *,
    seconds: float = 60.0,
    interval_s: float = 0.25,
    events_per_s: float = 20.0,
    rng: random.Random | None = None,
    sync: ClockSync | None = None,
    warmup_s: float = 5.0,
) -> list[int]:
    """Runs ping-pongs and events in simulated time; returns each event's mapping error (ns).

    The host sends a sync request every ``interval_s``; each one-way trip is
    drawn from the model's latency and jitter. Events happen at random
    (Poisson, ``events_per_s``) after ``warmup_s``, and each is mapped with the
    fit the host had at that moment, as the reader does.
    """
    rng = rng or random.Random(7)
    sync = sync or ClockSync()
    errors: list[int] = []
    t = 0
    end = int(seconds * 1e9)
    next_event = int(warmup_s * 1e9)
    step = int(interval_s * 1e9)
    while t < end:
        out = model.one_way_ns(rng)
        back = model.one_way_ns(rng)
        arrived = t + out
        answered = arrived + model.turnaround_us * 1000
        sync.add(SyncSample(t, model.mcu_us(arrived), model.mcu_us(answered), answered + back))
        t_next = t + step
        while next_event < t_next and next_event < end:
            if sync.fit is not None:
                mapped, _ = sync.to_host(model.mcu_us(next_event))
                errors.append(mapped - next_event)
            next_event += max(1, int(rng.expovariate(events_per_s) * 1e9))
        t = t_next
    return errors
