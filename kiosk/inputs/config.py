"""Which inputs the kiosk has, as the ``[inputs]`` table of ``kiosk.toml`` sets them, and starting them.

Example::

    [inputs]
    gpio = { "GPIO17" = "call:0", "GPIO27" = "call:1", "GPIO22" = "nav:select", "GPIO23" = "nav:back" }
    bridge_url = "/dev/serial/by-id/usb-MicroPython_Board_in_FS_mode_e6613897135c2a29-if00"
    bridge = { "0" = "call:0", "1" = "call:1", "8" = "slap:0", "9" = "slap:1" }
    lockout_ms = 20

``bridge_url = "emulate"`` runs an emulated board (no hardware); an empty
``gpio`` table or ``bridge_url`` leaves that source out. Keyboard input is
always there (the display thread feeds it).

>>> cfg = InputsConfig.from_mapping({"gpio": {"17": "call:0"}, "lockout_ms": 15})
>>> cfg.gpio, cfg.lockout_ms, cfg.bridge_url
({'17': 'call:0'}, 15.0, '')
>>> InputsConfig.from_mapping({"gpoi": {}})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
kiosk.inputs.events.InputConfigError: unknown key 'gpoi' in [inputs] (known keys: gpio, ...)
"""

from __future__ import annotations

import dataclasses
import queue
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from kiosk.inputs.bridge import DEFAULT_BRIDGE_MAP, BridgeInputs, parse_bridge_map
from kiosk.inputs.events import InputBinding, InputConfigError, InputEvent
from kiosk.inputs.gpio import GpioInputs
from kiosk.inputs.keyboard import DEFAULT_KEYS, KeyboardInput

__all__ = ["InputsConfig", "InputSources", "start_inputs", "EMULATE"]

EMULATE = "emulate"
"""The ``bridge_url`` that runs an emulated board instead of a real one."""


def _strings(name: str, value: Any) -> dict[str, str]:
    if not isinstance(value, Mapping) or not all(isinstance(v, str) for v in value.values()):
        raise InputConfigError(
            f"[inputs] {name} must be a table of NAME = \"KIND:ARG\" strings, not {value!r}"
        )
    return {str(k): v for k, v in value.items()}


@dataclass(frozen=True, slots=True)
class InputsConfig:
    """The kiosk's input sources; every field has a working default (keyboard only)."""

    gpio: Mapping[str, str] = field(default_factory=dict)
    """GPIO pin name -> binding (``"call:0"``, ``"nav:select"``...)."""
    gpio_releases: bool = False
    """Also report GPIO button releases."""
    lockout_ms: float = 20.0
    """Leading-edge debounce of the GPIO buttons."""
    bridge_url: str = ""
    """The Pico's serial port (``/dev/serial/by-id/...`` or a pyserial URL), ``"emulate"``, or empty."""
    bridge: Mapping[str, str] = field(
        default_factory=lambda: {str(k): v for k, v in DEFAULT_BRIDGE_MAP.items()}
    )
    """Firmware input id -> binding."""
    bridge_releases: bool = False
    keys: Mapping[str, str] = field(default_factory=lambda: dict(DEFAULT_KEYS))
    """Key name -> binding, for the keyboard."""

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> InputsConfig:
        """Builds the config from a TOML table; raises :class:`InputConfigError` naming a bad key."""
        names = [f.name for f in dataclasses.fields(cls)]
        for key in data:
            if key not in names:
                raise InputConfigError(f"unknown key {key!r} in [inputs] (known keys: {', '.join(names)})")
        values: dict[str, Any] = {}
        for key in ("gpio", "bridge", "keys"):
            if key in data:
                values[key] = _strings(key, data[key])
        for key in ("gpio_releases", "bridge_releases"):
            if key in data:
                if not isinstance(data[key], bool):
                    raise InputConfigError(f"[inputs] {key} must be true or false, not {data[key]!r}")
                values[key] = data[key]
        if "lockout_ms" in data:
            lockout = data["lockout_ms"]
            if isinstance(lockout, bool) or not isinstance(lockout, int | float) or not 0 <= lockout <= 1000:
                raise InputConfigError(
                    f"[inputs] lockout_ms must be a number of ms in 0..1000, not {lockout!r}"
                )
            values["lockout_ms"] = float(lockout)
        if "bridge_url" in data:
            if not isinstance(data["bridge_url"], str):
                raise InputConfigError(f"[inputs] bridge_url must be a string, not {data['bridge_url']!r}")
            values["bridge_url"] = data["bridge_url"]
        cfg = cls(**values)
        cfg.check()
        return cfg

    def check(self) -> None:
        """Parses every binding once, so that a typo fails at start-up with its name."""
        for table in (self.gpio, self.keys):
            for name, text in table.items():
                try:
                    InputBinding.parse(text)
                except InputConfigError as exc:
                    raise InputConfigError(f"[inputs] {name!r}: {exc}") from None
        parse_bridge_map(self.bridge)


class InputSources:
    """The running input sources; :meth:`close` stops them all."""

    def __init__(self, keyboard: KeyboardInput, gpio: GpioInputs | None, bridge: BridgeInputs | None) -> None:
        self.keyboard = keyboard
        self.gpio = gpio
        self.bridge = bridge

    def close(self) -> None:
        if self.bridge is not None:
            self.bridge.close()
        if self.gpio is not None:
            self.gpio.close()

    def __enter__(self) -> InputSources:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def start_inputs(config: InputsConfig, events: queue.SimpleQueue[InputEvent], *,
                 pin_factory: Any = None) -> InputSources:
    """Starts every configured source, all putting their events on ``events``.

    ``pin_factory`` is gpiozero's (None: the one ``GPIOZERO_PIN_FACTORY`` names).
    Raises :class:`InputConfigError` when a source cannot start (a pin in use,
    no GPIO on this machine), naming it and the fix.
    """
    keyboard = KeyboardInput(events, config.keys)
    gpio = None
    if config.gpio:
        try:
            gpio = GpioInputs(config.gpio, events, pin_factory=pin_factory, releases=config.gpio_releases,
                              lockout_ns=int(config.lockout_ms * 1e6))
        except InputConfigError as exc:
            raise InputConfigError(
                f"{exc} (without GPIO hardware, set GPIOZERO_PIN_FACTORY=mock or empty [inputs] gpio)"
            ) from None
    bridge = None
    if config.bridge_url:
        emulate = config.bridge_url == EMULATE
        bridge = BridgeInputs("" if emulate else config.bridge_url, events, bindings=config.bridge,
                              releases=config.bridge_releases, emulate=emulate)
        try:
            bridge.start()
        except Exception:
            if gpio is not None:
                gpio.close()
            raise
    return InputSources(keyboard, gpio, bridge)
