"""The values that cross the seams of :mod:`vision`: frames in, sightings out.

Plain frozen dataclasses, no OpenCV or onnxruntime, so the tracker, the kiosk
and the tests can use them without the model.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["Frame", "CardSighting", "UNKNOWN", "BACK"]

UNKNOWN = "UNKNOWN"
"""The card label of a sighting whose identity is below the confidence threshold."""
BACK = "BACK"
"""The card label of a face-down card."""


@dataclass(frozen=True, slots=True)
class Frame:
    """One camera frame with its timing.

    ``t_ns`` is the sensor timestamp of the start of exposure of the first row
    on the host's monotonic clock; with a rolling shutter, row ``y`` is read
    ``y * row_time_ns`` later (0 for a global shutter).
    """

    image: Any
    """The pixels: a ``numpy`` array, H×W×3, BGR (OpenCV's order), uint8."""
    t_ns: int
    index: int = 0
    row_time_ns: int = 0
    exposure_ns: int = 0

    def row_t_ns(self, y: float) -> int:
        """The time at which image row ``y`` was captured."""
        return self.t_ns + int(round(y * self.row_time_ns))


@dataclass(frozen=True, slots=True)
class CardSighting:
    """One physical card found in one frame.

    ``card`` is card-model notation (``"10H"``, ``"JOKER"``, ``"G-3"``,
    ``"HAZARD"``), :data:`BACK` for a face-down card or :data:`UNKNOWN` when the
    identity's confidence is below the threshold.
    """

    card: str
    score: float
    """Confidence of the identity, 0..1."""
    box: tuple[float, float, float, float]
    """Axis-aligned box of the visible part of the card: x0, y0, x1, y1 in pixels."""
    quad: tuple[tuple[float, float], ...] | None = None
    """The card's four outline corners when the whole outline is visible."""
    corners: tuple[tuple[float, float, float, float], ...] = field(default_factory=tuple)
    """Boxes of its visible corner indices."""
    alternatives: tuple[tuple[str, float], ...] = ()
    """The likeliest faces its indices read as, with their probabilities, best first (empty for a card
    read from no index). For an ``UNKNOWN`` card the best of them is what it was not sure enough of: a
    tracker that sees the card in many frames may add up that evidence. Not part of the JSON output."""

    @property
    def center(self) -> tuple[float, float]:
        if self.quad:
            xs = [p[0] for p in self.quad]
            ys = [p[1] for p in self.quad]
            return (sum(xs) / len(xs), sum(ys) / len(ys))
        x0, y0, x1, y1 = self.box
        return ((x0 + x1) / 2, (y0 + y1) / 2)

    def to_json(self) -> dict[str, Any]:
        return {
            "card": self.card,
            "score": round(float(self.score), 4),
            "box": [round(float(v), 1) for v in self.box],
            "quad": [[round(float(x), 1), round(float(y), 1)] for x, y in self.quad] if self.quad else None,
            "corners": [[round(float(v), 1) for v in c] for c in self.corners],
        }
