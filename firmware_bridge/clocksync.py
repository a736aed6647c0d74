"""Mapping the board's microsecond clock onto the host's ``CLOCK_MONOTONIC``.

Glossary:

- *ping-pong*: the host writes a :class:`~firmware_bridge.protocol.SyncRequest`
  at host time ``host_tx``; the board stamps its receive and send times
  (``mcu_rx``, ``mcu_tx``); the host reads the response at ``host_rx``. The
  board's midpoint ``(mcu_rx + mcu_tx) / 2`` happened near the host's midpoint
  ``(host_tx + host_rx) / 2``, wrong by half the difference of the two one-way
  delays, which is at most half the round trip.
- *round trip* (RTT): ``host_rx - host_tx`` less the board's own turnaround.
- *offset and drift*: the fitted line ``host_ns = a + b * (mcu_us - ref)``;
  ``b`` is 1000 ns per µs times ``1 + drift`` (crystals differ by tens of ppm).
- *residual*: the RMS distance of the samples used from the line; the error of a
  mapped time (``t_err_ns``) is twice the fit's standard error at that time plus
  a floor for what no fit sees (interrupt latency, the 1 µs tick). It is a
  statistic (about 95 % once the fit has many samples, less with the first few).
- *bound*: the error a mapped time cannot exceed (:meth:`ClockFit.bound_ns`).
  The board really read ``mcu_rx`` after ``host_tx`` and ``mcu_tx`` before
  ``host_rx``, so a midpoint is off by at most half its round trip (plus a
  tick); the fitted time is a fixed weighted sum of the midpoints, so its error
  is at most the same weighted sum of those halves. It holds for certain while
  the two clocks' rates keep a constant ratio over the samples used (with the
  nominal slope: differ by at most ``max_drift_ppm``); a host clock slewed hard
  by NTP, or a board clock that jumps, breaks it.

The fit is least squares over a sliding window of recent samples, keeping the
half with the shortest round trips: a short round trip cannot hide a large
asymmetry, and USB latency spikes only ever lengthen it.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass

from firmware_bridge.errors import BridgeError

__all__ = ["SyncSample", "ClockFit", "ClockSync", "NotSyncedError"]

NS_PER_US = 1000


class NotSyncedError(BridgeError, RuntimeError):
    """A board time was to be mapped before any clock-sync sample arrived."""


@dataclass(frozen=True, slots=True)
class SyncSample:
    """One ping-pong: host times in ns (``CLOCK_MONOTONIC``), board times in µs."""

    host_tx_ns: int
    mcu_rx_us: int
    mcu_tx_us: int
    host_rx_ns: int

    @property
    def rtt_ns(self) -> int:
        """The round trip without the board's turnaround (never below 0)."""
        return max(0, (self.host_rx_ns - self.host_tx_ns) - (self.mcu_tx_us - self.mcu_rx_us) * NS_PER_US)

    @property
    def host_mid_ns(self) -> float:
        return (self.host_tx_ns + self.host_rx_ns) / 2

    @property
    def mcu_mid_us(self) -> float:
        return (self.mcu_rx_us + self.mcu_tx_us) / 2


@dataclass(frozen=True, slots=True)
class ClockFit:
    """A fitted line from board µs to host ns, with what is needed to state its error.

    >>> fit = ClockFit(mcu_ref_us=1_000, host_ref_ns=5_000_000.0, ns_per_us=1000.05, residual_ns=80.0,
    ...                samples=2, mcu_mean_us=1_000.0, sxx=1e12, floor_ns=20_000,
    ...                anchors=((0.0, 300_000.0), (2_000.0, 500_000.0)), max_drift_ppm=200.0)
    >>> fit.to_host_ns(2_000), round(fit.drift_ppm, 1)
    (6000050, -50.0)
    >>> fit.bound_ns(1_000)  # at the samples' mean board time: the mean of their half round trips
    420000
    """

    mcu_ref_us: int
    host_ref_ns: float
    ns_per_us: float
    residual_ns: float
    """RMS residual of the samples used, ns."""
    samples: int
    """How many samples the fit used."""
    mcu_mean_us: float
    sxx: float
    """Sum of squared deviations of the samples' board times (µs²); 0 when the slope was not fitted."""
    floor_ns: int
    anchors: tuple[tuple[float, float], ...]
    """Per sample used: its board midpoint (µs) and how far its host midpoint can be off (ns), at most."""
    max_drift_ppm: float
    """The most the clocks' rates may differ while the slope is nominal (it bounds what that costs)."""

    @property
    def drift_ppm(self) -> float:
        """How much faster the board's clock runs than the host's, in parts per million (negative: slower)."""
        return (NS_PER_US / self.ns_per_us - 1) * 1e6

    def to_host_ns(self, mcu_us: int) -> int:
        """The host monotonic time (ns) of board time ``mcu_us``."""
        return int(round(self.host_ref_ns + self.ns_per_us * (mcu_us - self.mcu_ref_us)))

    def error_ns(self, mcu_us: int) -> int:
        """The half-width of the mapped time's uncertainty (about 95 %), ns."""
        n = max(self.samples, 1)
        spread = 1.0 / n
        if self.sxx > 0:
            spread += (mcu_us - self.mcu_mean_us) ** 2 / self.sxx
        return self.floor_ns + int(math.ceil(2 * self.residual_ns * math.sqrt(spread)))

    def bound_ns(self, mcu_us: int) -> int:
        """The most the mapped time of ``mcu_us`` can be off, ns: a worst case, not a statistic.

        The fitted time is ``sum(c_i * y_i)`` over the samples' host midpoints
        ``y_i``, with least-squares weights ``c_i`` that depend only on the board
        times; those weights reproduce any straight line exactly, so the error is
        ``sum(c_i * e_i)``, where ``e_i`` is how far midpoint i is off (at most its
        anchor's half-width). With the nominal slope, an unknown drift of up to
        :attr:`max_drift_ppm` adds its slope error times the distance from the
        samples' mean. The floor (interrupt latency, the event's own tick) is added
        as in :meth:`error_ns`. See the module's glossary for when it holds.
        """
        n = len(self.anchors)
        if n == 0:
            raise ValueError("a fit without anchors (its samples' round trips) cannot bound its error")
        worst = 0.0
        for mcu_mid_us, half_ns in self.anchors:
            weight = 1.0 / n
            if self.sxx > 0:
                weight += (mcu_us - self.mcu_mean_us) * (mcu_mid_us - self.mcu_mean_us) / self.sxx
            worst += abs(weight) * half_ns
        if self.sxx <= 0:
            worst += _slope_error_ns_per_us(self.max_drift_ppm) * abs(mcu_us - self.mcu_mean_us)
        return self.floor_ns + int(math.ceil(worst))


def _slope_error_ns_per_us(max_drift_ppm: float) -> float:
    """How far the true ns-per-µs can be from the nominal 1000 when the rates differ by ``max_drift_ppm``."""
    drift = max_drift_ppm * 1e-6
    return NS_PER_US * drift / (1 - drift)


class ClockSync:
    """Collects ping-pong samples and fits the board-to-host clock mapping.

    ``window`` samples are kept; the ``keep`` fraction with the shortest round
    trips is fitted. The slope is fitted once the kept samples span
    ``min_span_s`` seconds of board time, before that it is nominal (1000 ns per µs).
    ``max_drift_ppm`` is the most the board's and the host's clock rates can differ
    (crystals are specified to tens of ppm); only :meth:`ClockFit.bound_ns` uses it.
    """

    def __init__(self, *, window: int = 128, keep: float = 0.25, min_samples: int = 4,
                 min_span_s: float = 2.0, floor_ns: int = 20_000, max_drift_ppm: float = 200.0) -> None:
        if not 0 < keep <= 1:
            raise ValueError(f"keep must be in (0, 1], not {keep!r}")
        if not 0 <= max_drift_ppm < 1e6:
            raise ValueError(f"max_drift_ppm must be in [0, 1e6), not {max_drift_ppm!r}")
        if window < min_samples or min_samples < 1:
            raise ValueError(f"need window ({window}) >= min_samples ({min_samples}) >= 1")
        self.window = window
        self.keep = keep
        self.min_samples = min_samples
        self.min_span_s = min_span_s
        self.floor_ns = floor_ns
        self.max_drift_ppm = max_drift_ppm
        self._samples: deque[SyncSample] = deque(maxlen=window)
        self._fit: ClockFit | None = None

    def reset(self) -> None:
        """Forgets every sample (the board rebooted: its clock started again)."""
        self._samples.clear()
        self._fit = None

    def add(self, sample: SyncSample) -> ClockFit | None:
        """Adds one ping-pong and refits; returns the new fit (None while too few samples)."""
        self._samples.append(sample)
        self._fit = self._compute() if len(self._samples) >= self.min_samples else None
        return self._fit

    @property
    def fit(self) -> ClockFit | None:
        """The current fit, or None before :attr:`min_samples` samples."""
        return self._fit

    @property
    def synced(self) -> bool:
        return self._fit is not None

    @property
    def sample_count(self) -> int:
        return len(self._samples)

    @property
    def min_rtt_ns(self) -> int | None:
        return min((s.rtt_ns for s in self._samples), default=None)

    def to_host(self, mcu_us: int) -> tuple[int, int]:
        """Returns ``(t_ns, t_err_ns)`` for board time ``mcu_us``.

        Raises :class:`NotSyncedError` before the first fit.
        """
        fit = self._fit
        if fit is None:
            raise NotSyncedError(f"no clock fit yet ({len(self._samples)} of {self.min_samples} samples)")
        return fit.to_host_ns(mcu_us), fit.error_ns(mcu_us)

    def bound_ns(self, mcu_us: int) -> int:
        """The most the time :meth:`to_host` maps ``mcu_us`` to can be off (:meth:`ClockFit.bound_ns`)."""
        fit = self._fit
        if fit is None:
            raise NotSyncedError(f"no clock fit yet ({len(self._samples)} of {self.min_samples} samples)")
        return fit.bound_ns(mcu_us)

    def _half_width_ns(self, sample: SyncSample) -> float:
        """How far the sample's host midpoint can be from the host time of its board midpoint.

        Half the round trip, where the board's turnaround counts at the true rate
        (up to ``max_drift_ppm`` off nominal), plus one tick: a board reading of
        ``k`` µs was taken up to 1 µs after the clock reached ``k``.
        """
        slope_error = _slope_error_ns_per_us(self.max_drift_ppm)
        turnaround_us = max(0, sample.mcu_tx_us - sample.mcu_rx_us)
        return (sample.rtt_ns + slope_error * turnaround_us) / 2 + NS_PER_US + slope_error

    def _compute(self) -> ClockFit:
        # Shortest round trips first; among equals, the newest (the line must reach the present).
        newest_first = list(reversed(self._samples))
        ordered = sorted(newest_first, key=lambda s: s.rtt_ns)
        count = max(min(self.min_samples, len(ordered)), int(math.ceil(len(ordered) * self.keep)))
        used = ordered[:count]
        ref = self._samples[-1].mcu_rx_us
        xs = [s.mcu_mid_us - ref for s in used]
        ys = [s.host_mid_ns for s in used]
        n = len(used)
        x_mean = sum(xs) / n
        y_mean = sum(ys) / n
        sxx = sum((x - x_mean) ** 2 for x in xs)
        span_us = max(xs) - min(xs)
        if n >= 3 and span_us >= self.min_span_s * 1e6 and sxx > 0:
            slope = sum((x - x_mean) * (y - y_mean) for x, y in zip(xs, ys, strict=True)) / sxx
            dof = n - 2
        else:
            slope = float(NS_PER_US)
            sxx = 0.0
            dof = n - 1
        intercept = y_mean - slope * x_mean
        ssr = sum((y - (intercept + slope * x)) ** 2 for x, y in zip(xs, ys, strict=True))
        residual = math.sqrt(ssr / dof) if dof > 0 else max(s.rtt_ns for s in used) / 2
        return ClockFit(
            mcu_ref_us=ref,
            host_ref_ns=intercept,
            ns_per_us=slope,
            residual_ns=residual,
            samples=n,
            mcu_mean_us=x_mean + ref,
            sxx=sxx,
            floor_ns=self.floor_ns,
            anchors=tuple((s.mcu_mid_us, self._half_width_ns(s)) for s in used),
            max_drift_ppm=self.max_drift_ppm,
        )
