"""What the camera thread and the table feeds put on the app's one queue.

Input sources put their own input events there; the camera pipeline, running
off the display thread, puts :class:`SeenEvent` (a table event the tracker
found) and :class:`CameraStatus` (lost, back, or a note). The loop drains them
all on the display thread.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kiosk.games.referee import TableEvent

__all__ = ["SeenEvent", "CameraStatus", "CalibrationView"]


@dataclass(frozen=True, slots=True)
class SeenEvent:
    """A table event from the vision pipeline; ``event.t_ns`` is on the monotonic clock."""

    event: TableEvent
    at: tuple[float, float] | None = None
    """Where on the table (mm) a foundation play's pile lies, when the pipeline can say: the slap
    pads' join (:mod:`kiosk.app.slap_join`) finds the pad under it by this point."""


@dataclass(frozen=True, slots=True)
class CameraStatus:
    """The camera's health: ``ok`` False shows a banner until an ``ok`` status arrives."""

    ok: bool
    message: str
    t_ns: int = 0


@dataclass(frozen=True, slots=True)
class CalibrationView:
    """The latest camera picture with what calibration found on it (for the calibrate screen)."""

    image: Any
    """RGB ``numpy`` array H×W×3, or None before the first frame."""
    markers: dict[int, tuple[tuple[float, float], ...]] = field(default_factory=dict)
    """Detected marker id -> its corner points in image pixels."""
    expected: tuple[int, ...] = ()
    """The marker ids the table mat carries."""
    zones: dict[str, tuple[tuple[float, float], ...]] = field(default_factory=dict)
    """Zone name (a seat, ``foundations``) -> its outline in image pixels."""
    message: str = ""
    """What calibration says (e.g. why it failed)."""

    @property
    def missing(self) -> tuple[int, ...]:
        """Expected marker ids not detected."""
        return tuple(m for m in self.expected if m not in self.markers)
