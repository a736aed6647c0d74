"""Keyboard and touch input for development and for screens, as the same input events.

The display thread reads pygame's events (pygame wants that); for each key
press it calls :meth:`KeyboardInput.key_down` with the key's name
(``pygame.key.name(event.key)``) and the time, and this module turns it
into an :class:`~kiosk.inputs.events.InputEvent` on the queue. This module
does not import pygame, so it stays testable and the seam stays narrow.

Default keys: ``1``..``8`` are the call buttons of seats 0..7, ``F1``..``F8``
their stuck buttons, the arrow keys, Return (select), Escape (back) and ``u``
(undo) navigate, and ``a`` ``s`` ``d`` ``f`` ``g`` ``h`` ``j`` ``k`` are the
slap pads of foundation spots 0..7.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable, Mapping

from kiosk.inputs.events import InputBinding, InputEvent

__all__ = ["KeyboardInput", "TouchInput", "DEFAULT_KEYS", "KEYBOARD_ERR_NS"]

KEYBOARD_ERR_NS = 8_000_000
"""A key's time is read when the display thread sees the event: good to about a frame."""

DEFAULT_KEYS: dict[str, str] = {
    **{str(n + 1): f"call:{n}" for n in range(8)},
    **{f"f{n + 1}": f"stuck:{n}" for n in range(8)},
    **{key: f"slap:{n}" for n, key in enumerate("asdfghjk")},
    "up": "nav:up",
    "down": "nav:down",
    "left": "nav:left",
    "right": "nav:right",
    "return": "nav:select",
    "enter": "nav:select",
    "escape": "nav:back",
    "backspace": "nav:back",
    "u": "nav:undo",
}
"""Key names (as ``pygame.key.name`` gives them) to bindings."""


class KeyboardInput:
    """Maps key names to bindings and puts an event on the queue for each bound key press.

    >>> q = queue.SimpleQueue()
    >>> KeyboardInput(q).key_down("3", t_ns=10)
    True
    >>> event = q.get()
    >>> event.source, event.kind, event.seat, event.t_ns
    ('keyboard', 'call', 2, 10)
    """

    def __init__(self, events: queue.SimpleQueue[InputEvent], keys: Mapping[str, str] | None = None, *,
                 clock: Callable[[], int] = time.monotonic_ns) -> None:
        self.events = events
        self.clock = clock
        self.keys = {name.lower(): InputBinding.parse(b) for name, b in (keys or DEFAULT_KEYS).items()}

    def key_down(self, name: str, t_ns: int | None = None) -> bool:
        """Handles one key press; returns True when the key is bound."""
        binding = self.keys.get(name.lower())
        if binding is None:
            return False
        self.events.put(binding.event("keyboard", self.clock() if t_ns is None else t_ns, KEYBOARD_ERR_NS))
        return True


class TouchInput:
    """Taps on on-screen buttons (a seat's call button drawn on a touchscreen, nav buttons)."""

    def __init__(self, events: queue.SimpleQueue[InputEvent], *, clock: Callable[[], int] = time.monotonic_ns,
                 err_ns: int = 20_000_000) -> None:
        self.events = events
        self.clock = clock
        self.err_ns = err_ns

    def tap(self, binding: InputBinding | str, t_ns: int | None = None) -> None:
        """Puts the event of a tap on the on-screen control ``binding`` (``kind:arg``) on the queue."""
        bound = InputBinding.parse(binding) if isinstance(binding, str) else binding
        self.events.put(bound.event("touch", self.clock() if t_ns is None else t_ns, self.err_ns))
