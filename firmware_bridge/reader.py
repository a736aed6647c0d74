"""The reader thread: owns the serial port, keeps the board's events flowing and its clock mapped.

Modelled on pyserial's ``serial.threaded.ReaderThread``: the port is opened
by URL with ``serial.serial_for_url`` (``/dev/serial/by-id/...``, a pty path,
``loop://``, ``spy://...`` to hexdump the traffic), bytes go to the pure
:class:`~firmware_bridge.protocol.FrameParser`, and what it decodes is
handled here. The thread:

- sends a :class:`~firmware_bridge.protocol.HelloRequest` on every (re)connect,
  so the board re-sends what the host has not acknowledged;
- delivers each input event exactly once, in board order, by board id, boot id
  and event seq; a gap (a frame lost on the wire) asks the board to re-send;
- acknowledges only what it delivered, so an unplug loses nothing;
- pings the board (:class:`~firmware_bridge.protocol.SyncRequest`) and fits the
  clock mapping (:class:`~firmware_bridge.clocksync.ClockSync`);
- reopens the port after an unplug or a silent board (no heartbeat).

Events reach the caller through ``on_event``, called on the reader thread:
it must only hand the event on (put it on a queue), never block.
"""

from __future__ import annotations

import enum
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import serial

from firmware_bridge import protocol as p
from firmware_bridge.clocksync import ClockSync, SyncSample
from firmware_bridge.errors import PortError

__all__ = ["LinkState", "BridgeEvent", "BridgeHealth", "BridgeReader", "open_port"]

log = logging.getLogger(__name__)


class LinkState(enum.Enum):
    """The health of the link, as the kiosk shows it."""

    LOST = "lost"
    """No port, or the board stopped answering: events cannot arrive (they wait on the board)."""
    SYNCING = "syncing"
    """The board is connected but its clock is not mapped yet: events are held back."""
    CONNECTED = "connected"
    """Events arrive with mapped times."""


@dataclass(frozen=True, slots=True)
class BridgeEvent:
    """One input edge from the board, its time mapped onto the host's monotonic clock."""

    board_id: str
    """The board's unique id, 16 hex digits."""
    boot_id: int
    event_seq: int
    input: int
    """The firmware's input id (position in its pin list)."""
    active: bool
    """True for a press or strike, False for a release."""
    mcu_us: int
    t_ns: int
    """Host ``CLOCK_MONOTONIC`` time of the edge, ns."""
    t_err_ns: int
    """Half-width of the time's uncertainty, ns."""
    approximate: bool = False
    """The edge was inside a debounce lockout; its time is the lockout's end."""
    t_bound_ns: int | None = None
    """The most ``t_ns`` can be off, ns: a worst case from the clock-sync round trips, where
    ``t_err_ns`` is a statistic (:meth:`~firmware_bridge.clocksync.ClockFit.bound_ns`); None: not stated."""


@dataclass(frozen=True, slots=True)
class BridgeHealth:
    """A snapshot of the link for the display and ``kiosk bridge``."""

    state: LinkState = LinkState.LOST
    url: str = ""
    board_id: str = ""
    boot_id: int = 0
    firmware: str = ""
    drift_ppm: float = 0.0
    residual_ns: int = 0
    """RMS residual of the clock fit."""
    err_ns: int = 0
    """Uncertainty of a time mapped now."""
    sync_samples: int = 0
    min_rtt_ns: int = 0
    events: int = 0
    """Events delivered."""
    duplicates: int = 0
    """Re-sent events recognised and dropped."""
    gaps: int = 0
    """Times a missing event made the host ask for a re-send."""
    dropped_on_board: int = 0
    """Events the board lost because its ring was full (the host was away too long)."""
    frame_errors: int = 0
    connects: int = 0
    last_error: str = ""

    def describe(self) -> str:
        """One line for a status bar or a terminal."""
        if self.state is LinkState.LOST:
            return f"bridge {self.url}: lost" + (f" ({self.last_error})" if self.last_error else "")
        return (
            f"bridge {self.board_id} fw {self.firmware}: {self.state.value}, "
            f"drift {self.drift_ppm:+.1f} ppm, residual {self.residual_ns / 1000:.0f} us, "
            f"err {self.err_ns / 1000:.0f} us, {self.events} events, {self.duplicates} duplicates, "
            f"{self.dropped_on_board} dropped on board"
        )


def open_port(url: str) -> serial.SerialBase:
    """Opens the board's port by URL; raises :class:`~firmware_bridge.errors.PortError` naming it."""
    try:
        port = serial.serial_for_url(url, baudrate=115200, timeout=0.01, write_timeout=0.5)
    except (serial.SerialException, OSError, ValueError) as exc:
        raise PortError(f"cannot open {url!r}: {exc}") from exc
    return port


class _Drop(Exception):
    """Ends one connection (the board went silent); the thread reconnects."""


class BridgeReader:
    """Reads one board on ``url`` in a thread; events go to ``on_event``.

    ``clock`` is the host's monotonic clock in ns (injected for tests). The
    link counts as lost when nothing arrives for ``silence_s`` (heartbeats come
    every 0.5 s); the port is retried every ``retry_s``.
    """

    def __init__(
        self,
        url: str,
        *,
        on_event: Callable[[BridgeEvent], None],
        on_health: Callable[[BridgeHealth], None] | None = None,
        clock: Callable[[], int] = time.monotonic_ns,
        sync: ClockSync | None = None,
        retry_s: float = 0.1,
        silence_s: float = 2.0,
        sync_interval_s: float = 0.25,
        fast_sync_s: float = 2.0,
        opener: Callable[[str], Any] = open_port,
    ) -> None:
        self.url = url
        self.on_event = on_event
        self.on_health = on_health
        self.clock = clock
        self.sync = sync or ClockSync()
        self.retry_s = retry_s
        self.silence_s = silence_s
        self.sync_interval_s = sync_interval_s
        self.fast_sync_s = fast_sync_s
        self.opener = opener
        self._stop = threading.Event()
        self._changed = threading.Condition()
        self._thread: threading.Thread | None = None
        self._health = BridgeHealth(url=url)
        self._parser = p.FrameParser()
        self._tx_seq = 0
        self._board: tuple[bytes, int] | None = None
        self._expected = 0
        self._held: list[p.InputEdge] = []
        self._pending_sync: dict[int, int] = {}
        self._token = 0
        self._next_sync = 0
        self._sync_started = 0
        self._last_resend_ask: tuple[int, int] = (-1, 0)
        self._last_out: tuple[int, int] | None = None
        self._port: Any = None
        self._greeted = False
        """True once this connection's hello arrived: until then the board may be another boot."""

    # -- life cycle ------------------------------------------------------------------------
    def start(self) -> BridgeReader:
        self._thread = threading.Thread(target=self._run, name=f"bridge-reader {self.url}", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def __enter__(self) -> BridgeReader:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def health(self) -> BridgeHealth:
        with self._changed:
            return self._health

    def wait_for(self, state: LinkState, timeout: float) -> bool:
        """Waits until the link is in ``state``; returns False on timeout."""
        with self._changed:
            return self._changed.wait_for(lambda: self._health.state is state, timeout)

    def wait_until(self, predicate: Callable[[BridgeHealth], bool], timeout: float) -> bool:
        """Waits until ``predicate(health)`` holds; returns False on timeout."""
        with self._changed:
            return self._changed.wait_for(lambda: predicate(self._health), timeout)

    def _set(self, **changes: Any) -> None:
        with self._changed:
            self._health = replace(self._health, **changes)
            health = self._health
            self._changed.notify_all()
        if self.on_health is not None:
            self.on_health(health)

    # -- the thread ------------------------------------------------------------------------
    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                port = self.opener(self.url)
            except PortError as exc:
                if self._health.state is not LinkState.LOST or self._health.last_error != str(exc):
                    self._set(state=LinkState.LOST, last_error=str(exc))
                self._stop.wait(self.retry_s)
                continue
            self._port = port
            try:
                self._session(port)
            except (serial.SerialException, OSError, _Drop) as exc:
                log.info("bridge %s: connection ended: %s", self.url, exc)
                self._set(state=LinkState.LOST, last_error=str(exc) or type(exc).__name__)
            finally:
                self._port = None
                try:
                    port.close()
                except (serial.SerialException, OSError):
                    pass
            if not self._stop.is_set():
                self._stop.wait(self.retry_s)
        self._set(state=LinkState.LOST, last_error="stopped")

    def _session(self, port: Any) -> None:
        self._parser.reset()
        self._pending_sync.clear()
        self._greeted = False
        self._send(p.HelloRequest())
        last_rx = self.clock()
        hello_asked = last_rx
        while not self._stop.is_set():
            data = port.read(max(1, port.in_waiting))
            now = self.clock()
            if data:
                last_rx = now
                delivered = False
                for message in self._parser.iter_messages(data):
                    delivered |= self._handle(message, now)
                if delivered:
                    self._send(p.Ack(self._expected))
                errors = sum(self._parser.errors.values())
                if errors != self._health.frame_errors:
                    self._set(frame_errors=errors)
            if now - last_rx > self.silence_s * 1e9:
                raise _Drop(f"no data from the board for {self.silence_s:g} s")
            if not self._greeted and now - hello_asked > 0.5e9:
                self._send(p.HelloRequest())
                hello_asked = now
            if self._greeted and now >= self._next_sync:
                self._ping(now)

    def _send(self, message: p.Message) -> None:
        self._port.write(p.encode_frame(message, self._tx_seq))
        self._tx_seq = (self._tx_seq + 1) & 0xFFFF

    def _ping(self, now: int) -> None:
        self._token = (self._token + 1) & 0xFFFFFFFF
        if len(self._pending_sync) > 16:
            self._pending_sync.clear()
        sent = self.clock()
        self._pending_sync[self._token] = sent
        self._send(p.SyncRequest(self._token))
        fast = now - self._sync_started < self.fast_sync_s * 1e9 or not self.sync.synced
        self._next_sync = now + int((0.05 if fast else self.sync_interval_s) * 1e9)

    # -- messages ----------------------------------------------------------------------------
    def _handle(self, message: p.Message, now: int) -> bool:
        """Handles one message; returns True when it delivered an event."""
        if isinstance(message, p.Hello):
            self._hello(message, now)
        elif isinstance(message, p.SyncResponse):
            sent = self._pending_sync.pop(message.token, None)
            if sent is not None:
                self.sync.add(SyncSample(sent, message.rx_us, message.tx_us, now))
                self._sync_changed()
                return self._flush()
        elif isinstance(message, p.InputEdge):
            return self._edge(message)
        elif isinstance(message, p.Heartbeat):
            if message.dropped != self._health.dropped_on_board:
                log.warning("bridge %s: the board dropped %d events (ring full)", self.url, message.dropped)
                self._set(dropped_on_board=message.dropped)
        return False

    def _hello(self, hello: p.Hello, now: int) -> None:
        self._greeted = True
        key = (hello.board_id, hello.boot_id)
        if key != self._board:
            if self._board is None or self._board[0] != hello.board_id or self._board[1] != hello.boot_id:
                # Another board, or the same one rebooted: its clock and its seqs start again.
                self.sync.reset()
                self._held.clear()
                self._last_out = None
                self._sync_started = now
                self._expected = hello.oldest_unacked
            self._board = key
        self._next_sync = now
        self._set(
            state=LinkState.CONNECTED if self.sync.synced else LinkState.SYNCING,
            board_id=hello.board_hex, boot_id=hello.boot_id, firmware=hello.firmware,
            connects=self._health.connects + 1, last_error="",
        )
        self._send(p.Ack(self._expected))

    def _edge(self, edge: p.InputEdge) -> bool:
        if not self._greeted or self._board is None:
            return False  # whose events these are is known only from this connection's hello
        if edge.event_seq < self._expected or any(h.event_seq == edge.event_seq for h in self._held):
            self._set(duplicates=self._health.duplicates + 1)
            return False
        if edge.event_seq > self._expected + len(self._held):
            # A frame went missing: ask once per gap (and again after a while) for a re-send.
            want = self._expected + len(self._held)
            now = self.clock()
            if self._last_resend_ask[0] != want or now - self._last_resend_ask[1] > 0.2e9:
                self._last_resend_ask = (want, now)
                self._send(p.Ack(self._expected, resend=True))
                self._set(gaps=self._health.gaps + 1)
            return False
        self._held.append(edge)
        return self._flush()

    def _flush(self) -> bool:
        """Delivers held events once the clock is mapped."""
        if not self.sync.synced or not self._held or self._board is None:
            return False
        board_hex = self._board[0].hex()
        for edge in self._held:
            t_ns, err_ns = self.sync.to_host(edge.t_us)
            line_ns = t_ns
            bound_ns = self.sync.bound_ns(edge.t_us)
            if edge.approximate:
                err_ns += 20_000_000
                bound_ns += 20_000_000
            if self._last_out is not None and edge.t_us > self._last_out[0] and t_ns <= self._last_out[1]:
                # A refit moved the line back: keep the board's order, and its gap.
                t_ns = self._last_out[1] + (edge.t_us - self._last_out[0]) * 1000
            bound_ns += abs(t_ns - line_ns)  # the worst case is about the fitted line's time
            if self._last_out is None or edge.t_us >= self._last_out[0]:
                self._last_out = (edge.t_us, t_ns)
            self.on_event(BridgeEvent(board_hex, self._board[1], edge.event_seq, edge.input, edge.active,
                                      edge.t_us, t_ns, err_ns, edge.approximate, bound_ns))
        self._expected += len(self._held)
        self._set(events=self._health.events + len(self._held))
        self._held.clear()
        return True

    def _sync_changed(self) -> None:
        fit = self.sync.fit
        if fit is None:
            self._set(sync_samples=self.sync.sample_count)
            return
        now_us = fit.mcu_ref_us
        self._set(
            state=LinkState.CONNECTED,
            drift_ppm=fit.drift_ppm,
            residual_ns=int(fit.residual_ns),
            err_ns=fit.error_ns(now_us),
            sync_samples=self.sync.sample_count,
            min_rtt_ns=self.sync.min_rtt_ns or 0,
        )
