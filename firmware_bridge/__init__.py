"""The serial link to the button and slap-pad microcontroller.

A Raspberry Pi Pico running ``firmware/pico_bridge.py`` stamps every input
edge with its microsecond clock; this package speaks its framed protocol
(``docs/bridge-protocol.md``), keeps a reader thread on the port, maps the
board's clock onto the host's ``CLOCK_MONOTONIC`` and delivers each event
once. :class:`EmulatedBoard` stands in for the board without hardware.
"""

from firmware_bridge.clocksync import ClockFit, ClockSync, NotSyncedError, SyncSample
from firmware_bridge.emulator import BoardModel, EmulatedBoard, TruthEdge, simulate_clock_sync
from firmware_bridge.errors import BridgeError, BridgeWarning, FrameError, PortError
from firmware_bridge.protocol import FrameParser, Message, decode_frame, encode_frame
from firmware_bridge.reader import BridgeEvent, BridgeHealth, BridgeReader, LinkState, open_port

__all__ = [
    "BoardModel",
    "BridgeError",
    "BridgeEvent",
    "BridgeHealth",
    "BridgeReader",
    "BridgeWarning",
    "ClockFit",
    "ClockSync",
    "EmulatedBoard",
    "FrameError",
    "FrameParser",
    "LinkState",
    "Message",
    "NotSyncedError",
    "PortError",
    "SyncSample",
    "TruthEdge",
    "decode_frame",
    "encode_frame",
    "open_port",
    "simulate_clock_sync",
]
