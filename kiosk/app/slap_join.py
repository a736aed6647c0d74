"""Slap pads time the foundation plays the camera sees (``rules/nerts.md`` §6.1, §12; ``DESIGN.md``, "Time").

A race for one foundation pile is decided by the two landings' times and uncertainties.
The camera times a landing to a few milliseconds at best; a slap pad under the pile,
read by the Pico on its microsecond clock, times it to about 0.1 ms. This module joins
the two: the camera says *which* card landed on *which* pile for *which* seat, the pad
says *when*.

Glossary:

- **slap**: a pressed ``slap:N`` input (:class:`~kiosk.inputs.events.InputEvent`, kind
  ``"slap"``): the hand slapped the pad of foundation **spot** ``N`` as it laid a card.
- **spot**: where a pad lies on the mat: one of the mat's foundation slots
  (:class:`vision.layout.NertsLayout`, 16 slots in two rows of eight, numbered row by row
  from the top-left corner as the camera sees the mat: 0..7 the top row, 8..15 the
  bottom row). :attr:`SlapSettings.spots` names the slot under each pad; by default pad
  ``N`` lies under slot ``N`` (the top row), as the firmware's default wiring numbers
  the pads 0..7.
- **play position**: where the tracker found the pile a ``foundation_play`` landed on
  (table millimetres; the camera thread attaches it, see :mod:`kiosk.app.camera`). A
  pile whose position lies closer than :attr:`SlapSettings.radius_mm` to a spot's slot
  centre is on that spot's pad.
- **consistent**: a slap at ``t_s`` (uncertainty ``e_s``) fits a play the camera timed
  at ``t_c`` (uncertainty ``e_c``) when ``|t_s - t_c| <= e_c + e_s + margin``; the
  margin allows for the hand slapping a little before or after the card comes to rest.
  A slap before the play's ``t_lift`` never fits (the card was still in the hand).

The join: each slap is buffered under its spot. When the camera reports a foundation
play on a spot, the earliest unused consistent slap of that spot times it (earliest, so
two plays on one pile reported in the camera's order take the pad's slaps in the same
order), and is used up. The play then carries the slap's ``t`` and ``err``, and keeps
the camera's own measurement in ``t_cam`` / ``err_cam`` with ``slap`` = the spot
(``docs/table-log.md``: optional fields the referee does not read). A play with no
consistent slap keeps its camera time. A slap that no play takes is dropped once
:attr:`SlapSettings.keep_ms` of newer events have passed (longer than the tracker's
reporting delay, so a play reported late still finds its slap).

Times are whatever clock both sides share (the kiosk's ``CLOCK_MONOTONIC``); the module
reads no clock: "now" is the newest time it has been shown.

>>> from kiosk.inputs import InputBinding
>>> from kiosk.games.referee import TableEvent
>>> join = SlapJoin()
>>> join.offer(InputBinding.parse("slap:3").event("bridge", 5_000_100_000, 100_000))
True
>>> play = TableEvent("foundation_play", 5_004_000_000, 8_000_000, "Ana", {"card": "AH", "pile": "F1"})
>>> timed = join.join(play, join.spots.centre(3))
>>> timed.t_ns, timed.err_ns, timed.data["slap"], str(timed.data["t_cam"])
(5000100000, 100000, 3, '5.004')
>>> join.join(play, join.spots.centre(3)).t_ns  # the slap is used up: camera time
5004000000
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from kiosk.games.referee import TableEvent, format_seconds
from kiosk.inputs.events import InputEvent
from kiosk.tablelog import seconds_to_ns

__all__ = [
    "SlapSettings",
    "SlapConfigError",
    "FoundationSpots",
    "Slap",
    "SlapJoin",
    "SLAP_FIELDS",
    "MAT_FOUNDATION_SLOTS",
]

NS_PER_MS = 1_000_000

SLAP_FIELDS = ("slap", "t_cam", "err_cam")
"""The fields a slap-timed ``foundation_play`` gains (``docs/table-log.md``)."""

MAT_FOUNDATION_SLOTS = 16
"""Foundation slots on the table mat (:class:`vision.layout.NertsLayout`'s default)."""


class SlapConfigError(ValueError):
    """A ``[slaps]`` setting the kiosk cannot use; the message names the key and the fix."""


@dataclass(frozen=True, slots=True)
class SlapSettings:
    """The ``[slaps]`` table of ``kiosk.toml``; every field has a working default.

    >>> SlapSettings.from_mapping({"margin_ms": 20, "spots": [8, 9, 10, 11]}).spots
    (8, 9, 10, 11)
    >>> SlapSettings.from_mapping({"margin": 20})
    Traceback (most recent call last):
    ...
    kiosk.app.slap_join.SlapConfigError: unknown key 'margin' in [slaps] (known keys: enabled, ...)
    """

    enabled: bool = True
    """Join slaps to foundation plays (false: slap inputs are ignored, as without pads)."""
    margin_ms: float = 15.0
    """How far a slap may lie outside the camera time's uncertainty and still be that play's."""
    keep_ms: float = 3000.0
    """How long an unused slap waits for its play (the tracker reports a landing up to 1.5 s late)."""
    spots: tuple[int, ...] = tuple(range(8))
    """The mat's foundation slot (0..15) under each pad: ``spots[N]`` is the slot of ``slap:N``."""
    radius_mm: float = 43.0
    """A pile closer than this to a pad's slot centre is on that pad (half the slots' 86 mm pitch)."""

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> SlapSettings:
        """Builds the settings from a TOML table; raises :class:`SlapConfigError` naming a bad key."""
        names = [f.name for f in dataclasses.fields(cls)]
        for key in data:
            if key not in names:
                raise SlapConfigError(f"unknown key {key!r} in [slaps] (known keys: {', '.join(names)})")
        values: dict[str, Any] = {}
        if "enabled" in data:
            if not isinstance(data["enabled"], bool):
                raise SlapConfigError(f"[slaps] enabled must be true or false, got {data['enabled']!r}")
            values["enabled"] = data["enabled"]
        for key in ("margin_ms", "keep_ms", "radius_mm"):
            if key in data:
                value = data[key]
                if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0:
                    raise SlapConfigError(f"[slaps] {key} must be a number of zero or more, got {value!r}")
                values[key] = float(value)
        if "spots" in data:
            spots = data["spots"]
            if (
                not isinstance(spots, (list, tuple))
                or not all(isinstance(s, int) and not isinstance(s, bool) for s in spots)
                or not all(0 <= s < MAT_FOUNDATION_SLOTS for s in spots)
                or len(set(spots)) != len(spots)
            ):
                raise SlapConfigError(
                    f"[slaps] spots must list the mat's foundation slot (0..{MAT_FOUNDATION_SLOTS - 1}) "
                    f"under each pad, pad 0 first, no slot twice (e.g. [0, 1, 2, 3]), got {spots!r}"
                )
            values["spots"] = tuple(spots)
        return cls(**values)


class FoundationSpots:
    """Which pad a table point lies on: the nearest pad's slot centre closer than ``radius_mm``.

    >>> spots = FoundationSpots({0: (100.0, 50.0), 1: (186.0, 50.0)}, radius_mm=43.0)
    >>> spots.spot_at(110.0, 60.0), spots.spot_at(180.0, 40.0), spots.spot_at(143.0, 150.0)
    (0, 1, None)
    """

    def __init__(self, centres: Mapping[int, tuple[float, float]], *, radius_mm: float) -> None:
        self.centres = dict(centres)
        self.radius_mm = radius_mm

    @classmethod
    def on_mat(cls, settings: SlapSettings) -> FoundationSpots:
        """The pads of ``settings`` on the standard table mat's foundation slots.

        >>> spots = FoundationSpots.on_mat(SlapSettings())
        >>> sorted(spots.centres) == list(range(8)), spots.spot_at(*spots.centre(5))
        (True, 5)
        """
        from vision.layout import NertsLayout

        # The foundation grid does not depend on the seats; two seats are enough to build it.
        layout = NertsLayout(("S", "N"), foundation_slots=MAT_FOUNDATION_SLOTS)
        slots = {slot.index: (slot.pose.x, slot.pose.y) for slot in layout.foundation_slots()}
        centres = {pad: slots[slot] for pad, slot in enumerate(settings.spots)}
        return cls(centres, radius_mm=settings.radius_mm)

    def centre(self, spot: int) -> tuple[float, float]:
        """The table point (mm) of a pad's slot centre."""
        return self.centres[spot]

    def spot_at(self, x: float, y: float) -> int | None:
        """The pad under table point (x, y): the nearest slot centre closer than ``radius_mm``, else None."""
        best, best_d = None, self.radius_mm
        for spot, (cx, cy) in self.centres.items():
            d = math.hypot(x - cx, y - cy)
            if d < best_d:
                best, best_d = spot, d
        return best


@dataclass(frozen=True, slots=True)
class Slap:
    """One slap waiting for its play."""

    spot: int
    t_ns: int
    err_ns: int


class SlapJoin:
    """Buffers slaps per spot and gives a camera-seen foundation play the time of its slap.

    Used on one thread (the kiosk's loop): :meth:`offer` every queue item,
    :meth:`join` every table event from the camera before it is logged.
    """

    def __init__(self, settings: SlapSettings | None = None, spots: FoundationSpots | None = None) -> None:
        self.settings = settings if settings is not None else SlapSettings()
        self.spots = spots if spots is not None else FoundationSpots.on_mat(self.settings)
        self._waiting: dict[int, list[Slap]] = {}
        self._now = -(1 << 62)
        self.joined = 0
        """Plays timed by a slap."""
        self.expired = 0
        """Slaps that no play took before they expired."""

    @property
    def margin_ns(self) -> int:
        return round(self.settings.margin_ms * NS_PER_MS)

    def pending(self, spot: int | None = None) -> tuple[Slap, ...]:
        """The slaps still waiting for a play (on one spot, or on all), oldest first."""
        if spot is not None:
            return tuple(self._waiting.get(spot, ()))
        return tuple(sorted((s for v in self._waiting.values() for s in v), key=lambda s: s.t_ns))

    def offer(self, item: Any) -> bool:
        """Takes ``item`` if it is a slap (buffered under its spot) and returns True; anything
        else (another input, a release, a table event) is left alone: False."""
        if not isinstance(item, InputEvent) or item.kind != "slap" or item.index is None:
            return False
        if item.pressed:
            self._advance(item.t_ns)
            self._waiting.setdefault(item.index, []).append(Slap(item.index, item.t_ns, item.t_err_ns))
            self._waiting[item.index].sort(key=lambda s: s.t_ns)
        return True

    def join(self, event: TableEvent, at: tuple[float, float] | None) -> TableEvent:
        """``event`` timed by its slap when it is a foundation play at table point ``at`` (mm) with
        a consistent slap waiting on that point's spot; otherwise ``event`` unchanged."""
        self._advance(event.t_ns)
        if event.type != "foundation_play" or at is None:
            return event
        spot = self.spots.spot_at(*at)
        if spot is None:
            return event
        waiting = self._waiting.get(spot, [])
        earliest = self._earliest_lift(event)
        for k, slap in enumerate(waiting):
            if earliest is not None and slap.t_ns < earliest:
                continue
            if abs(slap.t_ns - event.t_ns) <= event.err_ns + slap.err_ns + self.margin_ns:
                del waiting[k]
                self.joined += 1
                data = {
                    **event.data,
                    "slap": spot,
                    "t_cam": Decimal(format_seconds(event.t_ns)),
                    "err_cam": Decimal(format_seconds(event.err_ns)),
                }
                return TableEvent(event.type, slap.t_ns, slap.err_ns, event.seat, data, event.line)
        return event

    @staticmethod
    def _earliest_lift(event: TableEvent) -> int | None:
        """The play's ``t_lift`` in ns (a slap before it is not this card's), None if absent or bad."""
        value = event.data.get("t_lift")
        if value is None:
            return None
        try:
            return seconds_to_ns(value, "t_lift")
        except ValueError:
            return None

    def _advance(self, t_ns: int) -> None:
        """Moves "now" to ``t_ns`` if later, and drops the slaps older than ``keep_ms`` before it."""
        if t_ns <= self._now:
            return
        self._now = t_ns
        horizon = t_ns - round(self.settings.keep_ms * NS_PER_MS)
        for spot, waiting in self._waiting.items():
            keep = [s for s in waiting if s.t_ns >= horizon]
            self.expired += len(waiting) - len(keep)
            self._waiting[spot] = keep
