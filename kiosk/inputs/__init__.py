"""Every input of the kiosk on one queue: GPIO buttons, the Pico's pads, keyboard, touch.

Each source turns its inputs into the same frozen
:class:`~kiosk.inputs.events.InputEvent` (source, kind, control, seat or
spot, ``t_ns`` on ``CLOCK_MONOTONIC``, ``t_err_ns``) and puts it on one
``queue.SimpleQueue`` that the app's main loop drains. No handler touches
pygame, the display or game state.
"""

from kiosk.inputs.bridge import DEFAULT_BRIDGE_MAP, BridgeInputs, parse_bridge_map
from kiosk.inputs.config import EMULATE, InputsConfig, InputSources, start_inputs
from kiosk.inputs.debounce import LeadingEdge
from kiosk.inputs.events import KINDS, NAV_CONTROLS, InputBinding, InputConfigError, InputEvent
from kiosk.inputs.gpio import GpioInputs, TimestampedButton, edge_time_ns
from kiosk.inputs.keyboard import DEFAULT_KEYS, KeyboardInput, TouchInput

__all__ = [
    "BridgeInputs",
    "DEFAULT_BRIDGE_MAP",
    "DEFAULT_KEYS",
    "EMULATE",
    "GpioInputs",
    "InputBinding",
    "InputConfigError",
    "InputEvent",
    "InputSources",
    "InputsConfig",
    "KINDS",
    "KeyboardInput",
    "LeadingEdge",
    "NAV_CONTROLS",
    "TimestampedButton",
    "TouchInput",
    "edge_time_ns",
    "parse_bridge_map",
    "start_inputs",
]
