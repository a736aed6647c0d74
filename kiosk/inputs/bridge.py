"""The Pico's buttons and slap pads as kiosk input events.

A :class:`~firmware_bridge.reader.BridgeReader` owns the serial port; each
of its events (firmware input id, edge, time already on ``CLOCK_MONOTONIC``)
is looked up in a pin map of input id to binding and put on the kiosk's
queue. The default map matches the firmware's default wiring: inputs 0..7
are the call buttons of seats 0..7, inputs 8..15 the slap pads of foundation
spots 0..7.
"""

from __future__ import annotations

import queue
from collections.abc import Callable, Mapping
from typing import Any

from firmware_bridge import BoardModel, BridgeEvent, BridgeHealth, BridgeReader, EmulatedBoard
from kiosk.inputs.events import InputBinding, InputConfigError, InputEvent

__all__ = ["BridgeInputs", "DEFAULT_BRIDGE_MAP", "parse_bridge_map"]

DEFAULT_BRIDGE_MAP: dict[int | str, str] = {
    **{n: f"call:{n}" for n in range(8)},
    **{8 + n: f"slap:{n}" for n in range(8)},
}


def parse_bridge_map(mapping: Mapping[Any, str]) -> dict[int, InputBinding]:
    """Parses ``{input id: "kind:arg"}`` (ids as ints or digit strings, as TOML keys are).

    >>> parse_bridge_map({"9": "slap:1"})
    {9: InputBinding.parse('slap:1')}
    """
    out: dict[int, InputBinding] = {}
    for key, text in mapping.items():
        if isinstance(key, str) and not key.isdigit():
            raise InputConfigError(f"bridge input id {key!r} is not a number 0..15")
        number = int(key)
        if not 0 <= number <= 15:
            raise InputConfigError(f"bridge input id {number} is out of range 0..15")
        out[number] = InputBinding.parse(text)
    return out


class BridgeInputs:
    """Reads the Pico on ``url`` (or an emulated board) and puts its inputs on ``events``.

    ``emulate=True`` starts an :class:`~firmware_bridge.emulator.EmulatedBoard`
    on a pty and reads that instead of ``url`` (running without the hardware);
    :attr:`board` is then the emulated board, for pressing its inputs.
    """

    def __init__(
        self,
        url: str,
        events: queue.SimpleQueue[InputEvent],
        *,
        bindings: Mapping[Any, str] | None = None,
        releases: bool = False,
        emulate: bool = False,
        model: BoardModel | None = None,
        on_health: Callable[[BridgeHealth], None] | None = None,
    ) -> None:
        self.events = events
        self.releases = releases
        self.bindings = parse_bridge_map(DEFAULT_BRIDGE_MAP if bindings is None else bindings)
        self.board: EmulatedBoard | None = EmulatedBoard(model) if emulate else None
        self.url = self.board.link if self.board is not None else url
        self.unbound = 0
        """Events from inputs the map does not name (ignored)."""
        self.reader = BridgeReader(self.url, on_event=self._on_event, on_health=on_health)

    def start(self) -> BridgeInputs:
        if self.board is not None:
            self.board.start()
        self.reader.start()
        return self

    def close(self) -> None:
        self.reader.stop()
        if self.board is not None:
            self.board.stop()

    def __enter__(self) -> BridgeInputs:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def health(self) -> BridgeHealth:
        return self.reader.health

    def _on_event(self, event: BridgeEvent) -> None:
        binding = self.bindings.get(event.input)
        if binding is None:
            self.unbound += 1
            return
        if event.active or self.releases:
            self.events.put(binding.event("bridge", event.t_ns, event.t_err_ns, pressed=event.active))
