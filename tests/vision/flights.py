"""Card motion for hand-made tracker cases: where a card flying between two places is at a time."""

from __future__ import annotations

from vision.simulator.motion import SpeedProfile


def flight(
    start: tuple[float, float], end: tuple[float, float], t_lift: int, t_land: int, t: int
) -> tuple[float, float]:
    """Where a card flying from ``start`` to ``end`` is at ``t`` (slow start, even slowing to rest), as the
    simulator moves cards (``vision.simulator.motion``).

    >>> flight((0.0, 0.0), (10.0, 0.0), 0, 100, 100), flight((0.0, 0.0), (10.0, 0.0), 0, 100, -5)
    ((10.0, 0.0), (0.0, 0.0))
    """
    if t <= t_lift:
        return start
    if t >= t_land:
        return end
    s = SpeedProfile(0.25, 0.45).position((t - t_lift) / (t_land - t_lift))
    return (start[0] + (end[0] - start[0]) * s, start[1] + (end[1] - start[1]) * s)
