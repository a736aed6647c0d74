"""The one input event every source puts on the kiosk's input queue, and what an input means.

Glossary:

- *source*: where the input came from: ``"gpio"`` (a button on the Pi's
  header), ``"bridge"`` (the Pico's buttons and slap pads), ``"keyboard"``,
  ``"touch"``.
- *kind*: what it means at the table: ``"call"`` (a seat's call button:
  "Nerts!" in Nerts), ``"stuck"`` (a seat declares it is stuck), ``"slap"``
  (a card slapped onto a foundation spot's pad), ``"nav"`` (the kiosk's
  navigation: up, down, left, right, select, back, undo).
- *binding*: the meaning given to one physical input, written ``kind:arg``:
  ``call:2`` is seat 2's call button, ``slap:5`` the pad of foundation spot 5,
  ``nav:select`` the select button.

Times are the host's ``CLOCK_MONOTONIC`` in ns with their uncertainty
(``t_err_ns``, a half-width), as ``DESIGN.md`` ("Time") fixes.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["InputEvent", "InputBinding", "InputConfigError", "KINDS", "NAV_CONTROLS", "SOURCES"]

KINDS = ("call", "stuck", "slap", "nav")
"""The kinds of input the kiosk knows."""
NAV_CONTROLS = ("up", "down", "left", "right", "select", "back", "undo", "scores", "history", "mute")
"""The controls a ``nav`` input may name."""
SOURCES = ("gpio", "bridge", "keyboard", "touch")


class InputConfigError(ValueError):
    """An input binding or pin map the kiosk cannot use; the message names it and the fix."""


@dataclass(frozen=True, slots=True)
class InputBinding:
    """What one physical input means: a seat's call or stuck button, a slap pad, a nav control.

    >>> InputBinding.parse("call:2")
    InputBinding.parse('call:2')
    >>> InputBinding.parse("nav:select").control, InputBinding.parse("slap:5").index
    ('select', 5)
    """

    kind: str
    control: str
    """``"up"``... for nav; the seat or spot number as text for the others."""
    seat: int | None = None
    """For call and stuck: the seat button number, 0-based (the seating screen maps it to a seat)."""
    index: int | None = None
    """For slap: the foundation spot the pad is under, 0-based."""

    @classmethod
    def parse(cls, text: str) -> InputBinding:
        """Parses ``kind:arg``; raises :class:`InputConfigError` naming the problem."""
        kind, sep, arg = text.strip().partition(":")
        if not sep or kind not in KINDS or not arg:
            raise InputConfigError(
                f"input binding {text!r} is not KIND:ARG with KIND one of {', '.join(KINDS)} "
                "(e.g. 'call:0', 'slap:3', 'nav:select')"
            )
        if kind == "nav":
            if arg not in NAV_CONTROLS:
                raise InputConfigError(
                    f"input binding {text!r}: nav control must be one of {', '.join(NAV_CONTROLS)}"
                )
            return cls(kind, arg)
        if not arg.isdigit():
            raise InputConfigError(
                f"input binding {text!r}: {kind} needs a number (0-based), e.g. '{kind}:0'"
            )
        number = int(arg)
        if kind == "slap":
            return cls(kind, arg, index=number)
        return cls(kind, arg, seat=number)

    def __str__(self) -> str:
        return f"{self.kind}:{self.control}"

    def __repr__(self) -> str:
        return f"InputBinding.parse({str(self)!r})"

    def event(self, source: str, t_ns: int, t_err_ns: int = 0, *, pressed: bool = True) -> InputEvent:
        """The input event this binding produces at ``t_ns``."""
        return InputEvent(source, self.kind, self.control, t_ns, t_err_ns, seat=self.seat, index=self.index,
                          pressed=pressed)


@dataclass(frozen=True, slots=True)
class InputEvent:
    """One input from any source, as the main loop drains it from the queue.

    >>> event = InputBinding.parse("call:1").event("gpio", 5_000, 40)
    >>> event.kind, event.seat, event.t_ns, event.t_err_ns, event.pressed
    ('call', 1, 5000, 40, True)
    """

    source: str
    """``"gpio"``, ``"bridge"``, ``"keyboard"`` or ``"touch"``."""
    kind: str
    """``"call"``, ``"stuck"``, ``"slap"`` or ``"nav"``."""
    control: str
    """The nav control, or the seat or spot number as text."""
    t_ns: int
    """When it happened: host ``CLOCK_MONOTONIC`` ns (the edge's time, not the handler's)."""
    t_err_ns: int = 0
    """Uncertainty of ``t_ns`` (half-width), ns."""
    seat: int | None = None
    """Seat button number (0-based) for call and stuck."""
    index: int | None = None
    """Foundation spot (0-based) for slap."""
    pressed: bool = True
    """False for a release (sources report releases only where a binding asks for them)."""

    @property
    def err_ns(self) -> int:
        """``t_err_ns`` under the name the table log's events use."""
        return self.t_err_ns
