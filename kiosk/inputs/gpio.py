"""Buttons on the Pi's GPIO header, with the kernel's edge timestamp.

Wire each button between a GPIO pin and ground (the internal pull-up holds
the line high; pressed reads low). Pins are gpiozero names (``17``,
``"GPIO17"``, ``"BOARD11"``); the back end comes from ``pin_factory`` (lgpio
on a Pi 5, ``MockFactory`` in tests).

gpiozero hands each edge's kernel timestamp (lgpio passes the line event's
time through as ``ticks``, in seconds) to the device's ``_fire_events`` and
then forgets it: ``when_pressed`` callbacks get no time. So
:class:`TimestampedButton` overrides that hook to keep the ticks, and
:func:`edge_time_ns` puts them on ``CLOCK_MONOTONIC``: the GPIO character
device stamps with the monotonic clock by default, older kernels and some
drivers with the realtime clock, and a factory without timestamps (the
mock, RPi.GPIO) uses the monotonic clock at the callback. Debounce is ours
(:class:`~kiosk.inputs.debounce.LeadingEdge`), with gpiozero's
``bounce_time=None``, so the first edge keeps its true time.

Handlers run on gpiozero's thread (inline in the caller's thread under
``MockFactory``) and only put :class:`~kiosk.inputs.events.InputEvent` values
on the queue.
"""

from __future__ import annotations

import math
import queue
import time
from collections.abc import Callable, Mapping
from typing import Any

from gpiozero import Button

from kiosk.inputs.debounce import LeadingEdge
from kiosk.inputs.events import InputBinding, InputConfigError, InputEvent

__all__ = ["TimestampedButton", "GpioInputs", "edge_time_ns"]

CALLBACK_ERR_NS = 5_000_000
"""Uncertainty of a time read in the callback when the edge's own time is unknown."""
MAX_EDGE_AGE_NS = 2_000_000_000
"""An edge timestamp older than this (or in the future) is not from the clock we guessed."""


def edge_time_ns(ticks_s: float, *, mono_ns: int, real_ns: int) -> tuple[int, int]:
    """Puts an edge's gpiozero ticks (seconds) on ``CLOCK_MONOTONIC``; returns ``(t_ns, t_err_ns)``.

    ``mono_ns`` and ``real_ns`` are the monotonic and realtime clocks read in
    the callback, just after the edge.

    >>> edge_time_ns(100.25, mono_ns=100_251_000_000, real_ns=1_700_000_000_000_000_000)
    (100250000000, 1000)
    >>> edge_time_ns(1_699_999_999.5, mono_ns=100_000_000_000, real_ns=1_700_000_000_000_000_000)[0]
    99500000000
    """
    t = int(round(ticks_s * 1e9))
    # A float of seconds holds about 16 digits: below 1 µs for uptimes, a few hundred ns for epoch times.
    rounding = max(1_000, int(math.ulp(ticks_s) * 1e9) + 1)
    if 0 <= mono_ns - t <= MAX_EDGE_AGE_NS:
        return t, rounding
    if 0 <= real_ns - t <= MAX_EDGE_AGE_NS:
        return mono_ns - (real_ns - t), rounding + 50_000  # two clock reads apart, NTP may slew between
    return mono_ns, CALLBACK_ERR_NS


class TimestampedButton(Button):  # type: ignore[misc]  # gpiozero ships no type hints
    """A gpiozero ``Button`` that reports every change with the edge's own ticks.

    ``on_edge(ticks, active)`` is called for each change of state (after
    gpiozero's own ``when_pressed`` and friends). ``bounce_time`` is None:
    debounce on the leading edge in the handler instead.
    """

    def __init__(self, pin: Any = None, *, on_edge: Callable[[float, bool], None],
                 pull_up: bool | None = True, active_state: bool | None = None,
                 pin_factory: Any = None) -> None:
        self._on_edge = on_edge
        super().__init__(pin, pull_up=pull_up, active_state=active_state, bounce_time=None,
                         pin_factory=pin_factory)

    def _fire_events(self, ticks: Any, new_active: Any) -> None:
        old = self._last_active
        super()._fire_events(ticks, new_active)
        if old is not None and bool(old) != bool(new_active):
            self._on_edge(float(ticks), bool(new_active))


class GpioInputs:
    """Buttons on GPIO pins, each bound to a meaning, putting events on one queue.

    ``bindings`` maps pin names to :class:`~kiosk.inputs.events.InputBinding`
    (or its ``kind:arg`` text). Presses are events; releases too when
    ``releases`` is True. ``lockout_ns`` is the leading-edge debounce.
    """

    def __init__(
        self,
        bindings: Mapping[Any, InputBinding | str],
        events: queue.SimpleQueue[InputEvent],
        *,
        pin_factory: Any = None,
        lockout_ns: int = 20_000_000,
        releases: bool = False,
        pull_up: bool = True,
        mono_clock: Callable[[], int] = time.monotonic_ns,
        real_clock: Callable[[], int] = time.time_ns,
    ) -> None:
        self.events = events
        self.releases = releases
        self.mono_clock = mono_clock
        self.real_clock = real_clock
        self.buttons: dict[Any, TimestampedButton] = {}
        try:
            for pin, binding in bindings.items():
                bound = InputBinding.parse(binding) if isinstance(binding, str) else binding
                debounce = LeadingEdge(lockout_ns=lockout_ns)
                self.buttons[pin] = TimestampedButton(
                    pin, on_edge=self._handler(bound, debounce), pull_up=pull_up, pin_factory=pin_factory
                )
        except InputConfigError:
            self.close()
            raise
        except Exception as exc:  # gpiozero's errors name the pin; say which binding it was
            self.close()
            raise InputConfigError(f"cannot set up GPIO button on pin {pin!r}: {exc}") from exc

    def _handler(self, binding: InputBinding, debounce: LeadingEdge) -> Callable[[float, bool], None]:
        def on_edge(ticks: float, active: bool) -> None:
            t_ns, err_ns = edge_time_ns(ticks, mono_ns=self.mono_clock(), real_ns=self.real_clock())
            if not debounce.accept(t_ns):
                return
            if active or self.releases:
                self.events.put(binding.event("gpio", t_ns, err_ns, pressed=active))

        return on_edge

    def close(self) -> None:
        """Releases the pins."""
        for button in self.buttons.values():
            button.close()
        self.buttons.clear()

    def __enter__(self) -> GpioInputs:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
