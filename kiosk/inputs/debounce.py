"""Leading-edge debounce: the first edge is the event, then the line is ignored for a while.

A referee needs the time a contact first closed, so the debounce must not
delay the edge (as gpiozero's ``bounce_time`` and most filters do): the first
edge passes with its own timestamp, and edges within ``lockout_ns`` after it
are bounce. The firmware does the same on the Pico.

>>> d = LeadingEdge(lockout_ns=20_000_000)
>>> d.accept(1_000_000_000), d.accept(1_000_300_000), d.accept(1_025_000_000)
(True, False, True)
"""

from __future__ import annotations

__all__ = ["LeadingEdge"]


class LeadingEdge:
    """Accepts an edge when the line has been quiet for ``lockout_ns`` since the last accepted one."""

    def __init__(self, *, lockout_ns: int = 20_000_000) -> None:
        if lockout_ns < 0:
            raise ValueError(f"lockout_ns must be >= 0, not {lockout_ns!r}")
        self.lockout_ns = lockout_ns
        self._last: int | None = None

    def accept(self, t_ns: int) -> bool:
        """True when the edge at ``t_ns`` is an event, False when it is bounce."""
        if self._last is not None and 0 <= t_ns - self._last < self.lockout_ns:
            return False
        self._last = t_ns
        return True

    def reset(self) -> None:
        self._last = None
