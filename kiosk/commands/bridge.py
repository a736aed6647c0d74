"""``kiosk bridge``: watch the Pico's inputs and the health of the link, live.

``kiosk bridge --url /dev/serial/by-id/usb-...`` prints each input event as it
arrives (input id, press or release, its time on ``CLOCK_MONOTONIC`` and the
time's uncertainty) and the link's health (connected, syncing, lost; clock
drift and residual) every ``--every`` seconds. ``--emulate`` runs an emulated
board on a pty instead, with a player pressing a random input now and then, so
the whole path can be seen without hardware. ``--stop-firmware`` asks the board
to stop and give its USB serial port back to the MicroPython REPL, so that
``mpremote`` can update the firmware (a reset starts the bridge again).
"""

from __future__ import annotations

import argparse
import math
import queue
import random
import sys
import time
from typing import Any

from firmware_bridge import (
    BoardModel,
    BridgeError,
    BridgeEvent,
    BridgeReader,
    EmulatedBoard,
    encode_frame,
    open_port,
)
from firmware_bridge.protocol import Stop

MAX_DRIFT_PPM = 10_000.0
"""An emulated crystal's drift limit: 1 %, far beyond any real board's (tens of ppm)."""


def register(sub: Any) -> None:
    p = sub.add_parser(
        "bridge",
        help="show the microcontroller's input events and link health live",
        description="Connects to the slap-pad and button microcontroller (or an emulated one) and prints "
        "every input event with its mapped time, and the link's health.",
    )
    p.add_argument("--url", default="", help="the board's serial port: a /dev/serial/by-id/... path, "
                   "a pty, or a pyserial URL such as spy:///dev/ttyACM0")
    p.add_argument("--emulate", action="store_true", help="run an emulated board instead of a real one")
    p.add_argument("--drift-ppm", type=float, default=50.0, help="emulated clock drift (default 50)")
    p.add_argument("--jitter-us", type=int, default=1000,
                   help="emulated USB latency jitter, ± µs (default 1000)")
    p.add_argument("--seconds", type=float, default=0.0, help="stop after this long (0: until Ctrl-C)")
    p.add_argument("--every", type=float, default=2.0, help="seconds between health lines (default 2)")
    p.add_argument("--stop-firmware", action="store_true",
                   help="stop the bridge firmware so mpremote can reach the REPL (until the board is reset)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if not args.url and not args.emulate:
        print("kiosk bridge: give --url (the board's serial port) or --emulate", file=sys.stderr)
        return 2
    if not 0 <= args.seconds < math.inf or not 0 < args.every < math.inf:
        print("kiosk bridge: --seconds must be a number >= 0 and --every one > 0 (seconds)", file=sys.stderr)
        return 2
    if not math.isfinite(args.drift_ppm) or abs(args.drift_ppm) > MAX_DRIFT_PPM or args.jitter_us < 0:
        print(
            f"kiosk bridge: --drift-ppm must be within ±{MAX_DRIFT_PPM:g} and --jitter-us zero or more",
            file=sys.stderr,
        )
        return 2
    if args.stop_firmware:
        return stop_firmware(args.url)
    events: queue.SimpleQueue[BridgeEvent] = queue.SimpleQueue()
    board = None
    url = args.url
    if args.emulate:
        board = EmulatedBoard(BoardModel(drift_ppm=args.drift_ppm, jitter_us=args.jitter_us))
        url = board.start()
        print(f"emulated board on {url}")
    rng = random.Random()
    start = time.monotonic_ns()
    end = start + int(args.seconds * 1e9) if args.seconds else None
    next_health = start
    next_press = start + 1_000_000_000
    try:
        with BridgeReader(url, on_event=events.put) as reader:
            while end is None or time.monotonic_ns() < end:
                now = time.monotonic_ns()
                if now >= next_health:
                    print(reader.health.describe(), flush=True)
                    next_health = now + int(args.every * 1e9)
                if board is not None and now >= next_press:
                    board.press(rng.randrange(board.model.inputs))
                    next_press = now + int(rng.uniform(0.3, 1.5) * 1e9)
                wake = min(next_health, next_press if board is not None else next_health)
                if end is not None:
                    wake = min(wake, end)
                try:
                    event = events.get(timeout=max(0.0, (wake - now) / 1e9))
                except queue.Empty:
                    continue
                print(format_event(event, start), flush=True)
    finally:
        if board is not None:
            board.stop()
    return 0


def format_event(event: BridgeEvent, start_ns: int) -> str:
    """One line per event, times relative to the command's start.

    >>> format_event(BridgeEvent("e661", 1, 4, 9, True, 123, 2_500_000_000, 180_000), 0)
    '    2.500000 s  input  9 press    ±0.180 ms  seq 4'
    """
    edge = "press" if event.active else "release"
    note = "  (edge inside the lockout: time approximate)" if event.approximate else ""
    return (f"{(event.t_ns - start_ns) / 1e9:12.6f} s  input {event.input:2d} {edge:8s} "
            f"±{event.t_err_ns / 1e6:.3f} ms  seq {event.event_seq}{note}")


def stop_firmware(url: str) -> int:
    """Sends :class:`~firmware_bridge.protocol.Stop` to the board on ``url``."""
    if not url:
        print("kiosk bridge: --stop-firmware needs --url (the board's serial port)", file=sys.stderr)
        return 2
    try:
        port = open_port(url)
        try:
            port.write(encode_frame(Stop(), 0))
            port.flush()
        finally:
            port.close()
    except (BridgeError, OSError) as exc:
        print(f"kiosk bridge: {exc}", file=sys.stderr)
        return 2
    print(f"stop sent to {url}: the board's USB serial is the MicroPython REPL until it is reset")
    return 0
